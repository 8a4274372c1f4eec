//! `Facts::builder(role)`: the typed path for a role (mode) chosen at run time. Each fact of
//! the manifest has a typed setter; `build()` checks the set against the role, with an error
//! value naming a required fact not given or a fact the role does not take. (A role known
//! when the code is written uses its own struct, where either mistake does not compile.)

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::facts::{absent_list, field_type};
use super::{lit, variant};
use crate::codegen::model::{Doctrine, Fact, Need};
use crate::codegen::names::camel;

pub(super) fn builder(d: &Doctrine) -> TokenStream {
    if d.roles.is_empty() || d.facts.is_empty() {
        return TokenStream::new();
    }
    let (krate, role_ty, word) = (d.krate(), d.role_type(), d.role_word);
    let names: Vec<_> = d
        .facts
        .iter()
        .map(|f| format_ident!("{}", f.name))
        .collect();
    let types: Vec<_> = d
        .facts
        .iter()
        .map(|f| field_type(&krate, f, Need::Required))
        .collect();
    let setters = d
        .facts
        .iter()
        .zip(&names)
        .zip(&types)
        .map(|((f, name), ty)| {
            let method = format_ident!("with_{}", f.name);
            let doc = format!(
                "Gives fact `{}` (`build` checks the {word} takes it).",
                f.name
            );
            quote! {
                #[doc = #doc]
                #[must_use]
                pub fn #method(mut self, #name: #ty) -> Self {
                    self.#name = ::core::option::Option::Some(#name);
                    self
                }
            }
        });
    let arms = (0..d.roles.len()).map(|r| build_arm(d, r));
    let doc = format!(
        "The facts of a {word} chosen at run time, given one by one; see [`Facts::builder`]."
    );
    let builder_doc = format!(
        "Starts the facts of `{word}`, chosen at run time: give each fact with its typed `with_<fact>` setter, then `build()`, which returns an error naming a required fact not given or a fact the {word} does not take."
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug)]
        #[must_use = "call `.build()` to check the facts against the role"]
        pub struct FactsBuilder<'a> {
            __role: #role_ty,
            #(#names: ::core::option::Option<#types>,)*
            __borrow: ::core::marker::PhantomData<&'a ()>,
        }

        impl<'a> Facts<'a> {
            #[doc = #builder_doc]
            pub fn builder(role: #role_ty) -> FactsBuilder<'a> {
                FactsBuilder {
                    __role: role,
                    #(#names: ::core::option::Option::None,)*
                    __borrow: ::core::marker::PhantomData,
                }
            }
        }

        impl<'a> FactsBuilder<'a> {
            #(#setters)*

            /// The facts, checked against the role: a required fact not given is
            /// `FactError::Missing`, a fact the role does not take `FactError::NotTaken`.
            pub fn build(self) -> ::core::result::Result<Facts<'a>, #krate::FactError> {
                ::core::result::Result::Ok(match self.__role { #(#arms)* })
            }
        }
    }
}

// The builder's own fields start with `__`, which no fact name can.

/// `build`'s arm for role `r`: its struct from the given facts, or the first error.
fn build_arm(d: &Doctrine, r: usize) -> TokenStream {
    let krate = d.krate();
    let (role_ty, who) = (d.role_type(), &d.roles[r]);
    let v = variant(who);
    let ty = format_ident!("{}Facts", camel(who));
    let takes: Vec<_> = d
        .facts
        .iter()
        .filter(|f| f.need[r] != Need::Absent)
        .map(|f| lit(&f.name))
        .collect();
    let refused = d
        .facts
        .iter()
        .filter(|f| f.need[r] == Need::Absent)
        .map(|f| {
            let (name, fact) = (format_ident!("{}", f.name), lit(&f.name));
            quote! {
                if self.#name.is_some() {
                    return ::core::result::Result::Err(#krate::FactError::NotTaken {
                        role: #who,
                        fact: ::std::string::ToString::to_string(#fact),
                        takes: &[#(#takes),*],
                    });
                }
            }
        });
    let inits = d
        .facts
        .iter()
        .filter(|f| f.need[r] != Need::Absent)
        .map(|f| init(d, f, f.need[r], who));
    quote! {
        #role_ty::#v => {
            #(#refused)*
            Facts::#v(#ty { #(#inits,)* })
        }
    }
}

/// A field of the role's struct from what was given.
fn init(d: &Doctrine, f: &Fact, need: Need, who: &str) -> TokenStream {
    let krate = d.krate();
    let (name, fact) = (format_ident!("{}", f.name), lit(&f.name));
    match need {
        Need::Required => quote! {
            #name: match self.#name {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => {
                    return ::core::result::Result::Err(#krate::FactError::Missing { role: #who, fact: #fact })
                }
            }
        },
        _ if f.list.is_some() => {
            let absent = absent_list(d, f);
            quote! { #name: ::core::option::Option::unwrap_or(self.#name, #absent) }
        }
        _ => quote! { #name: self.#name },
    }
}

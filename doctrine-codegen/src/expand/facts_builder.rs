//! `Facts::builder(role)`: the typed path for a role (mode) chosen at run time. Each fact of
//! the manifest has a typed setter; `build()` checks the set against the role, with an error
//! value naming a required fact not given or a fact the role does not take. (A role known
//! when the code is written uses its own struct, where either mistake does not compile.)

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::facts_struct::{absent_list, field_type};
use super::{lit, variant};
use crate::model::{Doctrine, Fact, Need};
use crate::names::camel;

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
    let given = names.iter().map(|n| quote! { self.#n.is_some() });
    let (r, f) = (d.roles.len(), d.facts.len());
    // Which facts each role takes, for the check that none is given to a role that does not.
    let taken = (0..r).map(|r| {
        let row = d.facts.iter().map(|f| f.need[r] != Need::Absent);
        quote! { [#(#row),*] }
    });
    let pv = d.private();
    let check = quote! {
        const TAKEN: [[bool; #f]; #r] = [#(#taken),*];
        let given = [#(#given),*];
        let r = self.__role as usize;
        #pv::taken(#role_ty::NAMES[r], (&given, &TAKEN[r]), &FACT_NAMES, Facts::takes(self.__role))?;
    };
    let doc = format!(
        "The facts of a {word} chosen at run time, given one by one; see [`Facts::builder`]."
    );
    let builder_doc = format!(
        "Starts the facts of `{word}`, chosen at run time: give each fact with its typed `with_<fact>` setter, then `build()`, which returns an error naming a fact the {word} does not take or a required fact not given."
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
            pub fn build(self) -> ::core::result::Result<Facts<'a>, #krate::input::FactError> {
                #check
                ::core::result::Result::Ok(match self.__role { #(#arms)* })
            }
        }
    }
}

// The builder's own fields start with `__`, which no fact name can.

/// `build`'s arm for role `r`: its struct from the given facts, a required one missing
/// being an error.
fn build_arm(d: &Doctrine, r: usize) -> TokenStream {
    let (role_ty, who) = (d.role_type(), &d.roles[r]);
    let v = variant(who);
    let ty = format_ident!("{}Facts", camel(who));
    let inits = d
        .facts
        .iter()
        .filter(|f| f.need[r] != Need::Absent)
        .map(|f| init(d, f, f.need[r], who));
    quote! { #role_ty::#v => Facts::#v(#ty { #(#inits,)* }), }
}

/// A field of the role's struct from what was given.
fn init(d: &Doctrine, f: &Fact, need: Need, who: &str) -> TokenStream {
    let pv = d.private();
    let (name, fact) = (format_ident!("{}", f.name), lit(&f.name));
    match need {
        Need::Required => quote! { #name: #pv::need(self.#name, #who, #fact)? },
        _ if f.list.is_some() => {
            let absent = absent_list(d, f);
            quote! { #name: ::core::option::Option::unwrap_or(self.#name, #absent) }
        }
        _ => quote! { #name: self.#name },
    }
}

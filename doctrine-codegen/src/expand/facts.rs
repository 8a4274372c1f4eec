//! Typed facts: one struct per role (mode) whose fields are exactly the facts it takes,
//! required ones plain and optional ones `Option`, and a `Facts` enum over them.
//! Omitting a required fact, or giving one the role does not take, does not compile.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::facts_struct::{absent_list, field_type, list_styles, lists_type, shape, Shape};
use super::types::choice_enum;
use super::{lit, variant};
use crate::model::{Doctrine, Need};
use crate::names::camel;

pub(super) fn facts(d: &Doctrine) -> TokenStream {
    let krate = d.krate();
    if d.facts.is_empty() {
        return TokenStream::new();
    }
    let enums = d.facts.iter().filter_map(|f| {
        let (enum_name, values) = f.values.as_ref()?;
        let doc = format!(
            "The values of fact `{}` in `{}`.",
            f.name, d.manifest_display
        );
        Some(choice_enum(
            &krate,
            &format_ident!("{}", enum_name),
            &f.name,
            values,
            &doc,
            None,
        ))
    });
    let names = d.facts.iter().map(|f| lit(&f.name));
    let count = d.facts.len();
    let body = if d.roles.is_empty() {
        single(d)
    } else {
        per_role(d)
    };
    let items = super::items::item_structs(d);
    let builder = super::facts_builder::builder(d);
    quote! {
        #(#enums)*
        #items
        #body
        #builder
        /// Every declared fact's name, in manifest order.
        pub const FACT_NAMES: [&str; #count] = [#(#names),*];
    }
}

/// No roles declared: one `Facts` struct for the prompt.
fn single(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let s = shape(d, 0, format_ident!("Facts"), "the prompt");
    let (def, values, from_slots, count) = (&s.def, &s.values, &s.from_slots, d.facts.len());
    let (values_bind, lists_bind, slots_bind) = (&s.values_bind, &s.lists_bind, &s.slots_bind);
    let (lists, list_count, lists_ty) =
        (&s.lists, d.list_count(), lists_type(d, TokenStream::new()));
    let styles = list_styles(d);
    let list_names = list_names(d);
    // Only for manifests with list facts: nothing else calls it.
    let lists_fn = (list_count > 0).then(|| {
        quote! {
            #[doc(hidden)]
            pub fn __lists(&self) -> #lists_ty {
                #styles
                let #lists_bind = self;
                #lists
            }
        }
    });
    let takes = s.takes.iter().map(|t| lit(t));
    let generics = if s.borrows {
        quote! { <'a> }
    } else {
        TokenStream::new()
    };
    quote! {
        #def
        impl<'a> Facts #generics {
            /// Builds the facts from `(name, value)` pairs, e.g. a command line.
            pub fn from_pairs(pairs: impl ::core::iter::IntoIterator<Item = (&'a str, &'a str)>) -> ::core::result::Result<Self, #krate::input::FactError> {
                let #slots_bind: [::core::option::Option<&'a str>; #count] = #pv::collect("the prompt", &FACT_NAMES, &[#(#takes),*], &[#(#list_names),*], pairs)?;
                ::core::result::Result::Ok(#from_slots)
            }

            #[doc(hidden)]
            pub fn __values(&self) -> [::core::option::Option<&'a str>; #count] {
                let #values_bind = self;
                #values
            }

            #lists_fn
        }
    }
}

/// Roles declared: a struct per role and `enum Facts` over them.
fn per_role(d: &Doctrine) -> TokenStream {
    let roles = Roles::new(d);
    let defs = roles.shapes.iter().map(|s| &s.def);
    let facts_enum = roles.facts_enum();
    let role_alone = roles.role_alone();
    let setters = roles.list_setters();
    let methods = roles.methods();
    quote! {
        #(#defs)*

        #facts_enum
        #role_alone

        impl<'a> Facts<'a> {
            #(#setters)*
            #methods
        }
    }
}

/// What every part of `enum Facts` reads: the roles' structs and variants.
struct Roles<'d> {
    d: &'d Doctrine,
    shapes: Vec<Shape>,
    variants: Vec<Ident>,
    /// Each variant's payload type (`DeveloperFacts<'a>`, or without `'a`).
    tys: Vec<TokenStream>,
    /// The arm for the hidden variant that uses `'a` when no struct borrows.
    never_arm: Option<TokenStream>,
}

impl<'d> Roles<'d> {
    fn new(d: &'d Doctrine) -> Self {
        let shapes: Vec<Shape> = d
            .roles
            .iter()
            .enumerate()
            .map(|(r, name)| shape(d, r, format_ident!("{}Facts", camel(name)), name))
            .collect();
        let variants = d.roles.iter().map(|r| variant(r)).collect();
        let tys = shapes
            .iter()
            .map(|s| {
                let ty = &s.ty;
                if s.borrows {
                    quote! { #ty<'a> }
                } else {
                    quote! { #ty }
                }
            })
            .collect();
        let never_arm = (!shapes.iter().any(|s| s.borrows))
            .then(|| quote! { Facts::__Never(never, _) => match *never {}, });
        Roles {
            d,
            shapes,
            variants,
            tys,
            never_arm,
        }
    }

    /// `enum Facts` and a `From` of each role's struct.
    fn facts_enum(&self) -> TokenStream {
        let (variants, tys, word) = (&self.variants, &self.tys, self.d.role_word);
        // If no struct borrows, the enum still needs to use `'a`.
        let unused = self.never_arm.as_ref().map(|_| {
            quote! {
                #[doc(hidden)]
                __Never(::core::convert::Infallible, ::core::marker::PhantomData<&'a ()>),
            }
        });
        let froms = variants.iter().zip(tys).map(|(v, ty)| {
            quote! {
                #[automatically_derived]
                impl<'a> ::core::convert::From<#ty> for Facts<'a> {
                    fn from(facts: #ty) -> Self { Facts::#v(facts) }
                }
            }
        });
        let doc = format!("The facts of one {word}; the variant is the {word}.");
        let variant_docs = self
            .d
            .roles
            .iter()
            .map(|r| format!("The facts of {word} `{r}`."));
        quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub enum Facts<'a> {
                #(#[doc = #variant_docs] #variants(#tys),)*
                #unused
            }

            #(#froms)*
        }
    }

    /// With no required fact, a role alone is its facts (all absent).
    fn role_alone(&self) -> Option<TokenStream> {
        let d = self.d;
        if d.facts.iter().any(|f| f.need.contains(&Need::Required)) {
            return None;
        }
        let (role_ty, word) = (d.role_type(), d.role_word);
        let empty = self.shapes.iter().zip(&self.variants).enumerate();
        let empty = empty.map(|(r, (s, v))| {
            let ty = &s.ty;
            let inits = d
                .facts
                .iter()
                .filter(|f| f.need[r] != Need::Absent)
                .map(|f| {
                    let field = format_ident!("{}", f.name);
                    match &f.list {
                        Some(_) => {
                            let absent = absent_list(d, f);
                            quote! { #field: #absent }
                        }
                        None => quote! { #field: ::core::option::Option::None },
                    }
                });
            quote! { #role_ty::#v => Facts::#v(#ty { #(#inits,)* }), }
        });
        let doc = format!("A {word} alone: no {word} requires a fact, so every fact is absent.");
        Some(quote! {
            #[doc = #doc]
            #[automatically_derived]
            impl<'a> ::core::convert::From<#role_ty> for Facts<'a> {
                fn from(role: #role_ty) -> Self {
                    match role { #(#empty)* }
                }
            }
        })
    }

    /// A list cannot come through `from_pairs`; one every role takes can be set on the
    /// enum, whatever the role.
    fn list_setters(&self) -> impl Iterator<Item = TokenStream> + '_ {
        let (d, variants) = (self.d, &self.variants);
        let (krate, word) = (d.krate(), d.role_word);
        d.facts
            .iter()
            .filter(|f| f.list.is_some() && f.need.iter().all(|n| *n != Need::Absent))
            .map(move |f| {
                let (method, field) = (format_ident!("with_{}", f.name), format_ident!("{}", f.name));
                let ty = field_type(&krate, f, Need::Optional);
                let doc = format!(
                    "Gives list fact `{}`, which every {word} takes, whatever the {word} (a list cannot come through `from_pairs`).",
                    f.name
                );
                quote! {
                    #[doc = #doc]
                    #[must_use]
                    pub fn #method(self, #field: #ty) -> Self {
                        match self {
                            #(Facts::#variants(mut facts) => {
                                facts.#field = #field;
                                Facts::#variants(facts)
                            })*
                        }
                    }
                }
            })
    }

    /// `role`, `takes`, `from_pairs`, and the hidden `__values` and `__lists` composition
    /// reads.
    fn methods(&self) -> TokenStream {
        let (d, variants, never_arm) = (self.d, &self.variants, &self.never_arm);
        let (krate, pv, role_ty) = (d.krate(), d.private(), d.role_type());
        let count = d.facts.len();
        let arms = self.shapes.iter().zip(variants);
        let values = arms.clone().map(|(s, v)| {
            let (values, bind) = (&s.values, &s.values_bind);
            quote! { Facts::#v(#bind) => #values, }
        });
        let list_names: Vec<proc_macro2::Literal> = list_names(d).collect();
        let lists = arms.clone().map(|(s, v)| {
            let (lists, bind) = (&s.lists, &s.lists_bind);
            quote! { Facts::#v(#bind) => #lists, }
        });
        let (list_count, lists_ty, styles) = (
            d.list_count(),
            lists_type(d, TokenStream::new()),
            list_styles(d),
        );
        let lists_fn = (list_count > 0).then(|| {
            quote! {
                #[doc(hidden)]
                pub fn __lists(&self) -> #lists_ty {
                    #styles
                    match self {
                        #(#lists)*
                        #never_arm
                    }
                }
            }
        });
        // The pairs are collected once, before the role's arm: collected in each arm, the
        // generic call and its `?` cost rustc about 100 KB per role.
        let from_slots = arms.clone().map(|(s, v)| {
            let build = &s.from_slots;
            quote! { #role_ty::#v => Facts::#v(#build), }
        });
        let slots_bind = match self.shapes.iter().any(|s| s.reads_slots) {
            true => quote! { slots },
            false => quote! { _ },
        };
        // A table, not a `match`: an arm per role of the same list.
        let (r, takes) = (
            d.roles.len(),
            arms.map(|(s, _)| s.takes.iter().map(|t| lit(t))),
        );
        let takes = takes.map(|t| quote! { &[#(#t),*] });
        quote! {
            /// The role (mode) these facts are for.
            pub fn role(&self) -> #role_ty {
                match self {
                    #(Facts::#variants(_) => #role_ty::#variants,)*
                    #never_arm
                }
            }

            /// The facts `role` takes from `from_pairs`, required and optional, in manifest order
            /// (a list fact is set on the struct instead).
            pub fn takes(role: #role_ty) -> &'static [&'static str] {
                const TAKES: [&[&str]; #r] = [#(#takes),*];
                TAKES[role as usize]
            }

            /// Builds the facts of `role` from `(name, value)` pairs, e.g. a command line:
            /// a missing required fact, a fact the role does not take, or a value outside
            /// a fact's closed set is an error naming it.
            pub fn from_pairs(role: #role_ty, pairs: impl ::core::iter::IntoIterator<Item = (&'a str, &'a str)>) -> ::core::result::Result<Self, #krate::input::FactError> {
                let #slots_bind: [::core::option::Option<&'a str>; #count] = #pv::collect(#role_ty::NAMES[role as usize], &FACT_NAMES, Facts::takes(role), &[#(#list_names),*], pairs)?;
                ::core::result::Result::Ok(match role { #(#from_slots)* })
            }

            #[doc(hidden)]
            pub fn __values(&self) -> [::core::option::Option<&'a str>; #count] {
                match self {
                    #(#values)*
                    #never_arm
                }
            }

            #lists_fn
        }
    }
}

/// The names of the list facts, which pairs cannot give.
fn list_names(d: &Doctrine) -> impl Iterator<Item = proc_macro2::Literal> + Clone + '_ {
    d.facts
        .iter()
        .filter(|f| f.list.is_some())
        .map(|f| lit(&f.name))
}

//! The closed sets and structs: `Role`, `Flag`/`Flags`, knob enums and `Knobs`, directory
//! choices.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::{field_eq, lit, variant};
use crate::model::{Content, Doctrine};

/// A closed set: enum, `ALL`, `NAMES`, `as_str`, `Choice`, `FromStr`, `Display`.
pub(super) fn choice_enum(
    krate: &TokenStream,
    ty: &Ident,
    kind: &str,
    values: &[String],
    doc: &str,
    default: Option<usize>,
) -> TokenStream {
    let variants: Vec<Ident> = values.iter().map(|v| variant(v)).collect();
    named_enum(krate, ty, kind, values, variants, doc, default)
}

/// [`choice_enum`] with the variants' identifiers given (a `dir` layer's, from its stems).
fn named_enum(
    krate: &TokenStream,
    ty: &Ident,
    kind: &str,
    values: &[String],
    variants: Vec<Ident>,
    doc: &str,
    default: Option<usize>,
) -> TokenStream {
    let names = values.iter().map(|v| lit(v));
    let names2 = names.clone();
    // `Debug` prints the variant's name from an array: the derive matches every variant to
    // its own string, which rustc checks in memory growing with the square of the variants
    // (2.6 GB for 10,000 flags).
    let idents = variants.iter().map(|v| lit(&v.to_string()));
    let default = default.map(|i| {
        let v = &variants[i];
        quote! {
            #[automatically_derived]
            impl ::core::default::Default for #ty {
                fn default() -> Self { #ty::#v }
            }
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum #ty { #(#[doc = #names] #variants,)* }

        impl #ty {
            /// Every value, in manifest order.
            pub const ALL: &'static [#ty] = &[#(#ty::#variants),*];
            /// Every value's name, in the order of `ALL`.
            pub const NAMES: &'static [&'static str] = &[#(#names2),*];

            /// The name as written in the manifest.
            pub const fn as_str(self) -> &'static str {
                Self::NAMES[self as usize]
            }
        }

        #krate::__choice_impls!(#ty, #kind, [#(#idents),*]);

        #default
    }
}

pub(super) fn roles(d: &Doctrine) -> TokenStream {
    let krate = d.krate();
    if d.roles.is_empty() {
        return TokenStream::new();
    }
    let doc = format!("The {}s declared in `{}`.", d.role_word, d.manifest_display);
    choice_enum(&krate, &d.role_type(), d.role_word, &d.roles, &doc, None)
}

pub(super) fn flags(d: &Doctrine) -> TokenStream {
    let krate = d.krate();
    let names: Vec<String> = d.flags.iter().map(|f| f.name.clone()).collect();
    let doc = format!("The flags declared in `{}`.", d.manifest_display);
    let flag_enum = choice_enum(&krate, &format_ident!("Flag"), "flag", &names, &doc, None);
    let fields: Vec<Ident> = d
        .flags
        .iter()
        .map(|f| format_ident!("{}", f.name))
        .collect();
    let variants: Vec<Ident> = d.flags.iter().map(|f| variant(&f.name)).collect();
    let (derive_eq, eq) = field_eq(&format_ident!("Flags"), &TokenStream::new(), &fields);
    // With no flag, `on` has nowhere to go (and `Flag` has no value to match).
    let no_flags = d.flags.is_empty().then(|| quote! { let _ = on; });
    let defaults = d.flags.iter().map(|f| f.default);
    let docs = d
        .flags
        .iter()
        .map(|f| format!("Flag `{}` (default {}).", f.name, f.default));
    quote! {
        #flag_enum

        /// Which flags are on. `Default` gives the manifest's defaults.
        #[derive(Clone, Copy, Debug, #derive_eq Eq, Hash)]
        pub struct Flags { #(#[doc = #docs] pub #fields: bool,)* }

        #eq

        #[automatically_derived]
        impl ::core::default::Default for Flags {
            fn default() -> Self { Flags { #(#fields: #defaults,)* } }
        }

        impl Flags {
            /// Whether `flag` is on.
            pub const fn get(&self, flag: Flag) -> bool {
                match flag { #(Flag::#variants => self.#fields,)* }
            }
            /// Turns `flag` on or off.
            pub fn set(&mut self, flag: Flag, on: bool) {
                #no_flags
                match flag { #(Flag::#variants => self.#fields = on,)* }
            }
            /// These flags with `flag` turned on or off.
            pub fn with(mut self, flag: Flag, on: bool) -> Self {
                self.set(flag, on);
                self
            }
        }

        /// Parses a comma-separated list of the flags that are on (`""` turns all off).
        #[automatically_derived]
        impl ::core::str::FromStr for Flags {
            type Err = #krate::input::ParseChoiceError;
            fn from_str(s: &str) -> ::core::result::Result<Self, #krate::input::ParseChoiceError> {
                let mut flags = Flags { #(#fields: false,)* };
                for name in s.split(',') {
                    let name = name.trim();
                    if !name.is_empty() {
                        flags.set(<Flag as #krate::Choice>::parse(name)?, true);
                    }
                }
                ::core::result::Result::Ok(flags)
            }
        }

        /// The flags that are on, comma-separated: the form `FromStr` reads back.
        #[automatically_derived]
        impl ::core::fmt::Display for Flags {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut first = true;
                for &flag in Flag::ALL {
                    if self.get(flag) {
                        if !first {
                            f.write_str(",")?;
                        }
                        f.write_str(flag.as_str())?;
                        first = false;
                    }
                }
                ::core::result::Result::Ok(())
            }
        }
    }
}

pub(super) fn knobs(d: &Doctrine) -> TokenStream {
    let krate = d.krate();
    let enums = d.knobs.iter().map(|k| {
        let doc = format!(
            "Knob `{}` from `{}` (default `{}`).",
            k.name, d.manifest_display, k.values[k.default]
        );
        choice_enum(
            &krate,
            &format_ident!("{}", k.enum_name),
            &k.name,
            &k.values,
            &doc,
            Some(k.default),
        )
    });
    let fields: Vec<Ident> = d
        .knobs
        .iter()
        .map(|k| format_ident!("{}", k.name))
        .collect();
    let (derive_eq, eq) = field_eq(&format_ident!("Knobs"), &TokenStream::new(), &fields);
    let types = d.knobs.iter().map(|k| format_ident!("{}", k.enum_name));
    let docs = d.knobs.iter().map(|k| {
        format!(
            "Knob `{}`: one of {} (default `{}`).",
            k.name,
            k.values
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", "),
            k.values[k.default]
        )
    });
    quote! {
        #(#enums)*

        /// The value of every knob. `Default` gives the manifest's defaults.
        #[derive(Clone, Copy, Debug, Default, #derive_eq Eq, Hash)]
        pub struct Knobs { #(#[doc = #docs] pub #fields: #types,)* }

        #eq
    }
}

pub(super) fn choices(d: &Doctrine) -> TokenStream {
    let krate = d.krate();
    let enums = d.layers.iter().filter_map(|l| match &l.content {
        Content::Choice {
            enum_name,
            variants,
            ..
        } => {
            let values: Vec<String> = variants.iter().map(|c| c.stem.clone()).collect();
            let idents = variants
                .iter()
                .map(|c| format_ident!("{}", c.variant))
                .collect();
            let doc = format!("The files of layer `{}`'s directory, by stem.", l.name);
            Some(named_enum(
                &krate,
                &format_ident!("{}", enum_name),
                &l.name,
                &values,
                idents,
                &doc,
                None,
            ))
        }
        _ => None,
    });
    quote! { #(#enums)* }
}

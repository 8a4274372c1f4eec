//! `Selectors` (one `Option<&str>` per selector) and `Selection` (what they resolved to),
//! for a manifest with selector layers; nothing for one without.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::overlay::overlay_file;
use super::{field_eq, lit};
use crate::model::Doctrine;

pub(super) fn selectors(d: &Doctrine) -> TokenStream {
    if d.selectors().next().is_none() {
        return TokenStream::new();
    }
    let (krate, pv) = (d.krate(), d.private());
    let fields: Vec<_> = d
        .selectors()
        .map(|(_, s)| format_ident!("{}", s.name))
        .collect();
    let names: Vec<&str> = d.selectors().map(|(_, s)| s.name.as_str()).collect();
    let (derive_eq, eq) = field_eq(&format_ident!("Selectors"), &quote! { <'a> }, &fields);
    let docs = d.selectors().map(|(l, s)| {
        let follows = s
            .follows
            .map(|f| format!(" Unset (or blank), it follows `{}`.", names[f]))
            .unwrap_or_default();
        format!(
            "Selects layer `{}`: unset or an off word (`off`, `0`, `false`, `no`) leaves it \
             out; an on word (`on`, `1`, `true`, `yes`) takes the user's `{}` if usable, else \
             the shipped text; anything else is a path to read it from.{follows}",
            l.name,
            l.overlay.as_ref().map_or("", |o| o.file.as_str()),
        )
    });
    let specs = d.selectors().map(|(l, s)| {
        let file = match &l.overlay {
            Some(o) => overlay_file(d, l, o, true),
            // Not reached: validation gives every selector layer its file.
            None => {
                let layer = lit(&l.name);
                quote! { #pv::OverlayFile::of_selector("", #layer).capped(0) }
            }
        };
        let name = lit(&s.name);
        let follows = match s.follows {
            Some(f) => quote! { ::core::option::Option::Some(#f) },
            None => quote! { ::core::option::Option::None },
        };
        quote! { #pv::SelectorSpec { name: #name, follows: #follows, file: #file } }
    });
    quote! {
        /// The value of each selector, as the caller got it (an environment variable, a
        /// flag); `Default` leaves every one unset, which is off.
        #[derive(Clone, Copy, Debug, Default, #derive_eq Eq)]
        pub struct Selectors<'a> {
            #(#[doc = #docs] pub #fields: ::core::option::Option<&'a str>,)*
        }

        #eq

        impl<'a> Selectors<'a> {
            /// What the resolver is told about each selector, in manifest order.
            const SPECS: &'static [#pv::SelectorSpec] = &[#(#specs),*];

            /// Resolves every selector: reads the user's copy from `user_dir` (ONE
            /// directory, the user's configuration) for a selector that is `on`, the named
            /// file for a path, nothing for one that is off. Never fails: whatever cannot
            /// be used is a notice, and its layer falls back as the selector's rules say.
            pub fn resolve(&self, user_dir: impl ::core::convert::AsRef<::std::path::Path>) -> (Selection, ::std::vec::Vec<#krate::introspect::Notice>) {
                let (resolution, notices) = #pv::resolve_selectors(
                    &[#(self.#fields),*],
                    Self::SPECS,
                    ::core::convert::AsRef::as_ref(&user_dir),
                );
                (Selection(resolution), notices)
            }
        }

        /// What the selectors resolved to: give it to the builder with `.selection()`.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Selection(#pv::Resolution);

        impl Selection {
            /// Each selector's value, resolved source (`off`, `shipped`, `user copy`,
            /// `path`, `degraded`), bypassed legacy copies and refusals; `Display` writes
            /// it as text.
            pub fn doctor(&self) -> &#krate::introspect::Doctor {
                self.0.doctor()
            }
        }
    }
}

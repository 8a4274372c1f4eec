//! The closed sets and structs: `Role`, `Flag`/`Flags`, knob enums and `Knobs`, directory
//! choices, `Overlay`.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::{field_eq, lit, variant};
use crate::codegen::model::Override;
use crate::codegen::model::{Content, Doctrine, Layer, Overlay as OverlayModel};

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
    let eq = field_eq(&format_ident!("Flags"), &TokenStream::new(), &fields);
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
        #[derive(Clone, Copy, Debug, Eq, Hash)]
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
            type Err = #krate::ParseChoiceError;
            fn from_str(s: &str) -> ::core::result::Result<Self, #krate::ParseChoiceError> {
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
    let eq = field_eq(&format_ident!("Knobs"), &TokenStream::new(), &fields);
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
        #[derive(Clone, Copy, Debug, Default, Eq, Hash)]
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

pub(super) fn overlay(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let entries: Vec<(&Layer, &OverlayModel)> = d
        .layers
        .iter()
        .filter_map(|l| l.overlay.as_ref().map(|o| (l, o)))
        .collect();
    // A selector layer's file is in the spec (so the loader knows it), but it has no
    // field: its source is whatever its selector picks.
    let (selected, entries): (Vec<_>, Vec<_>) =
        entries.into_iter().partition(|(l, _)| l.selector.is_some());
    let fields: Vec<Ident> = entries
        .iter()
        .map(|(_, o)| format_ident!("{}", o.field))
        .collect();
    let names = entries.iter().map(|(_, o)| lit(&o.field));
    // `empty = "off"` layers: a flag per layer, set when its file was empty.
    let offs: Vec<(Ident, String)> = entries
        .iter()
        .filter(|(_, o)| o.empty_off)
        .map(|(l, o)| {
            let doc = format!(
                "Layer `{}` is left out: `Overlay::load` found `{}` empty (`empty = \"off\"`).",
                l.name, o.file
            );
            (format_ident!("{}_off", o.field), doc)
        })
        .collect();
    let (off_fields, off_docs): (Vec<&Ident>, Vec<&String>) =
        offs.iter().map(|(f, d)| (f, d)).unzip();
    let all_fields: Vec<Ident> = fields
        .iter()
        .chain(off_fields.iter().copied())
        .cloned()
        .collect();
    let eq = field_eq(&format_ident!("Overlay"), &TokenStream::new(), &all_fields);
    // Filling a field from what the loader read: an `empty = "off"` file read as `""`
    // also sets its flag.
    let fills = entries.iter().map(|(_, o)| {
        let field = format_ident!("{}", o.field);
        let off = o.empty_off.then(|| {
            let flag = format_ident!("{}_off", o.field);
            quote! { overlay.#flag = ::core::matches!(text.as_deref(), ::core::option::Option::Some("")); }
        });
        quote! {
            let text = ::core::iter::Iterator::next(&mut texts).flatten();
            #off
            overlay.#field = text.unwrap_or_default();
        }
    });
    // With no overlay field there is nothing to fill (and no unused bindings to leave).
    let fill_all = if entries.is_empty() {
        quote! {
            let _ = texts;
            let overlay = Overlay {};
        }
    } else {
        quote! {
            let mut texts = ::core::iter::IntoIterator::into_iter(texts);
            let mut overlay = <Overlay as ::core::default::Default>::default();
            #(#fills)*
        }
    };
    // Each file with its policy; the default one is `OverlayFile::new`.
    let files = entries.iter().map(|(l, o)| {
        let (file, layer) = (lit(&o.file), lit(&l.name));
        let default = o.cap == crate::runtime::overlay::DEFAULT_MAX_BYTES
            && !o.refuse_oversize
            && o.ignore.is_empty()
            && !o.empty_off;
        if default {
            return quote! { #krate::overlay::OverlayFile::new(#file, #layer) };
        }
        let (cap, refuse, off) = (o.cap, o.refuse_oversize, o.empty_off);
        let ignore = o.ignore.iter().map(|(size, fingerprint)| {
            quote! { #krate::overlay::Shipped { size: #size, fingerprint: #fingerprint } }
        });
        quote! {
            #krate::overlay::OverlayFile {
                file: #file,
                layer: #layer,
                cap: #cap,
                refuse_oversize: #refuse,
                ignore: &[#(#ignore),*],
                empty_off: #off,
                selected: false,
            }
        }
    });
    let selected = selected.iter().map(|(l, o)| {
        let (file, layer) = (lit(&o.file), lit(&l.name));
        quote! {
            #krate::overlay::OverlayFile { selected: true, ..#krate::overlay::OverlayFile::new(#file, #layer) }
        }
    });
    let files: Vec<TokenStream> = files.chain(selected).collect();
    let locked = d.layers.iter().filter(|l| l.locked).map(|l| lit(&l.name));
    let fixed = d
        .layers
        .iter()
        .filter(|l| !l.locked && l.overlay.is_none())
        .map(|l| lit(&l.name));
    let docs = entries.iter().map(|(l, o)| match o.mode {
        Override::Replace => format!(
            "Replaces layer `{}` when non-empty; `Overlay::load` fills it from `{}`.",
            l.name, o.file
        ),
        Override::Append => format!(
            "Appended to layer `{}` when non-empty; `Overlay::load` fills it from `{}`.",
            l.name, o.file
        ),
    });
    let overlay_doc = format!(
        "What a user may change: one field per overridable layer and none for any other, so \
         code that sets a locked layer does not compile. An empty field leaves the shipped text \
         intact. {}",
        super::table::locked_layers(d)
    );
    let with_cap = d.overlay_cap_max.map(|ceiling| {
        let doc = format!(
            "The most bytes [`Overlay::load_with_cap`] may cap a file at: {}.",
            match d.overlay_cap_max_declared {
                true => "the manifest's `overlay_cap_max`",
                false => "the smallest `overlay_cap` (the manifest sets no `overlay_cap_max`, so a caller's cap may lower every file's and raise none)",
            }
        );
        quote! {
            #[doc = #doc]
            pub const CAP_MAX: usize = #ceiling;

            /// As [`Overlay::load`], with every file capped at `cap` bytes instead of its
            /// own `overlay_cap` (a user's setting, say), up to [`Overlay::CAP_MAX`]; a cap
            /// above it is an error and nothing is read.
            pub fn load_with_cap(dir: impl ::core::convert::AsRef<::std::path::Path>, cap: usize) -> ::core::result::Result<(Self, ::std::vec::Vec<#krate::Notice>), #krate::overlay::OverlayCapError> {
                if cap > Self::CAP_MAX {
                    return ::core::result::Result::Err(#krate::overlay::OverlayCapError { cap, ceiling: Self::CAP_MAX });
                }
                let (texts, notices) = #pv::load_overlay_at(::core::convert::AsRef::as_ref(&dir), &Self::SPEC, cap);
                #fill_all
                ::core::result::Result::Ok((overlay, notices))
            }
        }
    });
    quote! {
        #[doc = #overlay_doc]
        #[derive(Clone, Debug, Default, Eq)]
        pub struct Overlay {
            #(#[doc = #docs] pub #fields: ::std::string::String,)*
            #(#[doc = #off_docs] pub #off_fields: bool,)*
        }

        #eq

        impl Overlay {
            /// The field names, in manifest order.
            pub const FIELDS: &'static [&'static str] = &[#(#names),*];

            /// The files an overlay directory may hold, and the names of the layers it may not reach.
            pub const SPEC: #krate::overlay::OverlaySpec = #krate::overlay::OverlaySpec {
                files: &[#(#files),*],
                locked: &[#(#locked),*],
                fixed: &[#(#fixed),*],
            };

            /// Reads the overlay from ONE directory (the user's configuration, never the
            /// workspace), each file capped at its `overlay_cap` (default
            /// `doctrine::overlay::DEFAULT_MAX_BYTES`). A missing directory gives an empty
            /// overlay and no notice; every file ignored, cut or refused gives a notice.
            pub fn load(dir: impl ::core::convert::AsRef<::std::path::Path>) -> (Self, ::std::vec::Vec<#krate::Notice>) {
                Self::load_capped(dir, usize::MAX)
            }

            /// As [`Overlay::load`], with every file's cap lowered to at most `max_bytes`.
            pub fn load_capped(dir: impl ::core::convert::AsRef<::std::path::Path>, max_bytes: usize) -> (Self, ::std::vec::Vec<#krate::Notice>) {
                let (texts, notices) = #pv::load_overlay(::core::convert::AsRef::as_ref(&dir), &Self::SPEC, max_bytes);
                #fill_all
                (overlay, notices)
            }

            #with_cap
        }
    }
}

//! `Overlay`: one field per overridable layer (none for a locked one), the `SPEC` the
//! runtime's loader reads, and `load` / `load_capped` / `load_with_cap`.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::lit;
use crate::model::Override;
use crate::model::{Doctrine, Layer, Overlay as OverlayModel};

/// The layers with an overlay file.
struct Entries<'d> {
    /// Those with a field.
    fields: Vec<(&'d Layer, &'d OverlayModel)>,
    /// A selector layer's file is in the spec (so the loader knows it), but it has no
    /// field: its source is whatever its selector picks.
    selected: Vec<(&'d Layer, &'d OverlayModel)>,
}

impl<'d> Entries<'d> {
    fn new(d: &'d Doctrine) -> Self {
        let (selected, fields) = d
            .layers
            .iter()
            .filter_map(|l| l.overlay.as_ref().map(|o| (l, o)))
            .partition(|(l, _)| l.selector.is_some());
        Entries { fields, selected }
    }
}

pub(super) fn overlay(d: &Doctrine) -> TokenStream {
    let e = Entries::new(d);
    let entries = &e.fields;
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
    let loaders = loaders(d, &e);
    let traits = traits(d, off_fields.len());
    let parts = parts(d, &fields, &off_fields);
    quote! {
        #[doc = #overlay_doc]
        pub struct Overlay {
            #(#[doc = #docs] pub #fields: ::std::string::String,)*
            #(#[doc = #off_docs] pub #off_fields: bool,)*
        }

        #traits

        impl Overlay {
            /// The field names, in manifest order.
            pub const FIELDS: &'static [&'static str] = &[#(#names),*];

            #parts
            #loaders
        }
    }
}

/// `Clone`, `Default`, `Debug`, `PartialEq` and `Eq`, each as its derive would behave, over
/// the fields as arrays: derived, each wrote a statement per field.
fn traits(d: &Doctrine, offs: usize) -> TokenStream {
    let pv = d.private();
    quote! {
        #[automatically_derived]
        impl ::core::clone::Clone for Overlay {
            fn clone(&self) -> Self {
                Self::__new(#pv::owned_texts(&self.__fields()), self.__offs())
            }
        }

        #[automatically_derived]
        impl ::core::default::Default for Overlay {
            fn default() -> Self {
                Self::__new(::std::vec::Vec::new(), [false; #offs])
            }
        }

        #[automatically_derived]
        impl ::core::fmt::Debug for Overlay {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                #pv::debug_struct(f, "Overlay", (Self::FIELDS, &self.__fields()), (&Self::__OFFS, &self.__offs()))
            }
        }

        #[automatically_derived]
        impl ::core::cmp::PartialEq for Overlay {
            fn eq(&self, other: &Self) -> bool {
                self.__fields() == other.__fields() && self.__offs() == other.__offs()
            }
        }

        #[automatically_derived]
        impl ::core::cmp::Eq for Overlay {}
    }
}

/// The fields as arrays and the struct from them: the texts (`__fields`), the `_off` flags
/// (`__offs`, named by `__OFFS`), and `__new` from texts as the loader gives them.
fn parts(d: &Doctrine, fields: &[Ident], offs: &[&Ident]) -> TokenStream {
    let pv = d.private();
    let (n, m) = (fields.len(), offs.len());
    let off_names = offs.iter().map(|f| lit(&f.to_string()));
    let at = 0..m;
    // With no field there is nothing to take from the texts (and no binding to leave unused).
    let texts =
        (n > 0).then(|| quote! { let mut texts = ::core::iter::IntoIterator::into_iter(texts); });
    let drop = (n == 0).then(|| quote! { let _ = texts; });
    let ignore = (m == 0).then(|| quote! { let _ = offs; });
    quote! {
        const __OFFS: [&'static str; #m] = [#(#off_names),*];

        fn __fields(&self) -> [&str; #n] {
            [#(self.#fields.as_str()),*]
        }

        fn __offs(&self) -> [bool; #m] {
            [#(self.#offs),*]
        }

        /// The overlay of `texts` (one per field, in order; `""` for those missing) and
        /// `offs` (the `_off` flags).
        fn __new(texts: ::std::vec::Vec<::core::option::Option<::std::string::String>>, offs: [bool; #m]) -> Self {
            #texts
            #drop
            #ignore
            Overlay {
                #(#fields: #pv::next_text(&mut texts),)*
                #(#offs: offs[#at],)*
            }
        }
    }
}

/// `SPEC` and the loaders that read a directory with it.
fn loaders(d: &Doctrine, e: &Entries<'_>) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let files = spec_files(d, e);
    let locked = d.layers.iter().filter(|l| l.locked).map(|l| lit(&l.name));
    let fixed = d
        .layers
        .iter()
        .filter(|l| !l.locked && l.overlay.is_none())
        .map(|l| lit(&l.name));
    let fill_all = fill_all(d, &e.fields);
    let with_cap = with_cap(d, &fill_all);
    quote! {
        /// The files an overlay directory may hold, and the names of the layers it may not reach.
        const SPEC: #pv::OverlaySpec = #pv::OverlaySpec {
            files: &[#(#files),*],
            locked: &[#(#locked),*],
            fixed: &[#(#fixed),*],
        };

        /// Reads the overlay from ONE directory (the user's configuration, never the
        /// workspace), each file capped at its `overlay_cap` (default
        /// `doctrine::input::limits::MAX_OVERLAY_BYTES`). A missing directory gives an empty
        /// overlay and no notice; every file ignored, cut or refused gives a notice.
        pub fn load(dir: impl ::core::convert::AsRef<::std::path::Path>) -> (Self, ::std::vec::Vec<#krate::introspect::Notice>) {
            Self::load_capped(dir, usize::MAX)
        }

        /// As [`Overlay::load`], with every file's cap lowered to at most `max_bytes`.
        pub fn load_capped(dir: impl ::core::convert::AsRef<::std::path::Path>, max_bytes: usize) -> (Self, ::std::vec::Vec<#krate::introspect::Notice>) {
            let (texts, notices) = #pv::load_overlay(::core::convert::AsRef::as_ref(&dir), &Self::SPEC, max_bytes);
            #fill_all
            (overlay, notices)
        }

        #with_cap
    }
}

/// Each file with its policy, the selector layers' last.
fn spec_files(d: &Doctrine, e: &Entries<'_>) -> Vec<TokenStream> {
    let files = e.fields.iter().map(|(l, o)| overlay_file(d, l, o, false));
    let selected = e.selected.iter().map(|(l, o)| overlay_file(d, l, o, true));
    files.chain(selected).collect()
}

/// Layer `l`'s file in the user's directory: `OverlayFile::new(file, layer)` (or
/// `of_selector` for a selector layer's), then what differs from the default policy.
pub(super) fn overlay_file(
    d: &Doctrine,
    l: &Layer,
    o: &OverlayModel,
    selected: bool,
) -> TokenStream {
    let pv = d.private();
    let (file, layer) = (lit(&o.file), lit(&l.name));
    let (new, default_cap) = match selected {
        true => (
            quote! { of_selector },
            doctrine_load::limits::MAX_SELECTOR_BYTES,
        ),
        false => (quote! { new }, doctrine_load::limits::MAX_OVERLAY_BYTES),
    };
    let mut policy = Vec::new();
    if o.cap != default_cap {
        let cap = o.cap;
        policy.push(quote! { .capped(#cap) });
    }
    if o.refuse_oversize {
        policy.push(quote! { .refusing_oversize() });
    }
    if !o.ignore.is_empty() {
        let ignore = o.ignore.iter().map(|(size, fingerprint)| {
            quote! { #pv::ShippedVersion { size: #size, fingerprint: #fingerprint } }
        });
        policy.push(quote! { .ignoring(&[#(#ignore),*]) });
    }
    if o.empty_off {
        policy.push(quote! { .empty_off() });
    }
    if !d.sanitize.is_none() {
        let clean = super::sanitize::clean(&pv, d.sanitize);
        policy.push(quote! { .sanitizing(#clean) });
    }
    if o.template.is_some() {
        let k = d
            .overlay_templates()
            .position(|(t, _)| std::ptr::eq(t, l))
            .unwrap_or_default();
        policy.push(quote! { .interpolating(&__doctrine::TEMPLATES[#k]) });
    }
    quote! { #pv::OverlayFile::#new(#file, #layer) #(#policy)* }
}

/// `TEMPLATES`, for the hidden module: what each user's template (`overlay_interpolate`)
/// may use, as the loader checks it and `State::with` renders it.
pub(super) fn template_specs(d: &Doctrine) -> Option<TokenStream> {
    let pv = d.private();
    let specs: Vec<TokenStream> = d
        .layers
        .iter()
        .filter_map(|l| crate::plan::template_spec(d, l))
        .map(|t| {
            let names = t.names.iter().map(|n| {
                let (name, value, later) = (n.name, n.value, n.later);
                let kind = format_ident!("{}", format!("{:?}", n.kind));
                let (keys, texts): (Vec<&str>, Vec<&str>) = n.values.iter().copied().unzip();
                quote! { #pv::TemplateName { name: #name, value: #value, kind: #pv::NameKind::#kind, later: #later, values: &[#((#keys, #texts)),*] } }
            });
            let (layer, file, jinja) = (t.layer, t.file, t.jinja);
            let dialect = format_ident!("{}", format!("{:?}", t.dialect));
            quote! {
                #pv::TemplateSpec { layer: #layer, file: #file, names: &[#(#names),*], dialect: #pv::Dialect::#dialect, jinja: #jinja }
            }
        })
        .collect();
    if specs.is_empty() {
        return None;
    }
    let n = specs.len();
    Some(quote! {
        /// What each user's template may use (`overlay_interpolate`).
        pub(super) const TEMPLATES: [#pv::TemplateSpec; #n] = [#(#specs),*];
    })
}

/// The overlay from what the loader read: an `empty = "off"` file read as `""` also sets
/// its flag.
fn fill_all(d: &Doctrine, entries: &[(&Layer, &OverlayModel)]) -> TokenStream {
    let pv = d.private();
    let offs = entries
        .iter()
        .enumerate()
        .filter(|(_, (_, o))| o.empty_off)
        .map(|(i, _)| i);
    quote! {
        let offs = #pv::read_empty(&texts, [#(#offs),*]);
        let overlay = Self::__new(texts, offs);
    }
}

/// `MAX_CAP_BYTES` and `load_with_cap`, when the manifest bounds a caller's cap.
fn with_cap(d: &Doctrine, fill_all: &TokenStream) -> Option<TokenStream> {
    let (krate, pv) = (d.krate(), d.private());
    let ceiling = d.overlay_cap_max?;
    let doc = format!(
        "The most bytes [`Overlay::load_with_cap`] may cap a file at: {}.",
        match d.overlay_cap_max_declared {
            true => "the manifest's `overlay_cap_max`",
            false => "the smallest `overlay_cap` (the manifest sets no `overlay_cap_max`, so a caller's cap may lower every file's and raise none)",
        }
    );
    Some(quote! {
        #[doc = #doc]
        pub const MAX_CAP_BYTES: usize = #ceiling;

        /// As [`Overlay::load`], with every file capped at `cap` bytes instead of its
        /// own `overlay_cap` (a user's setting, say), up to [`Overlay::MAX_CAP_BYTES`]; a cap
        /// above it is an error and nothing is read.
        pub fn load_with_cap(dir: impl ::core::convert::AsRef<::std::path::Path>, cap: usize) -> ::core::result::Result<(Self, ::std::vec::Vec<#krate::introspect::Notice>), #krate::input::OverlayCapError> {
            if cap > Self::MAX_CAP_BYTES {
                return ::core::result::Result::Err(#krate::input::OverlayCapError { cap, ceiling: Self::MAX_CAP_BYTES });
            }
            let (texts, notices) = #pv::load_overlay_at(::core::convert::AsRef::as_ref(&dir), &Self::SPEC, cap);
            #fill_all
            ::core::result::Result::Ok((overlay, notices))
        }
    })
}

//! [`Doctrine`] → the items one `doctrine!` invocation defines.
//!
//! Generated code names the runtime through `::doctrine`, the facade crate users depend on.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use crate::Tier;

use super::model::{Content, Doctrine, Layer, Segment};
use super::names::camel;
use super::raw::Override;

pub fn expand(d: &Doctrine) -> TokenStream {
    let tracking = tracking(d);
    let roles = roles(d);
    let flags = flags(d);
    let knobs = knobs(d);
    let choices = choices(d);
    let overlay = overlay(d);
    let texts = texts(d);
    let layers = layer_infos(d);
    let compose = compose(d);
    quote! {
        #tracking
        #roles
        #flags
        #knobs
        #choices
        #overlay
        #texts
        #layers
        #compose
    }
}

fn lit(s: &str) -> Literal {
    Literal::string(s)
}

fn variant(name: &str) -> Ident {
    format_ident!("{}", camel(name))
}

/// `include_bytes!` of every file read, in unused constants: cargo then rebuilds the
/// crate when one changes, and unused constants put no bytes in the binary.
fn tracking(d: &Doctrine) -> TokenStream {
    let paths = std::iter::once(&d.manifest)
        .chain(&d.tracked)
        .map(|p| lit(&p.to_string_lossy()));
    quote! { #(const _: &[u8] = ::core::include_bytes!(#paths);)* }
}

/// A closed set: enum, `ALL`, `NAMES`, `as_str`, `Choice`, `FromStr`, `Display`.
fn choice_enum(
    ty: &Ident,
    kind: &str,
    values: &[String],
    doc: &str,
    default: Option<usize>,
) -> TokenStream {
    let variants: Vec<Ident> = values.iter().map(|v| variant(v)).collect();
    let names = values.iter().map(|v| lit(v));
    let names2 = names.clone();
    let default = default.map(|i| {
        let v = &variants[i];
        quote! {
            impl ::core::default::Default for #ty {
                fn default() -> Self { #ty::#v }
            }
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

        impl ::doctrine::Choice for #ty {
            const KIND: &'static str = #kind;
            const ALL: &'static [Self] = #ty::ALL;
            const NAMES: &'static [&'static str] = #ty::NAMES;
            fn as_str(self) -> &'static str { #ty::as_str(self) }
        }

        impl ::core::str::FromStr for #ty {
            type Err = ::doctrine::ParseChoiceError;
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                <Self as ::doctrine::Choice>::parse(s)
            }
        }

        impl ::core::fmt::Display for #ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        #default
    }
}

fn roles(d: &Doctrine) -> TokenStream {
    if d.roles.is_empty() {
        return TokenStream::new();
    }
    let doc = format!("The roles declared in `{}`.", d.manifest_display);
    choice_enum(&format_ident!("Role"), "role", &d.roles, &doc, None)
}

fn flags(d: &Doctrine) -> TokenStream {
    let names: Vec<String> = d.flags.iter().map(|f| f.name.clone()).collect();
    let doc = format!("The flags declared in `{}`.", d.manifest_display);
    let flag_enum = choice_enum(&format_ident!("Flag"), "flag", &names, &doc, None);
    let fields: Vec<Ident> = d
        .flags
        .iter()
        .map(|f| format_ident!("{}", f.name))
        .collect();
    let variants: Vec<Ident> = d.flags.iter().map(|f| variant(&f.name)).collect();
    let defaults = d.flags.iter().map(|f| f.default);
    let docs = d
        .flags
        .iter()
        .map(|f| format!("Flag `{}` (default {}).", f.name, f.default));
    quote! {
        #flag_enum

        /// Which flags are on. `Default` gives the manifest's defaults.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Flags { #(#[doc = #docs] pub #fields: bool,)* }

        impl ::core::default::Default for Flags {
            fn default() -> Self { Flags { #(#fields: #defaults,)* } }
        }

        impl Flags {
            pub const fn get(&self, flag: Flag) -> bool {
                match flag { #(Flag::#variants => self.#fields,)* }
            }
            pub fn set(&mut self, flag: Flag, on: bool) {
                match flag { #(Flag::#variants => self.#fields = on,)* }
            }
            pub fn with(mut self, flag: Flag, on: bool) -> Self {
                self.set(flag, on);
                self
            }
        }

        /// Parses a comma-separated list of the flags that are on (`""` turns all off).
        impl ::core::str::FromStr for Flags {
            type Err = ::doctrine::ParseChoiceError;
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                let mut flags = Flags { #(#fields: false,)* };
                for name in s.split(',').map(::core::primitive::str::trim).filter(|n| !n.is_empty()) {
                    flags.set(<Flag as ::doctrine::Choice>::parse(name)?, true);
                }
                ::core::result::Result::Ok(flags)
            }
        }

        /// The flags that are on, comma-separated: the form `FromStr` reads back.
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

fn knobs(d: &Doctrine) -> TokenStream {
    let enums = d.knobs.iter().map(|k| {
        let doc = format!(
            "Knob `{}` from `{}` (default `{}`).",
            k.name, d.manifest_display, k.values[k.default]
        );
        choice_enum(
            &format_ident!("{}", k.enum_name),
            &k.name,
            &k.values,
            &doc,
            Some(k.default),
        )
    });
    let fields = d.knobs.iter().map(|k| format_ident!("{}", k.name));
    let types = d.knobs.iter().map(|k| format_ident!("{}", k.enum_name));
    quote! {
        #(#enums)*

        /// The value of every knob. `Default` gives the manifest's defaults.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Knobs { #(pub #fields: #types,)* }
    }
}

fn choices(d: &Doctrine) -> TokenStream {
    let enums = d.layers.iter().filter_map(|l| match &l.content {
        Content::Choice {
            enum_name,
            variants,
            ..
        } => {
            let values: Vec<String> = variants.iter().map(|(s, _)| s.clone()).collect();
            let doc = format!("The files of layer `{}`'s directory, by stem.", l.name);
            Some(choice_enum(
                &format_ident!("{}", enum_name),
                &l.name,
                &values,
                &doc,
                None,
            ))
        }
        _ => None,
    });
    quote! { #(#enums)* }
}

fn overlay(d: &Doctrine) -> TokenStream {
    let entries: Vec<(&Layer, &super::model::Overlay)> = d
        .layers
        .iter()
        .filter_map(|l| l.overlay.as_ref().map(|o| (l, o)))
        .collect();
    let fields: Vec<Ident> = entries
        .iter()
        .map(|(_, o)| format_ident!("{}", o.field))
        .collect();
    let names = entries.iter().map(|(_, o)| lit(&o.field));
    let docs = entries.iter().map(|(l, o)| match o.mode {
        Override::Replace => format!("Replaces layer `{}` when non-empty.", l.name),
        Override::Append => format!("Appended to layer `{}` when non-empty.", l.name),
    });
    quote! {
        /// What a user may change. One field per overridable layer and none for any
        /// other: locked layers cannot be reached from here. An empty field leaves the
        /// shipped text intact.
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct Overlay { #(#[doc = #docs] pub #fields: ::std::string::String,)* }

        impl Overlay {
            /// The field names, in manifest order.
            pub const FIELDS: &'static [&'static str] = &[#(#names),*];
        }
    }
}

fn texts(d: &Doctrine) -> TokenStream {
    let consts = d.texts.iter().map(|t| {
        let name = format_ident!("{}", t.const_name);
        let doc = match &t.file {
            Some(f) => format!("Layer `{}`, from `{}`.", t.layer, f.display),
            None => format!("Layer `{}`, inline in `{}`.", t.layer, d.manifest_display),
        };
        let body = lit(&t.body);
        quote! { #[doc = #doc] pub const #name: &str = #body; }
    });
    let sources = d.texts.iter().filter_map(|t| {
        let f = t.file.as_ref()?;
        let name = format_ident!("{}", t.const_name);
        let path = lit(&f.display);
        let opt = |v: &Option<String>| match v {
            Some(s) => {
                let s = lit(s);
                quote! { ::core::option::Option::Some(#s) }
            }
            None => quote! { ::core::option::Option::None },
        };
        let (source, version, licence) = (opt(&f.fields.source), opt(&f.fields.version), opt(&f.fields.licence));
        Some(quote! {
            pub static #name: ::doctrine::Source = ::doctrine::Source {
                path: #path,
                provenance: ::doctrine::Provenance { source: #source, version: #version, licence: #licence },
            };
        })
    });
    quote! {
        /// Every embedded text, normalised at compile time. Each file appears once.
        pub mod text { #(#consts)* }
        /// The file behind each embedded text, with its frontmatter provenance.
        pub mod sources { #(#sources)* }
    }
}

fn layer_infos(d: &Doctrine) -> TokenStream {
    let n = d.layers.len();
    let infos = d.layers.iter().map(|l| {
        let name = lit(&l.name);
        let tier = tier(l.tier);
        let locked = l.locked;
        quote! { ::doctrine::LayerInfo { name: #name, tier: #tier, locked: #locked } }
    });
    let sep = lit(&d.separator);
    quote! {
        /// The separator written between non-empty layers.
        pub const SEPARATOR: &str = #sep;
        /// How many layers the manifest declares.
        pub const LAYER_COUNT: usize = #n;
        /// Every layer, in composition order.
        pub static LAYERS: [::doctrine::LayerInfo; #n] = [#(#infos),*];
        /// A prompt composed from this manifest.
        pub type Prompt = ::doctrine::Prompt<#n>;
    }
}

fn tier(t: Tier) -> TokenStream {
    match t {
        Tier::Stable => quote! { ::doctrine::Tier::Stable },
        Tier::Volatile => quote! { ::doctrine::Tier::Volatile },
    }
}

fn slot_field(l: &Layer) -> Ident {
    format_ident!("slot_{}", l.name)
}

fn choice_field(l: &Layer) -> Ident {
    format_ident!("choice_{}", l.name)
}

fn compose(d: &Doctrine) -> TokenStream {
    let has_roles = !d.roles.is_empty();
    let slots: Vec<&Layer> = d
        .layers
        .iter()
        .filter(|l| matches!(l.content, Content::Slot { .. }))
        .collect();
    let choice_layers: Vec<&Layer> = d
        .layers
        .iter()
        .filter(|l| matches!(l.content, Content::Choice { .. }))
        .collect();

    // Fields of the builder, shared by every stage.
    let mut fields = Vec::new();
    let mut params = Vec::new();
    let mut inits = Vec::new();
    if has_roles {
        fields.push(quote! { role: Role });
        params.push(quote! { role: Role });
        inits.push(quote! { role });
    }
    for l in &choice_layers {
        let Content::Choice {
            enum_name,
            optional,
            ..
        } = &l.content
        else {
            continue;
        };
        let ty = format_ident!("{}", enum_name);
        let ty = if *optional {
            quote! { ::core::option::Option<#ty> }
        } else {
            quote! { #ty }
        };
        let field = choice_field(l);
        let param = format_ident!("{}", l.name);
        fields.push(quote! { #field: #ty });
        params.push(quote! { #param: #ty });
        inits.push(quote! { #field: #param });
    }
    for l in &slots {
        let field = slot_field(l);
        fields.push(quote! { #field: ::core::option::Option<&'a str> });
        inits.push(quote! { #field: ::core::option::Option::None });
    }
    let mut moved: Vec<Ident> = Vec::new();
    if has_roles {
        moved.push(format_ident!("role"));
    }
    moved.extend(choice_layers.iter().map(|l| choice_field(l)));
    moved.extend([
        format_ident!("flags"),
        format_ident!("knobs"),
        format_ident!("overlay"),
    ]);

    let stage_names: Vec<Ident> = slots
        .iter()
        .map(|l| format_ident!("Need{}", camel(&l.name)))
        .chain(std::iter::once(format_ident!("Ready")))
        .collect();
    let stage_docs = slots
        .iter()
        .map(|l| format!("The builder's next call is `.{}(...)`.", l.name))
        .chain(std::iter::once(
            "Every slot is filled: call `.finish()`.".to_string(),
        ));
    let first = &stage_names[0];

    let slot_methods = slots.iter().enumerate().map(|(i, l)| {
        let Content::Slot { required } = l.content else {
            unreachable!()
        };
        let (this, next) = (&stage_names[i], &stage_names[i + 1]);
        let method = format_ident!("{}", l.name);
        let field = slot_field(l);
        let others = slots
            .iter()
            .filter(|o| o.name != l.name)
            .map(|o| slot_field(o));
        let moved = &moved;
        let (param, value, doc) = if required {
            (
                quote! { value: &'a str },
                quote! { ::core::option::Option::Some(value) },
                format!("Fills required slot `{}`.", l.name),
            )
        } else {
            (
                quote! { value: impl ::core::convert::Into<::core::option::Option<&'a str>> },
                quote! { value.into() },
                format!(
                    "Fills optional slot `{}`; `None` leaves the layer out.",
                    l.name
                ),
            )
        };
        quote! {
            impl<'a> Compose<'a, stage::#this> {
                #[doc = #doc]
                pub fn #method(self, #param) -> Compose<'a, stage::#next> {
                    Compose {
                        #field: #value,
                        #(#others: self.#others,)*
                        #(#moved: self.#moved,)*
                        _stage: ::core::marker::PhantomData,
                    }
                }
            }
        }
    });

    let layer_fns: Vec<Ident> = (0..d.layers.len())
        .map(|i| format_ident!("layer_{}", i))
        .collect();
    let layer_bodies = d
        .layers
        .iter()
        .enumerate()
        .map(|(i, l)| layer_part(d, i, l));
    let slot_order = if slots.is_empty() {
        "This manifest has no slots.".to_string()
    } else {
        let list: Vec<String> = slots
            .iter()
            .map(|l| match l.content {
                Content::Slot { required: true } => format!("`.{}(text)`", l.name),
                _ => format!("`.{}(Option)`", l.name),
            })
            .collect();
        format!("Slots, in manifest order: {}.", list.join(", "))
    };
    let compose_doc = format!(
        "Starts composing a prompt from `{}`. Set `.flags()`, `.knobs()` and `.overlay()` at any point, then fill every slot in manifest order and call `.finish()`. {slot_order}",
        d.manifest_display
    );
    quote! {
        /// The stages of [`Compose`]: each names the call that must come next, so a
        /// missing slot, or slots filled in an order the manifest no longer has, does
        /// not compile.
        pub mod stage {
            #(#[doc = #stage_docs] pub struct #stage_names;)*
        }

        /// A prompt being composed; see [`compose`].
        #[must_use = "call `.finish()` to compose the prompt"]
        pub struct Compose<'a, S> {
            #(#fields,)*
            flags: Flags,
            knobs: Knobs,
            overlay: ::core::option::Option<&'a Overlay>,
            _stage: ::core::marker::PhantomData<S>,
        }

        #[doc = #compose_doc]
        pub fn compose<'a>(#(#params),*) -> Compose<'a, stage::#first> {
            Compose {
                #(#inits,)*
                flags: <Flags as ::core::default::Default>::default(),
                knobs: <Knobs as ::core::default::Default>::default(),
                overlay: ::core::option::Option::None,
                _stage: ::core::marker::PhantomData,
            }
        }

        impl<'a, S> Compose<'a, S> {
            /// Sets every flag (the default is the manifest's).
            pub fn flags(mut self, flags: Flags) -> Self { self.flags = flags; self }
            /// Sets one flag.
            pub fn flag(mut self, flag: Flag, on: bool) -> Self { self.flags.set(flag, on); self }
            /// Sets every knob (the default is the manifest's).
            pub fn knobs(mut self, knobs: Knobs) -> Self { self.knobs = knobs; self }
            /// Applies a user overlay to the overridable layers.
            pub fn overlay(mut self, overlay: &'a Overlay) -> Self { self.overlay = ::core::option::Option::Some(overlay); self }
        }

        #(#slot_methods)*

        impl<'a> Compose<'a, stage::Ready> {
            /// Composes the prompt: one allocation of exactly its length.
            pub fn finish(self) -> Prompt {
                ::doctrine::compose(SEPARATOR, [#(self.#layer_fns()),*])
            }

            #(#layer_bodies)*
        }
    }
}

/// The private method that resolves layer `i` to a `Part`.
fn layer_part(d: &Doctrine, i: usize, l: &Layer) -> TokenStream {
    let method = format_ident!("layer_{}", i);
    let skip = |reason: TokenStream, origin: TokenStream| {
        quote! {
            return ::doctrine::Part { info, origin: #origin, body: ::doctrine::Body::Skip(::doctrine::Skip::#reason) }
        }
    };
    let unresolved = quote! { ::doctrine::Origin::Unresolved };

    let scope_check = match &l.scope {
        Some(scope) if !d.roles.is_empty() => {
            let roles = scope.iter().map(|&r| variant(&d.roles[r]));
            let out = skip(quote! { NotInRole }, unresolved.clone());
            quote! { if !::core::matches!(self.role, #(Role::#roles)|*) { #out; } }
        }
        _ => TokenStream::new(),
    };

    let text_origin = |id: usize| {
        let t = &d.texts[id];
        let name = format_ident!("{}", t.const_name);
        let origin = match t.file {
            Some(_) => quote! { ::doctrine::Origin::File(&sources::#name) },
            None => quote! { ::doctrine::Origin::Inline },
        };
        quote! { (text::#name, #origin) }
    };

    let resolve = match &l.content {
        Content::PerRole(groups) if d.roles.is_empty() || groups.len() == 1 => {
            let v = text_origin(groups[0].1);
            quote! { let (text, origin): (&'static str, ::doctrine::Origin) = #v; }
        }
        Content::PerRole(groups) => {
            let arms = groups.iter().map(|(roles, id)| {
                let roles = roles.iter().map(|&r| variant(&d.roles[r]));
                let v = text_origin(*id);
                quote! { #(Role::#roles)|* => #v, }
            });
            let rest = l.scope.is_some().then(|| {
                let out = skip(quote! { NotInRole }, unresolved.clone());
                quote! { _ => { #out } }
            });
            quote! { let (text, origin): (&'static str, ::doctrine::Origin) = match self.role { #(#arms)* #rest }; }
        }
        Content::Choice {
            enum_name,
            variants,
            optional,
        } => {
            let ty = format_ident!("{}", enum_name);
            let field = choice_field(l);
            let arms = variants.iter().map(|(stem, id)| {
                let v = variant(stem);
                let value = text_origin(*id);
                if *optional {
                    quote! { ::core::option::Option::Some(#ty::#v) => #value, }
                } else {
                    quote! { #ty::#v => #value, }
                }
            });
            let none = optional.then(|| {
                let out = skip(quote! { NotSupplied }, unresolved.clone());
                quote! { ::core::option::Option::None => { #out } }
            });
            quote! { let (text, origin): (&'static str, ::doctrine::Origin) = match self.#field { #(#arms)* #none }; }
        }
        Content::Slot { .. } => {
            let field = slot_field(l);
            let out = skip(quote! { NotSupplied }, quote! { ::doctrine::Origin::Slot });
            quote! {
                let (text, origin): (&'a str, ::doctrine::Origin) = match self.#field {
                    ::core::option::Option::Some(v) => (v, ::doctrine::Origin::Slot),
                    ::core::option::Option::None => { #out }
                };
            }
        }
    };

    let gate = l.gate.map(|g| {
        let flag = &d.flags[g].name;
        let field = format_ident!("{}", flag);
        let name = lit(flag);
        quote! {
            if !self.flags.#field {
                return ::doctrine::Part { info, origin, body: ::doctrine::Body::Skip(::doctrine::Skip::FlagOff(#name)) };
            }
        }
    });

    let suffix = match &l.suffix {
        None => quote! { let suffix: &'static str = ""; },
        Some(s) => {
            let value = suffix_match(d, s);
            match &s.roles {
                Some(roles) if !d.roles.is_empty() => {
                    let roles = roles.iter().map(|&r| variant(&d.roles[r]));
                    quote! {
                        let suffix: &'static str = if ::core::matches!(self.role, #(Role::#roles)|*) { #value } else { "" };
                    }
                }
                _ => quote! { let suffix: &'static str = #value; },
            }
        }
    };

    let overlay = l.overlay.as_ref().map(|o| {
        let field = format_ident!("{}", o.field);
        let body = match o.mode {
            Override::Replace => quote! {
                return ::doctrine::Part {
                    info,
                    origin: ::doctrine::Origin::OverlayReplaced,
                    body: ::doctrine::Body::Text([over, "", "", ""]),
                };
            },
            Override::Append => {
                let sep = lit(&o.separator);
                quote! {
                    let source = match origin { ::doctrine::Origin::File(s) => ::core::option::Option::Some(s), _ => ::core::option::Option::None };
                    return ::doctrine::Part {
                        info,
                        origin: ::doctrine::Origin::OverlayAppended(source),
                        body: ::doctrine::Body::Text([text, suffix, #sep, over]),
                    };
                }
            }
        };
        quote! {
            if let ::core::option::Option::Some(overlay) = self.overlay {
                let over: &'a str = overlay.#field.as_str();
                if !over.is_empty() { #body }
            }
        }
    });

    quote! {
        #[inline]
        fn #method(&self) -> ::doctrine::Part<'a> {
            let info: &'static ::doctrine::LayerInfo = &LAYERS[#i];
            #scope_check
            #resolve
            #gate
            #suffix
            #overlay
            ::doctrine::Part { info, origin, body: ::doctrine::Body::Text([text, suffix, "", ""]) }
        }
    }
}

/// A match over the knobs a suffix names, each arm a precomputed literal.
fn suffix_match(d: &Doctrine, s: &super::model::Suffix) -> TokenStream {
    let mut used: Vec<usize> = Vec::new();
    for seg in &s.segments {
        if let Segment::Knob(k) = seg {
            if !used.contains(k) {
                used.push(*k);
            }
        }
    }
    // Every combination of the used knobs' values, as value indices.
    let mut combos: Vec<Vec<usize>> = vec![Vec::new()];
    for &k in &used {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                (0..d.knobs[k].values.len()).map(move |v| {
                    let mut c = c.clone();
                    c.push(v);
                    c
                })
            })
            .collect();
    }
    let render = |combo: &[usize]| {
        let mut out = s.separator.clone();
        for seg in &s.segments {
            match seg {
                Segment::Lit(t) => out.push_str(t),
                Segment::Knob(k) => {
                    let pos = used.iter().position(|u| u == k).expect("collected above");
                    out.push_str(&d.knobs[*k].values[combo[pos]]);
                }
            }
        }
        lit(&out)
    };
    if used.is_empty() {
        let text = render(&[]);
        return quote! { #text };
    }
    let scrutinee = used.iter().map(|&k| format_ident!("{}", d.knobs[k].name));
    let arms = combos.iter().map(|combo| {
        let pats = used.iter().zip(combo).map(|(&k, &v)| {
            let ty = format_ident!("{}", d.knobs[k].enum_name);
            let var = variant(&d.knobs[k].values[v]);
            quote! { #ty::#var }
        });
        let text = render(combo);
        quote! { (#(#pats,)*) => #text, }
    });
    quote! { match (#(self.knobs.#scrutinee,)*) { #(#arms)* } }
}

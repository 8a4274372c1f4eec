//! The staged `Compose` builder: `compose(...)`, one stage per slot, `finish()`.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::layer::layer_part;
use super::{choice_field, Places};
use crate::codegen::model::{Content, Doctrine, Layer};
use crate::codegen::names::camel;

pub(super) fn compose(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let has_roles = !d.roles.is_empty();
    let slots: Vec<&Layer> = d
        .layers
        .iter()
        .filter(|l| matches!(l.content, Content::Slot { .. } | Content::Instructions))
        .collect();
    let places = Places::new(d);
    // Each slot's place, in the order of `slots`.
    let slot_places: Vec<&TokenStream> = d
        .layers
        .iter()
        .zip(&places.slots)
        .filter(|(l, _)| matches!(l.content, Content::Slot { .. } | Content::Instructions))
        .map(|(_, place)| place)
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
    let role_ty = d.role_type();
    let role_param = format_ident!("{}", d.role_word);
    let fact_count = d.facts.len();
    // With facts, the first parameter is the facts, and the role is their variant.
    let mut pre = TokenStream::new();
    let facts_init;
    if d.facts.is_empty() {
        if has_roles {
            params.push(quote! { #role_param: #role_ty });
            inits.push(if d.role_word == "role" {
                quote! { role }
            } else {
                quote! { role: #role_param }
            });
        }
        facts_init = quote! { [] };
    } else if has_roles {
        params.push(quote! { facts: impl ::core::convert::Into<Facts<'a>> });
        pre = quote! { let facts: Facts<'a> = ::core::convert::Into::into(facts); };
        inits.push(quote! { role: facts.role() });
        facts_init = quote! { facts.__values() };
    } else {
        let borrows = d.facts.iter().any(|f| f.values.is_none());
        let ty = if borrows {
            quote! { Facts<'a> }
        } else {
            quote! { Facts }
        };
        params.push(quote! { facts: #ty });
        facts_init = quote! { facts.__values() };
    }
    if has_roles {
        fields.push(quote! { role: #role_ty });
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
    let instruction_count = slots
        .iter()
        .filter(|l| matches!(l.content, Content::Instructions))
        .count();
    let slot_count = slots.len() - instruction_count;
    if d.layers.len() <= crate::__private::INLINE_LAYERS_MAX {
        fields.push(quote! { slots: [::core::option::Option<&'a str>; #slot_count] });
        inits.push(quote! { slots: [::core::option::Option::None; #slot_count] });
        fields.push(quote! { instructions: [&'a [#krate::Instruction<'a>]; #instruction_count] });
        inits.push(quote! { instructions: [&[]; #instruction_count] });
    } else {
        // Large manifests: the slots live on the heap, so the builder moved from stage to
        // stage (a temporary per call in a debug build) stays a few words.
        fields.push(quote! { slots: ::std::boxed::Box<[::core::option::Option<&'a str>]> });
        inits.push(quote! { slots: ::std::vec![::core::option::Option::None; #slot_count].into_boxed_slice() });
        fields.push(quote! { instructions: ::std::boxed::Box<[&'a [#krate::Instruction<'a>]]> });
        inits.push(
            quote! { instructions: ::std::vec![&[][..]; #instruction_count].into_boxed_slice() },
        );
    }
    let stage_names: Vec<Ident> = slots
        .iter()
        .map(|l| format_ident!("Need{}", camel(&l.name)))
        .chain(std::iter::once(format_ident!("Ready")))
        .collect();
    let required: Vec<bool> = slots
        .iter()
        .map(|l| matches!(l.content, Content::Slot { required: true, .. }))
        .collect();
    let stage_docs = slots
        .iter()
        .zip(&required)
        .map(|(l, &r)| {
            let kind = if r {
                "required"
            } else {
                "optional: it and the optional slots after it may be skipped"
            };
            format!("The next slot is `.{}(...)` ({kind}).", l.name)
        })
        .chain(std::iter::once(
            "Every slot is filled: call `.finish()`.".to_string(),
        ));
    let first = &stage_names[0];
    // `.finish()` may follow any stage with no required slot after it.
    let finishable = (0..=slots.len())
        .filter(|&k| !required[k..].contains(&true))
        .map(|k| &stage_names[k]);

    // Slot `j` may be filled from stage `k` when only optional slots lie between (at most
    // `SKIP_MAX` stages back, so the impls stay linear in the number of slots). Each method
    // moves the whole state and sets one array element, so the code (tokens and MIR alike)
    // grows linearly too: listing every other field in every method made it quadratic
    // (2,000 slots took 4.7 GB to check), and so did `..self.state`, which rustc expands
    // field by field.
    let slot_methods = slots.iter().enumerate().map(|(j, l)| {
        let next = &stage_names[j + 1];
        let from = (0..=j)
            .rev()
            .take(crate::__private::SKIP_MAX)
            .take_while(|&k| k == j || !required[k])
            .map(|k| &stage_names[k]);
        let method = format_ident!("{}", l.name);
        let place = slot_places[j];
        // A value that is empty (after trimming, where the layer trims) is not given.
        let trim = matches!(l.content, Content::Slot { trim: true, .. });
        let (param, value, what) = if matches!(l.content, Content::Instructions) {
            (
                quote! { value: &'a [#krate::Instruction<'a>] },
                quote! { value },
                format!(
                    "Fills instructions layer `{}`: rendered in ascending authority, each after a line naming its source and scope; an empty slice (or skipping it) leaves the layer out.",
                    l.name
                ),
            )
        } else if required[j] {
            (
                quote! { value: &'a str },
                quote! { #pv::given(::core::option::Option::Some(value), #trim) },
                format!("Fills required slot `{}`.", l.name),
            )
        } else {
            (
                quote! { value: impl ::core::convert::Into<::core::option::Option<&'a str>> },
                quote! { #pv::given(::core::convert::Into::into(value), #trim) },
                format!(
                    "Fills optional slot `{}`; `None`, `Some(\"\")` or skipping it leaves the layer out.",
                    l.name
                ),
            )
        };
        // The order is listed once, in `compose`'s docs: listed in every slot's, it made the
        // generated code grow with the square of the slot count (52 MB at 2,000 slots).
        let doc = format!(
            "{what} Slot {} of {}: slots are filled in manifest order, optional ones may be skipped; [`compose`] lists them.",
            j + 1,
            slots.len()
        );
        quote! {
            #(impl #pv::Slot<#j> for stage::#from {})*

            // The bound sits on the method, not the impl, so that calling it at the wrong
            // stage reports the bound's own message rather than a missing method.
            impl<'a, Stage> Compose<'a, Stage> {
                #[doc = #doc]
                pub fn #method(self, #param) -> Compose<'a, stage::#next>
                where
                    Stage: #pv::Slot<#j>,
                {
                    let mut state = self.state;
                    state.#place = #value;
                    Compose { state, _stage: ::core::marker::PhantomData }
                }
            }
        }
    });

    let layer_count = d.layers.len();
    let layer_fns: Vec<Ident> = (0..layer_count)
        .map(|i| format_ident!("__layer_{}", i))
        .collect();
    // Validation puts every stable layer before every volatile one.
    let stable_count = d
        .layers
        .iter()
        .filter(|l| l.tier == crate::Tier::Stable)
        .count();
    // The values whose stretches a user's file supplied: the skill index's user lines.
    let user = d
        .facts
        .iter()
        .enumerate()
        .filter(|(_, f)| f.skill_index)
        .map(|(i, _)| {
            let j = d
                .list_index(crate::codegen::model::FactId(i))
                .unwrap_or_default();
            quote! { (#i, self.lists[#j].user.as_slice()) }
        });
    let user = quote! { &[#(#user),*] };
    let (finish_body, finish_stable_body, finish_volatile_body, dispatch) = if layer_count
        <= crate::__private::INLINE_LAYERS_MAX
    {
        let (stable_fns, volatile_fns) = layer_fns.split_at(stable_count);
        (
            quote! { #pv::compose(SEPARATOR, self.formulation, &values, #user, [#(self.#layer_fns()),*]) },
            quote! { #pv::join(SEPARATOR, self.formulation, &values, &[#(self.#stable_fns()),*]) },
            quote! { #pv::join(SEPARATOR, self.formulation, &values, &[#(self.#volatile_fns()),*]) },
            TokenStream::new(),
        )
    } else {
        // Large manifests: one part at a time through a dispatcher into a vector, so
        // neither the parts nor the sections sit in one stack frame.
        let idx = 0..layer_count;
        (
            quote! { #pv::compose_boxed(SEPARATOR, self.formulation, &values, #user, &self.__parts(0..#layer_count)) },
            quote! { #pv::join(SEPARATOR, self.formulation, &values, &self.__parts(0..#stable_count)) },
            quote! { #pv::join(SEPARATOR, self.formulation, &values, &self.__parts(#stable_count..#layer_count)) },
            quote! {
                fn __parts(&self, range: ::core::ops::Range<usize>) -> ::std::vec::Vec<#pv::Part<'a>> {
                    let mut parts = ::std::vec::Vec::with_capacity(range.len());
                    for i in range {
                        parts.push(self.__layer(i));
                    }
                    parts
                }

                fn __layer(&self, i: usize) -> #pv::Part<'a> {
                    match i {
                        #(#idx => self.#layer_fns(),)*
                        _ => ::core::unreachable!(),
                    }
                }
            },
        )
    };
    // The `[budget]` ceiling travels with the prompt, for `Prompt::budget()`.
    let finish_body = match &d.budget {
        None => finish_body,
        Some(ceilings) => {
            let ceilings = ceilings.iter().map(|c| match c {
                Some(c) => quote! { ::core::option::Option::Some(#c) },
                None => quote! { ::core::option::Option::None },
            });
            let index = if d.roles.is_empty() {
                quote! { 0 }
            } else {
                quote! { self.role as usize }
            };
            quote! {
                const CEILINGS: &[::core::option::Option<usize>] = &[#(#ceilings),*];
                #pv::with_ceiling(#finish_body, CEILINGS[#index])
            }
        }
    };
    // List facts, rendered once when the facts are given.
    let list_count = d.list_count();
    let (lists_field, lists_init) = if list_count == 0 {
        (TokenStream::new(), TokenStream::new())
    } else {
        (
            quote! { lists: [#pv::Rendered; #list_count], },
            quote! { lists: facts.__lists(), },
        )
    };
    // Each value as a template prints it: a fact or knob with value texts prints the
    // text of its value (free text passes through with `other = "verbatim"`).
    let fact_values = d.facts.iter().enumerate().map(|(i, f)| match &f.texts {
        // A list fact prints as rendered when the facts were given.
        None if f.list.is_some() => {
            let j = d
                .list_index(crate::codegen::model::FactId(i))
                .unwrap_or_default();
            quote! { self.lists[#j].text.as_str() }
        }
        None => quote! { self.facts[#i].unwrap_or("") },
        Some(texts) => {
            let (keys, texts) = (texts.iter().map(|(k, _)| k), texts.iter().map(|(_, t)| t));
            quote! { #pv::value_text(self.facts[#i], &[#((#keys, #texts)),*]) }
        }
    });
    let knob_values = d.knobs.iter().map(|k| {
        let field = format_ident!("{}", k.name);
        match &k.texts {
            None => quote! { self.knobs.#field.as_str() },
            Some(texts) => quote! { [#(#texts),*][self.knobs.#field as usize] },
        }
    });
    // Flags join the values only for `{?flag}` sections, as `"on"` or `""`.
    let flag_fields: Vec<Ident> = if d.flags_in_sections() {
        d.flags
            .iter()
            .map(|f| format_ident!("{}", f.name))
            .collect()
    } else {
        Vec::new()
    };
    let value_count = fact_count + d.knobs.len() + flag_fields.len();
    let layer_bodies = d
        .layers
        .iter()
        .enumerate()
        .map(|(i, l)| layer_part(d, i, l, &places));
    let slot_order = if slots.is_empty() {
        "This manifest has no slots.".to_string()
    } else {
        let list: Vec<String> = slots
            .iter()
            .map(|l| match l.content {
                Content::Slot { required: true, .. } => format!("`.{}(text)`", l.name),
                Content::Instructions => format!("`.{}(&[Instruction])`", l.name),
                _ => format!("`.{}(Option)`", l.name),
            })
            .collect();
        format!("Slots, in manifest order: {}.", list.join(", "))
    };
    let compose_doc = format!(
        "Starts composing a prompt from `{}`. Set `.flags()`, `.knobs()` and `.overlay()` at any point, then fill the slots in manifest order (optional ones may be skipped) and call `.finish()`. {slot_order}\n\nThe layers, in composition order:\n\n{}",
        d.manifest_display,
        super::table::layer_table(d)
    );
    // Selector layers read what the selectors resolved to, and whether the definition
    // being composed opted out of each; only a manifest with selectors has these.
    let selectors: Vec<&crate::codegen::model::Selector> = d.selectors().map(|(_, s)| s).collect();
    let (selection_field, selection_init, selection_methods) = if selectors.is_empty() {
        (TokenStream::new(), TokenStream::new(), TokenStream::new())
    } else {
        let n = selectors.len();
        // One method per family (a selector that follows none, and those that follow it):
        // a definition's opt-out (`spine: false`) names one family, not every selector.
        // Each family's members, gathered in one pass over the selectors.
        let mut families: Vec<Vec<usize>> = vec![Vec::new(); n];
        for i in 0..n {
            families[family_root(&selectors, i)].push(i);
        }
        let families = selectors.iter().zip(families).filter(|(s, _)| s.follows.is_none()).map(|(s, members)| {
            let method = format_ident!("opt_out_{}", s.name);
            let names: Vec<String> = members.iter().map(|&i| format!("`{}`", selectors[i].name)).collect();
            let doc = match names.as_slice() {
                [one] => format!(" `true` leaves out the layer of selector {one}: the definition being composed opted out of it, or the one that spawned it did."),
                _ => format!(
                    " `true` leaves out the layers of selectors {} (`{}` and those that follow it): the definition being composed opted out of them, or the one that spawned it did.",
                    names.join(", "),
                    s.name
                ),
            };
            quote! {
                #[doc = #doc]
                pub fn #method(mut self, opt_out: bool) -> Self {
                    #( self.state.opt_out[#members] = opt_out; )*
                    self
                }
            }
        });
        (
            quote! {
                selection: ::core::option::Option<&'a Selection>,
                opt_out: [bool; #n],
            },
            quote! {
                selection: ::core::option::Option::None,
                opt_out: [false; #n],
            },
            quote! {
                impl<'a, Stage> Compose<'a, Stage> {
                    /// Takes each selector layer's source from what `Selectors::resolve`
                    /// gave; without it every selector layer is off.
                    pub fn selection(mut self, selection: &'a Selection) -> Self { self.state.selection = ::core::option::Option::Some(selection); self }
                    /// `true` leaves every selector layer out: the definition being
                    /// composed opted out of them all, or the one that spawned it did.
                    /// The `opt_out_<selector>` methods name one family.
                    pub fn opt_out(mut self, opt_out: bool) -> Self { self.state.opt_out = [opt_out; #n]; self }
                    #( #families )*
                }
            },
        )
    };
    let prompt_ty = if layer_count <= crate::__private::INLINE_LAYERS_MAX {
        quote! { #krate::Prompt<[#krate::Section; #layer_count]> }
    } else {
        quote! { #krate::Prompt<::std::boxed::Box<[#krate::Section]>> }
    };
    quote! {
        /// A prompt composed from this manifest.
        pub type Prompt = #prompt_ty;

        /// The stages of [`Compose`]: each names the call that must come next, so a
        /// missing slot, or slots filled in an order the manifest no longer has, does
        /// not compile.
        pub mod stage {
            #(#[doc = #stage_docs] pub struct #stage_names;)*

            #(#[automatically_derived] impl #pv::Filled for #finishable {})*
        }

        /// Everything a composition has been given so far; the stages share it.
        struct __ComposeState<'a> {
            #(#fields,)*
            facts: [::core::option::Option<&'a str>; #fact_count],
            #lists_field
            flags: Flags,
            knobs: Knobs,
            overlay: ::core::option::Option<&'a Overlay>,
            #selection_field
            formulation: #krate::Formulation,
        }

        /// A prompt being composed; see [`compose`].
        #[must_use = "call `.finish()` to compose the prompt"]
        pub struct Compose<'a, Stage> {
            state: __ComposeState<'a>,
            _stage: ::core::marker::PhantomData<Stage>,
        }

        #[doc = #compose_doc]
        pub fn compose<'a>(#(#params),*) -> Compose<'a, stage::#first> {
            #pre
            Compose {
                state: __ComposeState {
                    #(#inits,)*
                    facts: #facts_init,
                    #lists_init
                    flags: <Flags as ::core::default::Default>::default(),
                    knobs: <Knobs as ::core::default::Default>::default(),
                    overlay: ::core::option::Option::None,
                    #selection_init
                    formulation: DEFAULT_FORMULATION,
                },
                _stage: ::core::marker::PhantomData,
            }
        }

        impl<'a, Stage> Compose<'a, Stage> {
            /// Sets every flag (the default is the manifest's).
            pub fn flags(mut self, flags: Flags) -> Self { self.state.flags = flags; self }
            /// Sets one flag.
            pub fn flag(mut self, flag: Flag, on: bool) -> Self { self.state.flags.set(flag, on); self }
            /// Sets every knob (the default is the manifest's).
            pub fn knobs(mut self, knobs: Knobs) -> Self { self.state.knobs = knobs; self }
            /// Applies a user overlay to the overridable layers.
            pub fn overlay(mut self, overlay: &'a Overlay) -> Self { self.state.overlay = ::core::option::Option::Some(overlay); self }
            /// Sets how titled layers are delimited.
            pub fn formulation(mut self, formulation: #krate::Formulation) -> Self { self.state.formulation = formulation; self }
            /// Sets the formulation for a model family, from the manifest's table.
            pub fn family(mut self, family: &str) -> Self { self.state.formulation = formulation_for(family); self }
        }

        #selection_methods

        #(#slot_methods)*

        impl<'a, Stage> Compose<'a, Stage> {
            /// Composes the prompt: one allocation of exactly its length. Callable once
            /// every slot is filled (the bound sits on the method so that calling it
            /// early reports which stage the builder is at).
            pub fn finish(self) -> Prompt
            where
                Stage: #pv::Filled,
            {
                self.state.__finish()
            }

            /// Only the stable prefix, as `finish().stable()` would give it.
            pub fn finish_stable(self) -> ::std::string::String
            where
                Stage: #pv::Filled,
            {
                self.state.__finish_stable()
            }

            /// Only the per-turn suffix, as `finish().volatile()` would give it: the cost of
            /// a turn when the stable prefix is composed once and reused.
            pub fn finish_volatile(self) -> ::std::string::String
            where
                Stage: #pv::Filled,
            {
                self.state.__finish_volatile()
            }
        }

        impl<'a> __ComposeState<'a> {
            #[inline]
            fn __finish(&self) -> Prompt {
                let values = self.__values();
                #finish_body
            }

            fn __finish_stable(&self) -> ::std::string::String {
                let values = self.__values();
                #finish_stable_body
            }

            fn __finish_volatile(&self) -> ::std::string::String {
                let values = self.__values();
                #finish_volatile_body
            }

            /// What placeholders resolve to: facts, then knobs, in manifest order.
            fn __values(&self) -> [&str; #value_count] {
                [
                    #(#fact_values,)*
                    #(#knob_values,)*
                    #(if self.flags.#flag_fields { "on" } else { "" },)*
                ]
            }

            #dispatch

            #(#layer_bodies)*
        }
    }
}

/// The selector that selector `i` follows, all the way up (itself when it follows none).
/// Validation refused cycles, so the walk ends; it is bounded anyway.
fn family_root(selectors: &[&crate::codegen::model::Selector], mut i: usize) -> usize {
    for _ in 0..selectors.len() {
        match selectors[i].follows {
            Some(up) => i = up,
            None => break,
        }
    }
    i
}

//! `.finish()` and its two halves: the builder's state handed to the runtime as
//! `Inputs`, and the plan's layers resolved and composed in one allocation.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::choice_field;
use super::uses::{choice_layers, Uses};
use crate::model::{Content, Doctrine, FactId};

/// `Prompt` and the `finish` methods; and for the hidden module, the state's `join` and
/// `with`.
pub(super) fn finish(d: &Doctrine, u: &Uses) -> (TokenStream, TokenStream) {
    let (krate, pv) = (d.krate(), d.private());
    let n = d.layers.len();
    // Validation puts every stable layer before every volatile one.
    let stable = d
        .layers
        .iter()
        .filter(|l| l.tier == doctrine_core::introspect::Stability::Stable)
        .count();
    let formulation = match u.titled {
        true => quote! { self.state.formulation },
        false => quote! { #krate::input::Formulation::Markdown },
    };
    let how = quote! { (SEPARATOR, #formulation, &__doctrine::GUARD) };
    let how_state = match u.titled {
        true => quote! { (super::SEPARATOR, self.formulation, &GUARD) },
        false => quote! { (super::SEPARATOR, #krate::input::Formulation::Markdown, &GUARD) },
    };
    let (compose, prepared, prompt_ty) = match u.large {
        true => (
            quote! { #pv::compose_plan_boxed },
            quote! { #pv::compose_prepared_boxed },
            quote! { #krate::Prompt<::std::boxed::Box<[#krate::introspect::Section]>> },
        ),
        false => (
            quote! { #pv::compose_plan },
            quote! { #pv::compose_prepared },
            quote! { #krate::Prompt<[#krate::introspect::Section; #n]> },
        ),
    };
    let whole = recorded(d, u, quote! { #compose(&__doctrine::PLAN, #how, inputs) });
    let whole_prepared = recorded(
        d,
        u,
        quote! { #prepared(prepared, &__doctrine::PLAN, #how, inputs) },
    );
    let with = with(d, u);
    let ceilings = ceilings(d);
    let public = quote! {
        /// A prompt composed from this manifest.
        pub type Prompt = #prompt_ty;

        // The bounds sit on the methods so that calling one early reports which stage the
        // builder is at.
        impl<'a, Stage> Compose<'a, Stage> {
            /// Composes the prompt: one allocation of exactly its length. Callable once
            /// every slot is filled.
            pub fn finish(self) -> Prompt where Stage: #pv::Filled {
                let state = &self.state;
                state.with(|inputs| #whole)
            }

            /// The role, choices, flags and knobs given so far (and the formulation),
            /// prepared for [`Self::finish_prepared`]: the layers no fact, slot or file can
            /// change, composed once. Keep it for the session; facts and slots are not kept.
            pub fn prepare(&self) -> #krate::Prepared {
                self.state.with(|inputs| #pv::prepare(&__doctrine::PLAN, #how, inputs))
            }

            /// What [`Self::finish`] composes, the same bytes and records, with the text
            /// `prepared` holds copied whole: the per-turn cost is the layers it could not
            /// hold. Prepared for another role, choice, flag, knob or formulation, it is
            /// not used.
            pub fn finish_prepared(self, prepared: &#krate::Prepared) -> Prompt
            where
                Stage: #pv::Filled,
            {
                let state = &self.state;
                state.with(|inputs| #whole_prepared)
            }

            /// Only the stable prefix, as `finish().stable()` would give it.
            pub fn finish_stable(self) -> ::std::string::String where Stage: #pv::Filled {
                self.state.join(&__doctrine::PLAN[..#stable])
            }

            /// Only the per-turn suffix, as `finish().volatile()` would give it: the cost of
            /// a turn when the stable prefix is composed once and reused.
            pub fn finish_volatile(self) -> ::std::string::String where Stage: #pv::Filled {
                self.state.join(&__doctrine::PLAN[#stable..])
            }
        }
    };
    let hidden = quote! {
        impl<'a> State<'a> {
            pub(super) fn join(&self, plan: &'static [#pv::LayerPlan]) -> ::std::string::String {
                self.with(|inputs| #pv::join_plan(plan, #how_state, inputs))
            }
        }

        #with
        #ceilings
    };
    (public, hidden)
}

/// The `[budget]` ceiling travels with the prompt, for `Prompt::budget()`, and the
/// `[models]` rule `.model()` matched, for `Prompt::model()` and `explain()`.
fn recorded(d: &Doctrine, u: &Uses, compose: TokenStream) -> TokenStream {
    let pv = d.private();
    let compose = match &d.budget {
        Some(_) => quote! { #pv::with_ceiling(#compose, state.ceiling()) },
        None => compose,
    };
    match u.models {
        true => quote! { #pv::with_model(#compose, state.model.clone()) },
        false => compose,
    }
}

/// The state's `ceiling`: the role's `[budget]` ceiling, in one table for every `finish`.
fn ceilings(d: &Doctrine) -> TokenStream {
    let Some(ceilings) = &d.budget else {
        return TokenStream::new();
    };
    let ceilings = ceilings.iter().map(|c| match c {
        Some(c) => quote! { ::core::option::Option::Some(#c) },
        None => quote! { ::core::option::Option::None },
    });
    let index = match d.roles.is_empty() {
        true => quote! { 0 },
        false => quote! { self.role as usize },
    };
    quote! {
        impl<'a> State<'a> {
            pub(super) fn ceiling(&self) -> ::core::option::Option<usize> {
                const CEILINGS: &[::core::option::Option<usize>] = &[#(#ceilings),*];
                CEILINGS[#index]
            }
        }
    }
}

/// The values whose stretches a user's file supplied: the skill index's user lines (`None`:
/// the manifest has no skill index).
fn user_values(d: &Doctrine) -> Option<TokenStream> {
    let user: Vec<TokenStream> = d
        .facts
        .iter()
        .enumerate()
        .filter(|(_, f)| f.skill_index)
        .map(|(i, _)| {
            let j =
                proc_macro2::Literal::usize_unsuffixed(d.list_index(FactId(i)).unwrap_or_default());
            quote! { (#i, self.lists.#j.user.as_slice()) }
        })
        .collect();
    (!user.is_empty()).then(|| quote! { &[#(#user),*] })
}

/// `with`: the state as the runtime reads it (`Inputs`, with the values placeholders
/// print), handed to `f`.
fn with(d: &Doctrine, u: &Uses) -> TokenStream {
    let pv = d.private();
    let role = match u.roles {
        true => quote! { self.role as usize },
        false => quote! { 0 },
    };
    let slice = |yes: bool, field: TokenStream| match yes {
        true => quote! { &self.#field[..] },
        false => quote! { &[] },
    };
    let (slots, instructions) = (
        slice(u.slots > 0, quote! { slots }),
        slice(u.instructions > 0, quote! { instructions }),
    );
    let (mut facts, opt_out) = (
        slice(u.facts, quote! { facts }),
        slice(u.selectors > 0, quote! { opt_out }),
    );
    let (mut slots, mut instructions) = (slots, instructions);
    let cleans = super::sanitize::any(d);
    let prelude =
        cleans.then(|| super::sanitize::prelude(d, !d.facts.is_empty(), u.slots, u.instructions));
    if cleans {
        // The cleaned copies are read in place of the state's.
        if u.facts {
            facts = quote! { &facts[..] };
        }
        if u.slots > 0 {
            slots = quote! { &slots[..] };
        }
        if u.instructions > 0 {
            instructions = quote! { &instructions[..] };
        }
    }
    let choices = choice_layers(d).map(|l| {
        let field = choice_field(l);
        match l.content {
            Content::Choice { optional: true, .. } => quote! { self.#field.map(|v| v as usize) },
            _ => quote! { ::core::option::Option::Some(self.#field as usize) },
        }
    });
    let flags = d.flags.iter().map(|f| {
        let f = format_ident!("{}", f.name);
        quote! { self.flags.#f }
    });
    let knobs = d.knobs.iter().map(|k| {
        let k = format_ident!("{}", k.name);
        quote! { self.knobs.#k as usize }
    });
    let selection = match u.selectors > 0 {
        true => quote! { self.selection.map(|s| &s.0) },
        false => quote! { ::core::option::Option::None },
    };
    let (overlay_pre, overlay) = overlay(d, u);
    // Only what the manifest has, over `Inputs::NONE`.
    let value_count = d.value_count();
    let templates = templates(d);
    let mut set = Vec::new();
    let mut add = |yes: bool, field: TokenStream| {
        if yes {
            set.push(field);
        }
    };
    add(value_count > 0, quote! { values: &values });
    add(u.roles, quote! { role: #role });
    add(
        choice_layers(d).next().is_some(),
        quote! { choices: &choices },
    );
    add(u.slots > 0, quote! { slots: #slots });
    add(u.instructions > 0, quote! { instructions: #instructions });
    add(
        u.instruction_budgets,
        quote! { instruction_caps: &self.instruction_caps[..] },
    );
    add(u.flags, quote! { flags: &flags });
    add(u.knobs, quote! { knobs: &knobs });
    add(u.facts, quote! { facts: #facts });
    add(u.overlay, quote! { overlay: #overlay });
    add(u.selectors > 0, quote! { selection: #selection });
    add(u.selectors > 0, quote! { opt_out: #opt_out });
    match (user_values(d), templates.is_some()) {
        (Some(user), true) => add(
            true,
            quote! { user: &[#user as &[_], &template_users[..]].concat() },
        ),
        (Some(user), false) => add(true, quote! { user: #user }),
        (None, true) => add(true, quote! { user: &template_users }),
        (None, false) => {}
    }
    add(cleans, quote! { cleaned: &cleaned });
    add(templates.is_some(), quote! { rejected: &rejected });

    let values = (value_count > 0).then(|| {
        let values = values(d, prelude.as_ref());
        let binding = match templates.is_some() {
            true => quote! { mut values },
            false => quote! { values },
        };
        quote! { let #binding: [#pv::Value<'_>; #value_count] = #values; }
    });
    let prelude = prelude.map(|p| p.code);
    let choices: Vec<TokenStream> = choices.collect();
    let arrays = [
        (!choices.is_empty()).then(|| quote! { let choices = [#(#choices),*]; }),
        u.flags.then(|| quote! { let flags = [#(#flags),*]; }),
        u.knobs.then(|| quote! { let knobs = [#(#knobs),*]; }),
    ];
    let arrays = arrays.iter().flatten();
    let arrays = quote! { #(#arrays)* };
    quote! {
        impl<'a> State<'a> {
            pub(super) fn with<R>(&self, f: impl ::core::ops::FnOnce(&#pv::Inputs<'_>) -> R) -> R {
                #prelude
                #values
                #templates
                #arrays
                #overlay_pre
                let inputs = #pv::Inputs { #(#set,)* ..#pv::Inputs::NONE };
                f(&inputs)
            }
        }
    }
}

/// The overlay's fields (and `_off` flags) by index, when one was given.
fn overlay(d: &Doctrine, u: &Uses) -> (TokenStream, TokenStream) {
    let pv = d.private();
    if !u.overlay {
        return (TokenStream::new(), quote! { ::core::option::Option::None });
    }
    let pre = quote! {
        let given = self.overlay.map(|o| (o.__fields(), o.__offs()));
    };
    let overlay = quote! {
        given.as_ref().map(|(fields, off)| #pv::Overlay { fields, off })
    };
    (pre, overlay)
}

/// What placeholders print: facts, then knobs, then (for `{?flag}` sections) flags as
/// `"on"` or `""`, then each loop's list. A fact or knob with value texts prints the text of its value (free
/// text passes through with `other = "verbatim"`); a list prints its items where the
/// placeholder stands (the skill index as rendered). A fact with `escape` prints escaped;
/// with `cleaned`, facts are read from the cleaned `facts` and the cleaned lists from
/// `lists`.
fn values(d: &Doctrine, cleaned: Option<&super::sanitize::Prelude>) -> TokenStream {
    let lists = cleaned.map_or(&[][..], |p| &p.lists[..]);
    let cleaned_loops = cleaned.map_or(&[][..], |p| &p.loops[..]);
    let pv = d.private();
    let text = |v: TokenStream| quote! { #pv::Value::Text(#v) };
    let given = match cleaned {
        Some(_) => quote! { facts },
        None => quote! { self.facts },
    };
    let facts = d.facts.iter().enumerate().map(|(i, f)| {
        if let Some((_, list)) = lists.iter().find(|(j, _)| *j == i) {
            return list.clone();
        }
        let value = fact_value(d, i, f, &given);
        match f
            .escape
            .first()
            .copied()
            .flatten()
            .filter(|_| f.list.is_none())
        {
            Some(e) => {
                let e = escaping(&pv, e);
                quote! { #pv::Value::Escaped(#value, #e) }
            }
            None if f.list.is_some() => value,
            None => text(value),
        }
    });
    let knobs = d.knobs.iter().map(|k| {
        let field = format_ident!("{}", k.name);
        text(match &k.texts {
            None => quote! { self.knobs.#field.as_str() },
            Some(texts) => quote! { [#(#texts),*][self.knobs.#field as usize] },
        })
    });
    let flags = d.flags.iter().filter(|_| d.flags_in_sections()).map(|f| {
        let f = format_ident!("{}", f.name);
        text(quote! { if self.flags.#f { "on" } else { "" } })
    });
    // Each loop: its own list, after the list facts in `__lists`.
    let loops = (0..d.loops().len()).map(|k| {
        if let Some((_, list)) = cleaned_loops.iter().find(|(c, _)| *c == k) {
            return list.clone();
        }
        let j = proc_macro2::Literal::usize_unsuffixed(d.list_count() + k);
        quote! { #pv::Value::List(&self.lists.#j) }
    });
    // Each user's template: rendered once the others are known (`templates`).
    let templates = d.overlay_templates().map(|_| text(quote! { "" }));
    quote! { [#(#facts,)* #(#knobs,)* #(#flags,)* #(#loops,)* #(#templates,)*] }
}

/// Each user's template (`overlay_interpolate`) rendered with the values before it, then
/// printed as its value; the users' stretches and the refusals, for `Inputs`.
fn templates(d: &Doctrine) -> Option<TokenStream> {
    let (krate, pv) = (d.krate(), d.private());
    let entries: Vec<(&crate::model::Layer, &crate::model::Overlay)> =
        d.overlay_templates().collect();
    if entries.is_empty() {
        return None;
    }
    let base = d.template_base();
    let render = entries.iter().enumerate().map(|(k, (_, o))| {
        let field = format_ident!("{}", o.field);
        quote! {
            #pv::overlay_template(
                self.overlay.map_or("", |o| o.#field.as_str()),
                &TEMPLATES[#k],
                &values,
            )
        }
    });
    let at = (0..entries.len()).map(|k| base + k);
    let at2 = at.clone();
    let ks = 0..entries.len();
    let ks2 = ks.clone();
    let ks3 = ks.clone();
    Some(quote! {
        let rendered = [#(#render),*];
        #( values[#at] = #pv::Value::Text(rendered[#ks].0.text.as_str()); )*
        let template_users = [#( (#at2, rendered[#ks2].0.user.as_slice()) ),*];
        // Paths in full: the module generated code sits in may have no prelude.
        let rejected: ::std::vec::Vec<#krate::introspect::Notice> = ::core::iter::Iterator::collect(
            ::core::iter::Iterator::cloned(::core::iter::Iterator::flatten(
                ::core::iter::IntoIterator::into_iter([#( &rendered[#ks3].1 ),*]),
            )),
        );
    })
}

/// An `Escaping` as an expression.
pub(super) fn escaping(pv: &TokenStream, e: doctrine_core::__private::Escaping) -> TokenStream {
    match e {
        doctrine_core::__private::Escaping::Json => quote! { #pv::Escaping::Json },
        doctrine_core::__private::Escaping::Xml => quote! { #pv::Escaping::Xml },
        doctrine_core::__private::Escaping::Html => quote! { #pv::Escaping::Html },
    }
}

/// What fact `i` prints: a list's value (whole), or its text.
fn fact_value(d: &Doctrine, i: usize, f: &crate::model::Fact, given: &TokenStream) -> TokenStream {
    let pv = d.private();
    match &f.texts {
        None if f.list.is_some() => {
            let j =
                proc_macro2::Literal::usize_unsuffixed(d.list_index(FactId(i)).unwrap_or_default());
            match f.skill_index {
                true => quote! { #pv::Value::Text(self.lists.#j.text.as_str()) },
                false => quote! { #pv::Value::List(&self.lists.#j) },
            }
        }
        None => quote! { #given[#i].unwrap_or("") },
        Some(texts) => {
            let (keys, texts) = (texts.iter().map(|(k, _)| k), texts.iter().map(|(_, t)| t));
            quote! { #pv::value_text(#given[#i], &[#((#keys, #texts)),*]) }
        }
    }
}

//! The builder's state and `compose(...)`: what a composition has been given so far, and
//! the setters for what may be given at any stage. Only what the manifest uses is there:
//! no flags without flags, no overlay without an overridable layer, no formulation
//! without a titled layer.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::choice_field;
use super::uses::{choice_layers, instruction_budgets, Uses};
use crate::model::{Content, Doctrine, Layer};

/// `struct State` (in the hidden module, so it names the invoking module's types through
/// `super::`), `compose`'s parameters, and what `compose` runs first (the facts made from
/// what it was given) and the state it starts with.
pub(super) fn state(
    d: &Doctrine,
    u: &Uses,
) -> (TokenStream, Vec<TokenStream>, (TokenStream, TokenStream)) {
    let mut f = Fields::default();
    let (params, pre) = given(d, u, &mut f);
    carried(d, u, &mut f);
    let Fields { fields, inits } = f;
    // The fields are the module's: `Compose`'s setters and `compose` reach them.
    let state = quote! {
        /// Everything a composition has been given so far; the stages share it.
        pub(super) struct State<'a> {
            #(pub(super) #fields,)*
            pub(super) borrow: ::core::marker::PhantomData<&'a ()>,
        }
    };
    let init = quote! {
        __doctrine::State { #(#inits,)* borrow: ::core::marker::PhantomData }
    };
    (state, params, (pre, init))
}

/// The state's fields and what `compose` starts each with, in one order.
#[derive(Default)]
struct Fields {
    fields: Vec<TokenStream>,
    inits: Vec<TokenStream>,
}

impl Fields {
    fn push(&mut self, field: TokenStream, init: TokenStream) {
        self.fields.push(field);
        self.inits.push(init);
    }
}

/// What `compose(...)` is given (the facts or the role, and each choice layer's value):
/// its parameters, the state's fields for them, and the facts it makes first.
fn given(d: &Doctrine, u: &Uses, f: &mut Fields) -> (Vec<TokenStream>, TokenStream) {
    let (mut params, mut pre) = (Vec::new(), TokenStream::new());
    let role_ty = d.role_type();
    let role_param = format_ident!("{}", d.role_word);
    if u.facts {
        let ty = facts_type(d);
        params.push(quote! { facts: #ty });
        let count = d.facts.len();
        f.push(
            quote! { facts: [::core::option::Option<&'a str>; #count] },
            quote! { facts: facts.__values() },
        );
        if u.roles {
            pre = quote! { let facts: Facts<'a> = ::core::convert::Into::into(facts); };
        }
    } else if u.roles {
        params.push(quote! { #role_param: #role_ty });
    }
    if u.roles {
        let init = match (u.facts, d.role_word) {
            (true, _) => quote! { role: facts.role() },
            (false, "role") => quote! { role },
            (false, _) => quote! { role: #role_param },
        };
        f.push(quote! { role: super::#role_ty }, init);
    }
    for l in choice_layers(d) {
        let (field, param) = (choice_field(l), format_ident!("{}", l.name));
        let (ty, field_ty) = (
            choice_type(l, quote! {}),
            choice_type(l, quote! { super:: }),
        );
        f.push(quote! { #field: #field_ty }, quote! { #field: #param });
        params.push(quote! { #param: #ty });
    }
    (params, pre)
}

/// What the stages and setters fill in later: slots, instructions, the list facts,
/// flags, knobs, overlay, selection and formulation, each only when the manifest uses it.
fn carried(d: &Doctrine, u: &Uses, f: &mut Fields) {
    let krate = d.krate();
    let slot = |n: usize, ty: TokenStream, empty: TokenStream| match u.large {
        // Large manifests: the slots live on the heap, so the builder moved from stage to
        // stage (a temporary per call in a debug build) stays a few words.
        true => (
            quote! { ::std::boxed::Box<[#ty]> },
            quote! { ::std::vec![#empty; #n].into_boxed_slice() },
        ),
        false => (quote! { [#ty; #n] }, quote! { [#empty; #n] }),
    };
    if u.slots > 0 {
        let (ty, init) = slot(
            u.slots,
            quote! { ::core::option::Option<&'a str> },
            quote! { ::core::option::Option::None },
        );
        f.push(quote! { slots: #ty }, quote! { slots: #init });
    }
    if u.instructions > 0 {
        let (ty, init) = slot(
            u.instructions,
            quote! { &'a [#krate::instructions::Instruction<'a>] },
            quote! { &[][..] },
        );
        f.push(quote! { instructions: #ty }, quote! { instructions: #init });
    }
    if u.instruction_budgets {
        let (ty, init) = slot(u.instructions, quote! { usize }, quote! { usize::MAX });
        f.push(
            quote! { instruction_caps: #ty },
            quote! { instruction_caps: #init },
        );
    }
    let mut opt = |yes: bool, field: TokenStream, init: TokenStream| {
        if yes {
            f.push(field, init);
        }
    };
    let (lists, sel) = (
        super::facts_struct::lists_type(d, quote! { super:: }),
        u.selectors,
    );
    opt(
        u.lists > 0,
        quote! { lists: #lists },
        quote! { lists: facts.__lists() },
    );
    opt(
        u.flags,
        quote! { flags: super::Flags },
        quote! { flags: <Flags as ::core::default::Default>::default() },
    );
    opt(
        u.knobs,
        quote! { knobs: super::Knobs },
        quote! { knobs: <Knobs as ::core::default::Default>::default() },
    );
    opt(
        u.overlay,
        quote! { overlay: ::core::option::Option<&'a super::Overlay> },
        quote! { overlay: ::core::option::Option::None },
    );
    opt(
        sel > 0,
        quote! { selection: ::core::option::Option<&'a super::Selection> },
        quote! { selection: ::core::option::Option::None },
    );
    opt(
        sel > 0,
        quote! { opt_out: [bool; #sel] },
        quote! { opt_out: [false; #sel] },
    );
    opt(
        u.titled,
        quote! { formulation: #krate::input::Formulation },
        quote! { formulation: DEFAULT_FORMULATION },
    );
    opt(
        u.models,
        quote! { model: ::core::option::Option<#krate::introspect::ModelMatch> },
        quote! { model: ::core::option::Option::None },
    );
}

/// The type `compose` takes the facts as.
fn facts_type(d: &Doctrine) -> TokenStream {
    match (
        d.roles.is_empty(),
        d.facts.iter().any(|f| f.values.is_none()),
    ) {
        (false, _) => quote! { impl ::core::convert::Into<Facts<'a>> },
        (true, true) => quote! { Facts<'a> },
        (true, false) => quote! { Facts },
    }
}

/// A choice layer's type, its enum's name after `scope` (`super::` in the hidden module).
fn choice_type(l: &Layer, scope: TokenStream) -> TokenStream {
    let Content::Choice {
        enum_name,
        optional,
        ..
    } = &l.content
    else {
        return TokenStream::new();
    };
    let ty = format_ident!("{}", enum_name);
    match optional {
        true => quote! { ::core::option::Option<#scope #ty> },
        false => quote! { #scope #ty },
    }
}

/// The setters that may be called at any stage, for what the manifest has.
pub(super) fn setters(d: &Doctrine, u: &Uses) -> TokenStream {
    let krate = d.krate();
    let flags = u.flags.then(|| {
        quote! {
            /// Sets every flag (the default is the manifest's).
            pub fn flags(mut self, flags: Flags) -> Self { self.state.flags = flags; self }
            /// Sets one flag.
            pub fn flag(mut self, flag: Flag, on: bool) -> Self { self.state.flags.set(flag, on); self }
        }
    });
    let knobs = u.knobs.then(|| {
        quote! {
            /// Sets every knob (the default is the manifest's).
            pub fn knobs(mut self, knobs: Knobs) -> Self { self.state.knobs = knobs; self }
        }
    });
    let overlay = u.overlay.then(|| {
        quote! {
            /// Applies a user overlay to the overridable layers.
            pub fn overlay(mut self, overlay: &'a Overlay) -> Self { self.state.overlay = ::core::option::Option::Some(overlay); self }
        }
    });
    let formulation = u.titled.then(|| {
        quote! {
            /// Sets how titled layers are delimited.
            pub fn formulation(mut self, formulation: #krate::input::Formulation) -> Self { self.state.formulation = formulation; self }
            /// Sets the formulation for a model family, from the manifest's table.
            pub fn family(mut self, family: &str) -> Self { self.state.formulation = formulation_for(family); self }
        }
    });
    let selection = (u.selectors > 0).then(|| selection(d, u.selectors));
    let model = super::models::setter(d, u);
    let budgets = budgets(d);
    if !(u.flags
        || u.knobs
        || u.overlay
        || u.titled
        || u.selectors > 0
        || u.models
        || !budgets.is_empty())
    {
        return TokenStream::new();
    }
    quote! {
        impl<'a, Stage> Compose<'a, Stage> {
            #flags
            #knobs
            #overlay
            #formulation
            #selection
            #model
            #budgets
        }
    }
}

/// One `.max_bytes_<fact>(max)` per list fact with `max_bytes`: lowers its byte budget,
/// where its placeholder prints it and in each of its loops; and one
/// `.max_bytes_<layer>(max)` per instructions layer with `max_bytes`.
fn budgets(d: &Doctrine) -> TokenStream {
    let taken = |f: &crate::model::Fact| f.need.iter().any(|n| *n != crate::model::Need::Absent);
    let loops = d.loops();
    let setters = d.facts.iter().enumerate().filter(|(_, f)| taken(f)).filter_map(|(i, f)| {
        let list = f.list.as_ref()?;
        let budget = list.max_bytes?;
        let (written, counted) = match list.budget_items {
            true => (format!("max_bytes = {{ items = {budget} }}"), ", counted as the manifest counts it: the bytes its items print, not its joins"),
            false => (format!("max_bytes = {budget}"), ""),
        };
        let at = d.list_index(crate::model::FactId(i))?;
        let loop_at = loops.iter().enumerate().filter(|(_, (g, _))| g.0 == i);
        let all: Vec<proc_macro2::Literal> = std::iter::once(at)
            .chain(loop_at.map(|(k, _)| d.list_count() + k))
            .map(proc_macro2::Literal::usize_unsuffixed)
            .collect();
        let method = format_ident!("max_bytes_{}", f.name);
        let doc = format!(" Lowers list fact `{}`'s byte budget (`{written}` in the manifest) to `max` bytes{counted}; a higher one leaves the manifest's. The list is cut at a character boundary, with a notice. Call it after `compose`, which gives the list.", f.name);
        Some(quote! {
            #[doc = #doc]
            pub fn #method(mut self, max: usize) -> Self {
                #( self.state.lists.#all = ::core::mem::take(&mut self.state.lists.#all).capped(max); )*
                self
            }
        })
    });
    let instructions = instruction_budgets(d).map(|(l, k, budget)| {
        let method = format_ident!("max_bytes_{}", l.name);
        let doc = format!(" Lowers instructions layer `{}`'s byte budget (`max_bytes = {budget}` in the manifest) to `max` bytes of instruction text (not their provenance lines or joins); a higher one leaves the manifest's. The text that crosses it is cut at a character boundary, with a notice; an instruction given `locked: true` is neither counted nor cut.", l.name);
        quote! {
            #[doc = #doc]
            pub fn #method(mut self, max: usize) -> Self {
                self.state.instruction_caps[#k] = self.state.instruction_caps[#k].min(max);
                self
            }
        }
    });
    quote! { #(#setters)* #(#instructions)* }
}

/// `.selection()`, `.opt_out()` and one `.opt_out_<selector>()` per family (a selector
/// that follows none, and those that follow it): a definition's opt-out (`spine: false`)
/// names one family, not every selector.
fn selection(d: &Doctrine, n: usize) -> TokenStream {
    let selectors: Vec<&crate::model::Selector> = d.selectors().map(|(_, s)| s).collect();
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
    quote! {
        /// Takes each selector layer's source from what `Selectors::resolve`
        /// gave; without it every selector layer is off.
        pub fn selection(mut self, selection: &'a Selection) -> Self { self.state.selection = ::core::option::Option::Some(selection); self }
        /// `true` leaves every selector layer out: the definition being
        /// composed opted out of them all, or the one that spawned it did.
        /// The `opt_out_<selector>` methods name one family.
        pub fn opt_out(mut self, opt_out: bool) -> Self { self.state.opt_out = [opt_out; #n]; self }
        #( #families )*
    }
}

/// The selector that selector `i` follows, all the way up (itself when it follows none).
/// Validation refused cycles, so the walk ends; it is bounded anyway.
fn family_root(selectors: &[&crate::model::Selector], mut i: usize) -> usize {
    for _ in 0..selectors.len() {
        match selectors[i].follows {
            Some(up) => i = up,
            None => break,
        }
    }
    i
}

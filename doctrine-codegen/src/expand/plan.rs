//! `PLAN`: the manifest's composition as data, one `LayerPlan` per layer, which the
//! runtime's `resolve` interprets for each composition. The values are built once, from
//! the model, by `codegen::plan::build`; this file only prints them as the constant
//! expressions that rebuild them, naming each shipped text and its file by constant.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::lit;
use crate::model::{Doctrine, TextId};
use crate::plan::Plan;
use doctrine_core::__internals::plan::{
    Cond, ContentPlan, Gate, LayerPlan, OverlayPlan, Shipped, ShippedText, SuffixPlan, Test,
};
use doctrine_core::instructions::{LinePiece, Style};
use doctrine_core::introspect::{LayerInfo, Origin, Skip, Tier};

/// `static PLAN` and `GUARD`, for the hidden module (which imports the runtime's plan types,
/// so each layer reads as what it is rather than as paths), and `LAYERS`, the public table
/// of the layers' descriptions.
pub(super) fn plan(d: &Doctrine, plan: &Plan) -> (TokenStream, TokenStream) {
    let (krate, pv) = (d.krate(), d.private());
    let n = plan.layers.len();
    let layers = plan
        .layers
        .iter()
        .zip(&plan.shipped)
        .map(|(l, ids)| layer(d, l, ids));
    let infos = (0..n).map(|i| quote! { &__doctrine::PLAN[#i].info });
    let tags = plan.guard.tags;
    // The facts' names, as the generated `FACT_NAMES` holds them.
    let facts = match plan.guard.facts.is_empty() {
        true => quote! { &[] },
        false => quote! { &super::FACT_NAMES },
    };
    let unguarded = (!plan.guard.is_on()).then(|| quote! { .unguarded() });
    let doc = format!(
        "Every layer of `{}`, in composition order:\n\n{}",
        d.manifest_display,
        super::table::layer_table(d)
    );
    let hidden = quote! {
        /// The manifest's composition, as data.
        pub(super) static PLAN: [LayerPlan; #n] = [#(#layers),*];

        /// What run-time text may not write: the section tags, folded; the facts.
        pub(super) static GUARD: Guard = Guard::new(&[#(#tags),*], #facts).folding(#pv::fold) #unguarded;
    };
    let public = quote! {
        #[doc = #doc]
        pub static LAYERS: [&#krate::introspect::LayerInfo; #n] = [#(#infos),*];
    };
    (public, hidden)
}

/// The hidden module's own imports: the runtime's plan types, and the modules of texts.
pub(super) fn imports(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    quote! {
        use super::{sources, text};
        use #pv::{ContentPlan, Cond, Gate, Guard, LayerPlan, OverlayPlan, Shipped, SuffixPlan, Test};
        use #krate::introspect::{LayerInfo, Skip, Title};
        use #krate::instructions::{LinePiece, Style};
    }
}

/// A layer: `LayerPlan::of(info, content)` and only what differs from its defaults.
fn layer(d: &Doctrine, l: &LayerPlan, ids: &[TextId]) -> TokenStream {
    let (info, content) = (layer_info(&l.info), content(d, &l.content, ids));
    let scoped = l.scope.map(|roles| quote! { .scoped(&[#(#roles),*]) });
    let gated = (!is_none(&l.gate)).then(|| {
        let gate = gate(&l.gate);
        quote! { .gated(#gate) }
    });
    let suffixed = l.suffix.as_ref().map(|s| {
        let s = suffix(s);
        quote! { .suffixed(#s) }
    });
    let overridden = l.overlay.as_ref().map(|o| {
        let o = overlay(o);
        quote! { .overridden(#o) }
    });
    let selected = l.selector.map(|(k, name)| {
        let name = lit(name);
        quote! { .selected(#k, #name) }
    });
    quote! { LayerPlan::of(#info, #content) #scoped #gated #suffixed #overridden #selected }
}

/// Its name, then what differs from a stable, unlocked, untitled layer carrying no
/// user-file text.
fn layer_info(info: &LayerInfo) -> TokenStream {
    let name = lit(info.name);
    let volatile = (info.tier == Tier::Volatile).then(|| quote! { .volatile() });
    // Declared tiers only: the default two are what `named` and `volatile` set.
    let plain = match info.tier == Tier::Volatile {
        true => LayerInfo::named("").volatile(),
        false => LayerInfo::named(""),
    };
    let default = (plain.tier_name, plain.tier_index);
    let tier = ((info.tier_name, info.tier_index) != default).then(|| {
        let (name, index) = (lit(info.tier_name), info.tier_index);
        quote! { .in_tier(#index, #name) }
    });
    let locked = info.locked.then(|| quote! { .locked() });
    let user = info.user.then(|| quote! { .user() });
    let title = info.title.map(|t| {
        let (text, heading, open, close) = (lit(t.text), lit(t.heading), lit(t.open), lit(t.close));
        quote! { .titled(&Title::new(#text, #heading, #open, #close)) }
    });
    quote! { LayerInfo::named(#name) #volatile #tier #locked #user #title }
}

fn option(v: Option<TokenStream>) -> TokenStream {
    match v {
        // Full paths: the invoking module may have no prelude.
        Some(v) => quote! { ::core::option::Option::Some(#v) },
        None => quote! { ::core::option::Option::None },
    }
}

fn content(d: &Doctrine, c: &ContentPlan, ids: &[TextId]) -> TokenStream {
    let texts = |texts: &[Shipped]| {
        let texts = texts.iter().zip(ids).map(|(s, &id)| shipped(d, s, id));
        quote! { &[#(#texts),*] }
    };
    match c {
        ContentPlan::PerRole(shipped) => {
            let texts = texts(shipped);
            quote! { ContentPlan::PerRole(#texts) }
        }
        ContentPlan::Choice { choice, texts: t } => {
            let texts = texts(t);
            quote! { ContentPlan::Choice { choice: #choice, texts: #texts } }
        }
        ContentPlan::Slot(s) => quote! { ContentPlan::Slot(#s) },
        ContentPlan::Instructions(s, style) => {
            let style = instruction_style(style);
            quote! { ContentPlan::Instructions(#s, #style) }
        }
    }
}

/// A shipped text, by the names of its constants: model text `id`'s.
fn shipped(d: &Doctrine, s: &Shipped, id: TextId) -> TokenStream {
    let name: Ident = format_ident!("{}", d.texts[id].const_name);
    let file = matches!(s.origin, Origin::File(_));
    let trimmed = match s.text {
        ShippedText::Plain(_) => None,
        ShippedText::Template(_) => Some(false),
        ShippedText::TemplateTrimmed(_) => Some(true),
    };
    match (trimmed, file) {
        (None, true) => quote! { Shipped::file(text::#name, &sources::#name) },
        (None, false) => quote! { Shipped::inline(text::#name) },
        (Some(t), true) => quote! { Shipped::file_template(&text::#name, &sources::#name, #t) },
        (Some(t), false) => quote! { Shipped::inline_template(&text::#name, #t) },
    }
}

fn is_none(g: &Gate) -> bool {
    g.when.is_empty() && g.when_any.is_none() && g.unless.is_empty()
}

fn gate(g: &Gate) -> TokenStream {
    let mut gate = quote! { Gate::NONE };
    if !g.when.is_empty() {
        let when = g.when.iter().map(|(c, fails)| {
            let (c, fails) = (cond(c), skip(fails));
            quote! { (#c, #fails) }
        });
        gate = quote! { #gate.when(&[#(#when),*]) };
    }
    if let Some((groups, reason)) = &g.when_any {
        let reason = skip(reason);
        let groups = groups.iter().map(|g| {
            let conds = g.iter().map(cond);
            quote! { &[#(#conds),*] }
        });
        gate = quote! { #gate.when_any(&[#(#groups),*], #reason) };
    }
    if !g.unless.is_empty() {
        let unless = g.unless.iter().map(|(group, reason)| {
            let (conds, reason) = (group.iter().map(cond), skip(reason));
            quote! { (&[#(#conds),*], #reason) }
        });
        gate = quote! { #gate.unless(&[#(#unless),*]) };
    }
    gate
}

/// `Skip::<variant>` and its text, if it has one.
fn skip(s: &Skip) -> TokenStream {
    let (variant, text) = s.parts();
    let variant = format_ident!("{}", variant);
    match text.map(lit) {
        Some(text) => quote! { Skip::#variant(#text) },
        None => quote! { Skip::#variant },
    }
}

fn cond(c: &Cond) -> TokenStream {
    let test = test(&c.test);
    match c.negated {
        true => quote! { Cond::not(#test) },
        false => quote! { Cond::is(#test) },
    }
}

fn test(t: &Test) -> TokenStream {
    match *t {
        Test::Flag(f) => quote! { Test::Flag(#f) },
        Test::Fact(f) => quote! { Test::Fact(#f) },
        Test::FactIs(f, v, absent) => {
            let (v, absent) = (lit(v), skip(&absent));
            quote! { Test::FactIs(#f, #v, #absent) }
        }
        Test::Value(f) => quote! { Test::Value(#f) },
        Test::Choice(c) => quote! { Test::Choice(#c) },
        Test::Slot(k) => quote! { Test::Slot(#k) },
        Test::Instructions(k) => quote! { Test::Instructions(#k) },
        Test::Overlay(i) => quote! { Test::Overlay(#i) },
        Test::Selector(s, name) => {
            let name = lit(name);
            quote! { Test::Selector(#s, #name) }
        }
        Test::Always => quote! { Test::Always },
    }
}

/// A knob suffix: its roles, separator, and a text per combination of the knobs it names.
fn suffix(s: &SuffixPlan) -> TokenStream {
    let roles = option(s.roles.map(|r| quote! { &[#(#r),*] }));
    let sep = lit(s.separator);
    let knobs = s.knobs.iter().map(|(k, radix)| quote! { (#k, #radix) });
    let texts = s.texts.iter().map(|t| lit(t));
    quote! { SuffixPlan { roles: #roles, separator: #sep, knobs: &[#(#knobs),*], texts: &[#(#texts),*] } }
}

fn overlay(o: &OverlayPlan) -> TokenStream {
    let (field, file) = (o.field, lit(o.file));
    let append = option(o.append.map(|sep| {
        let sep = lit(sep);
        quote! { #sep }
    }));
    let off = option(o.off.map(|k| quote! { #k }));
    quote! { OverlayPlan { field: #field, file: #file, append: #append, off: #off } }
}

/// An instructions layer's style: the default, or a `provenance` template; then its
/// `rank`.
fn instruction_style(style: &Style) -> TokenStream {
    let default = &Style::DEFAULT;
    let plain =
        (style.line, style.omit_without_scope) == (default.line, default.omit_without_scope);
    let line = match plain {
        true => quote! { Style::DEFAULT },
        false => {
            let pieces = style.line.iter().map(|piece| match piece {
                LinePiece::Lit(t) => {
                    let t = lit(t);
                    quote! { LinePiece::Lit(#t) }
                }
                // `Source`, `Scope`: a unit variant's `Debug` is its name.
                unit => {
                    let unit = format_ident!("{unit:?}");
                    quote! { LinePiece::#unit }
                }
            });
            quote! { Style::templated(&[#(#pieces),*]) }
        }
    };
    let by_source = style.by_source.then(|| quote! { .by_source() });
    quote! { &#line #by_source }
}

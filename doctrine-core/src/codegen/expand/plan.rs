//! `PLAN`: the manifest's composition as data, one `LayerPlan` per layer, which the
//! runtime's `resolve` interprets for each composition. What the generated code used to do
//! layer by layer in a method of its own is now a static table and one routine.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::lit;
use super::table::alternatives;
use crate::codegen::model::Override;
use crate::codegen::model::{Cond, Content, Doctrine, Layer, LinePart, Segment, Suffix, Test};

/// Where each layer's runtime input sits among the composition's inputs: its slot or
/// instructions index, its choice index, its selector index, its overlay field.
pub(super) struct Indices {
    pub slot: Vec<Option<usize>>,
    pub instructions: Vec<Option<usize>>,
    pub choice: Vec<Option<usize>>,
    pub selector: Vec<Option<usize>>,
    pub overlay: Vec<Option<usize>>,
    pub off: Vec<Option<usize>>,
}

impl Indices {
    pub(super) fn new(d: &Doctrine) -> Self {
        let mut count = [0usize; 6];
        let mut next = |k: usize, yes: bool| {
            yes.then(|| {
                count[k] += 1;
                count[k] - 1
            })
        };
        let mut ix = Indices {
            slot: Vec::new(),
            instructions: Vec::new(),
            choice: Vec::new(),
            selector: Vec::new(),
            overlay: Vec::new(),
            off: Vec::new(),
        };
        for l in &d.layers {
            // A selector layer's user copy is no `Overlay` field.
            let field = l.overlay.as_ref().filter(|_| l.selector.is_none());
            ix.slot
                .push(next(0, matches!(l.content, Content::Slot { .. })));
            ix.instructions
                .push(next(1, matches!(l.content, Content::Instructions)));
            ix.choice
                .push(next(2, matches!(l.content, Content::Choice { .. })));
            ix.selector.push(next(3, l.selector.is_some()));
            ix.overlay.push(next(4, field.is_some()));
            ix.off.push(next(5, field.is_some_and(|o| o.empty_off)));
        }
        ix
    }

    /// The index of layer `name`.
    fn layer(d: &Doctrine, name: &str) -> Option<usize> {
        d.layers.iter().position(|l| l.name == name)
    }
}

/// `mod __plan` with `static PLAN`, and `LAYERS`, the public table of the layers'
/// descriptions. The plan sits in a module of its own that imports the runtime's plan
/// types, so each layer reads as what it is rather than as paths.
pub(super) fn plan(d: &Doctrine, ix: &Indices) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let n = d.layers.len();
    let layers = d.layers.iter().enumerate().map(|(i, l)| layer(d, ix, i, l));
    let infos = (0..n).map(|i| quote! { &__plan::PLAN[#i].info });
    let doc = format!(
        "Every layer of `{}`, in composition order:\n\n{}",
        d.manifest_display,
        super::table::layer_table(d)
    );
    quote! {
        /// The manifest's composition, as data.
        #[allow(unused_imports)]
        mod __plan {
            use super::{sources, text};
            use #pv::{ContentPlan, Cond, Gate, LayerPlan, OverlayPlan, Shipped, SuffixPlan, Test};
            use #krate::introspect::{LayerInfo, Skip, Title};
            use #krate::{InstructionStyle, LinePiece};

            pub(super) static PLAN: [LayerPlan; #n] = [#(#layers),*];
        }

        #[doc = #doc]
        pub static LAYERS: [&#krate::introspect::LayerInfo; #n] = [#(#infos),*];
    }
}

/// Layer `l`'s `LayerInfo`: its name, then what differs from a stable, unlocked, untitled
/// layer carrying no user-file text.
fn layer_info(d: &Doctrine, l: &Layer) -> TokenStream {
    let name = lit(&l.name);
    let volatile = (l.tier == crate::introspect::Tier::Volatile).then(|| quote! { .volatile() });
    let locked = l.locked.then(|| quote! { .locked() });
    let user = d.user_via(l).is_some().then(|| quote! { .user() });
    let title = l.title.as_ref().map(|t| {
        let (heading, open, close) = crate::codegen::names::title_delimiters(t);
        let (text, heading, open, close) = (lit(t), lit(&heading), lit(&open), lit(&close));
        quote! { .titled(&Title::new(#text, #heading, #open, #close)) }
    });
    quote! { LayerInfo::named(#name) #volatile #locked #user #title }
}

fn layer(d: &Doctrine, ix: &Indices, i: usize, l: &Layer) -> TokenStream {
    let info = layer_info(d, l);
    let content = content(d, ix, i, l);
    // Only what the layer has, over `LayerPlan::of`'s defaults.
    let mut more = Vec::new();
    if let Some(roles) = l.scope.as_ref().filter(|_| !d.roles.is_empty()) {
        let roles = roles.iter().map(|r| r.0 as u32);
        more.push(quote! { .scoped(&[#(#roles),*]) });
    }
    if l.is_gated() {
        let gate = gate(d, ix, l);
        more.push(quote! { .gated(#gate) });
    }
    if let Some(s) = &l.suffix {
        let s = suffix(d, s);
        more.push(quote! { .suffixed(#s) });
    }
    if let Some(field) = ix.overlay[i] {
        let o = overlay(ix, i, l, field);
        more.push(quote! { .overridden(#o) });
    }
    if let (Some(k), Some(sel)) = (ix.selector[i], &l.selector) {
        let (k, name) = (k as u32, lit(&sel.name));
        more.push(quote! { .selected(#k, #name) });
    }
    quote! { LayerPlan::of(#info, #content) #(#more)* }
}

fn option(v: Option<TokenStream>) -> TokenStream {
    match v {
        // Full paths: the invoking module may have no prelude.
        Some(v) => quote! { ::core::option::Option::Some(#v) },
        None => quote! { ::core::option::Option::None },
    }
}

fn content(d: &Doctrine, ix: &Indices, i: usize, l: &Layer) -> TokenStream {
    let shipped = |id| shipped(d, l, id);
    match &l.content {
        Content::PerRole(groups) if groups.len() == 1 || d.roles.is_empty() => {
            let one = shipped(groups[0].text);
            quote! { ContentPlan::PerRole(&[#one]) }
        }
        Content::PerRole(groups) => {
            // One entry per role; a role out of scope never reads its entry.
            let texts = (0..d.roles.len()).map(|r| {
                let g = groups.iter().find(|g| g.roles.iter().any(|x| x.0 == r));
                shipped(g.unwrap_or(&groups[0]).text)
            });
            quote! { ContentPlan::PerRole(&[#(#texts),*]) }
        }
        Content::Choice { variants, .. } => {
            let choice = ix.choice[i].unwrap_or_default() as u32;
            let texts = variants.iter().map(|v| shipped(v.text));
            quote! { ContentPlan::Choice { choice: #choice, texts: &[#(#texts),*] } }
        }
        Content::Slot { .. } => {
            let s = ix.slot[i].unwrap_or_default() as u32;
            quote! { ContentPlan::Slot(#s) }
        }
        Content::Instructions => {
            let s = ix.instructions[i].unwrap_or_default() as u32;
            let style = instruction_style(l);
            quote! { ContentPlan::Instructions(#s, #style) }
        }
    }
}

/// A shipped text of layer `l` with its origin.
fn shipped(d: &Doctrine, l: &Layer, id: crate::codegen::model::TextId) -> TokenStream {
    let t = &d.texts[id];
    let name = format_ident!("{}", t.const_name);
    let trimmed = d.trims_rendered(l);
    match (d.is_template(l), t.file.is_some()) {
        (false, true) => quote! { Shipped::file(text::#name, &sources::#name) },
        (false, false) => quote! { Shipped::inline(text::#name) },
        (true, true) => quote! { Shipped::file_template(&text::#name, &sources::#name, #trimmed) },
        (true, false) => quote! { Shipped::inline_template(&text::#name, #trimmed) },
    }
}

fn gate(d: &Doctrine, ix: &Indices, l: &Layer) -> TokenStream {
    let mut gate = quote! { Gate::NONE };
    if !l.when.is_empty() {
        let when = l.when.iter().map(|c| {
            let (c, fails) = (cond(d, ix, c), when_fails(d, c));
            quote! { (#c, #fails) }
        });
        gate = quote! { #gate.when(&[#(#when),*]) };
    }
    if !l.when_any.is_empty() {
        let reason = skip("When", &alternatives(&l.when_any));
        let groups = l.when_any.iter().map(|g| {
            let conds = g.iter().map(|c| cond(d, ix, c));
            quote! { &[#(#conds),*] }
        });
        gate = quote! { #gate.when_any(&[#(#groups),*], #reason) };
    }
    let unless: Vec<TokenStream> = (!l.unless.is_empty())
        .then_some(&l.unless)
        .into_iter()
        .chain(&l.unless_any)
        .map(|group| {
            let written: Vec<String> = group.iter().map(|c| format!("`{}`", c.written)).collect();
            let reason = skip("Unless", &written.join(", "));
            let conds = group.iter().map(|c| cond(d, ix, c));
            quote! { (&[#(#conds),*], #reason) }
        })
        .collect();
    if !unless.is_empty() {
        gate = quote! { #gate.unless(&[#(#unless),*]) };
    }
    gate
}

/// `Skip::<variant>("<text>")`.
fn skip(variant: &str, text: &str) -> TokenStream {
    let (v, text) = (format_ident!("{}", variant), lit(text));
    quote! { Skip::#v(#text) }
}

/// Why the layer is left out when `when` condition `c` fails.
fn when_fails(d: &Doctrine, c: &Cond) -> TokenStream {
    match (&c.test, c.negated) {
        (Test::Flag(f), false) => skip("FlagOff", &d.flags[*f].name),
        (Test::Flag(f), true) => skip("FlagOn", &d.flags[*f].name),
        (Test::Fact(f), false) => skip("FactAbsent", &d.facts[*f].name),
        (Test::FactIs(f, _), false) => skip("FactValue", &d.facts[*f].name),
        _ => skip("When", &c.written),
    }
}

fn cond(d: &Doctrine, ix: &Indices, c: &Cond) -> TokenStream {
    let test = test(d, ix, &c.test);
    match c.negated {
        true => quote! { Cond::not(#test) },
        false => quote! { Cond::is(#test) },
    }
}

fn test(d: &Doctrine, ix: &Indices, t: &Test) -> TokenStream {
    let n = |i: usize| i as u32;
    match t {
        Test::Flag(f) => {
            let f = n(f.0);
            quote! { Test::Flag(#f) }
        }
        // An empty list is absent: a list fact is tested on what it prints.
        Test::Fact(f) if d.facts[*f].list.is_some() => {
            let f = n(f.0);
            quote! { Test::Value(#f) }
        }
        Test::Fact(f) => {
            let f = n(f.0);
            quote! { Test::Fact(#f) }
        }
        Test::FactIs(f, v) => {
            let absent = skip("FactAbsent", &d.facts[*f].name);
            let (f, v) = (n(f.0), lit(v));
            quote! { Test::FactIs(#f, #v, #absent) }
        }
        Test::Filled(name) => filled(d, ix, name),
        Test::Overlay(field) => {
            let i = d.layers.iter().enumerate().find_map(|(i, l)| {
                l.overlay.as_ref().filter(|o| &o.field == field)?;
                ix.overlay[i]
            });
            let i = n(i.unwrap_or_default());
            quote! { Test::Overlay(#i) }
        }
    }
}

/// `layer:name`: a slot, choice, instructions or selector layer is in.
fn filled(d: &Doctrine, ix: &Indices, name: &str) -> TokenStream {
    // Validation admits only names of such layers.
    let Some(i) = Indices::layer(d, name) else {
        return quote! { Test::Always };
    };
    let l = &d.layers[i];
    let n = |k: Option<usize>| k.unwrap_or_default() as u32;
    if let Some(s) = ix.selector[i] {
        let (s, sel) = (
            s as u32,
            lit(l.selector.as_ref().map_or("", |x| x.name.as_str())),
        );
        return quote! { Test::Selector(#s, #sel) };
    }
    match &l.content {
        Content::Choice { optional: true, .. } => {
            let c = n(ix.choice[i]);
            quote! { Test::Choice(#c) }
        }
        Content::Choice { .. } => quote! { Test::Always },
        Content::Instructions => {
            let k = n(ix.instructions[i]);
            quote! { Test::Instructions(#k) }
        }
        _ => {
            let k = n(ix.slot[i]);
            quote! { Test::Slot(#k) }
        }
    }
}

/// A knob suffix: its roles, separator, and a text per combination of the knobs it names.
fn suffix(d: &Doctrine, s: &Suffix) -> TokenStream {
    let mut used: Vec<crate::codegen::model::KnobId> = Vec::new();
    for seg in &s.segments {
        if let Segment::Knob(k) = seg {
            if !used.contains(k) {
                used.push(*k);
            }
        }
    }
    // Every combination of the used knobs' values, the first knob most significant.
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
    let texts = combos.iter().map(|combo| {
        let mut out = String::new();
        for seg in &s.segments {
            match seg {
                Segment::Lit(t) => out.push_str(t),
                Segment::Knob(k) => {
                    let pos = used.iter().position(|u| u == k).unwrap_or_default();
                    out.push_str(d.knobs[*k].printed(combo[pos]));
                }
                // Suffixes are resolved against knobs only.
                Segment::Fact(_) | Segment::If { .. } => {}
            }
        }
        lit(&out)
    });
    let knobs = used.iter().map(|&k| {
        let (k, radix) = (k.0 as u32, d.knobs[k].values.len() as u32);
        quote! { (#k, #radix) }
    });
    let roles = option(s.roles.as_ref().filter(|_| !d.roles.is_empty()).map(|r| {
        let r = r.iter().map(|x| x.0 as u32);
        quote! { &[#(#r),*] }
    }));
    let sep = lit(&s.separator);
    quote! { SuffixPlan { roles: #roles, separator: #sep, knobs: &[#(#knobs),*], texts: &[#(#texts),*] } }
}

fn overlay(ix: &Indices, i: usize, l: &Layer, field: usize) -> TokenStream {
    let Some(o) = &l.overlay else {
        return TokenStream::new();
    };
    let (field, file) = (field as u32, lit(&o.file));
    let append = option(matches!(o.mode, Override::Append).then(|| {
        let sep = lit(&o.separator);
        quote! { #sep }
    }));
    let off = option(ix.off[i].map(|k| {
        let k = k as u32;
        quote! { #k }
    }));
    quote! { OverlayPlan { field: #field, file: #file, append: #append, off: #off } }
}

/// An instructions layer's style: the default, or its `provenance` template and `rank`.
fn instruction_style(l: &Layer) -> TokenStream {
    let Some(p) = &l.provenance else {
        return quote! { &InstructionStyle::DEFAULT };
    };
    let style = match &p.line {
        None => quote! { InstructionStyle::DEFAULT },
        Some(parts) => {
            let parts = parts.iter().map(|part| match part {
                LinePart::Lit(t) => {
                    let t = lit(t);
                    quote! { LinePiece::Lit(#t) }
                }
                LinePart::Source => quote! { LinePiece::Source },
                LinePart::Scope => quote! { LinePiece::Scope },
            });
            quote! { InstructionStyle::templated(&[#(#parts),*]) }
        }
    };
    let by_source = p.by_source.then(|| quote! { .by_source() });
    quote! { &#style #by_source }
}

//! The private method that resolves one layer to a `Part` for a role, choices, flags,
//! knobs, overlay and slots.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{choice_field, lit, slot_place, variant, Places};
use crate::codegen::model::{
    Cond, Content, Doctrine, KnobId, Layer, LinePart, Segment, Suffix, Test, TextId,
};
use crate::codegen::raw::Override;

/// The private method that resolves layer `i` to a `Part`.
pub(super) fn layer_part(d: &Doctrine, i: usize, l: &Layer, at: &Places) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    // `__` prefix: a layer name cannot start with `_`, so no slot method can clash.
    let method = format_ident!("__layer_{}", i);
    let skip = |reason: TokenStream, origin: TokenStream| {
        quote! {
            return #pv::Part { info, origin: #origin, body: #pv::Body::Skip(#krate::Skip::#reason) }
        }
    };
    let unresolved = quote! { #krate::Origin::Unresolved };
    let role_ty = d.role_type();
    let template = d.is_template(l);
    // A template is trimmed once rendered where the layer trims (and it could need it).
    let template_body = if d.trims_rendered(l) {
        quote! { #pv::Body::TemplateTrimmed }
    } else {
        quote! { #pv::Body::Template }
    };
    // A template's text is its segments; anything else is one string.
    let text_ty = if template {
        quote! { &'static [#pv::Seg] }
    } else {
        quote! { &'static str }
    };

    let scope_check = match &l.scope {
        Some(scope) if !d.roles.is_empty() => {
            let roles = scope.iter().map(|&r| variant(&d.roles[r]));
            let out = skip(quote! { NotInRole }, unresolved.clone());
            quote! { if !::core::matches!(self.role, #(#role_ty::#roles)|*) { #out; } }
        }
        _ => TokenStream::new(),
    };

    let text_origin = |id: TextId| {
        let t = &d.texts[id];
        let name = format_ident!("{}", t.const_name);
        let origin = match t.file {
            Some(_) => quote! { #krate::Origin::File(&sources::#name) },
            None => quote! { #krate::Origin::Inline },
        };
        if template {
            quote! { (&text::#name, #origin) }
        } else {
            quote! { (text::#name, #origin) }
        }
    };

    let resolve = match &l.content {
        Content::PerRole(groups) if d.roles.is_empty() || groups.len() == 1 => {
            let v = text_origin(groups[0].text);
            quote! { let (text, origin): (#text_ty, #krate::Origin) = #v; }
        }
        Content::PerRole(groups) => {
            let arms = groups.iter().map(|g| {
                let roles = g.roles.iter().map(|&r| variant(&d.roles[r]));
                let v = text_origin(g.text);
                quote! { #(#role_ty::#roles)|* => #v, }
            });
            let rest = l.scope.is_some().then(|| {
                let out = skip(quote! { NotInRole }, unresolved.clone());
                quote! { _ => { #out } }
            });
            quote! { let (text, origin): (#text_ty, #krate::Origin) = match self.role { #(#arms)* #rest }; }
        }
        Content::Choice {
            enum_name,
            variants,
            optional,
        } => {
            let ty = format_ident!("{}", enum_name);
            let field = choice_field(l);
            let arms = variants.iter().map(|c| {
                let v = format_ident!("{}", c.variant);
                let value = text_origin(c.text);
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
            quote! { let (text, origin): (#text_ty, #krate::Origin) = match self.#field { #(#arms)* #none }; }
        }
        // Instructions are written by the runtime (ascending authority, provenance lines).
        Content::Instructions => {
            let place = &at.slots[i];
            let out = skip(
                quote! { NotSupplied },
                quote! { #krate::Origin::Instructions },
            );
            quote! {
                let origin = #krate::Origin::Instructions;
                let instructions: &'a [#krate::Instruction<'a>] = self.#place;
                if instructions.is_empty() { #out }
            }
        }
        Content::Slot { .. } => {
            let place = &at.slots[i];
            let out = skip(quote! { NotSupplied }, quote! { #krate::Origin::Slot });
            quote! {
                let (text, origin): (&'a str, #krate::Origin) = match self.#place {
                    ::core::option::Option::Some(v) => (v, #krate::Origin::Slot),
                    ::core::option::Option::None => { #out }
                };
            }
        }
    };

    let gate = conds(d, l);

    // The knob suffix: its text, and the separator written before it when the layer has
    // text before it (`#pv::Joined`).
    let suffix = match &l.suffix {
        None if matches!(l.content, Content::Instructions) => TokenStream::new(),
        None => quote! { let suffix: #pv::Joined<'static> = #pv::NO_JOIN; },
        Some(s) => {
            let value = suffix_match(d, s);
            let sep = lit(&s.separator);
            match &s.roles {
                Some(roles) if !d.roles.is_empty() => {
                    let roles = roles.iter().map(|&r| variant(&d.roles[r]));
                    quote! {
                        let suffix: #pv::Joined<'static> = if ::core::matches!(self.role, #(#role_ty::#roles)|*) { (#sep, #value) } else { #pv::NO_JOIN };
                    }
                }
                _ => quote! { let suffix: #pv::Joined<'static> = (#sep, #value); },
            }
        }
    };

    // A selector layer: the selector decides, and an `Overlay` has no field for it.
    let selector = l.selector.as_ref().map(|s| {
        let index = at.selectors[i];
        let name = lit(&s.name);
        quote! {
            match #pv::selected(self.selection.map(|s| &s.0), #index, #name, self.opt_out[#index]) {
                #pv::Selected::Skip(reason) => return #pv::Part { info, origin, body: #pv::Body::Skip(reason) },
                #pv::Selected::Shipped => {}
                #pv::Selected::Text(over, origin) => return #pv::Part { info, origin, body: #pv::Body::Text(over, [#pv::NO_JOIN; 2]) },
            }
        }
    });
    let overlay = l.overlay.as_ref().filter(|_| l.selector.is_none()).map(|o| {
        let field = format_ident!("{}", o.field);
        let file = lit(&o.file);
        let body = match o.mode {
            Override::Replace => quote! {
                return #pv::Part {
                    info,
                    origin: #krate::Origin::OverlayReplaced(#file),
                    body: #pv::Body::Text(over, [#pv::NO_JOIN; 2]),
                };
            },
            Override::Append => {
                let sep = lit(&o.separator);
                // The runtime writes no separator before the overlay when nothing came before it.
                let append_body = if template {
                    quote! { #template_body(text, [suffix, (#sep, over)]) }
                } else {
                    quote! { #pv::Body::Text(text, [suffix, (#sep, over)]) }
                };
                quote! {
                    let source = match origin { #krate::Origin::File(s) => ::core::option::Option::Some(s), _ => ::core::option::Option::None };
                    return #pv::Part {
                        info,
                        origin: #krate::Origin::OverlayAppended(source, #file),
                        body: #append_body,
                    };
                }
            }
        };
        let off = o.empty_off.then(|| {
            let flag = format_ident!("{}_off", o.field);
            quote! {
                if overlay.#flag {
                    return #pv::Part { info, origin, body: #pv::Body::Skip(#krate::Skip::OverlayOff(#file)) };
                }
            }
        });
        quote! {
            if let ::core::option::Option::Some(overlay) = self.overlay {
                #off
                // Trimmed here too, so a field set in code counts as the loader's would.
                let over: &'a str = overlay.#field.as_str().trim();
                if !over.is_empty() { #body }
            }
        }
    });

    let body = if matches!(l.content, Content::Instructions) {
        let style = instruction_style(d, l);
        quote! { #pv::Body::Instructions(instructions, #style) }
    } else if template {
        quote! { #template_body(text, [suffix, #pv::NO_JOIN]) }
    } else {
        quote! { #pv::Body::Text(text, [suffix, #pv::NO_JOIN]) }
    };
    quote! {
        #[inline]
        fn #method(&self) -> #pv::Part<'a> {
            let info: &'static #krate::LayerInfo = &LAYERS[#i];
            #scope_check
            #resolve
            #gate
            #suffix
            #selector
            #overlay
            #pv::Part { info, origin, body: #body }
        }
    }
}

/// A match over the knobs a suffix names, each arm a precomputed literal.
fn suffix_match(d: &Doctrine, s: &Suffix) -> TokenStream {
    let mut used: Vec<KnobId> = Vec::new();
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
        let mut out = String::new();
        for seg in &s.segments {
            match seg {
                Segment::Lit(t) => out.push_str(t),
                Segment::Knob(k) => {
                    if let Some(pos) = used.iter().position(|u| u == k) {
                        out.push_str(d.knobs[*k].printed(combo[pos]));
                    }
                }
                // Suffixes are resolved against knobs only.
                Segment::Fact(_) | Segment::If { .. } => {}
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

/// The checks of a layer's `when` (each failing one skips, with its own reason) and
/// `unless` (all holding skips).
fn conds(d: &Doctrine, l: &Layer) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let skip = |reason: TokenStream| {
        quote! {
            return #pv::Part { info, origin, body: #pv::Body::Skip(#krate::Skip::#reason) };
        }
    };
    let when = l.when.iter().map(|c| {
        let fails = holds(d, c, !c.negated);
        let reason = match (&c.test, c.negated) {
            (Test::Flag(f), false) => {
                let name = lit(&d.flags[*f].name);
                quote! { FlagOff(#name) }
            }
            (Test::Flag(f), true) => {
                let name = lit(&d.flags[*f].name);
                quote! { FlagOn(#name) }
            }
            (Test::Fact(f), false) => {
                let name = lit(&d.facts[*f].name);
                quote! { FactAbsent(#name) }
            }
            (Test::FactIs(f, _), false) => {
                // Absent and another value are told apart, as `explain` shows them.
                let name = lit(&d.facts[*f].name);
                let i = f.0;
                let absent = skip(quote! { FactAbsent(#name) });
                let other = skip(quote! { FactValue(#name) });
                return quote! {
                    if self.facts[#i].is_none() { #absent }
                    if #fails { #other }
                };
            }
            _ => {
                let written = lit(&c.written);
                quote! { When(#written) }
            }
        };
        let out = skip(reason);
        quote! { if #fails { #out } }
    });
    // `unless`, and each alternative of `unless = [[...], ...]`: all holding skips.
    let unless = (!l.unless.is_empty())
        .then_some(&l.unless)
        .into_iter()
        .chain(&l.unless_any)
        .map(|group| {
            let written: Vec<String> = group.iter().map(|c| format!("`{}`", c.written)).collect();
            let written = lit(&written.join(", "));
            let out = skip(quote! { Unless(#written) });
            let all = all_hold(d, group);
            quote! { if #all { #out } }
        });
    // `when = [[...], ...]`: skipped unless one alternative holds entirely.
    let when_any = (!l.when_any.is_empty()).then(|| {
        let groups = l.when_any.iter().map(|g| all_hold(d, g));
        let written = lit(&alternatives(&l.when_any));
        let out = skip(quote! { When(#written) });
        quote! { if !<[bool]>::contains(&[#(#groups),*], &true) { #out } }
    });
    quote! { #(#when)* #when_any #(#unless)* }
}

/// Whether every condition of `group` holds, as a `bool` expression. Several tests go in
/// an array, not an `&&` chain, which rustc nests as deep as it is long (10,000 conditions
/// overflowed its stack). Each test is a pure read.
fn all_hold(d: &Doctrine, group: &[Cond]) -> TokenStream {
    let all: Vec<TokenStream> = group.iter().map(|c| holds(d, c, c.negated)).collect();
    match all.as_slice() {
        [one] => one.clone(),
        _ => quote! { !<[bool]>::contains(&[#(#all),*], &false) },
    }
}

/// Alternatives as written, for a skip reason and the layer table: `[a, b] or [c]`.
pub(super) fn alternatives(groups: &[Vec<Cond>]) -> String {
    let groups: Vec<String> = groups
        .iter()
        .map(|g| {
            let written: Vec<&str> = g.iter().map(|c| c.written.as_str()).collect();
            format!("[{}]", written.join(", "))
        })
        .collect();
    groups.join(" or ")
}

/// Whether condition `c`'s test passes (or, with `not`, fails), as a `bool` expression
/// over the compose state.
fn holds(d: &Doctrine, c: &Cond, not: bool) -> TokenStream {
    let test = match &c.test {
        Test::Flag(f) => {
            let field = format_ident!("{}", d.flags[*f].name);
            quote! { self.flags.#field }
        }
        Test::Fact(f) => match d.list_index(*f) {
            // An empty list is absent.
            Some(j) => quote! { !self.lists[#j].text.is_empty() },
            None => {
                let i = f.0;
                quote! { self.facts[#i].is_some() }
            }
        },
        Test::FactIs(f, v) => {
            let (i, v) = (f.0, lit(v));
            quote! { ::core::matches!(self.facts[#i], ::core::option::Option::Some(v) if v == #v) }
        }
        Test::Filled(name) => match d.layers.iter().find(|o| &o.name == name) {
            // A selector layer is in when its selector chose a source (the shipped text, a
            // usable user copy or file) and the definition did not opt out.
            Some(o) if o.selector.is_some() => {
                let pv = d.private();
                let index = d
                    .selectors()
                    .position(|(l, _)| l.name == o.name)
                    .unwrap_or_default();
                let sel = lit(o.selector.as_ref().map_or("", |s| s.name.as_str()));
                quote! {
                    !::core::matches!(
                        #pv::selected(self.selection.map(|s| &s.0), #index, #sel, self.opt_out[#index]),
                        #pv::Selected::Skip(_)
                    )
                }
            }
            Some(o) => match &o.content {
                Content::Choice { optional: true, .. } => {
                    let field = choice_field(o);
                    quote! { self.#field.is_some() }
                }
                Content::Choice { .. } => quote! { true },
                Content::Instructions => {
                    let place = slot_place(d, o);
                    quote! { !self.#place.is_empty() }
                }
                _ => {
                    let place = slot_place(d, o);
                    quote! { ::core::matches!(self.#place, ::core::option::Option::Some(v) if !v.is_empty()) }
                }
            },
            // Validation admits only names of slot, choice, instructions and selector layers.
            None => quote! { false },
        },
        Test::Overlay(field) => {
            let field = format_ident!("{}", field);
            // Trimmed as composition trims it, so a blank field is not "set" for either.
            quote! { ::core::matches!(self.overlay, ::core::option::Option::Some(o) if !o.#field.trim().is_empty()) }
        }
    };
    // Every test is a path, a call or `true`, which `!` binds to without parentheses.
    if not {
        quote! { !#test }
    } else {
        test
    }
}

/// An instructions layer's style: the default, or a static from its `provenance` / `rank`.
fn instruction_style(d: &Doctrine, l: &Layer) -> TokenStream {
    let krate = d.krate();
    let Some(p) = &l.provenance else {
        return quote! { &#krate::InstructionStyle::DEFAULT };
    };
    let by_source = p.by_source;
    let (line, omit) = match &p.line {
        None => (quote! { #krate::InstructionStyle::DEFAULT.line }, false),
        Some(parts) => {
            let parts = parts.iter().map(|part| match part {
                LinePart::Lit(t) => {
                    let t = lit(t);
                    quote! { #krate::LinePiece::Lit(#t) }
                }
                LinePart::Source => quote! { #krate::LinePiece::Source },
                LinePart::Scope => quote! { #krate::LinePiece::Scope },
            });
            (quote! { &[#(#parts),*] }, true)
        }
    };
    quote! {
        {
            static STYLE: #krate::InstructionStyle = #krate::InstructionStyle {
                line: #line,
                omit_without_scope: #omit,
                by_source: #by_source,
            };
            &STYLE
        }
    }
}

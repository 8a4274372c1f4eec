//! What `with` does before it hands the state to the runtime when the manifest sanitizes
//! values from outside: each fact, list and slot cleaned (borrowed when nothing needed it),
//! the facts and slots read from the cleaned copies, and what went recorded for the
//! prompt's notices (with what a value printed as XML leaves out). Nothing at all for a manifest that cleans nothing, so its code is as
//! it was.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::model::{Content, Doctrine, Fact, FactId};
use doctrine_core::__private::{Clean, Escaping};

/// A `Clean` as a constant expression.
pub(super) fn clean(pv: &TokenStream, c: Clean) -> TokenStream {
    let Clean {
        tags,
        bidi,
        nfc,
        variation,
    } = c;
    quote! { #pv::Clean { tags: #tags, bidi: #bidi, nfc: #nfc, variation: #variation } }
}

/// Whether fact `f`'s own value is cleaned (a list's items are, in [`lists`]).
fn cleans_value(f: &Fact) -> bool {
    !f.sanitize.is_none() && f.list.is_none() && !f.skill_index
}

/// Whether list fact `f`'s items are cleaned.
fn cleans_items(f: &Fact) -> bool {
    !f.sanitize.is_none() && f.list.is_some() && !f.skill_index
}

/// The fields of fact `f` printed as XML (index 0 alone for a text fact or a plain list).
fn xml_fields(f: &Fact) -> Vec<usize> {
    (f.escape.iter().enumerate())
        .filter(|(_, e)| **e == Some(Escaping::Xml))
        .map(|(i, _)| i)
        .collect()
}

/// Whether `with` cleans anything: a fact, a list, a slot or an instructions layer; or
/// counts what a value printed as XML leaves out, for the prompt's notices.
pub(super) fn any(d: &Doctrine) -> bool {
    let slots = d
        .layers
        .iter()
        .any(|l| matches!(l.content, Content::Slot { .. } | Content::Instructions));
    let xml = d.facts.iter().any(|f| !xml_fields(f).is_empty());
    d.facts.iter().any(|f| cleans_value(f) || cleans_items(f))
        || (slots && !d.sanitize.is_none())
        || xml
}

/// The statements that clean, and what they leave: the facts and slots arrays read in
/// place of the state's, each cleaned list by fact index, and the record of what went.
pub(super) struct Prelude {
    pub code: TokenStream,
    /// List `j`'s value, when it is cleaned: `(fact index, expression)`.
    pub lists: Vec<(usize, TokenStream)>,
    /// Loop `k`'s value, when its list is cleaned: `(k, expression)`.
    pub loops: Vec<(usize, TokenStream)>,
}

/// The cleaning statements of `with` (`facts`, `slots`, `instructions` and `cleaned`
/// defined as locals).
pub(super) fn prelude(d: &Doctrine, facts: bool, slots: usize, instructions: usize) -> Prelude {
    let pv = d.private();
    let mut code = TokenStream::new();
    let mut record = Vec::new();
    let mut lists = Vec::new();
    let mut fact_values = Vec::new();
    for (i, f) in d.facts.iter().enumerate() {
        let name = &f.name;
        // What a value printed as XML leaves out, told as cleaning is (`sanitize` leaves
        // those characters alone, so the value given counts).
        let xml = xml_fields(f);
        let dropped = match (xml.is_empty(), f.list.is_some()) {
            (true, _) => None,
            (false, false) => Some(quote! {
                #pv::Removed::xml(#pv::Escaping::Xml.dropped(self.facts[#i].unwrap_or("")))
            }),
            (false, true) => {
                let j = Literal::usize_unsuffixed(d.list_index(FactId(i)).unwrap_or_default());
                Some(quote! {
                    #pv::Removed::xml(#pv::xml_dropped(self.lists.#j.rows(), &[#(#xml),*]))
                })
            }
        };
        let went = |r: &proc_macro2::Ident| match &dropped {
            Some(x) => quote! { #r.and(#x) },
            None => quote! { #r },
        };
        if let Some(x) = dropped
            .as_ref()
            .filter(|_| !cleans_value(f) && !cleans_items(f))
        {
            record.push(quote! { (#pv::CleanedFrom::Fact(#name), #x) });
        }
        if cleans_value(f) {
            let (v, r) = (format_ident!("__fact{i}"), format_ident!("__went{i}"));
            let c = clean(&pv, f.sanitize);
            code.extend(quote! { let (#v, #r) = #pv::sanitize_given(self.facts[#i], #c); });
            // Nothing left is not given: an optional fact's default stands in.
            let default = f
                .default
                .as_ref()
                .map(|d| quote! { .or(::core::option::Option::Some(#d)) });
            fact_values.push(quote! { #v.as_deref() #default });
            let r = went(&r);
            record.push(quote! { (#pv::CleanedFrom::Fact(#name), #r) });
        } else {
            fact_values.push(quote! { self.facts[#i] });
        }
        if cleans_items(f) {
            let j = Literal::usize_unsuffixed(d.list_index(FactId(i)).unwrap_or_default());
            let (rows, list, r) = (
                format_ident!("__rows{i}"),
                format_ident!("__list{i}"),
                format_ident!("__went{i}"),
            );
            let c = clean(&pv, f.sanitize);
            code.extend(quote! {
                let given = &self.lists.#j;
                let (#rows, #r) = #pv::sanitize_rows(given.rows(), given.style().fields(), #c);
                let #list = #rows.as_ref().map(|rows| #pv::List::new(rows, given.style()).capped(given.budget()));
            });
            let r = went(&r);
            record.push(quote! { (#pv::CleanedFrom::Fact(#name), #r) });
            lists.push((
                i,
                quote! {
                    match &#list {
                        ::core::option::Option::Some(l) => #pv::Value::List(l),
                        ::core::option::Option::None => #pv::Value::List(&self.lists.#j),
                    }
                },
            ));
        }
    }
    // A loop prints the same items through its own style: the cleaned ones, when they are.
    let mut loops = Vec::new();
    for (k, (f, _)) in d.loops().into_iter().enumerate() {
        if !cleans_items(&d.facts[f.0]) {
            continue;
        }
        let j = Literal::usize_unsuffixed(d.list_count() + k);
        let (rows, list) = (format_ident!("__rows{}", f.0), format_ident!("__loop{k}"));
        code.extend(quote! {
            let #list = #rows.as_ref().map(|rows| #pv::List::new(rows, self.lists.#j.style()).capped(self.lists.#j.budget()));
        });
        loops.push((
            k,
            quote! {
                match &#list {
                    ::core::option::Option::Some(l) => #pv::Value::List(l),
                    ::core::option::Option::None => #pv::Value::List(&self.lists.#j),
                }
            },
        ));
    }
    if facts {
        code.extend(quote! { let facts = [#(#fact_values),*]; });
    }
    if slots > 0 {
        let c = clean(&pv, d.sanitize);
        let layers = d
            .layers
            .iter()
            .filter(|l| matches!(l.content, Content::Slot { .. }));
        let mut slot_values = Vec::new();
        for (k, l) in layers.enumerate() {
            let name = &l.name;
            let (v, r) = (format_ident!("__slot{k}"), format_ident!("__slot_went{k}"));
            match d.sanitize.is_none() {
                true => slot_values.push(quote! { self.slots[#k] }),
                false => {
                    code.extend(quote! { let (#v, #r) = #pv::sanitize_given(self.slots[#k], #c); });
                    slot_values.push(quote! { #v.as_deref() });
                    record.push(quote! { (#pv::CleanedFrom::Slot(#name), #r) });
                }
            }
        }
        code.extend(quote! { let slots = [#(#slot_values),*]; });
    }
    if instructions > 0 {
        // Each instruction's scope and text, as a slot's value is.
        let c = clean(&pv, d.sanitize);
        let layers = (d.layers.iter()).filter(|l| matches!(l.content, Content::Instructions));
        let mut values = Vec::new();
        for (k, l) in layers.enumerate() {
            let name = &l.name;
            let (kept, list, r) = (
                format_ident!("__instr_kept{k}"),
                format_ident!("__instr{k}"),
                format_ident!("__instr_went{k}"),
            );
            match d.sanitize.is_none() {
                true => values.push(quote! { self.instructions[#k] }),
                false => {
                    code.extend(quote! {
                        let (#kept, #r) = #pv::sanitize_instructions(self.instructions[#k], #c);
                        let #list = #kept.as_ref().map(|k| k.instructions(self.instructions[#k]));
                    });
                    values.push(quote! { #list.as_deref().unwrap_or(self.instructions[#k]) });
                    record.push(quote! { (#pv::CleanedFrom::Instructions(#name), #r) });
                }
            }
        }
        code.extend(quote! { let instructions = [#(#values),*]; });
    }
    code.extend(quote! { let cleaned = #pv::cleaned([#(#record),*]); });
    Prelude { code, lists, loops }
}

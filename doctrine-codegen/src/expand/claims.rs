//! `safety_claims` and `safety_claims_with`: the runtime tripwire over an instructions
//! layer's instructions, with the words the manifest's locked layers add. Nothing without
//! an instructions layer.

use proc_macro2::TokenStream;
use quote::quote;

use super::lit;
use crate::model::{Content, Doctrine};

pub(super) fn safety_claims(d: &Doctrine) -> Option<TokenStream> {
    if !d
        .layers
        .iter()
        .any(|l| matches!(l.content, Content::Instructions))
    {
        return None;
    }
    let krate = d.krate();
    let words = d.claims.iter().map(|c| {
        let layer = lit(&c.layer);
        let lists = [
            ("verbs", &c.verbs),
            ("objects", &c.objects),
            ("actions", &c.actions),
            ("phrases", &c.phrases),
        ];
        // Only the lists the manifest gives: `ClaimWords::of("deploy").verbs(&["thaw"])`.
        let set = lists
            .iter()
            .filter(|(_, l)| !l.is_empty())
            .map(|(key, list)| {
                let key = quote::format_ident!("{key}");
                let list = list.iter().map(|w| lit(w));
                quote! { .#key(&[#(#list),*]) }
            });
        quote! { #krate::tripwire::ClaimWords::of(#layer)#(#set)* }
    });
    let layers: Vec<String> = d.claims.iter().map(|c| format!("`{}`", c.layer)).collect();
    let added = match layers.is_empty() {
        true => "none here".to_string(),
        false => format!(
            "layer{} {}; a notice from one of their words names its layer",
            if layers.len() == 1 { "" } else { "s" },
            layers.join(", ")
        ),
    };
    let doc = [
        " Sentences in `instructions` that try to loosen a locked layer, one notice each,"
            .to_string(),
        " found by the built-in patterns (`doctrine::tripwire::Patterns`) with the words".into(),
        format!(" locked layers add with `claims` ({added}). Instructions are reported, never"),
        " edited or dropped.".into(),
    ];
    let doc_with = [
        " [`safety_claims`] with another tripwire, e.g. the word-rule engine of the".to_string(),
        " `claims` feature (`&doctrine::tripwire::WordRules`), given the same words.".into(),
    ];
    Some(quote! {
        #(#[doc = #doc])*
        pub fn safety_claims(
            instructions: &[#krate::instructions::Instruction<'_>],
        ) -> ::std::vec::Vec<#krate::introspect::Notice> {
            safety_claims_with(instructions, &#krate::tripwire::Patterns)
        }

        #(#[doc = #doc_with])*
        pub fn safety_claims_with(
            instructions: &[#krate::instructions::Instruction<'_>],
            tripwire: &dyn #krate::tripwire::Tripwire,
        ) -> ::std::vec::Vec<#krate::introspect::Notice> {
            #krate::tripwire::scan(instructions, &[#(#words),*], tripwire)
        }
    })
}

//! `safety_claims`: the runtime tripwire with the words the manifest's locked layers add.

use proc_macro2::TokenStream;
use quote::quote;

use super::lit;
use crate::codegen::model::Doctrine;

pub(super) fn safety_claims(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let words = d.claims.iter().map(|c| {
        let layer = lit(&c.layer);
        let [verbs, objects, actions, phrases] = [&c.verbs, &c.objects, &c.actions, &c.phrases]
            .map(|list| {
                let list = list.iter().map(|w| lit(w));
                quote! { &[#(#list),*] }
            });
        quote! {
            #pv::ClaimWords {
                layer: #layer,
                verbs: #verbs,
                objects: #objects,
                actions: #actions,
                phrases: #phrases,
            }
        }
    });
    let layers: Vec<String> = d.claims.iter().map(|c| format!("`{}`", c.layer)).collect();
    let added = match layers.is_empty() {
        true => " (none here).".to_string(),
        false => format!(
            ": layer{} {}. A notice from one of their words names its layer.",
            if layers.len() == 1 { "" } else { "s" },
            layers.join(", ")
        ),
    };
    let doc = [
        " Sentences in `instructions` that try to loosen a locked layer, one notice each;"
            .to_string(),
        " instructions are reported, never edited or dropped. This is".to_string(),
        " `doctrine::safety_claims` plus the words locked layers add with `claims`".to_string()
            + &added,
    ];
    quote! {
        #(#[doc = #doc])*
        pub fn safety_claims(
            instructions: &[#krate::Instruction<'_>],
        ) -> ::std::vec::Vec<#krate::Notice> {
            #pv::safety_claims_with(instructions, &[#(#words),*])
        }
    }
}

//! `[skills]` → `SHIPPED_SKILLS`: the shipped skills, by name, embedded.

use proc_macro2::TokenStream;
use quote::quote;

use super::lit;
use crate::model::Doctrine;

pub(super) fn skills(d: &Doctrine) -> TokenStream {
    let Some(skills) = &d.skills else {
        return TokenStream::new();
    };
    let krate = d.krate();
    let items = skills.iter().map(|s| {
        let (name, when, body) = (lit(&s.name), lit(&s.when), lit(&s.body));
        let triggers = (!s.triggers.is_empty()).then(|| {
            let triggers = s.triggers.iter().map(|t| lit(t));
            quote! { .with_triggers(&[#(#triggers),*]) }
        });
        quote! { #krate::skills::ShippedSkill::new(#name, #when, #body) #triggers }
    });
    let doc = format!(
        "The skills shipped in `{}`'s skill directory, by name: the index lists them (a list fact), and `Skills::matching` loads their bodies into a turn.",
        d.manifest_display
    );
    let clean = super::sanitize::clean(&d.private(), d.sanitize);
    quote! {
        #[doc = #doc]
        pub const SHIPPED_SKILLS: &[#krate::skills::ShippedSkill] = &[#(#items),*];

        /// The shipped skills as a set whose `load_user` cleans each user skill's file (its
        /// index line and body) as the manifest's `sanitize` says, with a notice when
        /// anything was removed. `Skills::shipped(SHIPPED_SKILLS)` cleans nothing.
        pub fn shipped_skills() -> #krate::skills::Skills {
            #krate::skills::Skills::shipped(SHIPPED_SKILLS).sanitizing(#clean)
        }
    }
}

//! `const` byte length and fingerprint of every stable prefix the compiler fully knows:
//! for a role (mode) whose stable layers depend on nothing supplied at run time (no slot,
//! fact, choice, flag, knob or overlay), the prefix is one fixed string, so its cache key
//! can be logged, and a change to it shows up in review as a changed constant. A titled
//! layer's delimiters follow the formulation chosen at run time, so it is not known.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::model::{Content, Doctrine, Layer, RoleGroup, RoleId, Segment, TextId};
use crate::names::screaming;

pub(super) fn prefix(d: &Doctrine) -> TokenStream {
    let texts = LayerTexts::new(d);
    let mut consts = Vec::new();
    let mut arms = vec![None; d.roles.len()];
    for r in RoleId::all(d.roles.len()) {
        let Some(text) = known(d, &texts, r, d.tiers.last() - 1) else {
            continue;
        };
        let stem = d
            .roles
            .get(r.0)
            .map(|n| format!("{}_", screaming(n)))
            .unwrap_or_default();
        let who = d.roles.get(r.0).map_or("the prompt".to_string(), |n| {
            format!("{} `{n}`", d.role_word)
        });
        let (tokens, len_name, fp_name) =
            pair(&stem, &text, &format!("the stable prefix of {who}"));
        consts.push(tokens);
        if let Some(arm) = arms.get_mut(r.0) {
            *arm = Some(quote! { ::core::option::Option::Some((#len_name, #fp_name)) });
        }
    }
    // One entry per role, read by index: a `match` arm per role grew the code with the
    // number of roles twice over.
    let lookup = (!d.roles.is_empty()).then(|| {
        let ty = d.role_type();
        let n = d.roles.len();
        let entries = arms.iter().map(|arm| match arm {
            Some(entry) => entry.clone(),
            None => quote! { ::core::option::Option::None },
        });
        let doc = format!(
            "The length and fingerprint of a {}'s stable prefix, when it is known at compile time.",
            d.role_word
        );
        quote! {
            #[doc = #doc]
            pub const fn known(role: super::#ty) -> ::core::option::Option<(usize, u64)> {
                const KNOWN: [::core::option::Option<(usize, u64)>; #n] = [#(#entries),*];
                KNOWN[role as usize]
            }
        }
    });
    let tiers = tiers(d, &texts);
    quote! {
        /// Stable prefixes fully known at compile time: their byte length and fingerprint.
        pub mod prefix {
            #(#consts)*
            #lookup
            #tiers
        }
    }
}

/// `<stem>LEN` and `<stem>FINGERPRINT` of `text`, documented as those of `what`, and
/// their names.
fn pair(stem: &str, text: &str, what: &str) -> (TokenStream, Ident, Ident) {
    let (len, fingerprint) = (
        text.len(),
        doctrine_core::cache::fingerprint(text.as_bytes()),
    );
    let (len_name, fp_name) = (
        format_ident!("{stem}LEN"),
        format_ident!("{stem}FINGERPRINT"),
    );
    let (len_doc, fp_doc) = (
        format!("Byte length of {what}, known at compile time."),
        format!("FNV-1a 64 fingerprint of {what} (see `doctrine::cache::fingerprint`)."),
    );
    let tokens = quote! {
        #[doc = #len_doc]
        pub const #len_name: usize = #len;
        #[doc = #fp_doc]
        pub const #fp_name: u64 = #fingerprint;
    };
    (tokens, len_name, fp_name)
}

/// With declared tiers, a module per cached tier holding the length and fingerprint of the
/// prefix through that tier's breakpoint (what the provider caches there), where it is
/// known: `LEN` for a shared tier (the same for every role) or a single-agent prompt,
/// `<ROLE>_LEN` otherwise.
fn tiers(d: &Doctrine, texts: &LayerTexts) -> TokenStream {
    if !d.tiers.declared {
        return TokenStream::new();
    }
    let mut modules = Vec::new();
    for (t, tier) in d.tiers.names.iter().enumerate().take(d.tiers.last()) {
        let shared = d.tiers.shared[t];
        let mut consts = Vec::new();
        for r in RoleId::all(d.roles.len()) {
            let Some(text) = known(d, texts, r, t) else {
                continue;
            };
            let (stem, who) = match d.roles.get(r.0).filter(|_| !shared) {
                Some(n) => (
                    format!("{}_", screaming(n)),
                    format!("{} `{n}`", d.role_word),
                ),
                None => (String::new(), format!("every {}", d.role_word)),
            };
            let what = format!("the prefix through tier `{tier}` of {who}");
            consts.push(pair(&stem, &text, &what).0);
            if shared {
                break;
            }
        }
        if consts.is_empty() {
            continue;
        }
        let module = format_ident!("{tier}");
        let doc = format!(
            "The prefix through tier `{tier}`'s breakpoint, where it is known at compile time."
        );
        modules.push(quote! {
            #[doc = #doc]
            pub mod #module {
                #(#consts)*
            }
        });
    }
    quote! { #(#modules)* }
}

/// Each per-role layer's text for each role (the first group's for a role out of scope),
/// found once: a search of the groups per role and layer grew with the square of the roles.
struct LayerTexts(Vec<Vec<Option<TextId>>>);

impl LayerTexts {
    fn new(d: &Doctrine) -> Self {
        let of = |l: &Layer| match &l.content {
            Content::PerRole(groups) => RoleGroup::texts_by_role(groups, d.roles.len().max(1))
                .into_iter()
                .map(|t| t.or(groups.first().map(|g| g.text)))
                .collect(),
            _ => Vec::new(),
        };
        LayerTexts(d.layers.iter().map(of).collect())
    }
}

/// The prefix of role `r` through tier `through` (the stable prefix through the last
/// cached tier), if nothing supplied at run time can change it.
fn known(d: &Doctrine, texts: &LayerTexts, r: RoleId, through: usize) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for (i, l) in d.layers.iter().enumerate() {
        if l.tier_index > through || !l.in_scope(r) {
            continue;
        }
        // A title's delimiters depend on the formulation chosen at run time.
        if l.is_gated() || l.overlay.is_some() || l.title.is_some() {
            return None;
        }
        let Content::PerRole(_) = &l.content else {
            return None;
        };
        let id = texts.0[i].get(r.0).copied().flatten()?;
        let head = match &d.texts[id].segments {
            None => d.texts[id].body.clone(),
            // Trimmed once rendered, where the runtime trims the template.
            Some(segments) => d.trims_rendered(l).apply(&literal(segments)?).to_string(),
        };
        let suffix = match l
            .suffix
            .as_ref()
            .filter(|s| s.roles.as_ref().is_none_or(|rs| rs.contains(&r)))
        {
            Some(s) => (s.separator.clone(), literal(&s.segments)?),
            None => (String::new(), String::new()),
        };
        // The runtime's own joining rule, so the two cannot disagree.
        let body = doctrine_core::__private::joined(
            &head,
            &[(&suffix.0, &suffix.1), doctrine_core::__private::NO_JOIN],
        );
        if !body.is_empty() {
            // Its header, then its wrapper around the text, as the composer writes them.
            let header = match &l.header {
                Some(h) => literal(&h.segments)?,
                None => String::new(),
            };
            let (open, close) = l.info.wrap.map_or(("", ""), |w| (w.open, w.close));
            parts.push(format!("{header}{open}{body}{close}"));
        }
    }
    Some(parts.join(&d.separator))
}

/// The text of segments that name no runtime value.
fn literal(segments: &[Segment]) -> Option<String> {
    segments
        .iter()
        .map(|s| match s {
            Segment::Lit(t) => Some(t.as_str()),
            Segment::Fact(_)
            | Segment::Html(_)
            | Segment::Knob(_)
            | Segment::If { .. }
            | Segment::IfCount { .. }
            | Segment::When { .. }
            | Segment::Loop { .. } => None,
        })
        .collect()
}

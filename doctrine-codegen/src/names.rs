//! Turning manifest names and file stems into Rust identifiers.

/// The path generated code names the runtime by, as tokens: an optional leading `::`, then
/// identifiers joined by `::` (`::doctrine`, `crate::runtime`, `super::doctrine`); or why
/// `text` is no such path.
pub fn crate_path(text: &str) -> Result<proc_macro2::TokenStream, String> {
    use syn::ext::IdentExt;
    use syn::parse::{ParseStream, Parser};
    use syn::punctuated::Punctuated;
    let path = |input: ParseStream<'_>| {
        let leading: Option<syn::Token![::]> = input.parse()?;
        let segments = Punctuated::<syn::Ident, syn::Token![::]>::parse_separated_nonempty_with(
            input,
            syn::Ident::parse_any,
        )?;
        // `crate`, `self` and `super` may name a module; no other keyword may.
        if let Some(k) = segments.iter().find(|s| {
            !matches!(s.to_string().as_str(), "crate" | "self" | "super")
                && syn::parse_str::<syn::Ident>(&s.to_string()).is_err()
        }) {
            return Err(syn::Error::new(k.span(), format!("`{k}` is a keyword")));
        }
        Ok(quote::quote! { #leading #segments })
    };
    path.parse_str(text).map_err(|e| e.to_string())
}

/// `be-dev-1` → `BeDev1`, `tool_policy` → `ToolPolicy`.
pub(super) fn camel(name: &str) -> String {
    name.split(['-', '_', '.', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            first.into_iter().chain(chars).collect::<String>()
        })
        .collect()
}

/// `be-dev-1` → `BE_DEV_1`.
pub(super) fn screaming(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            '-' | '.' | ' ' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// A role, knob value or file stem: becomes an enum variant through [`camel`], so it
/// must start with an ASCII letter and hold only letters, digits, `-` and `_`.
pub(super) fn is_variant_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        // `self` would become `Self`, a keyword.
        && syn::parse_str::<syn::Ident>(&camel(name)).is_ok()
}

/// A `dir` layer's file stem as an enum variant, and the SCREAMING form its text constant
/// takes: words split at anything that is not a letter or digit, each capitalised
/// (`be-dev-1` → `BeDev1`, `dev.lead` → `DevLead`, `josé` → `José`); a leading digit gets
/// `V` before it (`2nd-dev` → `V2ndDev`) and a keyword `_` after it (`self` → `Self_`).
/// `Err` says why a stem cannot be one.
pub(super) fn stem_variant(stem: &str) -> Result<(String, String), String> {
    let words: Vec<&str> = stem
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return Err("it has no letter or digit to make a name of".into());
    }
    let mut variant: String = words
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            let first = chars.next().into_iter().flat_map(char::to_uppercase);
            first.chain(chars).collect::<String>()
        })
        .collect();
    let mut upper = words.join("_").to_uppercase();
    if variant.starts_with(|c: char| c.is_numeric()) {
        variant.insert(0, 'V');
        upper.insert_str(0, "V_");
    }
    if syn::parse_str::<syn::Ident>(&variant).is_err()
        && syn::parse_str::<syn::Ident>(&format!("{variant}_")).is_ok()
    {
        variant.push('_');
    }
    match syn::parse_str::<syn::Ident>(&variant) {
        Ok(_) => Ok((variant, upper)),
        Err(_) => Err(format!(
            "`{}` is not a Rust identifier (a letter or digit in it cannot stand in one)",
            shown(&variant)
        )),
    }
}

/// A type name such as `Team`: ASCII, starting with an uppercase letter.
pub(super) fn is_type_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('A'..='Z'))
        && chars.all(|c| c.is_ascii_alphanumeric())
        && syn::parse_str::<syn::Ident>(name).is_ok()
}

/// A title's delimiters in each formulation: the markdown heading before the text, and the
/// tagged opening and closing lines around it (bare has none). One function for the
/// generated `Title`s and for the budget's widest case.
pub(crate) fn title_delimiters(title: &str) -> (String, String, String) {
    let tag = tag(title).unwrap_or_default();
    (
        format!("## {title}\n\n"),
        format!("<{tag}>\n"),
        format!("\n</{tag}>"),
    )
}

/// A section tag from a title: `Tool policy` → `tool_policy`. `None` without a letter to
/// start with.
pub(super) fn tag(title: &str) -> Option<String> {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_string();
    out.starts_with(char::is_alphabetic).then_some(out)
}

pub(super) use doctrine_load::__internals::text::{fold, shown};

/// Names longer than this (in bytes) get no "did you mean": the edit distance costs the
/// product of the two lengths, in time and memory, and a name this long is no typo of a
/// short one.
const MAX_HINT_NAME_BYTES: usize = 64;

/// At most this many candidates are compared, so a hint stays cheap for huge manifests.
const MAX_HINT_CANDIDATES: usize = 1024;

/// The closest candidate by edit distance, for "did you mean" hints. Bounded: names over
/// 64 bytes and candidates past the first 1,024 are not compared.
pub(super) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if name.len() > MAX_HINT_NAME_BYTES {
        return None;
    }
    candidates
        .into_iter()
        .take(MAX_HINT_CANDIDATES)
        .filter(|c| c.len() <= MAX_HINT_NAME_BYTES)
        .map(|c| (distance(name, c), c))
        .filter(|(d, c)| *d <= (c.len().max(name.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edit distance counting an adjacent swap as one edit (optimal string alignment), so
/// `fabel` is one step from `fable`.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// Why `name` cannot be a lowercase Rust identifier, if it cannot.
pub(super) fn snake_ident_problem(name: &str) -> Option<&'static str> {
    let mut chars = name.chars();
    let shaped = matches!(chars.next(), Some('a'..='z'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'));
    // `gen` is reserved from edition 2024 on, which syn 2 does not know; a name whose
    // CamelCase form is a keyword (`self_` → `Self`) cannot name a generated type.
    let keyword = |n: &str| syn::parse_str::<syn::Ident>(n).is_err() || n == "gen";
    if !shaped {
        Some("is not a lowercase Rust identifier: use lowercase letters, digits and `_`, starting with a letter")
    } else if keyword(name) || keyword(&camel(name)) {
        Some("is a Rust keyword (or becomes one in CamelCase): pick another name")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crate_path_is_identifiers_joined_by_colons() {
        for ok in [
            "::doctrine",
            "doctrine",
            "crate::runtime",
            "super::x::y",
            "self::rt",
        ] {
            let tokens = crate_path(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert_eq!(tokens.to_string().replace(' ', ""), ok);
        }
        for bad in [
            "",
            "::",
            "a::",
            "a b",
            "a::<T>",
            "::fn",
            "a::struct",
            "\"a\"",
            "a-b",
        ] {
            assert!(crate_path(bad).is_err(), "{bad:?} was taken for a path");
        }
    }

    #[test]
    fn converts_names() {
        assert_eq!(camel("be-dev-1"), "BeDev1");
        assert_eq!(camel("tool_policy"), "ToolPolicy");
        assert_eq!(screaming("ponytail-ethos"), "PONYTAIL_ETHOS");
        assert!(snake_ident_problem("tools_more").is_none());
        assert!(snake_ident_problem("type").is_some());
        assert!(snake_ident_problem("Tools").is_some());
        assert!(is_variant_name("be-dev-1"));
        assert!(!is_variant_name("1st"));
        assert!(!is_variant_name("self"));
        let v = |s: &str| stem_variant(s).map(|(v, u)| format!("{v} {u}"));
        assert_eq!(v("be-dev-1").unwrap(), "BeDev1 BE_DEV_1");
        assert_eq!(v("dev.lead").unwrap(), "DevLead DEV_LEAD");
        assert_eq!(v("josé").unwrap(), "José JOSÉ");
        assert_eq!(v("2nd-dev").unwrap(), "V2ndDev V_2ND_DEV");
        assert_eq!(v("self").unwrap(), "Self_ SELF");
        assert_eq!(v("a b").unwrap(), "AB A_B");
        assert!(v("--").unwrap_err().contains("no letter or digit"));
        assert!(v("x²").unwrap_err().contains("not a Rust identifier"));
        assert_eq!(tag("Tool policy").as_deref(), Some("tool_policy"));
        assert_eq!(tag("  Safety & Rules! ").as_deref(), Some("safety_rules"));
        assert_eq!(tag("42"), None);
        assert_eq!(tag("Ünïcode 😀 rules").as_deref(), Some("ünïcode_rules"));
        assert_eq!(tag("日本語").as_deref(), Some("日本語"));
        assert_eq!(closest("rols", ["roles", "layer"]), Some("roles"));
        assert_eq!(closest("zzz", ["roles", "layer"]), None);
        assert_eq!(closest("fabel", ["fable"]), Some("fable"));
        // Bounded: a 20,000-character name is not compared (it cost a 3 GB table).
        let long = "x".repeat(20_000);
        assert_eq!(closest(&long, ["roles", long.as_str()]), None);
        assert_eq!(closest("roles", [long.as_str(), "rolse"]), Some("rolse"));
        assert!(snake_ident_problem("type")
            .unwrap()
            .starts_with("is a Rust keyword"));
        assert!(snake_ident_problem("gen").is_some());
        assert!(snake_ident_problem("self_").is_some());
        assert!(snake_ident_problem("tools_more").is_none());
        assert_eq!(fold("Safety.md"), "safety.md");
        assert_eq!(fold("safe\u{200b}ty\u{00ad}.MD"), "safety.md");
        assert_eq!(fold("\u{feff}S\u{e0041}afety"), "safety");
    }
}

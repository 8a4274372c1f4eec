//! Turning manifest names and file stems into Rust identifiers.

/// `be-dev-1` → `BeDev1`, `tool_policy` → `ToolPolicy`.
pub fn camel(name: &str) -> String {
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
pub fn screaming(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            '-' | '.' | ' ' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// A name usable as a Rust field or method: lowercase ASCII letters, digits and `_`,
/// starting with a letter, and not a keyword.
pub fn is_snake_ident(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('a'..='z'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
        && syn::parse_str::<syn::Ident>(name).is_ok()
}

/// A role, knob value or file stem: becomes an enum variant through [`camel`], so it
/// must start with an ASCII letter and hold only letters, digits, `-` and `_`.
pub fn is_variant_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        // `self` would become `Self`, a keyword.
        && syn::parse_str::<syn::Ident>(&camel(name)).is_ok()
}

/// A type name such as `Team`: ASCII, starting with an uppercase letter.
pub fn is_type_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('A'..='Z'))
        && chars.all(|c| c.is_ascii_alphanumeric())
        && syn::parse_str::<syn::Ident>(name).is_ok()
}

/// The closest candidate by edit distance, for "did you mean" hints.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (distance(name, c), c))
        .filter(|(d, c)| *d <= (c.len().max(name.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_names() {
        assert_eq!(camel("be-dev-1"), "BeDev1");
        assert_eq!(camel("tool_policy"), "ToolPolicy");
        assert_eq!(screaming("ponytail-ethos"), "PONYTAIL_ETHOS");
        assert!(is_snake_ident("tools_more"));
        assert!(!is_snake_ident("type"));
        assert!(!is_snake_ident("Tools"));
        assert!(is_variant_name("be-dev-1"));
        assert!(!is_variant_name("1st"));
        assert!(!is_variant_name("self"));
        assert_eq!(closest("rols", ["roles", "layer"]), Some("roles"));
        assert_eq!(closest("zzz", ["roles", "layer"]), None);
    }
}

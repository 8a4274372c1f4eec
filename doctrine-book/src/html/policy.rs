//! The page's content security policy. Nothing is fetched (`default-src 'none'`), and the
//! only style and script that run are the page's own, named by the SHA-256 of their text
//! (CSP's `'sha256-…'` sources): escaping keeps a prompt's bytes from ever forming an
//! element, and the policy is the second wall, so an element injected by a bug in the
//! escaping would still not run (`'unsafe-inline'` would have let it).

/// The text of the page's `<style>` element, exactly: a hash names these bytes.
pub(super) const STYLE: &str = concat!("\n", include_str!("style.css"));
/// The text of the page's `<script>` element, exactly.
pub(super) const SCRIPT: &str = concat!("\n", include_str!("script.js"));

/// The policy, with the hashes of [`STYLE`] and [`SCRIPT`].
pub(super) fn policy() -> String {
    format!(
        "default-src 'none'; style-src '{}'; script-src '{}'; img-src data:; \
         base-uri 'none'; form-action 'none'",
        source(STYLE),
        source(SCRIPT)
    )
}

/// `sha256-<base64 of the digest>`, as CSP names an inline element by its text.
fn source(text: &str) -> String {
    format!(
        "sha256-{}",
        base64(&hmac_sha256::Hash::hash(text.as_bytes()))
    )
}

/// Standard base64 with padding (RFC 4648 §4), the encoding CSP hashes take.
fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            match i <= chunk.len() {
                true => out.push(DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char),
                false => out.push('='),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_sha256_give_the_standard_answers() {
        // RFC 4648 §10's test vectors.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
        // FIPS 180-2's "abc", as CSP writes it.
        assert_eq!(
            source("abc"),
            "sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
        );
    }

    #[test]
    fn the_policy_allows_no_inline_code_but_the_page_s_own() {
        let policy = policy();
        assert!(!policy.contains("unsafe"), "{policy}");
        assert!(policy.contains(&format!("style-src '{}';", source(STYLE))));
        assert!(policy.contains(&format!("script-src '{}';", source(SCRIPT))));
    }
}

//! How a fact's value is printed when the manifest says `escape = "json"` or `"xml"`:
//! streamed piece by piece (runs of the value as they are, and the escape of each byte
//! that needs one), so a composition measures the escaped length first and still writes
//! its prompt in one allocation.

/// How a value is escaped where it is printed. Used by generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Escaping {
    /// As the JSON string literal `serde_json` writes: quotes around it, `"` and `\`
    /// escaped, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`.
    Json,
    /// As XML character data or an attribute value: `&`, `<`, `>`, `"`, `'` as entities.
    Xml,
}

/// Each control character as `serde_json` writes it (lowercase hex digits).
const CONTROL: [&str; 32] = [
    "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007", "\\b",
    "\\t", "\\n", "\\u000b", "\\f", "\\r", "\\u000e", "\\u000f", "\\u0010", "\\u0011", "\\u0012",
    "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017", "\\u0018", "\\u0019", "\\u001a",
    "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
];

impl Escaping {
    /// What byte `b` is written as, when it is not written as it is.
    #[inline(always)]
    fn escape(self, b: u8) -> Option<&'static str> {
        match self {
            Escaping::Json => match b {
                b'"' => Some("\\\""),
                b'\\' => Some("\\\\"),
                0..=0x1f => Some(CONTROL[usize::from(b)]),
                _ => None,
            },
            Escaping::Xml => match b {
                b'&' => Some("&amp;"),
                b'<' => Some("&lt;"),
                b'>' => Some("&gt;"),
                b'"' => Some("&quot;"),
                b'\'' => Some("&apos;"),
                _ => None,
            },
        }
    }

    /// What goes around the escaped value.
    #[inline(always)]
    fn quote(self) -> &'static str {
        match self {
            Escaping::Json => "\"",
            Escaping::Xml => "",
        }
    }

    /// Hands the pieces `value` prints as to `out`, in order: the quotes, runs of the value
    /// as they are and the escape of each byte between them. Every byte escaped is ASCII,
    /// so each run is whole characters.
    #[inline]
    pub fn each_piece<'s>(self, value: &'s str, out: &mut impl FnMut(&'s str)) {
        let quote = self.quote();
        if !quote.is_empty() {
            out(quote);
        }
        let mut from = 0;
        for (at, &b) in value.as_bytes().iter().enumerate() {
            if let Some(escaped) = self.escape(b) {
                if from < at {
                    out(&value[from..at]);
                }
                out(escaped);
                from = at + 1;
            }
        }
        if from < value.len() {
            out(&value[from..]);
        }
        if !quote.is_empty() {
            out(quote);
        }
    }

    /// How many bytes `value` prints as.
    #[inline]
    pub fn len(self, value: &str) -> usize {
        let grown: usize = value
            .bytes()
            .map(|b| self.escape(b).map_or(0, |e| e.len() - 1))
            .sum();
        value.len() + grown + 2 * self.quote().len()
    }

    /// Appends what `value` prints as to `out`.
    #[inline]
    pub fn push(self, value: &str, out: &mut String) {
        self.each_piece(value, &mut |p| out.push_str(p));
    }

    /// What `value` prints as, as one string (for a tool that renders values one by one).
    pub fn escaped(self, value: &str) -> String {
        let mut out = String::with_capacity(self.len(value));
        self.push(value, &mut out);
        out
    }

    /// The manifest's word for it.
    pub fn name(self) -> &'static str {
        match self {
            Escaping::Json => "json",
            Escaping::Xml => "xml",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Escaping;

    #[test]
    fn json_writes_what_serde_json_writes() {
        let cases = [
            "",
            "plain",
            "a\"b\\c",
            "\n\r\t\u{8}\u{c}\u{0}\u{1f}\u{7f}",
            "é ☃ 🏴",
        ];
        for s in cases {
            let ours = Escaping::Json.escaped(s);
            assert_eq!(ours, serde_json::to_string(s).unwrap(), "{s:?}");
            assert_eq!(ours.len(), Escaping::Json.len(s));
        }
    }

    #[test]
    fn xml_writes_the_five_entities() {
        let s = r#"<a href="x">Tom & 'Jerry'</a>"#;
        assert_eq!(
            Escaping::Xml.escaped(s),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;"
        );
        assert_eq!(Escaping::Xml.escaped(""), "");
        assert_eq!(Escaping::Xml.len(s), Escaping::Xml.escaped(s).len());
    }

    proptest::proptest! {
        // Any text, controls and quotes made likely: byte for byte what serde_json writes,
        // at the length measured.
        #[test]
        fn json_is_byte_equal_to_serde_json(s in "(\\PC|[\\x00-\\x1f\"\\\\\u{7f}\u{2028}])*") {
            let ours = Escaping::Json.escaped(&s);
            proptest::prop_assert_eq!(&ours, &serde_json::to_string(&s).unwrap());
            proptest::prop_assert_eq!(ours.len(), Escaping::Json.len(&s));
            proptest::prop_assert_eq!(ours.capacity(), ours.len());
        }

        #[test]
        fn xml_round_trips(s in "\\PC*") {
            let ours = Escaping::Xml.escaped(&s);
            proptest::prop_assert_eq!(ours.len(), Escaping::Xml.len(&s));
            let back = ours.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&apos;", "'").replace("&amp;", "&");
            proptest::prop_assert_eq!(back, s);
        }
    }
}

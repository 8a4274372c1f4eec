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
    /// As XML character data or an attribute value: `&`, `<`, `>`, `"`, `'` as entities, a
    /// carriage return as `&#13;` (written raw, an XML reader reads it as a line feed),
    /// and the characters XML 1.0 cannot carry even as references (controls other than
    /// tab, line feed and carriage return; U+FFFE, U+FFFF) left out, so the result is
    /// well-formed; [`Escaping::dropped`] counts them for the prompt's notices.
    Xml,
    /// As handlebars writes a `{{value}}`: `&`, `<`, `>`, `"`, `'`, `` ` `` and `=` as
    /// entities, everything else as it is. Printed per placeholder, not per fact, as the
    /// tag says (`{{{value}}}` prints it as given).
    Html,
}

/// What a run-time piece is written inside, which decides how the guard escapes a
/// boundary in it: a `\` in plain text; inside a JSON string one of JSON's escapes, and
/// inside escaped markup (`xml`, handlebars' `{{x}}`) a numeric character reference, so
/// the value still reads back as given to what reads it that way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Within {
    #[default]
    Text,
    Json,
    Markup,
}

impl Escaping {
    /// What a value printed this way is written inside.
    #[inline(always)]
    pub(crate) fn within(self) -> Within {
        match self {
            Escaping::Json => Within::Json,
            Escaping::Xml | Escaping::Html => Within::Markup,
        }
    }
}

impl super::emit::Emit for Escaping {
    fn emit(&self, out: &mut dyn super::emit::Out) {
        out.code(match self {
            Escaping::Json => "Escaping::Json",
            Escaping::Xml => "Escaping::Xml",
            Escaping::Html => "Escaping::Html",
        });
    }
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
                0..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f => Some(""),
                // A raw CR is read as a line feed by every XML reader.
                b'\r' => Some("&#13;"),
                b'&' => Some("&amp;"),
                b'<' => Some("&lt;"),
                b'>' => Some("&gt;"),
                b'"' => Some("&quot;"),
                b'\'' => Some("&apos;"),
                _ => None,
            },
            Escaping::Html => match b {
                b'&' => Some("&amp;"),
                b'<' => Some("&lt;"),
                b'>' => Some("&gt;"),
                b'"' => Some("&quot;"),
                b'\'' => Some("&#x27;"),
                b'`' => Some("&#x60;"),
                b'=' => Some("&#x3D;"),
                _ => None,
            },
        }
    }

    /// What goes around the escaped value.
    #[inline(always)]
    fn quote(self) -> &'static str {
        match self {
            Escaping::Json => "\"",
            Escaping::Xml | Escaping::Html => "",
        }
    }

    /// How many bytes of the character starting with byte `b` at `at` are left out: U+FFFE
    /// and U+FFFF (`EF BF BE`, `EF BF BF`) in XML, which no XML 1.0 document may hold.
    #[inline(always)]
    fn left_out(self, bytes: &[u8], at: usize, b: u8) -> usize {
        let noncharacter = |i: usize| {
            bytes.get(i + 1) == Some(&0xbf) && matches!(bytes.get(i + 2), Some(0xbe | 0xbf))
        };
        match self == Escaping::Xml && b == 0xef && noncharacter(at) {
            true => 3,
            false => 0,
        }
    }

    /// Hands the pieces `value` prints as to `out`, in order: the quotes, runs of the value
    /// as they are and the escape of each byte between them. Every byte escaped is ASCII,
    /// and a character left out is left out whole, so each run is whole characters.
    #[inline]
    pub fn each_piece<'s>(self, value: &'s str, out: &mut impl FnMut(&'s str)) {
        let quote = self.quote();
        if !quote.is_empty() {
            out(quote);
        }
        let bytes = value.as_bytes();
        let (mut from, mut at) = (0, 0);
        while let Some(&b) = bytes.get(at) {
            let (escaped, len) = match self.escape(b) {
                Some(e) => (e, 1),
                None => match self.left_out(bytes, at, b) {
                    0 => {
                        at += 1;
                        continue;
                    }
                    n => ("", n),
                },
            };
            if from < at {
                out(&value[from..at]);
            }
            if !escaped.is_empty() {
                out(escaped);
            }
            at += len;
            from = at;
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
        let bytes = value.as_bytes();
        let grown: isize = (bytes.iter().enumerate())
            .map(|(at, &b)| match self.escape(b) {
                Some(e) => e.len() as isize - 1,
                None => -(self.left_out(bytes, at, b) as isize),
            })
            .sum();
        (value.len() as isize + grown) as usize + 2 * self.quote().len()
    }

    /// How many characters of `value` are left out where it prints: those XML 1.0 cannot
    /// carry, in XML; none in JSON, which escapes every one.
    pub fn dropped(self, value: &str) -> usize {
        if self != Escaping::Xml {
            return 0;
        }
        let bytes = value.as_bytes();
        (bytes.iter().enumerate())
            .filter(|&(at, &b)| self.escape(b) == Some("") || self.left_out(bytes, at, b) > 0)
            .count()
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
            Escaping::Html => "html",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Escaping;

    #[test]
    fn html_writes_what_handlebars_writes() {
        let value = "a & b <c> \"d\" 'e' `f` g=h # i \\ é";
        assert_eq!(
            Escaping::Html.escaped(value),
            "a &amp; b &lt;c&gt; &quot;d&quot; &#x27;e&#x27; &#x60;f&#x60; g&#x3D;h # i \\ é"
        );
        assert_eq!(
            Escaping::Html.len(value),
            Escaping::Html.escaped(value).len()
        );
        assert_eq!(Escaping::Html.dropped(value), 0);
    }

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

    #[test]
    fn xml_leaves_out_what_xml_cannot_carry() {
        let s = "a\u{0}b\u{1b}c\td\ne\rf\u{fffe}g\u{ffff}h\u{fffd}\u{7f}";
        let out = Escaping::Xml.escaped(s);
        assert_eq!(out, "abc\td\ne&#13;fgh\u{fffd}\u{7f}");
        assert_eq!(Escaping::Xml.len(s), out.len());
        assert_eq!(Escaping::Xml.dropped(s), 4);
        assert_eq!(Escaping::Json.dropped(s), 0);
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

        // What XML can carry comes back; the rest is counted as left out.
        #[test]
        fn xml_round_trips(s in "(\\PC|[\x00-\x1f\u{fffe}\u{ffff}&<>])*") {
            let ours = Escaping::Xml.escaped(&s);
            proptest::prop_assert_eq!(ours.len(), Escaping::Xml.len(&s));
            let back = ours.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&apos;", "'").replace("&#13;", "\r").replace("&amp;", "&");
            let carried = |c: char| {
                matches!(c, '\t' | '\n' | '\r') || !(c < ' ' || c == '\u{fffe}' || c == '\u{ffff}')
            };
            let kept: String = s.chars().filter(|&c| carried(c)).collect();
            proptest::prop_assert_eq!(back, kept);
            let dropped = s.chars().filter(|&c| !carried(c)).count();
            proptest::prop_assert_eq!(Escaping::Xml.dropped(&s), dropped);
        }
    }
}

//! A JSON value built in order and printed pretty: the manifest's schema is the only JSON
//! the crate writes, too little to pull a serializer into a user's build.

/// A JSON value; an object keeps its keys in the order they were added, so the printed
/// schema is stable and diffs line by line.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Json {
    Bool(bool),
    Int(u64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub(super) fn object() -> Self {
        Json::Object(Vec::new())
    }

    /// `self` with `key` set to `value` (replaced in place if present, else last).
    pub(super) fn with(mut self, key: &str, value: impl Into<Json>) -> Self {
        self.set(key, value.into());
        self
    }

    /// Sets `key` in an object (in place if present, else last); a non-object is left alone.
    pub(super) fn set(&mut self, key: &str, value: Json) {
        if let Json::Object(entries) = self {
            match entries.iter_mut().find(|(k, _)| k == key) {
                Some((_, v)) => *v = value,
                None => entries.push((key.to_string(), value)),
            }
        }
    }

    /// Sets `key` in an object as its first entry (moved there if present).
    pub(super) fn set_first(&mut self, key: &str, value: Json) {
        if let Json::Object(entries) = self {
            entries.retain(|(k, _)| k != key);
            entries.insert(0, (key.to_string(), value));
        }
    }

    pub(super) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub(super) fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(entries) => entries.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value printed with two-space indentation and a final line break.
    pub(super) fn pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        match self {
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(i) => out.push_str(&i.to_string()),
            Json::Str(s) => write_str(s, out),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Object(entries) if entries.is_empty() => out.push_str("{}"),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    indent(out, depth + 1);
                    item.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push(']');
            }
            Json::Object(entries) => {
                out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    indent(out, depth + 1);
                    write_str(key, out);
                    out.push_str(": ");
                    value.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push('}');
            }
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    out.extend(std::iter::repeat_n("  ", depth));
}

/// A JSON string literal: `"`, `\` and control characters escaped, the rest as it is.
fn write_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

impl From<&str> for Json {
    fn from(s: &str) -> Self {
        Json::Str(s.to_string())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Self {
        Json::Str(s)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Self {
        Json::Bool(b)
    }
}

impl From<u64> for Json {
    fn from(i: u64) -> Self {
        Json::Int(i)
    }
}

impl From<Vec<Json>> for Json {
    fn from(items: Vec<Json>) -> Self {
        Json::Array(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_print_in_insertion_order_with_escapes() {
        let v = Json::object()
            .with("b", "say \"hi\"\n\\ \u{1}é")
            .with("a", vec![Json::Int(0), Json::Bool(false)])
            .with("e", Json::object())
            .with("z", Vec::<Json>::new());
        assert_eq!(
            v.pretty(),
            "{\n  \"b\": \"say \\\"hi\\\"\\n\\\\ \\u0001é\",\n  \"a\": [\n    0,\n    false\n  ],\n  \"e\": {},\n  \"z\": []\n}\n"
        );
    }

    #[test]
    fn set_replaces_in_place_and_set_first_moves_to_the_front() {
        let mut v = Json::object().with("a", 1u64).with("b", 2u64);
        v.set("a", Json::Int(3));
        v.set_first("b", Json::Int(4));
        assert_eq!(
            v,
            Json::Object(vec![("b".into(), Json::Int(4)), ("a".into(), Json::Int(3))])
        );
        assert_eq!(v.get("a"), Some(&Json::Int(3)));
        assert_eq!(v.get("c"), None);
    }
}

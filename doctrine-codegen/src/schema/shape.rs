//! The pieces a table's schema is built of: value shapes and a table's keys. A leaf, so
//! that the declarations (`de`, `raw`, `sections`) build their schemas without reaching
//! the document that reads them.

use super::super::json::Json;

pub(crate) fn typed(kind: &str) -> Json {
    Json::object().with("type", kind)
}

pub(crate) fn array(items: Json) -> Json {
    typed("array").with("items", items)
}

/// A table of names, each holding a `values`.
pub(crate) fn map(values: Json) -> Json {
    typed("object").with("additionalProperties", values)
}

/// One of a closed set of words.
pub(crate) fn words(words: &[&str]) -> Json {
    let words: Vec<Json> = words.iter().map(|w| Json::from(*w)).collect();
    typed("string").with("enum", words)
}

/// A value written one of several ways. `anyOf`, not `oneOf`: an empty array is both an
/// array of names and an array of alternatives.
pub(crate) fn any_of(options: Vec<Json>) -> Json {
    Json::object().with("anyOf", options)
}

/// One table's schema, built field by field by its declaration.
#[derive(Default)]
pub(crate) struct TableSchema {
    properties: Vec<(String, Json)>,
    required: Vec<&'static str>,
    /// Two spellings of one key (`roles` / `modes`): not both.
    exclusive: Vec<[&'static str; 2]>,
}

impl TableSchema {
    /// A key (with its second spelling, if any) whose value is `schema`; `doc` is the
    /// field's doc comment, its description unless the reference gives one.
    pub(crate) fn field(
        &mut self,
        keys: &[&'static str],
        mut schema: Json,
        required: bool,
        doc: &[&str],
    ) {
        let doc: Vec<&str> = doc.iter().map(|l| l.trim()).collect();
        let doc = doc.join(" ");
        if !doc.is_empty() {
            schema.set_first("description", doc.into());
        }
        for key in keys {
            self.properties.push((key.to_string(), schema.clone()));
        }
        if required {
            self.required.extend(keys.first());
        }
        if let [a, b] = keys {
            self.exclusive.push([a, b]);
        }
    }

    pub(crate) fn build(self) -> Json {
        let mut out = typed("object").with("properties", Json::Object(self.properties));
        if !self.required.is_empty() {
            let required: Vec<Json> = self.required.into_iter().map(Json::from).collect();
            out.set("required", required.into());
        }
        out.set("additionalProperties", false.into());
        let mut exclusive: Vec<Json> = self
            .exclusive
            .iter()
            .map(|both| {
                let both: Vec<Json> = both.iter().map(|k| Json::from(*k)).collect();
                Json::object().with("required", both)
            })
            .collect();
        match exclusive.len() {
            0 => {}
            1 => out.set("not", exclusive.remove(0)),
            _ => {
                let nots = exclusive
                    .into_iter()
                    .map(|both| Json::object().with("not", both));
                out.set("allOf", nots.collect::<Vec<_>>().into());
            }
        }
        out
    }
}

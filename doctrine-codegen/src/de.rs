//! TOML values → the manifest's raw shapes, read by hand from `toml`'s spanned tree.
//!
//! serde's derive would do the same, but it puts `syn` → `serde_derive` → `serde` in a
//! row on the critical path of every user's cold build, ahead of this crate (about 5 s of
//! a 27 s build; BENCHMARKS.md, "Build cost of a user crate"). The tree is `toml`'s own
//! parse: nothing here parses TOML.

use std::collections::BTreeMap;
use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

#[cfg(feature = "schema")]
use super::json::Json;
use super::names::closest;
#[cfg(feature = "schema")]
use super::schema::shape;

pub(super) type Value<'i> = Spanned<DeValue<'i>>;

/// The first thing wrong with a value, and where.
#[derive(Debug)]
pub(super) struct Error {
    pub span: Range<usize>,
    pub message: String,
    /// How to fix it, when the message alone does not say (else a pointer to the
    /// reference).
    pub help: Option<String>,
}

/// A manifest shape readable from one TOML value.
pub(super) trait FromToml: Sized {
    /// What the value should be, for messages ("a string").
    const EXPECTED: &'static str;
    fn from_toml(v: &Value<'_>) -> Result<Self, Error>;
    /// What `from_toml` accepts, as a JSON Schema (see `schema`): every reader says it, so
    /// the manifest's schema has no shape the reader does not.
    #[cfg(feature = "schema")]
    fn schema() -> Json;
    /// Every unknown key in `v`'s tables, at any depth, as an error at the key; `of` names
    /// what holds `v` ("layer `base`"), for messages. A value without keys has none.
    fn unknown_keys(_v: &Value<'_>, _of: &str, _out: &mut Vec<Error>) {}
}

/// "invalid type: integer `3`, expected a string".
pub(super) fn invalid<T>(v: &Value<'_>, expected: &str) -> Result<T, Error> {
    let found = match v.get_ref() {
        DeValue::String(s) => format!("string {s:?}"),
        DeValue::Integer(i) => format!("integer `{i}`"),
        DeValue::Float(f) => format!("float `{f}`"),
        DeValue::Boolean(b) => format!("boolean `{b}`"),
        other => other.type_str().to_string(),
    };
    Err(Error {
        span: v.span(),
        help: None,
        message: format!("invalid type: {found}, expected {expected}"),
    })
}

impl FromToml for String {
    const EXPECTED: &'static str = "a string";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref().as_str() {
            Some(s) => Ok(s.to_string()),
            None => invalid(v, Self::EXPECTED),
        }
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        shape::typed("string")
    }
}

impl FromToml for bool {
    const EXPECTED: &'static str = "a boolean";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref().as_bool() {
            Some(b) => Ok(b),
            None => invalid(v, Self::EXPECTED),
        }
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        shape::typed("boolean")
    }
}

impl FromToml for usize {
    const EXPECTED: &'static str = "a non-negative integer";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        let Some(i) = v.get_ref().as_integer() else {
            return invalid(v, Self::EXPECTED);
        };
        usize::from_str_radix(i.as_str(), i.radix()).map_err(|_| Error {
            span: v.span(),
            help: None,
            message: format!("invalid value: integer `{i}`, expected {}", Self::EXPECTED),
        })
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        shape::typed("integer").with("minimum", 0u64)
    }
}

impl<T: FromToml> FromToml for Spanned<T> {
    const EXPECTED: &'static str = T::EXPECTED;
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        Ok(Spanned::new(v.span(), T::from_toml(v)?))
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        T::schema()
    }
    fn unknown_keys(v: &Value<'_>, of: &str, out: &mut Vec<Error>) {
        T::unknown_keys(v, of, out);
    }
}

impl<T: FromToml> FromToml for Vec<T> {
    const EXPECTED: &'static str = "an array";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        match v.get_ref().as_array() {
            Some(items) => items.iter().map(T::from_toml).collect(),
            None => invalid(v, Self::EXPECTED),
        }
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        shape::array(T::schema())
    }
    fn unknown_keys(v: &Value<'_>, of: &str, out: &mut Vec<Error>) {
        for item in v.get_ref().as_array().into_iter().flatten() {
            T::unknown_keys(item, of, out);
        }
    }
}

/// A table of names, each key kept with its span.
impl<T: FromToml> FromToml for BTreeMap<Spanned<String>, T> {
    const EXPECTED: &'static str = "a table";
    fn from_toml(v: &Value<'_>) -> Result<Self, Error> {
        as_table(v, Self::EXPECTED)?
            .iter()
            .map(|(k, v)| {
                Ok((
                    Spanned::new(k.span(), k.get_ref().to_string()),
                    T::from_toml(v)?,
                ))
            })
            .collect()
    }
    #[cfg(feature = "schema")]
    fn schema() -> Json {
        shape::map(T::schema())
    }
    fn unknown_keys(v: &Value<'_>, of: &str, out: &mut Vec<Error>) {
        for v in v.get_ref().as_table().into_iter().flat_map(|t| t.values()) {
            T::unknown_keys(v, of, out);
        }
    }
}

fn as_table<'a, 'i>(v: &'a Value<'i>, expected: &str) -> Result<&'a DeTable<'i>, Error> {
    match v.get_ref().as_table() {
        Some(t) => Ok(t),
        None => invalid(v, expected),
    }
}

/// A table field's type: the value's (`T`), or `Option<T>` for a key that may be absent.
pub(super) trait Field {
    type Value: FromToml;
}

impl<T: FromToml> Field for T {
    type Value = T;
}

impl<T: FromToml> Field for Option<T> {
    type Value = T;
}

/// The keys of one table, read field by field. Unknown keys are reported apart (see
/// [`unknown`]), so they are not looked at here.
pub(super) struct Fields<'a, 'i> {
    table: Option<&'a DeTable<'i>>,
    /// `key = value` standing for the whole table, as `selector = "name"` does.
    short: Option<(&'static str, &'a Value<'i>)>,
    span: Range<usize>,
    /// The keys the table accepts, to tell a missing key from a misspelt one.
    keys: &'static [&'static str],
}

impl<'a, 'i> Fields<'a, 'i> {
    /// `v` as a table of `keys`, or (a string, with `short`) as the table of that one key.
    pub(super) fn of(
        v: &'a Value<'i>,
        expected: &str,
        short: Option<&'static str>,
        keys: &'static [&'static str],
    ) -> Result<Self, Error> {
        let short = short.filter(|_| v.get_ref().is_str()).map(|key| (key, v));
        let table = match short {
            Some(_) => None,
            None => Some(as_table(v, expected)?),
        };
        Ok(Fields {
            table,
            short,
            span: v.span(),
            keys,
        })
    }

    fn get(&self, key: &str) -> Option<&'a Value<'i>> {
        match (self.table, self.short) {
            (Some(t), _) => t.get(key),
            (None, Some((k, v))) if k == key => Some(v),
            (None, _) => None,
        }
    }

    pub(super) fn optional<T: FromToml>(&self, key: &str) -> Result<Option<T>, Error> {
        self.get(key).map(|v| read_at(key, v)).transpose()
    }

    pub(super) fn required<T: FromToml>(&self, key: &str) -> Result<T, Error> {
        if let Some(v) = self.get(key) {
            return read_at(key, v);
        }
        // An unknown key that [`unknown`] takes for a misspelling of this one: the error
        // stands at that key, where the unknown-key error already says it (see
        // `sections::de`, which then reports only that one).
        let misspelt = self.table.into_iter().flat_map(|t| t.keys()).find(|k| {
            let name: &str = k.get_ref();
            !self.keys.contains(&name) && closest(name, self.keys.iter().copied()) == Some(key)
        });
        Err(match misspelt {
            Some(k) => Error {
                span: k.span(),
                help: Some(format!("`{}` may be it: write `{key}`", k.get_ref())),
                message: format!("missing field `{key}`"),
            },
            None => Error {
                span: self.span.clone(),
                help: None,
                message: format!("missing field `{key}`"),
            },
        })
    }

    pub(super) fn or_default<T: FromToml + Default>(&self, key: &str) -> Result<T, Error> {
        Ok(self.optional(key)?.unwrap_or_default())
    }

    /// A key with a second spelling (`roles` / `modes`); both at once is an error.
    pub(super) fn either<T: FromToml>(&self, key: &str, alias: &str) -> Result<Option<T>, Error> {
        let second = self.table.and_then(|t| t.get_key_value(alias));
        if let (Some(_), Some(second)) = (self.get(key), second) {
            return Err(Error {
                span: second.0.span(),
                help: None,
                message: format!("`{key}` and `{alias}` are two spellings of one key: keep one"),
            });
        }
        match self.optional(key)? {
            Some(v) => Ok(Some(v)),
            None => self.optional(alias),
        }
    }
}

/// Reads the value of `key`; a value that should be a table and is not (`list = true`)
/// gets a help naming the key's form, which the generic one does not.
fn read_at<T: FromToml>(key: &str, v: &Value<'_>) -> Result<T, Error> {
    T::from_toml(v).map_err(|mut e| {
        if e.help.is_none() && T::EXPECTED == "a table" && e.span == v.span() {
            e.help = Some(format!(
                "`{key}` is a table: write `{key} = {{ ... }}` with its keys, `{key} = {{}}` \
                 when none is needed; the manifest reference lists them \
                 (doctrine::guide::reference)"
            ));
        }
        e
    })
}

/// Each key of `table` not in `known`, as "unknown key `x` in {what}" at the key, with the
/// closest known key.
pub(super) fn unknown(table: &DeTable<'_>, known: &[&str], what: &str, out: &mut Vec<Error>) {
    for key in table.keys() {
        let name: &str = key.get_ref();
        if known.contains(&name) {
            continue;
        }
        let help = match closest(name, known.iter().copied()) {
            Some(c) => format!("did you mean `{c}`? known keys: {}", known.join(", ")),
            None => format!("known keys: {}", known.join(", ")),
        };
        out.push(Error {
            span: key.span(),
            message: format!("unknown key `{name}` in {what}"),
            help: Some(help),
        });
    }
}

/// One manifest table, declared once: the struct, its keys (in the order messages list
/// them), its reader and its unknown-key check, nested tables included, in the spirit of
/// serde's `deny_unknown_fields` on `toml`'s spanned tree.
///
/// `in "..."` names the table in messages, `{of}` standing for what holds it ("the suffix
/// of {of}": "the suffix of layer `base`"). Each field is `name: Type = "key"`, an
/// optional key whose type is an `Option`; `required "key"`; `default "key"` (absent is
/// the type's default); or `"key" | "alias"` (two spellings, not both). Fields are read in
/// order and the first error is the table's. `short "key"` reads a string as the table
/// `{ key = string }`, and `expected` then says what the value may be. A field's doc
/// comment is its key's description in the schema, unless the reference gives one.
macro_rules! table {
    (
        $(#[$doc:meta])*
        $vis:vis struct $name:ident in $what:literal
            $(, short $short:literal, expected $expected:literal)?
        {
            $(
                $(#[doc = $fdoc:literal])*
                $field:ident: $ty:ty = $($how:ident)? $key:literal $(| $alias:literal)?,
            )*
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug)]
        $vis struct $name {
            $($(#[doc = $fdoc])* pub $field: $ty,)*
        }

        impl $name {
            /// The keys the table accepts, in the order messages list them.
            pub(super) const KEYS: &'static [&'static str] = &[$($key, $($alias,)?)*];
        }

        impl $crate::de::FromToml for $name {
            const EXPECTED: &'static str = $crate::de::table!(@or $($expected)? "a table");
            fn from_toml(
                v: &$crate::de::Value<'_>,
            ) -> ::std::result::Result<Self, $crate::de::Error> {
                let short = $crate::de::table!(@short $($short)?);
                let f = $crate::de::Fields::of(v, Self::EXPECTED, short, Self::KEYS)?;
                Ok($name {
                    $($field: $crate::de::table!(@read f $($how)? $key $(| $alias)?),)*
                })
            }
            #[cfg(feature = "schema")]
            fn schema() -> $crate::json::Json {
                let mut table = $crate::schema::shape::TableSchema::default();
                $(
                    table.field(
                        &[$key $(, $alias)?],
                        <<$ty as $crate::de::Field>::Value
                            as $crate::de::FromToml>::schema(),
                        $crate::de::table!(@required $($how)?),
                        &[$($fdoc),*],
                    );
                )*
                $crate::de::table!(@schema table.build() $(, $short)?)
            }
            fn unknown_keys(
                v: &$crate::de::Value<'_>,
                of: &str,
                out: &mut Vec<$crate::de::Error>,
            ) {
                let Some(t) = v.get_ref().as_table() else {
                    return;
                };
                let what = $what.replace("{of}", of);
                $crate::de::unknown(t, Self::KEYS, &what, out);
                $(
                    for v in [t.get($key) $(, t.get($alias))?].into_iter().flatten() {
                        <<$ty as $crate::de::Field>::Value
                            as $crate::de::FromToml>::unknown_keys(v, &what, out);
                    }
                )*
            }
        }
    };
    (@or $first:literal $($rest:literal)?) => { $first };
    (@short) => { None };
    (@short $key:literal) => { Some($key) };
    (@required required) => { true };
    (@required $($how:ident)?) => { false };
    // `short`: a string (`Fields::of` takes any) or the table.
    (@schema $table:expr) => { $table };
    (@schema $table:expr, $short:literal) => {
        $crate::schema::shape::any_of(vec![$crate::schema::shape::typed("string"), $table])
    };
    (@read $f:ident $key:literal) => { $f.optional($key)? };
    (@read $f:ident required $key:literal) => { $f.required($key)? };
    (@read $f:ident default $key:literal) => { $f.or_default($key)? };
    (@read $f:ident $key:literal | $alias:literal) => { $f.either($key, $alias)? };
}
pub(super) use table;

/// An enum written as one of a closed set of lowercase words.
macro_rules! keywords {
    ($(#[$doc:meta])* $vis:vis enum $name:ident { $($variant:ident = $word:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            $($variant,)*
        }

        impl $crate::de::FromToml for $name {
            const EXPECTED: &'static str = "a string";
            fn from_toml(
                v: &$crate::de::Value<'_>,
            ) -> ::std::result::Result<Self, $crate::de::Error> {
                let word = <String as $crate::de::FromToml>::from_toml(v)?;
                match word.as_str() {
                    $($word => Ok($name::$variant),)*
                    _ => Err($crate::de::unknown_word(v, &word, &[$($word),*])),
                }
            }
            #[cfg(feature = "schema")]
            fn schema() -> $crate::json::Json {
                $crate::schema::shape::words(&[$($word),*])
            }
        }
    };
}
pub(super) use keywords;

/// "unknown variant `volatil`, expected `stable` or `volatile`".
pub(super) fn unknown_word(v: &Value<'_>, word: &str, words: &[&str]) -> Error {
    unknown_word_at(v.span(), word, words)
}

/// [`unknown_word`] at `span`.
pub(super) fn unknown_word_at(span: Range<usize>, word: &str, words: &[&str]) -> Error {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    let expected = match quoted.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", quoted.join(", ")),
    };
    Error {
        span,
        help: closest(word, words.iter().copied()).map(|c| format!("did you mean `{c}`?")),
        message: format!("unknown variant `{word}`, expected {expected}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    table! {
        struct Outer in "outer `{of}`" {
            name: Spanned<String> = required "name",
            count: Option<usize> = "count",
            tags: Vec<String> = default "tags",
            roles: Option<Vec<String>> = "roles" | "modes",
            inner: Option<Inner> = "inner",
            many: Vec<Inner> = default "many",
        }
    }

    table! {
        struct Inner in "the inner of {of}", short "id", expected "an id or a table" {
            id: String = required "id",
            /// A note,
            /// read as it is.
            note: Option<String> = "note",
        }
    }

    fn value(toml: &str) -> Value<'_> {
        let (doc, errors) = DeTable::parse_recoverable(toml);
        assert!(errors.is_empty(), "{errors:?}");
        let span = doc.span();
        Spanned::new(span, DeValue::Table(doc.into_inner()))
    }

    fn unknown_keys<T: FromToml>(toml: &str) -> Vec<String> {
        let mut out = Vec::new();
        T::unknown_keys(&value(toml), "x", &mut out);
        out.iter()
            .map(|e| format!("{}: {}", &toml[e.span.clone()], e.message))
            .collect()
    }

    #[test]
    fn a_declaration_lists_its_keys_in_order_with_aliases() {
        assert_eq!(
            Outer::KEYS,
            ["name", "count", "tags", "roles", "modes", "inner", "many"]
        );
        assert_eq!(Inner::KEYS, ["id", "note"]);
    }

    /// The schema comes from the declaration alone: its keys, in order, with their types,
    /// which are required, which two exclude each other, and the short form.
    #[test]
    #[cfg(feature = "schema")]
    fn a_declaration_is_its_schema() {
        let outer = Outer::schema();
        let Some(Json::Object(properties)) = outer.get("properties") else {
            panic!("a table has properties: {outer:?}");
        };
        let keys: Vec<&str> = properties.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, Outer::KEYS);
        let property = |k: &str| outer.get("properties").unwrap().get(k).unwrap();
        assert_eq!(property("name"), &shape::typed("string"));
        assert_eq!(
            property("count"),
            &shape::typed("integer").with("minimum", 0u64)
        );
        assert_eq!(property("roles"), property("modes"));
        assert_eq!(property("many"), &shape::array(Inner::schema()));
        assert_eq!(
            outer.get("required"),
            Some(&vec![Json::from("name")].into())
        );
        assert_eq!(
            outer.get("not"),
            Some(&Json::object().with("required", vec!["roles".into(), "modes".into()]))
        );
        assert_eq!(outer.get("additionalProperties"), Some(&Json::Bool(false)));
        // `short "id"`: a string, or the table.
        let Some(Json::Array(options)) = Inner::schema().get("anyOf").cloned() else {
            panic!("a short table is a string or a table");
        };
        assert_eq!(options[0], shape::typed("string"));
        assert_eq!(
            options[1].get("required"),
            Some(&vec![Json::from("id")].into())
        );
        // A field's doc comment describes its key.
        assert_eq!(
            options[1]
                .get("properties")
                .unwrap()
                .get("note")
                .unwrap()
                .get("description"),
            Some(&Json::from("A note, read as it is."))
        );
    }

    #[test]
    fn unknown_keys_are_found_at_every_depth_and_named_by_their_table() {
        let found = unknown_keys::<Outer>(
            "nmae = 1\nname = \"a\"\ninner = { id = \"i\", nots = 2 }\nmany = [{ id = \"j\", zz = 1 }, \"k\", 3]\n",
        );
        assert_eq!(
            found,
            [
                "nmae: unknown key `nmae` in outer `x`",
                "nots: unknown key `nots` in the inner of outer `x`",
                "zz: unknown key `zz` in the inner of outer `x`",
            ]
        );
        let mut out = Vec::new();
        Outer::unknown_keys(&value("nmae = 1"), "x", &mut out);
        assert_eq!(
            out[0].help.as_deref(),
            Some("did you mean `name`? known keys: name, count, tags, roles, modes, inner, many")
        );
    }

    #[test]
    fn fields_read_in_order_and_the_first_error_is_the_tables() {
        let o = Outer::from_toml(&value("name = \"a\"\nmodes = [\"m\"]\ninner = \"i\"")).unwrap();
        assert_eq!(o.name.get_ref(), "a");
        assert_eq!((o.count, o.tags.len(), o.many.len()), (None, 0, 0));
        assert_eq!(o.roles, Some(vec!["m".to_string()]));
        // A string stands for `{ id = "..." }`.
        let inner = o.inner.unwrap();
        assert_eq!((inner.id.as_str(), inner.note), ("i", None));

        let first = |toml: &str| Outer::from_toml(&value(toml)).unwrap_err().message;
        assert_eq!(first("count = 1"), "missing field `name`");
        assert_eq!(
            first("count = \"c\"\nname = 3"),
            "invalid type: integer `3`, expected a string"
        );
        assert_eq!(
            first("name = \"a\"\nroles = []\nmodes = []"),
            "`roles` and `modes` are two spellings of one key: keep one"
        );
        assert_eq!(
            first("name = \"a\"\ninner = 3"),
            "invalid type: integer `3`, expected an id or a table"
        );
        assert_eq!(
            first("name = \"a\"\nmany = [{ note = \"n\" }]"),
            "missing field `id`"
        );
    }

    #[test]
    fn a_missing_key_misspelt_as_an_unknown_one_is_placed_at_it() {
        let toml = "count = 1\nnmae = \"a\"";
        let e = Outer::from_toml(&value(toml)).unwrap_err();
        assert_eq!(
            (&toml[e.span.clone()], e.message.as_str()),
            ("nmae", "missing field `name`")
        );
        assert_eq!(e.help.as_deref(), Some("`nmae` may be it: write `name`"));
        // The unknown-key error stands at the same place, so only one is reported.
        let mut unknown = Vec::new();
        Outer::unknown_keys(&value(toml), "x", &mut unknown);
        assert_eq!(unknown[0].span, e.span);
        // A key that is no misspelling of it leaves the error on the table.
        let toml = "count = 1\nzzzzzz = 2";
        let e = Outer::from_toml(&value(toml)).unwrap_err();
        assert_eq!(e.span, value(toml).span());
        assert_eq!(e.help, None);
    }
}

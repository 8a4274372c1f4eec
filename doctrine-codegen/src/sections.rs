//! How the manifest's top level is read: the `sections!` declaration (as `de::table!`
//! declares a table) and the readers its fields name, each reporting into the sink, so one
//! bad section does not hide the others.

use toml::de::DeString;
use toml::Spanned;

use super::de::{Error, FromToml, Value};
use super::diag::Sink;
#[cfg(feature = "schema")]
use super::json::Json;
#[cfg(feature = "schema")]
use super::schema::shape;

/// The top-level table, declared as `de::table!` declares a table, but read section by
/// section: each key's value is read by the function its field names (`named`, `each`…;
/// none: [`one`]), which reports into the sink, in the order the manifest writes them.
/// Its schema takes each value's shape from the field's type ([`SectionSchema`]).
macro_rules! sections {
    (
        $(#[$doc:meta])*
        $vis:vis struct $name:ident in $what:literal {
            $(
                $(#[doc = $fdoc:literal])*
                $field:ident: $ty:ty = $($how:ident)? $key:literal $(| $alias:literal)?,
            )*
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Default)]
        $vis struct $name {
            $($(#[doc = $fdoc])* pub $field: $ty,)*
        }

        impl $name {
            /// The keys the table accepts, in the order messages list them.
            pub(super) const KEYS: &'static [&'static str] = &[$($key, $($alias,)?)*];

            pub(super) fn read(
                doc: &::toml::de::DeTable<'_>,
                sink: &mut $crate::diag::Sink<'_>,
            ) -> Self {
                let mut unknown = Vec::new();
                $crate::de::unknown(doc, Self::KEYS, $what, &mut unknown);
                $crate::sections::report(unknown, sink);
                let mut out = Self::default();
                for (key, value) in doc {
                    match key.get_ref().as_ref() {
                        $($key $(| $alias)? => {
                            $crate::sections::sections!(@read $($how)?)(&mut out.$field, key, value, sink)
                        })*
                        _ => {} // reported above
                    }
                }
                out
            }

            /// The table's JSON Schema: each key's value as its field's reader reads it.
            #[cfg(feature = "schema")]
            pub(super) fn schema() -> $crate::json::Json {
                let mut table = $crate::schema::shape::TableSchema::default();
                $(
                    table.field(
                        &[$key $(, $alias)?],
                        <$ty as $crate::sections::SectionSchema>::value_schema(),
                        false,
                        &[$($fdoc),*],
                    );
                )*
                table.build()
            }
        }
    };
    (@read) => { $crate::sections::one };
    // A reader named by the declaration is found where the declaration is written.
    (@read $how:ident) => { $how };
}
pub(super) use sections;

pub(super) type Key<'i> = Spanned<DeString<'i>>;

/// What a top-level key's value may be, for the schema: the shape its field's reader reads
/// (`one`: the value; `flags`, `named`: a table of names; `each`: an array of tables).
#[cfg(feature = "schema")]
pub(super) trait SectionSchema {
    fn value_schema() -> Json;
}

#[cfg(feature = "schema")]
impl<T: FromToml> SectionSchema for Option<T> {
    fn value_schema() -> Json {
        T::schema()
    }
}

#[cfg(feature = "schema")]
impl<T: FromToml> SectionSchema for Vec<(Spanned<String>, T)> {
    fn value_schema() -> Json {
        shape::map(T::schema())
    }
}

#[cfg(feature = "schema")]
impl<T: FromToml> SectionSchema for Vec<Spanned<T>> {
    fn value_schema() -> Json {
        Vec::<Spanned<T>>::schema()
    }
}

/// A value read whole: its unknown keys, then its first type error.
pub(super) fn one<T: FromToml>(
    out: &mut Option<T>,
    _key: &Key<'_>,
    value: &Value<'_>,
    sink: &mut Sink<'_>,
) {
    *out = de(value, "", sink);
}

/// `[flags]`: each `name = bool` on its own, kept (as `false`) when its value is bad, so
/// its uses are not reported too.
pub(super) fn flags(
    out: &mut Vec<(Spanned<String>, bool)>,
    key: &Key<'_>,
    value: &Value<'_>,
    sink: &mut Sink<'_>,
) {
    for (name, v) in table(value, key, sink) {
        let default = de::<bool>(v, "", sink).unwrap_or(false);
        out.push((name, default));
    }
}

/// `[key.NAME]` tables (knobs, facts), each on its own: the ones that read, and the names
/// of those that do not (reported here, so their uses stay quiet).
pub(super) fn named<T: FromToml>(
    out: &mut Vec<(Spanned<String>, T)>,
    key: &Key<'_>,
    value: &Value<'_>,
    sink: &mut Sink<'_>,
) {
    for (name, v) in table(value, key, sink) {
        match de::<T>(v, name.get_ref(), sink) {
            Some(t) => out.push((name, t)),
            None => sink.reported_mut().names.push(name.into_inner()),
        }
    }
}

/// `[[key]]` tables, each on its own.
pub(super) fn each<T: FromToml>(
    out: &mut Vec<Spanned<T>>,
    key: &Key<'_>,
    value: &Value<'_>,
    sink: &mut Sink<'_>,
) {
    for v in array(value, key, sink) {
        if let Some(t) = de(v, "", sink) {
            out.push(Spanned::new(v.span(), t));
        }
    }
}

/// Reads one value, `of` naming what holds it: every unknown key in it, then its first
/// type error, are reported, and a type error yields `None`. A type error at an unknown
/// key (a required key missing, misspelt as that one: `txet` for `text`) is left out, as
/// the unknown key's own error already says "did you mean `text`?".
pub(super) fn de<T: FromToml>(value: &Value<'_>, of: &str, sink: &mut Sink<'_>) -> Option<T> {
    let mut unknown = Vec::new();
    T::unknown_keys(value, of, &mut unknown);
    let at_unknown: Vec<_> = unknown.iter().map(|e| e.span.clone()).collect();
    report(unknown, sink);
    match T::from_toml(value) {
        Ok(v) => Some(v),
        Err(e) => {
            if !at_unknown.contains(&e.span) {
                report(vec![e], sink);
            }
            None
        }
    }
}

pub(super) fn report(errors: Vec<Error>, sink: &mut Sink<'_>) {
    for e in errors {
        sink.error(
            Some(e.span),
            e.message,
            Some(e.help.unwrap_or_else(|| {
                "check this value's type and spelling against the manifest reference (doctrine::guide::reference)".into()
            })),
        );
    }
}

fn table<'a, 'i>(
    value: &'a Value<'i>,
    key: &Key<'_>,
    sink: &mut Sink<'_>,
) -> Vec<(Spanned<String>, &'a Value<'i>)> {
    let key: &str = key.get_ref();
    match value.get_ref().as_table() {
        Some(t) => t
            .iter()
            .map(|(k, v)| (Spanned::new(k.span(), k.get_ref().to_string()), v))
            .collect(),
        None => {
            sink.error(
                Some(value.span()),
                format!(
                    "`{key}` must be a table, found {}",
                    value.get_ref().type_str()
                ),
                Some(format!(
                    "write it as `[{key}]` followed by `name = ...` lines"
                )),
            );
            Vec::new()
        }
    }
}

pub(super) fn array<'a, 'i>(
    value: &'a Value<'i>,
    key: &Key<'_>,
    sink: &mut Sink<'_>,
) -> Vec<&'a Value<'i>> {
    let key: &str = key.get_ref();
    match value.get_ref().as_array() {
        Some(a) => a.iter().collect(),
        None => {
            sink.error(
                Some(value.span()),
                format!(
                    "`{key}` must be an array of tables, found {}",
                    value.get_ref().type_str()
                ),
                Some(format!("write each entry as a `[[{key}]]` table")),
            );
            Vec::new()
        }
    }
}

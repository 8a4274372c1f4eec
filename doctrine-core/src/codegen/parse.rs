//! TOML → [`raw::Manifest`], reporting every syntax error, every unknown key and the
//! first type error of each section, all with spans. The keys are declared once, in
//! `raw` (see `de::table!` and [`sections!`]); what is here is how the top level's
//! sections are read, each on its own so one bad section does not hide the others.

use toml::de::{DeString, DeTable};
use toml::Spanned;

use super::de::{Error, FromToml, Value};
use super::diag::Sink;
use super::raw::{self, Manifest};
use crate::frontmatter::toml_depth::{too_deep, MAX_DEPTH};

pub(super) fn parse(source: &str, sink: &mut Sink<'_>) -> Option<Manifest> {
    // Before the tree is built: deep enough nesting overflows the stack (see `toml_depth`).
    if let Some(span) = too_deep(source) {
        sink.error(
            Some(span),
            format!("the manifest nests deeper than {MAX_DEPTH} levels (arrays, inline tables, dotted key parts)"),
            Some("no manifest key takes values nested more than a few levels: remove the nesting".into()),
        );
        return None;
    }
    let (doc, errors) = DeTable::parse_recoverable(source);
    // Only the earliest syntax error: the parser recovers, but what it reports after the
    // first is mostly the same mistake seen again further on.
    if let Some(e) = errors
        .iter()
        .min_by_key(|e| e.span().map_or(0, |s| s.start))
    {
        sink.error(
            e.span(),
            format!("TOML syntax error: {}", e.message().trim_end()),
            Some("fix the TOML syntax at this position".into()),
        );
        return None;
    }
    Some(Manifest::read(&doc.into_inner(), sink))
}

/// The top-level table, declared as `de::table!` declares a table, but read section by
/// section: each key's value is read by the function its field names (`named`, `each`…;
/// none: [`one`]), which reports into the sink, in the order the manifest writes them.
macro_rules! sections {
    (
        $(#[$doc:meta])*
        $vis:vis struct $name:ident in $what:literal {
            $(
                $(#[$fdoc:meta])*
                $field:ident: $ty:ty = $($how:ident)? $key:literal $(| $alias:literal)?,
            )*
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Default)]
        $vis struct $name {
            $($(#[$fdoc])* pub $field: $ty,)*
        }

        impl $name {
            /// The keys the table accepts, in the order messages list them.
            pub(super) const KEYS: &'static [&'static str] = &[$($key, $($alias,)?)*];

            pub(super) fn read(
                doc: &::toml::de::DeTable<'_>,
                sink: &mut $crate::codegen::diag::Sink<'_>,
            ) -> Self {
                let mut unknown = Vec::new();
                $crate::codegen::de::unknown(doc, Self::KEYS, $what, &mut unknown);
                $crate::codegen::parse::report(unknown, sink);
                let mut out = Self::default();
                for (key, value) in doc {
                    match key.get_ref().as_ref() {
                        $($key $(| $alias)? => {
                            $crate::codegen::parse::sections!(@read $($how)?)(&mut out.$field, key, value, sink)
                        })*
                        _ => {} // reported above
                    }
                }
                out
            }
        }
    };
    (@read) => { $crate::codegen::parse::one };
    (@read $how:ident) => { $crate::codegen::parse::$how };
}
pub(super) use sections;

type Key<'i> = Spanned<DeString<'i>>;

/// A value read whole: its unknown keys, then its first type error.
pub(super) fn one<T: FromToml>(
    out: &mut Option<T>,
    _key: &Key<'_>,
    value: &Value<'_>,
    sink: &mut Sink<'_>,
) {
    *out = de(value, "", sink);
}

/// `roles` or `modes` (not both): the list, its span, and which word the manifest used.
pub(super) fn roles(out: &mut raw::Roles, key: &Key<'_>, value: &Value<'_>, sink: &mut Sink<'_>) {
    if out.span.is_some() {
        sink.error(
            Some(key.span()),
            "the manifest declares both `roles` and `modes`",
            Some("they are two spellings of one list: keep one".into()),
        );
    }
    out.modes = key.get_ref().as_ref() == "modes";
    out.span = Some(value.span());
    match de(value, "", sink) {
        Some(names) => out.names = names,
        None => sink.reported_mut().roles = true,
    }
}

/// `[flags]`: each `name = bool` on its own, kept (as `false`) when its value is bad, so
/// its uses are not reported too.
pub(super) fn flags(
    out: &mut Vec<(raw::Name, bool)>,
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
    out: &mut Vec<(raw::Name, T)>,
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

/// `[[layer]]` tables, each on its own, named in messages by its `name`; the names of
/// those that do not read are kept (`""` without one), so their uses stay quiet.
pub(super) fn layers(
    out: &mut Vec<Spanned<raw::Layer>>,
    key: &Key<'_>,
    value: &Value<'_>,
    sink: &mut Sink<'_>,
) {
    for v in array(value, key, sink) {
        let name = v.get_ref().as_table().and_then(|t| t.get("name"));
        let name = name.and_then(|n| n.get_ref().as_str());
        let what = name.map_or_else(|| "a layer".to_string(), |n| format!("layer `{n}`"));
        match de::<raw::Layer>(v, &what, sink) {
            Some(layer) => out.push(Spanned::new(v.span(), layer)),
            None => sink
                .reported_mut()
                .layers
                .push(name.unwrap_or("").to_string()),
        }
    }
}

/// Reads one value, `of` naming what holds it: every unknown key in it, then its first
/// type error, are reported, and a type error yields `None`.
fn de<T: FromToml>(value: &Value<'_>, of: &str, sink: &mut Sink<'_>) -> Option<T> {
    let mut unknown = Vec::new();
    T::unknown_keys(value, of, &mut unknown);
    report(unknown, sink);
    match T::from_toml(value) {
        Ok(v) => Some(v),
        Err(e) => {
            report(vec![e], sink);
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
                "check this value's type and spelling against the manifest reference in the README".into()
            })),
        );
    }
}

fn table<'a, 'i>(
    value: &'a Value<'i>,
    key: &Key<'_>,
    sink: &mut Sink<'_>,
) -> Vec<(raw::Name, &'a Value<'i>)> {
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

fn array<'a, 'i>(value: &'a Value<'i>, key: &Key<'_>, sink: &mut Sink<'_>) -> Vec<&'a Value<'i>> {
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

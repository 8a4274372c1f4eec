//! What a generated struct with a field per item (`Overlay`, `Knobs`) does through one
//! generic function over its fields as arrays, rather than code per field: derived `Debug`,
//! `Clone` or `Default` write a statement per field, and each cost rustc about 10 KB, so a
//! struct of 10,000 fields cost 100 MB per trait. Used by generated code.

use std::fmt;

/// `Debug` as `derive(Debug)` writes it, `name { a: …, b: … }`: the `(names, values)` of
/// `first`, then those of `then` (an overlay's `_off` flags after its texts).
pub fn debug_struct<A: fmt::Debug, B: fmt::Debug>(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    first: (&[&str], &[A]),
    then: (&[&str], &[B]),
) -> fmt::Result {
    let mut s = f.debug_struct(name);
    for (field, value) in first.0.iter().zip(first.1) {
        s.field(field, value);
    }
    for (field, value) in then.0.iter().zip(then.1) {
        s.field(field, value);
    }
    s.finish()
}

/// A value that `Debug` prints as it is written: a unit variant's name, as derived `Debug`
/// prints a fieldless enum.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Bare(pub &'static str);

impl fmt::Debug for Bare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// The next text the overlay loader read, `""` where it read none: an overlay field.
pub fn next_text(texts: &mut std::vec::IntoIter<Option<String>>) -> String {
    texts.next().flatten().unwrap_or_default()
}

/// For each of the texts at `at`, whether the loader read it empty (`empty = "off"`: the
/// layer is then left out).
pub fn read_empty<const N: usize>(texts: &[Option<String>], at: [usize; N]) -> [bool; N] {
    at.map(|i| matches!(texts.get(i), Some(Some(t)) if t.is_empty()))
}

/// The texts again, owned, as the loader gives them: what cloning an overlay rebuilds it from.
pub fn owned_texts(texts: &[&str]) -> Vec<Option<String>> {
    texts.iter().map(|t| Some(t.to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Two;

    impl fmt::Debug for Two {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            debug_struct(
                f,
                "Two",
                (&["a", "b"], &["x", "y\""]),
                (&["a_off"], &[true]),
            )
        }
    }

    #[derive(Debug)]
    #[allow(dead_code)]
    struct Derived {
        a: &'static str,
        b: &'static str,
        a_off: bool,
    }

    #[test]
    fn debug_struct_prints_as_the_derive_does() {
        let derived = Derived {
            a: "x",
            b: "y\"",
            a_off: true,
        };
        assert_eq!(
            format!("{Two:?}"),
            format!("{derived:?}").replace("Derived", "Two")
        );
        assert_eq!(
            format!("{Two:#?}"),
            format!("{derived:#?}").replace("Derived", "Two")
        );
        assert_eq!(format!("{:?}", [Bare("Full")]), "[Full]");
    }

    #[test]
    fn texts_become_fields_and_flags() {
        let texts = vec![Some("a".to_string()), Some(String::new()), None];
        assert_eq!(
            read_empty(&texts, [0, 1, 2, 7]),
            [false, true, false, false]
        );
        let mut it = texts.into_iter();
        let fields: Vec<String> = (0..4).map(|_| next_text(&mut it)).collect();
        assert_eq!(fields, ["a", "", "", ""]);
        assert_eq!(
            owned_texts(&["a", ""]),
            [Some("a".into()), Some(String::new())]
        );
    }
}

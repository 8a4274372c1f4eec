//! What a generated `Combination::all()` counts through and how a combination is named: the
//! loop and the formatting live here, so the generated code is one `map` and one call.

use std::fmt;

/// One combination as positions: the role's index, each flag on or off, each knob's value
/// index, in manifest order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digits {
    /// The role's index in `Role::ALL` (0 without roles).
    pub role: usize,
    /// Whether each flag is on, in the order of `Flag::ALL`.
    pub on: Vec<bool>,
    /// Each knob's value, as its index in the knob's `ALL`.
    pub knobs: Vec<usize>,
}

/// Every combination of `roles` roles (1 for a manifest without roles), `flags` flags and
/// knobs of `knobs[i]` values each, each turned into a value by `make`: role by role, then
/// the flags counted off before on (the first flag changes slowest), then the knobs' values
/// in manifest order (the last knob changes fastest). Lazy: with many flags the count is
/// astronomical, and only what is taken is built. Used by generated `Combination::all`.
pub fn combinations<T, F: FnMut(Digits) -> T>(
    roles: usize,
    flags: usize,
    knobs: &[usize],
    make: F,
) -> std::iter::Map<Combinations, F> {
    odometer(roles, flags, knobs).map(make)
}

fn odometer(roles: usize, flags: usize, knobs: &[usize]) -> Combinations {
    // One digit per role, flag and knob; the last changes fastest.
    let mut radix = Vec::with_capacity(1 + flags + knobs.len());
    radix.push(roles);
    radix.extend(std::iter::repeat_n(2, flags));
    radix.extend_from_slice(knobs);
    let done = radix.contains(&0);
    Combinations {
        digits: vec![0; radix.len()],
        radix,
        flags,
        done,
    }
}

impl Digits {
    /// The generated `Flags` with each of `all` set by `set` as [`Digits::on`] says.
    pub fn flags<F: Copy, S: Default>(&self, all: &[F], set: fn(&mut S, F, bool)) -> S {
        let mut flags = S::default();
        for (&flag, &on) in all.iter().zip(&self.on) {
            set(&mut flags, flag, on);
        }
        flags
    }
}

/// The positions [`combinations`] counts through.
#[derive(Clone, Debug)]
pub struct Combinations {
    radix: Vec<usize>,
    digits: Vec<usize>,
    flags: usize,
    done: bool,
}

impl Iterator for Combinations {
    type Item = Digits;

    fn next(&mut self) -> Option<Digits> {
        if self.done {
            return None;
        }
        let d = &self.digits;
        let item = Digits {
            role: d[0],
            on: d[1..=self.flags].iter().map(|&on| on == 1).collect(),
            knobs: d[1 + self.flags..].to_vec(),
        };
        // Count up, the last digit fastest; past the last combination every digit wraps.
        self.done = true;
        for (digit, &radix) in self.digits.iter_mut().zip(&self.radix).rev() {
            *digit += 1;
            if *digit < radix {
                self.done = false;
                break;
            }
            *digit = 0;
        }
        Some(item)
    }
}

/// A combination's readable name: the role, the flags that are on, then every knob as
/// `name=value`, joined by `+` (`developer+fable+intensity=ultra`). With no role, no knob
/// and no flag on: `(no flag on)`. Used by generated `Display` impls.
/// `flags` are every flag's name and `on`, whether the flag of that index is on.
pub fn combination_name(
    f: &mut fmt::Formatter<'_>,
    role: Option<&str>,
    (flags, on): (&[&str], &dyn Fn(usize) -> bool),
    knobs: &[(&str, &str)],
) -> fmt::Result {
    let mut first = true;
    let mut part = |f: &mut fmt::Formatter<'_>, text: fmt::Arguments<'_>| {
        if !std::mem::take(&mut first) {
            f.write_str("+")?;
        }
        f.write_fmt(text)
    };
    if let Some(role) = role {
        part(f, format_args!("{role}"))?;
    }
    for (i, flag) in flags.iter().enumerate() {
        if on(i) {
            part(f, format_args!("{flag}"))?;
        }
    }
    for (knob, value) in knobs {
        part(f, format_args!("{knob}={value}"))?;
    }
    if first {
        f.write_str("(no flag on)")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name<'a>(Option<&'a str>, &'a [&'a str], &'a [(&'a str, &'a str)]);

    impl fmt::Display for Name<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            combination_name(f, self.0, (self.1, &|i| i % 2 == 0), self.2)
        }
    }

    #[test]
    fn counts_role_then_flags_then_knobs_the_last_fastest() {
        let all: Vec<Digits> = combinations(2, 1, &[3], |d| d).collect();
        assert_eq!(all.len(), 2 * 2 * 3);
        let short: Vec<String> = all
            .iter()
            .map(|d| format!("{}{}{}", d.role, d.on[0] as u8, d.knobs[0]))
            .collect();
        assert_eq!(
            short,
            ["000", "001", "002", "010", "011", "012", "100", "101", "102", "110", "111", "112"]
        );
        // Two flags: the first changes slowest.
        let flags: Vec<Vec<bool>> = combinations(1, 2, &[], |d| d.on).collect();
        assert_eq!(
            flags,
            [[false, false], [false, true], [true, false], [true, true]]
        );
        // Set onto a value that starts from its `Default` (a flag may default to on).
        let set: fn(&mut [bool; 2], usize, bool) = |s, i, on| s[i] = on;
        let third = combinations(1, 2, &[], |d| d.flags(&[0, 1], set)).nth(2);
        assert_eq!(third, Some([true, false]));
    }

    #[test]
    fn nothing_to_combine_is_one_combination_and_an_empty_set_none() {
        assert_eq!(combinations(1, 0, &[], |d| d).count(), 1);
        assert_eq!(combinations(0, 1, &[2], |d| d).count(), 0);
        assert_eq!(combinations(3, 0, &[2, 0], |d| d).count(), 0);
    }

    #[test]
    fn many_flags_are_counted_lazily() {
        // 2^10000 combinations: only the ones taken are built.
        let second = combinations(1, 10_000, &[], |d| d).nth(1).unwrap();
        assert!(second.on[9_999] && second.on[..9_999].iter().all(|&on| !on));
    }

    #[test]
    fn names_join_role_flags_on_and_every_knob() {
        let name = |r, fl, k| Name(r, fl, k).to_string();
        assert_eq!(
            name(Some("developer"), &["fable"], &[("intensity", "ultra")]),
            "developer+fable+intensity=ultra"
        );
        assert_eq!(
            name(Some("qa"), &[], &[("intensity", "lite"), ("pace", "calm")]),
            "qa+intensity=lite+pace=calm"
        );
        // Only the flags that are on (here the even ones).
        assert_eq!(name(None, &["a", "b", "c"], &[]), "a+c");
        assert_eq!(name(Some("pm"), &[], &[]), "pm");
        assert_eq!(name(None, &[], &[]), "(no flag on)");
    }
}

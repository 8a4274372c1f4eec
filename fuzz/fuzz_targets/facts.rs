//! Arbitrary `(name, value)` pairs through the `Facts::from_pairs` that `doctrine!`
//! generates for `fuzz/facts/doctrine.toml`, checked against a model of that manifest
//! written out below: success gives exactly the values given, an error is the first
//! problem the model finds and names its fact, and nothing panics.
#![no_main]

use arbitrary::Arbitrary;
use doctrine::input::FactError;
use libfuzzer_sys::fuzz_target;

mod facts {
    doctrine::doctrine!("../facts/doctrine.toml");
}

use facts::{Facts, Mode, FACT_NAMES};

#[derive(Clone, Copy, PartialEq)]
enum Need {
    Required,
    Optional,
    Absent,
}
use Need::{Absent, Optional, Required};

/// One fact of the manifest: its closed set (if any) and what the modes `ask`, `act` and
/// `idle` need of it.
struct Fact {
    name: &'static str,
    closed: Option<&'static [&'static str]>,
    need: [Need; 3],
}

const fn fact(
    name: &'static str,
    closed: Option<&'static [&'static str]>,
    need: [Need; 3],
) -> Fact {
    Fact { name, closed, need }
}

/// The manifest's facts, in manifest order.
const MODEL: [Fact; 6] = [
    fact("root", None, [Required, Required, Absent]),
    fact(
        "lang",
        Some(&["en", "fr", "de"]),
        [Required, Optional, Absent],
    ),
    fact("shell", None, [Optional, Optional, Absent]),
    fact(
        "urgency",
        Some(&["low", "high"]),
        [Absent, Optional, Absent],
    ),
    fact("ticket", None, [Absent, Required, Absent]),
    fact("today", None, [Optional, Optional, Optional]),
];
const MODES: [&str; 3] = ["ask", "act", "idle"];
/// Values of the closed sets, so that the fuzzer often gives a valid one.
const VALUES: [&str; 5] = ["en", "fr", "de", "low", "high"];

#[derive(Arbitrary, Debug)]
struct Input {
    mode: u8,
    pairs: Vec<(Key, Value)>,
}

#[derive(Arbitrary, Debug)]
enum Key {
    Known(u8),
    Other(String),
}

#[derive(Arbitrary, Debug)]
enum Value {
    Known(u8),
    Other(String),
}

/// What the model says `from_pairs` must answer.
#[derive(Debug, PartialEq)]
enum Expect {
    Ok,
    NotTaken(String),
    Repeated(&'static str),
    Missing(&'static str),
    Value(&'static str, String),
}

fn model(m: usize, pairs: &[(&str, &str)]) -> Expect {
    let mut given: [Option<&str>; 6] = [None; 6];
    for (name, value) in pairs {
        let Some(i) = MODEL
            .iter()
            .position(|f| f.name == *name && f.need[m] != Absent)
        else {
            return Expect::NotTaken(name.to_string());
        };
        if given[i].replace(value).is_some() {
            return Expect::Repeated(MODEL[i].name);
        }
    }
    for (i, f) in MODEL.iter().enumerate() {
        match (given[i], f.need[m], f.closed) {
            (None, Required, _) => return Expect::Missing(f.name),
            (Some(v), _, Some(set)) if !set.contains(&v) => {
                return Expect::Value(f.name, v.to_string())
            }
            _ => {}
        }
    }
    Expect::Ok
}

fuzz_target!(|input: Input| {
    // The generated constants agree with the model.
    assert_eq!(FACT_NAMES, MODEL.map(|f| f.name));
    let m = usize::from(input.mode) % MODES.len();
    let mode = Mode::ALL[m];
    assert_eq!(mode.as_str(), MODES[m]);
    let takes: Vec<&str> = MODEL
        .iter()
        .filter(|f| f.need[m] != Absent)
        .map(|f| f.name)
        .collect();
    assert_eq!(Facts::takes(mode), takes.as_slice());

    let pairs: Vec<(String, String)> = input
        .pairs
        .into_iter()
        .map(|(k, v)| {
            let k = match k {
                Key::Known(i) => FACT_NAMES[usize::from(i) % FACT_NAMES.len()].to_string(),
                Key::Other(s) => s,
            };
            let v = match v {
                Value::Known(i) => VALUES[usize::from(i) % VALUES.len()].to_string(),
                Value::Other(s) => s,
            };
            (k, v)
        })
        .collect();
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let expect = model(m, &pairs);

    match Facts::from_pairs(mode, pairs.iter().copied()) {
        Ok(facts) => {
            assert_eq!(expect, Expect::Ok, "accepted {pairs:?} for {}", MODES[m]);
            assert_eq!(facts.role(), mode);
            // Every fact holds the value given for it, and no other fact holds anything;
            // an optional free-text fact given `""` is not given (empty means absent).
            let values = facts.__values();
            for (i, name) in FACT_NAMES.iter().enumerate() {
                let given = pairs.iter().find(|p| p.0 == *name).map(|p| p.1);
                let f = &MODEL[i];
                let given = match (f.closed, f.need[m]) {
                    (None, Optional) => given.filter(|v| !v.is_empty()),
                    _ => given,
                };
                assert_eq!(values[i], given, "fact `{name}`");
            }
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            let got = match e {
                FactError::NotTaken {
                    role,
                    fact,
                    takes: t,
                } => {
                    assert_eq!(role, MODES[m]);
                    assert_eq!(t, takes.as_slice());
                    Expect::NotTaken(fact)
                }
                FactError::Repeated(fact) => Expect::Repeated(fact),
                FactError::Missing { role, fact } => {
                    assert_eq!(role, MODES[m]);
                    Expect::Missing(fact)
                }
                FactError::Value(e) => {
                    let f = MODEL.iter().find(|f| f.name == e.kind);
                    let f = f.unwrap_or_else(|| panic!("`{}` names no fact", e.kind));
                    assert_eq!(Some(e.valid), f.closed, "closed set of `{}`", e.kind);
                    Expect::Value(f.name, e.value)
                }
                FactError::List(fact) => panic!("`{fact}` is not a list in this manifest"),
                other => panic!("an error this target does not know: {other}"),
            };
            assert_eq!(got, expect, "for {pairs:?} in mode {}", MODES[m]);
        }
    }
});

//! The manifest's JSON Schema (`doctrine_codegen::manifest_schema`, which
//! `cargo doctrine schema` prints), checked by a maintained validator: it accepts every
//! manifest of the repository, and refuses each malformed case of `tests/errors` whose
//! error is structural (an unknown key, a wrong type, an unknown word) for that very
//! reason. The validator (`jsonschema`) and its dependencies are about 60 s of CPU to
//! build, a sixth of the whole suite's, so this test is opt-in:
//! `cargo test --features schema --test schema` (`.ci/run` runs it). That the committed
//! schema is the generated one is checked by every run (`tests/it/schema.rs`).

use std::path::{Path, PathBuf};

use doctrine_codegen::manifest_schema;
use jsonschema::error::ValidationErrorKind;
use jsonschema::ValidationError;
use serde_json::Value;
use toml::de::{DeTable, DeValue};

/// The error cases as `tests/it` finds them (this test reads their `.diag` itself).
#[path = "it/support/error_cases.rs"]
#[allow(dead_code)]
mod error_cases;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn schema() -> Value {
    serde_json::from_str(&manifest_schema()).expect("the schema is JSON")
}

fn validator() -> jsonschema::Validator {
    jsonschema::draft7::new(&schema()).expect("the schema compiles")
}

/// A TOML manifest as the JSON value an editor's schema checks (as taplo turns it into
/// JSON: a date as its text).
fn as_json(path: &Path) -> Result<Value, String> {
    let text = read(path);
    let doc = DeTable::parse(&text).map_err(|e| e.to_string())?;
    Ok(table_json(doc.get_ref()))
}

fn table_json(table: &DeTable<'_>) -> Value {
    let entries = table
        .iter()
        .map(|(k, v)| (k.get_ref().to_string(), value_json(v.get_ref())));
    Value::Object(entries.collect())
}

fn value_json(value: &DeValue<'_>) -> Value {
    match value {
        DeValue::String(s) => Value::from(s.as_ref()),
        DeValue::Integer(i) => Value::from(i64::from_str_radix(i.as_str(), i.radix()).unwrap()),
        DeValue::Float(f) => Value::from(f.as_str().parse::<f64>().unwrap()),
        DeValue::Boolean(b) => Value::from(*b),
        DeValue::Datetime(d) => Value::from(d.to_string()),
        DeValue::Array(items) => items.iter().map(|i| value_json(i.get_ref())).collect(),
        DeValue::Table(t) => table_json(t),
    }
}

#[test]
fn the_schema_is_a_draft_07_schema() {
    let schema = schema();
    if let Err(e) = jsonschema::draft7::meta::validate(&schema) {
        panic!("not a valid draft-07 schema: {e} at {}", e.instance_path());
    }
    assert_eq!(
        schema["$schema"],
        Value::from("http://json-schema.org/draft-07/schema#")
    );
}

/// Every `*.toml` below `dir`, sorted.
fn tomls(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            tomls(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

#[test]
fn the_schema_accepts_every_manifest_of_the_repository() {
    let validator = validator();
    let mut manifests = Vec::new();
    for dir in ["examples", "tests/fixtures", "doctrine/docs/examples"] {
        tomls(&root().join(dir), &mut manifests);
    }
    // Examples hold a `doctrine.toml` each; `tests/fixtures` has manifests only.
    manifests.retain(|p| !p.ends_with("Cargo.toml"));
    assert!(manifests.len() >= 30, "{} manifests", manifests.len());
    let mut refused = Vec::new();
    for path in &manifests {
        let instance = as_json(path).unwrap();
        let errors: Vec<_> = validator.iter_errors(&instance).collect();
        if !errors.is_empty() {
            refused.push(format!("{}: {:#?}", path.display(), shown(&errors)));
        }
    }
    assert!(refused.is_empty(), "{refused:#?}");
}

/// A test of one of the validator's errors.
type Reason<'a> = Box<dyn Fn(&ValidationError<'_>) -> bool + 'a>;

/// What a structural message of a `.diag` file says the schema must report, as a test of
/// one of the validator's errors.
fn reason(message: &str) -> Option<Reason<'_>> {
    let quoted = |m: &str| m.split('`').nth(1).map(str::to_string);
    let kind = |e: &ValidationError<'_>| -> &'static str { keyword(e.kind()) };
    if message.starts_with("unknown key `") {
        let key = quoted(message)?;
        return Some(Box::new(move |e| match e.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected } => unexpected.contains(&key),
            _ => false,
        }));
    }
    if message.starts_with("unknown variant `") {
        let word = quoted(message)?;
        return Some(Box::new(move |e| {
            kind(e) == "enum" && e.instance().as_str() == Some(word.as_str())
        }));
    }
    if message.starts_with("missing field `") {
        let key = quoted(message)?;
        return Some(Box::new(move |e| match e.kind() {
            ValidationErrorKind::Required { property } => property.as_str() == Some(&key),
            _ => false,
        }));
    }
    let by_kind = |message: &str| -> Option<&'static str> {
        if message.starts_with("invalid type: ")
            || message.contains("` must be a table, found ")
            || message.contains("` must be an array of tables, found ")
        {
            Some("type")
        } else if message.starts_with("invalid value: integer ") {
            Some("minimum")
        } else if message.contains("two spellings of one key")
            || message.starts_with("the manifest declares both `roles` and `modes`")
        {
            Some("not")
        } else {
            None
        }
    };
    let expected = by_kind(message)?;
    Some(Box::new(move |e| kind(e) == expected))
}

fn keyword(kind: &ValidationErrorKind) -> &'static str {
    match kind {
        ValidationErrorKind::Enum { .. } => "enum",
        ValidationErrorKind::Type { .. } => "type",
        ValidationErrorKind::Minimum { .. } => "minimum",
        ValidationErrorKind::Not { .. } => "not",
        _ => "other",
    }
}

/// Whether one of `errors`, or of the errors inside an `anyOf` alternative, passes `test`.
fn says(errors: &[ValidationError<'_>], test: &dyn Fn(&ValidationError<'_>) -> bool) -> bool {
    errors.iter().any(|e| {
        test(e)
            || matches!(e.kind(), ValidationErrorKind::AnyOf { context }
                if context.iter().any(|alternative| says(alternative, test)))
    })
}

/// The errors as the validator prints them, with where they are.
fn shown(errors: &[ValidationError<'_>]) -> Vec<String> {
    errors
        .iter()
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Cases whose error reads as structural (an unknown word) but depends on another key, so a
/// schema of one file's shape cannot refuse it: the schema accepts them, for the reason
/// given.
const NOT_REFUSED: &[(&str, &str)] = &[(
    "bad_value",
    "a `tier` names one of the manifest's own `tiers`, `stable` or `volatile` only when it \
     declares none",
)];

/// Cases whose error the code generator finds only once it knows more than the value (its
/// `.diag` says no "unknown key" or "invalid type"), yet whose value no schema-valid
/// manifest has, so the schema refuses it too.
const ALSO_REFUSED: &[(&str, &str)] = &[
    (
        "when_alternatives_misuse",
        "a condition list mixing names with alternatives is read, then refused with the layer's name",
    ),
    (
        "nested_table_shape",
        "a nested table of item fields is read, then refused when it holds a table or nothing",
    ),
    (
        "texts_entry_no_role",
        "a `[[layer.texts]]` entry's `roles` is read, then refused when empty",
    ),
];

#[test]
fn the_schema_refuses_each_structural_error_for_its_reason_and_no_other_case() {
    let validator = validator();
    let cases = error_cases::cases(root());
    let (mut structural, mut semantic, mut failures) = (0, 0, Vec::new());
    for case in &cases {
        let name = case.file_stem().unwrap().to_str().unwrap();
        let diag = read(&case.with_extension("diag"));
        let messages: Vec<&str> = diag
            .lines()
            .filter_map(|l| l.strip_prefix("error: "))
            .map(|l| l.split_once(": ").map_or(l, |(_, message)| message))
            .collect();
        let instance = match as_json(case) {
            Ok(v) => v,
            // Not TOML: no schema is asked.
            Err(_) if messages.iter().all(|m| m.starts_with("TOML syntax error")) => continue,
            Err(e) => panic!("{name}: {e}"),
        };
        let errors: Vec<_> = validator.iter_errors(&instance).collect();
        let reasons: Vec<_> = messages
            .iter()
            .filter_map(|m| reason(m).map(|r| (m, r)))
            .collect();
        if reasons.is_empty() {
            semantic += 1;
            let also = ALSO_REFUSED.iter().any(|(n, _)| *n == name);
            match (errors.is_empty(), also) {
                (true, false) | (false, true) => {}
                (true, true) => failures.push(format!("{name}: accepted, but listed in ALSO_REFUSED")),
                (false, false) => failures.push(format!(
                    "{name}: its error ({messages:?}) is not structural, yet the schema refuses it: {:?}",
                    shown(&errors)
                )),
            }
            continue;
        }
        structural += 1;
        if NOT_REFUSED.iter().any(|(n, _)| *n == name) {
            if !errors.is_empty() {
                failures.push(format!("{name}: refused, but listed in NOT_REFUSED"));
            }
            continue;
        }
        for (message, matches) in reasons {
            if !says(&errors, &*matches) {
                failures.push(format!(
                    "{name}: the schema does not say {message:?}; it says {:?}",
                    shown(&errors)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // The counts the report gives; a case added to either side moves them.
    assert!(
        structural >= 6 && semantic >= 60,
        "{structural} structural, {semantic} others"
    );
}

/// Malformed values `tests/errors` has no case for, one of each shape a reader refuses:
/// each is refused by the code generator and by the schema, for the same reason. Each is
/// a line (or table) added to a manifest that is otherwise valid.
const MALFORMED: &[&str] = &[
    "trim = \"yes\"",
    "separator = 3",
    "flags = 3",
    "overlay_cap_max = -1",
    "modes = [\"a\"]",
    "[facts.who]\ntier = \"stable\"\nvalues = 3\nrequired = [\"a\"]",
    "[facts.tools]\ntier = \"stable\"\noptional = [\"a\"]\nlist = { sort = 3 }",
    "[knobs.size]\nvalues = [\"s\"]",
    "[formulation]\ndefault = \"html\"",
    "[budget]\nper_role = { a = \"big\" }",
    "[[order]]\nfirst = \"x\"",
    "[reminders]\nkind = [{ name = \"n\", when = \"w\", text = 3 }]",
    "[skills]\nindex = { max = \"all\" }",
    "[[layer]]\nname = \"late\"\ntext = \"t\"\nwhen = 3",
    "[[layer]]\nname = \"late\"\ntexts = 3",
    "[[layer]]\nname = \"late\"\ntext = \"t\"\nselector = 3",
    "[[layer]]\nname = \"late\"\ntext = \"t\"\nselector = { name = \"s\", follow = \"t\" }",
    "[[layer]]\nname = \"late\"\ntext = \"t\"\nroles = [\"a\"]\nmodes = [\"a\"]",
    "[[layer]]\nname = \"late\"\ntext = \"t\"\nsuffix = { roles = [\"a\"] }",
    "[[layer]]\ntext = \"t\"",
];

#[test]
fn the_schema_refuses_what_the_reader_refuses_for_the_same_reason() {
    let validator = validator();
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for added in MALFORMED {
        let base = "roles = [\"a\"]\n\n[[layer]]\nname = \"base\"\ntext = \"Base.\"\n";
        // A top-level key goes before the first table.
        let manifest = match added.starts_with('[') {
            true => format!("{base}\n{added}\n"),
            false => format!("{added}\n{base}"),
        };
        let path = dir.path().join("doctrine.toml");
        std::fs::write(&path, &manifest).unwrap();
        let request = doctrine_codegen::Request::new("doctrine.toml", dir.path(), dir.path());
        let diagnostics = match doctrine_codegen::generate(&request) {
            Ok(_) => {
                failures.push(format!("{added:?}: the code generator accepts it"));
                continue;
            }
            Err(d) => d.list,
        };
        let instance = as_json(&path).unwrap();
        let errors: Vec<_> = validator.iter_errors(&instance).collect();
        for d in &diagnostics {
            match reason(&d.message) {
                None => failures.push(format!("{added:?}: {:?} is no structural error", d.message)),
                Some(matches) if !says(&errors, &*matches) => failures.push(format!(
                    "{added:?}: the schema does not say {:?}; it says {:?}",
                    d.message,
                    shown(&errors)
                )),
                Some(_) => {}
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

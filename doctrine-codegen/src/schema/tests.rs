use super::super::raw::MANIFEST_KEYS;
use super::*;

/// Where each table of [`MANIFEST_KEYS`] is in the schema, by the keys that lead to it.
fn place(table: &str) -> &'static [&'static str] {
    match table {
        "top level" => &[],
        "[formulation]" => &["formulation"],
        "[models]" => &["models"],
        "[facts.NAME]" => &["facts"],
        "a fact's list" => &["facts", "list"],
        "a fact's max_bytes" => &["facts", "max_bytes"],
        "a list's join" => &["facts", "list", "join"],
        "[budget]" => &["budget"],
        "[knobs.NAME]" => &["knobs"],
        "[[layer]]" => &["layer"],
        "[layer.suffix]" => &["layer", "suffix"],
        "[[layer.texts]]" => &["layer", "texts"],
        "[layer.claims]" => &["layer", "claims"],
        "a layer's selector" => &["layer", "selector"],
        "[[order]]" => &["order"],
        "[reminders]" => &["reminders"],
        "[[reminders.kind]]" => &["reminders", "kind"],
        "[skills]" => &["skills"],
        "[skills.index]" => &["skills", "index"],
        "[cache]" => &["cache"],
        "[[message]]" => &["message"],
        other => panic!("no place in the schema for {other:?}: add it to `place`"),
    }
}

fn keys_of(table: &Json) -> Vec<&str> {
    match table.get("properties") {
        Some(Json::Object(entries)) => entries.iter().map(|(k, _)| k.as_str()).collect(),
        _ => Vec::new(),
    }
}

fn strings(v: Option<&Json>) -> Vec<&str> {
    match v {
        Some(Json::Array(items)) => items
            .iter()
            .filter_map(|i| match i {
                Json::Str(s) => Some(s.as_str()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[test]
fn every_table_has_its_keys_in_order_at_its_place_and_no_other() {
    let mut schema = document();
    for (table, keys) in MANIFEST_KEYS {
        let at = table_at(&mut schema, place(table))
            .unwrap_or_else(|| panic!("{table}: not found in the schema"));
        assert_eq!(&keys_of(at), keys, "{table}");
        assert_eq!(
            at.get("additionalProperties"),
            Some(&Json::Bool(false)),
            "{table}: an unknown key is an error"
        );
    }
}

#[test]
fn required_keys_are_required_and_two_spellings_exclude_each_other() {
    let mut schema = document();
    let required = |schema: &mut Json, place: &[&str]| -> Vec<String> {
        let at = table_at(schema, place).unwrap();
        strings(at.get("required"))
            .into_iter()
            .map(String::from)
            .collect()
    };
    assert_eq!(required(&mut schema, &["layer"]), ["name"]);
    assert_eq!(required(&mut schema, &["knobs"]), ["values", "default"]);
    assert_eq!(required(&mut schema, &[]), Vec::<String>::new());
    for place in [&[][..], &["layer"]] {
        let at = table_at(&mut schema, place).unwrap();
        let not = at.get("not").and_then(|n| n.get("required"));
        assert_eq!(strings(not), ["roles", "modes"], "{place:?}");
    }
    // A table without a second spelling has no `not`.
    assert_eq!(table_at(&mut schema, &["order"]).unwrap().get("not"), None);
}

#[test]
fn values_have_the_shapes_their_readers_read() {
    let mut schema = document();
    let layer = table_at(&mut schema, &["layer"]).unwrap().clone();
    let property = |key: &str| layer.get("properties").unwrap().get(key).unwrap().clone();
    // A keyword enum: its words, from `keywords!`.
    assert_eq!(
        strings(property("frontmatter").get("enum")),
        ["keep", "strip"]
    );
    // A tier is any name: the manifest's own `tiers` say which.
    assert_eq!(property("tier").get("enum"), None);
    assert_eq!(property("tier").get("type"), typed("string").get("type"));
    assert_eq!(property("overlay_cap").get("minimum"), Some(&Json::Int(0)));
    // `short`: a selector's name alone, or the table.
    let Some(Json::Array(selector)) = property("selector").get("anyOf").cloned() else {
        panic!("a selector is a string or a table");
    };
    assert_eq!(selector[0], typed("string"));
    assert_eq!(keys_of(&selector[1]), ["name", "follows"]);
    // Conditions: a name, names, or alternatives.
    let Some(Json::Array(when)) = property("when").get("anyOf").cloned() else {
        panic!("`when` has three shapes");
    };
    let kinds: Vec<&Json> = when.iter().map(|w| w.get("type").unwrap()).collect();
    assert_eq!(
        kinds,
        [&Json::from("string"), &"array".into(), &"array".into()]
    );
    assert_eq!(when[2].get("items"), Some(&array(typed("string"))));
    // `texts`: a table of role = text, or entries each for one role at least.
    let entries = table_at(&mut schema, &["layer", "texts"]).unwrap();
    let roles = entries.get("properties").unwrap().get("roles").unwrap();
    assert_eq!(roles.get("minItems"), Some(&Json::Int(1)));
    // `[flags]`: a table of booleans.
    let top = document();
    let flags = top.get("properties").unwrap().get("flags").unwrap();
    assert_eq!(flags.get("additionalProperties"), Some(&typed("boolean")));
}

#[test]
fn the_reference_describes_every_key_of_its_two_tables() {
    let mut schema = document();
    for place in [&[][..], &["layer"]] {
        let table = table_at(&mut schema, place).unwrap();
        let Some(Json::Object(properties)) = table.get("properties") else {
            panic!("{place:?} has properties");
        };
        for (key, value) in properties {
            assert!(
                matches!(value.get("description"), Some(Json::Str(d)) if d.ends_with('.')),
                "{place:?} `{key}`: {:?}",
                value.get("description")
            );
        }
    }
    let mut description = |place: &[&str], key: &str| {
        let table = table_at(&mut schema, place).unwrap();
        table
            .get("properties")
            .unwrap()
            .get(key)
            .unwrap()
            .get("description")
            .cloned()
    };
    assert_eq!(
        description(&["layer"], "name"),
        Some(Json::from(
            "Unique, lowercase Rust identifier. Names constants and builder methods."
        ))
    );
    // A key of a table the reference describes in prose has its field's doc comment.
    assert_eq!(
        description(&["facts"], "other"),
        Some(Json::from(
            "With `values` as a table: free text other than its keys passes through."
        ))
    );
}

#[test]
fn the_printed_schema_is_draft_07_with_its_header_first() {
    let printed = manifest_schema();
    assert!(
        printed.starts_with(
            "{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n  \"$id\": "
        ),
        "{}",
        &printed[..200]
    );
    assert_eq!(printed, manifest_schema(), "the same every time");
    assert!(printed.contains("\n  \"additionalProperties\": false"));
}

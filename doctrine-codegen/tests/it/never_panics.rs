//! Random manifests, assembled from the manifest's own vocabulary with valid and invalid
//! values: the generator answers each with code that parses as Rust or with diagnostics
//! that name the manifest (and a skeleton that parses, or none), and never panics.

use doctrine_codegen::__internals::MANIFEST_KEYS;
use doctrine_codegen::{generate, skeleton, Request};
use proptest::prelude::*;

/// A value that may or may not fit the key it is given to.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\"a.md\"".to_string()),
        Just("\"dir\"".to_string()),
        Just("\"x {root} {level} y\"".to_string()),
        Just("\"\"".to_string()),
        Just("\"../a.md\"".to_string()),
        Just("\"stable\"".to_string()),
        Just("\"volatile\"".to_string()),
        Just("\"replace\"".to_string()),
        Just("\"append\"".to_string()),
        Just("\"optional\"".to_string()),
        Just("\"required\"".to_string()),
        Just("\"strip\"".to_string()),
        Just("\"dev\"".to_string()),
        Just("\"!fable\"".to_string()),
        Just("\"fable\"".to_string()),
        Just("\"root\"".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("3".to_string()),
        Just("[\"dev\", \"qa\"]".to_string()),
        Just("[]".to_string()),
        Just("{ dev = \"a.md\", default = \"b.md\" }".to_string()),
        Just("{ text = \"Level {level}.\", roles = [\"dev\"] }".to_string()),
        Just("{ verbs = [\"thaw\"], phrases = [\"ok. go\", \"\"] }".to_string()),
        "\"[a-z{}]{0,6}\"",
    ]
}

/// Any key a layer declares (the reader's own list, so a new key is tried with no edit
/// here) but `name`, which every layer here has, or one no layer has.
fn layer_key() -> impl Strategy<Value = &'static str> {
    let (_, keys) = MANIFEST_KEYS
        .iter()
        .find(|(t, _)| *t == "[[layer]]")
        .unwrap();
    let keys = keys.iter().copied().filter(|k| *k != "name");
    proptest::sample::select(keys.chain(["bogus"]).collect::<Vec<_>>())
}

/// A layer with one well-formed content key, then up to two keys of any kind.
fn layer() -> impl Strategy<Value = String> {
    (
        prop_oneof![
            4 => Just("base"), 4 => Just("role"), 4 => Just("voice"), 4 => Just("rules"),
            1 => Just("extra"), 1 => Just("type"), 1 => Just("a_b"), 1 => Just("ab"),
        ],
        prop_oneof![
            Just("file = \"a.md\""),
            Just("text = \"Hello.\""),
            Just("text = \"Root {root}.\"\ninterpolate = true"),
            Just("files = { dev = \"a.md\", default = \"b.md\" }"),
            Just("dir = \"dir\""),
            Just("slot = \"optional\""),
            Just("slot = \"required\"\ntier = \"volatile\""),
            Just("instructions = true"),
            Just("file = \"a.md\"\nfrontmatter = \"strip\"\ntitle = \"Base rules\""),
            Just("text = \"x\"\noverride = \"append\""),
        ],
        prop_oneof![
            3 => Just(Vec::new()),
            1 => proptest::collection::vec((layer_key(), value()), 1..3),
        ],
    )
        .prop_map(|(name, content, keys)| {
            let mut out = format!("[[layer]]\nname = \"{name}\"\n{content}\n");
            let mut seen: Vec<&str> = content
                .lines()
                .filter_map(|l| l.split(" = ").next())
                .collect();
            for (k, v) in keys {
                // TOML refuses a key twice; that case is covered elsewhere.
                if !seen.contains(&k) {
                    seen.push(k);
                    out.push_str(&format!("{k} = {v}\n"));
                }
            }
            out
        })
}

fn manifest() -> impl Strategy<Value = String> {
    (
        proptest::option::of(prop_oneof![
            4 => Just("roles = [\"dev\", \"qa\"]\n"),
            2 => Just("modes = [\"dev\"]\n"),
            1 => Just("roles = []\n"),
        ]),
        proptest::option::of(Just("[flags]\nfable = false\n")),
        proptest::option::of(Just(
            "[knobs.level]\nvalues = [\"lo\", \"hi\"]\ndefault = \"lo\"\n",
        )),
        proptest::option::of(Just(
            "[facts.root]\ntier = \"stable\"\nrequired = [\"*\"]\n",
        )),
        proptest::option::of(prop_oneof![
            3 => Just("[budget]\nstable_bytes = 100000\n"),
            1 => Just("[budget]\nstable_bytes = 10\n"),
        ]),
        prop_oneof![1 => Just(0usize..1), 6 => Just(1usize..5)]
            .prop_flat_map(|n| proptest::collection::vec(layer(), n)),
        proptest::option::of(Just("[[order]]\nfirst = \"role\"\nthen = \"rules\"\n")),
    )
        .prop_map(|(roles, flags, knobs, facts, extra, layers, order)| {
            // Top-level keys first: after a `[table]` header they would belong to it.
            let mut out = String::from(if extra.is_some() {
                "extra = true\n"
            } else {
                ""
            });
            for part in [roles, flags, knobs, facts, extra].into_iter().flatten() {
                out.push_str(part);
            }
            // Distinct names (duplicates are tested elsewhere), except for the odd ones.
            for (i, l) in layers.iter().enumerate() {
                out.push_str(
                    &l.replacen("name = \"base\"", &format!("name = \"base{i}\""), 1)
                        .replacen("name = \"voice\"", &format!("name = \"voice{i}\""), 1),
                );
            }
            out.push_str(order.unwrap_or(""));
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generation_never_panics(manifest in manifest()) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Cargo.toml"), "").unwrap();
        std::fs::write(dir.path().join("doctrine.toml"), &manifest).unwrap();
        std::fs::write(dir.path().join("a.md"), "---\nversion: 1\n---\nA {root}.\n").unwrap();
        std::fs::write(dir.path().join("b.md"), "B\r\n").unwrap();
        std::fs::create_dir(dir.path().join("dir")).unwrap();
        std::fs::write(dir.path().join("dir/one.md"), "One").unwrap();
        let result = generate(&Request::new("doctrine.toml", dir.path(), dir.path()));
        match result {
            Ok(tokens) => {
                prop_assert!(syn::parse2::<syn::File>(tokens).is_ok(), "generated code does not parse for:\n{manifest}");
            }
            Err(diagnostics) => {
                prop_assert!(!diagnostics.list.is_empty());
                for d in diagnostics.located() {
                    prop_assert!(d.file == "doctrine.toml" || d.file.ends_with(".md"), "{d}");
                }
                // What the macro emits beside the errors: nothing, or code that parses.
                let skeleton = skeleton(&Request::new("doctrine.toml", dir.path(), dir.path()));
                prop_assert!(skeleton.is_empty() || syn::parse2::<syn::File>(skeleton).is_ok(), "the skeleton does not parse for:\n{manifest}");
            }
        }
    }
}

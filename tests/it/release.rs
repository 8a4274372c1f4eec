//! What a release packages: the tool's install profile, which `.ci/package` puts into its
//! packaged manifest (where `cargo install cargo-doctrine` reads it), is the workspace's,
//! which a `cargo install --path` from a checkout reads.

use std::collections::BTreeSet;
use std::path::Path;

use toml::de::{DeTable, DeValue};

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// Every value of a TOML file as `dotted.key = value`, as written.
fn settings(path: &str) -> BTreeSet<String> {
    fn walk(text: &str, table: &DeTable<'_>, prefix: &str, out: &mut BTreeSet<String>) {
        for (key, value) in table {
            let key = format!("{prefix}{}", key.get_ref());
            match value.get_ref() {
                DeValue::Table(inner) => walk(text, inner, &format!("{key}."), out),
                _ => {
                    out.insert(format!("{key} = {}", &text[value.span()]));
                }
            }
        }
    }
    let text = read(path);
    let table = DeTable::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = BTreeSet::new();
    walk(&text, table.get_ref(), "", &mut out);
    out
}

fn release_profile(all: &BTreeSet<String>) -> BTreeSet<&String> {
    all.iter()
        .filter(|s| s.starts_with("profile.release."))
        .collect()
}

#[test]
fn the_tools_install_profile_is_the_workspaces() {
    let workspace = settings("Cargo.toml");
    let install = settings("cargo-doctrine/install-profile.toml");
    assert!(
        !release_profile(&workspace).is_empty(),
        "the workspace has a release profile"
    );
    assert_eq!(
        release_profile(&install),
        release_profile(&workspace),
        "cargo-doctrine/install-profile.toml's `[profile.release…]` differs from the workspace's \
         (Cargo.toml): a registry install would build the tool otherwise than `cargo install --path`"
    );
    assert!(
        install.iter().all(|s| s.starts_with("profile.")),
        "cargo-doctrine/install-profile.toml holds only profiles: it is appended to the packaged manifest"
    );
    // A member's own profile is ignored inside the workspace, with a warning on every command.
    assert!(
        settings("cargo-doctrine/Cargo.toml")
            .iter()
            .all(|s| !s.starts_with("profile.")),
        "cargo-doctrine/Cargo.toml has a `[profile]`: put it in install-profile.toml"
    );
}

//! Each file's bytes appear in the binary once, even when several roles share a file
//! and the macro `include_bytes!`s every file for rebuild tracking.

mod crew {
    doctrine::doctrine!("../examples/crew/doctrine.toml");
}

fn occurrences(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

/// The longest line of a file, read at run time so that the needle itself is not a
/// literal in this binary.
fn longest_line(path: &str) -> String {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    text.lines().max_by_key(|l| l.len()).unwrap().to_string()
}

#[test]
fn shared_and_single_files_are_embedded_once() {
    use crew::{Identity, Role, Team};
    // Use every role so the texts are linked in.
    let total: usize = Role::ALL
        .iter()
        .map(|&r| {
            crew::compose(r, Team::Backend, Identity::BeDev1)
                .flag(crew::Flag::Fable, true)
                .ambient(None)
                .finish()
                .as_str()
                .len()
        })
        .sum();
    assert!(total > 0);
    let binary = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    for file in [
        "examples/crew/roles/verifier.md", // shared by reviewer and qa
        "examples/crew/base.md",
        "examples/crew/doctrine/ponytail.md",
    ] {
        let needle = longest_line(file);
        assert_eq!(
            occurrences(&binary, needle.as_bytes()),
            1,
            "{file}: {needle}"
        );
    }
}

//! Hostile `interpolate = true` texts: many placeholders naming nothing, multibyte
//! characters beside braces, megabyte-long names. Each error names the markdown file's
//! own `line:col`, and no message grows with the text.

use crate::support;

/// Generates from a manifest with one fact and one interpolated file layer holding `md`.
fn errors_for(md: &str) -> Vec<String> {
    let manifest = "roles = [\"dev\"]\n[facts.root]\ntier = \"stable\"\nrequired = [\"*\"]\n\
        [[layer]]\nname = \"a\"\nfile = \"a.md\"\ninterpolate = true\nfrontmatter = \"strip\"\n";
    match support::generate_with(manifest, &[("a.md", md.as_bytes())]) {
        Ok(_) => Vec::new(),
        Err(d) => d.located().map(|d| d.to_string()).collect(),
    }
}

#[test]
fn each_unknown_placeholder_is_located_in_the_file() {
    // The body starts on line 4, after the frontmatter.
    let errors = errors_for("---\nsource: x\n---\né{a} ü{b}\n😀 {c} {root}\n");
    let locations: Vec<&str> = errors
        .iter()
        .map(|e| e.split(": ").next().unwrap())
        .collect();
    assert_eq!(
        locations,
        ["a.md:4:2", "a.md:4:7", "a.md:5:3"],
        "{errors:#?}"
    );
}

#[test]
fn thousands_of_unknown_placeholders_are_each_located() {
    let lines = 20_000;
    let errors = errors_for(&"é {nope}\n".repeat(lines));
    assert_eq!(errors.len(), lines);
    for (i, e) in errors.iter().enumerate() {
        let expected = format!(
            "a.md:{}:3: placeholder `{{nope}}` names no declared fact or knob",
            i + 1
        );
        assert!(e.starts_with(&expected), "{e}");
    }
}

#[test]
fn a_megabyte_long_name_makes_a_short_message() {
    let name = "a".repeat(1 << 20);
    for md in [
        format!("{{{name}}}"),
        format!("{{{name}"),
        format!("{{{name}!}}"),
    ] {
        let errors = errors_for(&md);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("a.md:1:1: "), "{}", &errors[0][..80]);
        assert!(
            errors[0].contains(&format!("{}…", &name[..40])),
            "{}",
            &errors[0][..80]
        );
        assert!(errors[0].len() < 300, "{} bytes", errors[0].len());
    }
}

//! What a build script has cargo watch: the manifest and every directory it names (a `dir`
//! layer, `[skills] dir`, the directory a `{role}` pattern reads from). A proc-macro can
//! have cargo watch the files it read (`include_bytes!`), but not a directory, so a file
//! added to one would otherwise go unnoticed until something else changed.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::diag::Sink;
use super::read::MAX_FILE_BYTES;

/// The manifest, then each directory it names, relative to where `manifest` is given from
/// and without repeats. A manifest that cannot be read or parsed gives itself alone: the
/// macro reports what is wrong with it.
pub fn watched(manifest: &Path) -> Vec<PathBuf> {
    let mut out = vec![manifest.to_path_buf()];
    let Some(source) = read_capped(manifest) else {
        return out;
    };
    let mut sink = Sink::new(manifest.display().to_string(), &source);
    let Some(raw) = super::parse::parse(&source, &mut sink) else {
        return out;
    };
    let base = manifest.parent().unwrap_or(Path::new(""));
    let mut dirs: Vec<&str> = Vec::new();
    for layer in &raw.layers {
        let layer = layer.get_ref();
        dirs.extend(layer.dir.as_ref().map(|d| d.get_ref().as_str()));
        let files = layer.files.iter().flat_map(|f| f.get_ref().values());
        for file in layer.file.iter().chain(files) {
            dirs.extend(pattern_dir(file.get_ref()));
        }
    }
    dirs.extend(
        raw.skills
            .as_ref()
            .and_then(|s| s.get_ref().dir.as_ref())
            .map(|d| d.get_ref().as_str()),
    );
    for dir in dirs {
        let path = base.join(dir);
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// Has cargo watch the manifest and every directory it names: each `dir` layer, `[skills]
/// dir`, and the directory of each `{role}` pattern. `manifest` is relative to the crate
/// (where `build.rs` runs), e.g. `"src/doctrine.toml"`. Needs the facade's `build` feature,
/// in `[build-dependencies]`:
///
/// ```toml
/// [build-dependencies]
/// doctrine-prompt = { version = "0.1", features = ["build"] }
/// ```
///
/// ```no_run
/// // build.rs, in `fn main()`:
/// doctrine_codegen::watch("src/doctrine.toml");
/// ```
pub fn watch(manifest: impl AsRef<Path>) {
    for path in watched(manifest.as_ref()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The directory a `{role}` (or `{mode}`) pattern reads its files from: the path up to the
/// first part holding the placeholder (`lifecycle/{role}.md` → `lifecycle`); `None` for a
/// plain path, whose file the macro has cargo watch already.
fn pattern_dir(path: &str) -> Option<&str> {
    if !path.contains("{role}") && !path.contains("{mode}") {
        return None;
    }
    let first = path.find('{')?;
    Some(path[..first].rsplit_once('/').map_or("", |(dir, _)| dir))
}

/// The manifest's text, read up to the cap every file the macro reads has.
fn read_capped(path: &Path) -> Option<String> {
    let mut text = String::new();
    let file = std::fs::File::open(path).ok()?;
    file.take(MAX_FILE_BYTES).read_to_string(&mut text).ok()?;
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_name_the_directory_they_read() {
        assert_eq!(pattern_dir("lifecycle/{role}.md"), Some("lifecycle"));
        assert_eq!(pattern_dir("a/b/{mode}/x.md"), Some("a/b"));
        assert_eq!(pattern_dir("{role}.md"), Some(""));
        assert_eq!(pattern_dir("roles/dev.md"), None);
    }

    #[test]
    fn every_directory_the_manifest_names_once() {
        let tmp = tempfile::tempdir().unwrap();
        let manifest = tmp.path().join("src/doctrine.toml");
        std::fs::create_dir_all(manifest.parent().unwrap()).unwrap();
        std::fs::write(
            &manifest,
            r#"roles = ["dev", "qa"]
[[layer]]
name = "team"
dir = "teams"
[[layer]]
name = "life"
file = "lifecycle/{role}.md"
[[layer]]
name = "role"
files = { dev = "roles/dev.md", default = "lifecycle/{role}.md" }
[skills]
dir = "skills"
"#,
        )
        .unwrap();
        let src = tmp.path().join("src");
        assert_eq!(
            watched(&manifest),
            [
                manifest.clone(),
                src.join("teams"),
                src.join("lifecycle"),
                src.join("skills")
            ]
        );
        // Not a manifest: itself alone, for the macro to report on.
        std::fs::write(&manifest, "[[layer]\n").unwrap();
        assert_eq!(watched(&manifest), std::slice::from_ref(&manifest));
        assert_eq!(
            watched(&src.join("missing.toml")),
            [src.join("missing.toml")]
        );
    }
}

//! Reading the files a manifest names: path safety, UTF-8, normalisation, de-duplication.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use doctrine_core::__internals::part::Trim;
use toml::Spanned;

use super::diag::{Sink, Span};
use super::model::{SourceFile, Text, TextId};
use super::read::CrateDir;
use super::text::{normalise, strip_frontmatter};

/// How a file's text is normalised beyond BOM and line endings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Shape {
    pub strip_frontmatter: bool,
    pub trim: Trim,
    /// Part of the key so that a file read with and without placeholders is two texts.
    pub interpolate: bool,
}

/// `(stem, file name)` of each markdown file, and the names that are not UTF-8.
pub(super) type DirListing = (Vec<(String, String)>, Vec<String>);

pub(super) struct Loader {
    /// Canonical crate directory: no file may resolve outside it.
    crate_dir: PathBuf,
    /// Directory relative paths in the manifest are resolved against.
    base_dir: PathBuf,
    /// The crate directory again, opened for reading files beneath it.
    reader: CrateDir,
    pub texts: Vec<Text>,
    by_file: HashMap<(PathBuf, Shape), TextId>,
    const_names: HashMap<String, usize>,
    pub tracked: Vec<PathBuf>,
    tracked_set: HashSet<PathBuf>,
}

impl Loader {
    pub(super) fn new(crate_dir: PathBuf, base_dir: PathBuf) -> Self {
        Loader {
            reader: CrateDir::new(crate_dir.clone()),
            crate_dir,
            base_dir,
            texts: Vec::new(),
            by_file: HashMap::new(),
            const_names: HashMap::new(),
            tracked: Vec::new(),
            tracked_set: HashSet::new(),
        }
    }

    /// The path relative to the crate directory, `/`-separated, for messages and docs.
    pub(super) fn display(&self, path: &Path) -> String {
        let rel = path.strip_prefix(&self.crate_dir).unwrap_or(path);
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Resolves a manifest path to a canonical path inside the crate directory.
    pub(super) fn resolve(&self, path: &Spanned<String>, sink: &mut Sink<'_>) -> Option<PathBuf> {
        self.resolve_as(path, "file", sink)
    }

    /// The size and fingerprint of a file's bytes as they are (an earlier shipped version
    /// for `overlay_ignore`), read like any manifest file and tracked for rebuilds.
    pub(super) fn digest(
        &mut self,
        path: &Spanned<String>,
        sink: &mut Sink<'_>,
    ) -> Option<(u64, u64)> {
        let canonical = self.resolve(path, sink)?;
        match self.reader.read(&canonical) {
            Ok(bytes) => {
                if self.tracked_set.insert(canonical.clone()) {
                    self.tracked.push(canonical);
                }
                Some((
                    bytes.len() as u64,
                    doctrine_core::cache::fingerprint(&bytes),
                ))
            }
            Err(e) => {
                let (message, help) = e.describe("file");
                sink.error(
                    Some(path.span()),
                    format!("in `{}`: {message}", self.display(&canonical)),
                    Some(help),
                );
                None
            }
        }
    }

    /// Where a relative path is looked for, as messages show it.
    pub(super) fn looked_for(&self, path: &str) -> String {
        self.display(&self.base_dir.join(path))
    }

    /// Whether a relative path names nothing (for `file` patterns, where a missing file
    /// may be allowed). Anything else wrong with it is left to [`Loader::resolve`].
    pub(super) fn is_missing(&self, path: &str) -> bool {
        matches!(
            self.base_dir.join(path).canonicalize(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound
        )
    }

    /// As [`Loader::resolve`], naming what is expected (`file` or `directory`) in messages.
    pub(super) fn resolve_as(
        &self,
        path: &Spanned<String>,
        what: &str,
        sink: &mut Sink<'_>,
    ) -> Option<PathBuf> {
        let raw = Path::new(path.get_ref().as_str());
        if path.get_ref().trim().is_empty() {
            sink.error(
                Some(path.span()),
                format!("the {what} path is empty"),
                Some(format!(
                    "name a {what} relative to the manifest's directory"
                )),
            );
            return None;
        }
        if raw.is_absolute()
            || raw.has_root()
            || matches!(raw.components().next(), Some(Component::Prefix(_)))
        {
            sink.error(
                Some(path.span()),
                format!("`{}` is an absolute path", path.get_ref()),
                Some("write paths relative to the manifest's directory, inside the crate".into()),
            );
            return None;
        }
        let leave_help = || {
            Some("keep doctrine files inside the crate directory so the crate builds the same anywhere".to_string())
        };
        // Checked lexically first, so an escape is reported whether or not the target exists.
        let mut depth = self
            .base_dir
            .strip_prefix(&self.crate_dir)
            .map_or(0, |p| p.components().count());
        for c in raw.components() {
            match c {
                Component::ParentDir if depth == 0 => {
                    sink.error(
                        Some(path.span()),
                        format!(
                            "`{}` leaves the crate directory through `..`",
                            path.get_ref()
                        ),
                        leave_help(),
                    );
                    return None;
                }
                Component::ParentDir => depth -= 1,
                Component::Normal(_) => depth += 1,
                _ => {}
            }
        }
        let joined = self.base_dir.join(raw);
        let canonical = match joined.canonicalize() {
            Ok(c) => c,
            Err(e) => {
                let shown = self.display(&joined);
                let msg = if e.kind() == std::io::ErrorKind::NotFound {
                    format!("missing {what} `{}` (looked for `{shown}`)", path.get_ref())
                } else {
                    format!("cannot read `{}`: {e}", path.get_ref())
                };
                let help = match near(&joined, raw, &self.crate_dir) {
                    Some(near) => format!("did you mean `{near}`, beside where this path points? paths are relative to the manifest's directory"),
                    None => format!("create the {what} or correct the path; paths are relative to the manifest's directory"),
                };
                sink.error(Some(path.span()), msg, Some(help));
                return None;
            }
        };
        if !canonical.starts_with(&self.crate_dir) {
            sink.error(
                Some(path.span()),
                format!(
                    "`{}` leaves the crate directory through a symlink",
                    path.get_ref()
                ),
                leave_help(),
            );
            return None;
        }
        Some(canonical)
    }

    /// Loads (once) a file's normalised text and returns its index in `texts`.
    pub(super) fn load(
        &mut self,
        canonical: &Path,
        at: std::ops::Range<usize>,
        shape: Shape,
        const_hint: &str,
        layer: &str,
        sink: &mut Sink<'_>,
    ) -> Option<TextId> {
        if let Some(&id) = self.by_file.get(&(canonical.to_path_buf(), shape)) {
            return Some(id);
        }
        let display = self.display(canonical);
        // Reported at the manifest entry that named the file, with the file in the message.
        let fail = |sink: &mut Sink<'_>, file: String, message: String, help: &str| {
            sink.error(
                Some(at.clone()),
                format!("in `{file}`: {message}"),
                Some(help.to_string()),
            );
        };
        let text = self.read_text(canonical, at.clone(), sink)?;
        let (body, fields) = if shape.strip_frontmatter {
            match strip_frontmatter(&text) {
                Ok(found) => found,
                Err(e) => {
                    fail(
                        sink,
                        format!("{display}:{}:{}", e.line, e.column),
                        e.message,
                        "fix the frontmatter, or set `frontmatter = \"keep\"` to embed it as text",
                    );
                    return None;
                }
            }
        } else {
            (text.as_str(), Default::default())
        };
        let body = shape.trim.apply(body);
        // Where the body sits in the file, so placeholder errors name the file's line.
        let start = body.as_ptr() as usize - text.as_ptr() as usize;
        let (body, bytes) = (body.to_string(), start..start + body.len());
        let body_span = Span::new(sink.add_file(display.clone(), text), bytes);
        let id = self.add(
            const_hint,
            layer,
            body,
            Some(SourceFile {
                display,
                fields,
                body: body_span,
            }),
        );
        self.by_file.insert((canonical.to_path_buf(), shape), id);
        Some(id)
    }

    /// A file's text, normalised (BOM and CRLF), read with the reader's rules and tracked
    /// for rebuilds; a failure is reported at `at`, naming the file.
    pub(super) fn read_text(
        &mut self,
        canonical: &Path,
        at: std::ops::Range<usize>,
        sink: &mut Sink<'_>,
    ) -> Option<String> {
        let display = self.display(canonical);
        let fail = |sink: &mut Sink<'_>, message: String, help: &str| {
            sink.error(
                Some(at.clone()),
                format!("in `{display}`: {message}"),
                Some(help.to_string()),
            );
        };
        let bytes = match self.reader.read(canonical) {
            Ok(b) => b,
            Err(e) => {
                let (message, help) = e.describe("file");
                fail(sink, message, &help);
                return None;
            }
        };
        let raw = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                fail(
                    sink,
                    format!("file is not valid UTF-8 (first bad byte at offset {at})"),
                    "re-save the file as UTF-8",
                );
                return None;
            }
        };
        // A set beside the ordered list: a linear scan made generation quadratic in the
        // number of files (measured in BENCHMARKS.md).
        if self.tracked_set.insert(canonical.to_path_buf()) {
            self.tracked.push(canonical.to_path_buf());
        }
        Some(normalise(&raw))
    }

    /// Adds a text under a constant name derived from `const_hint`, made unique.
    pub(super) fn add(
        &mut self,
        const_hint: &str,
        layer: &str,
        body: String,
        file: Option<SourceFile>,
    ) -> TextId {
        let mut name = const_hint.to_string();
        let mut n = 2;
        while self.const_names.contains_key(&name) {
            name = format!("{const_hint}_{n}");
            n += 1;
        }
        let id = TextId(self.texts.len());
        self.const_names.insert(name.clone(), id.0);
        self.texts.push(Text {
            const_name: name,
            body,
            file,
            layer: layer.to_string(),
            segments: None,
        });
        id
    }

    /// The markdown files of a directory (`.md` in any case), sorted by name, as
    /// `(stem, file name)`; and the names of markdown files that are not UTF-8, which
    /// cannot name a choice.
    pub(super) fn list_dir(&self, dir: &Path) -> std::io::Result<DirListing> {
        let (mut out, mut bad) = (Vec::new(), Vec::new());
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if !path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("md"))
            {
                continue;
            }
            match (
                path.file_stem().and_then(|s| s.to_str()),
                path.file_name().and_then(|s| s.to_str()),
            ) {
                (Some(stem), Some(name)) => out.push((stem.to_string(), name.to_string())),
                _ => bad.push(
                    path.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned(),
                ),
            }
        }
        out.sort();
        bad.sort();
        Ok((out, bad))
    }
}

/// The most entries of a directory read for a name close to a missing one.
const MAX_NEAR_ENTRIES: usize = 1000;

/// A file or directory beside where the missing `joined` (written `raw`) points whose name
/// is close to its name, as the manifest would write its path: for the help under
/// "missing file". Names only are read, at most [`MAX_NEAR_ENTRIES`] of them, and only in
/// a directory inside the crate's (`crate_dir`, canonical).
fn near(joined: &Path, raw: &Path, crate_dir: &Path) -> Option<String> {
    let name = joined.file_name()?.to_str()?;
    let dir = joined.parent()?.canonicalize().ok()?;
    if !dir.starts_with(crate_dir) {
        return None;
    }
    let entries = std::fs::read_dir(dir).ok()?;
    let names: Vec<String> = entries
        .take(MAX_NEAR_ENTRIES)
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    let found = crate::names::closest(name, names.iter().map(String::as_str))?;
    let written = raw.with_file_name(found);
    Some(written.to_string_lossy().replace('\\', "/"))
}

//! `[skills]`: shipped skills, each `<dir>/<name>.md` or `<dir>/<name>/SKILL.md` with a
//! frontmatter `name`, a one-line `when` (or `description`) and optional `triggers`. A bad
//! shipped skill is a compile error naming its file, line and column: the index line it
//! would add is paid for on every turn of every session.

use std::collections::HashMap;

use toml::Spanned;

use crate::diag::Sink;
use crate::load::Loader;
use crate::model::SkillDef;
use crate::names::{fold, shown};
use crate::raw;
use doctrine_load::__internals::frontmatter::skill::{parse, Problem, SkillFile};
use doctrine_load::__internals::spelling::{differences, escaped};
use doctrine_load::limits::MAX_WHEN_TO_USE_CHARS;

/// The fix for a `dir` that holds no skill, in a clone as in the author's checkout.
const NO_SKILLS: &str = "if the crate ships no skills, remove `dir` (`[skills]` alone gives \
                         the index of the user's skills); else add a skill (`NAME.md` or \
                         `NAME/SKILL.md`) to the directory";

pub(super) fn skills(
    table: &Spanned<raw::SkillsTable>,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Vec<SkillDef>> {
    // Without `dir`, nothing is shipped: the index lists the user's skills alone.
    let Some(dir) = &table.get_ref().dir else {
        return Some(Vec::new());
    };
    // A path that is wrong otherwise (absolute, out of the crate) is `resolve_as`'s to report.
    if std::path::Path::new(dir.get_ref()).is_relative() && loader.is_missing(dir.get_ref()) {
        sink.error(
            Some(dir.span()),
            format!(
                "missing skills directory `{}` (looked for `{}`)",
                dir.get_ref(),
                loader.looked_for(dir.get_ref())
            ),
            Some(format!(
                "{NO_SKILLS}; or correct the path (relative to the manifest's directory)"
            )),
        );
        return None;
    }
    let canonical = loader.resolve_as(dir, "directory", sink)?;
    if !canonical.is_dir() {
        sink.error(
            Some(dir.span()),
            format!("`{}` is a file, not a directory", dir.get_ref()),
            Some("point `dir` at a directory of skills (`name.md` or `name/SKILL.md`)".into()),
        );
        return None;
    }
    let entries = match entries(&canonical) {
        Ok(e) => e,
        Err(e) => {
            sink.error(
                Some(dir.span()),
                format!("cannot list directory `{}`: {e}", dir.get_ref()),
                Some("point `dir` at a directory of skills (`name.md` or `name/SKILL.md`)".into()),
            );
            return None;
        }
    };
    if entries.is_empty() && is_empty(&canonical) {
        sink.error(
            Some(dir.span()),
            format!(
                "the skills directory `{}` is empty: git does not keep an empty directory, so \
                 a fresh clone of this crate would not find it",
                dir.get_ref()
            ),
            Some(NO_SKILLS.to_string()),
        );
        return None;
    }
    let mut out: Vec<(SkillDef, String)> = Vec::new();
    // Each name as it reads ([`fold`]) → its index in `out`.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut ok = true;
    for (stem, rel) in entries {
        // A directory is a skill by its `SKILL.md`, spelt exactly so.
        if rel.ends_with("/SKILL.md") && !canonical.join(&rel).is_file() {
            let shown_dir = loader.display(&canonical.join(&stem));
            sink.error(
                Some(dir.span()),
                format!(
                    "directory `{shown_dir}` has no `SKILL.md`: each directory in the skills \
                     `dir` is a skill"
                ),
                Some(
                    "write its guidance in `SKILL.md` (that exact name), or move the directory \
                     out of the skills `dir`"
                        .into(),
                ),
            );
            ok = false;
            continue;
        }
        let rel = Spanned::new(
            dir.span(),
            format!("{}/{rel}", dir.get_ref().trim_end_matches('/')),
        );
        let Some(file) = loader.resolve(&rel, sink) else {
            ok = false;
            continue;
        };
        let Some(text) = loader.read_text(&file, dir.span(), sink) else {
            ok = false;
            continue;
        };
        let display = loader.display(&file);
        let mut fail = |line: usize, column: usize, message: String, help: &str| {
            sink.error(
                Some(dir.span()),
                format!("in `{display}:{line}:{column}`: {message}"),
                Some(help.to_string()),
            );
        };
        let SkillFile {
            name,
            name_at,
            when,
            when_at,
            triggers,
            body,
        } = match parse(&text, &stem) {
            Ok(skill) => skill,
            Err(Problem { at, message, help }) => {
                fail(at.0, at.1, message, help);
                ok = false;
                continue;
            }
        };
        let long = when.chars().count();
        if long > MAX_WHEN_TO_USE_CHARS {
            let (line, column) = when_at;
            fail(
                line,
                column,
                format!(
                    "skill `{}`: its `when` is {long} characters, over {MAX_WHEN_TO_USE_CHARS}",
                    shown(&name)
                ),
                "the index line is paid for on every turn: shorten it",
            );
            ok = false;
            continue;
        }
        // Two names that read alike would print two index lines that read alike.
        let folded = fold(&name);
        if let Some(&i) = seen.get(&folded) {
            let (first, other) = (&out[i].0.name, &out[i].1);
            let (message, help) = if *first == name {
                (
                    format!("skill `{}` is also defined by `{other}`", shown(&name)),
                    "skill names are unique: rename one of them",
                )
            } else {
                (
                    format!(
                        "skill `{}` reads as skill `{}` of `{other}` but is spelt otherwise: \
                         {} (names are compared ignoring case, invisible characters and \
                         letters that look Latin)",
                        escaped(&name),
                        escaped(first),
                        differences(&name, first)
                    ),
                    "skill names are unique as they read: write each in plain lowercase \
                     Latin letters, and rename one of the two",
                )
            };
            fail(name_at.0, name_at.1, message, help);
            ok = false;
            continue;
        }
        seen.insert(folded, out.len());
        out.push((
            SkillDef {
                name,
                when,
                triggers,
                body,
            },
            display,
        ));
    }
    let mut skills: Vec<SkillDef> = out.into_iter().map(|(s, _)| s).collect();
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    ok.then_some(skills)
}

/// The skill files of a directory, sorted: `(stem, path inside the directory)` for each
/// `name.md` and each directory (its `SKILL.md`); an entry whose name is not UTF-8 is an
/// error, and other files are not skills.
fn entries(dir: &std::path::Path) -> std::io::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            return Err(std::io::Error::other(format!(
                "the name {:?} is not UTF-8",
                entry.file_name()
            )));
        };
        if entry.file_type()?.is_dir() {
            // Listed even without a `SKILL.md`, so a misspelt one is reported (as a missing
            // file) rather than the skill dropped in silence.
            out.push((name.clone(), format!("{name}/SKILL.md")));
        } else if let Some(stem) = name
            .strip_suffix(".md")
            .or_else(|| name.strip_suffix(".MD"))
        {
            out.push((stem.to_string(), name.clone()));
        }
    }
    out.sort();
    Ok(out)
}

/// Whether `dir` holds nothing at all: what git drops from a clone. A directory kept with a
/// placeholder file (`.gitkeep`) is not empty, and ships no skill.
fn is_empty(dir: &std::path::Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none())
}

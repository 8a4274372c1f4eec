//! `[skills]`: shipped skills, each `<dir>/<name>.md` or `<dir>/<name>/SKILL.md` with a
//! frontmatter `name`, a one-line `when` (or `description`) and optional `triggers`. A bad
//! shipped skill is a compile error naming its file, line and column: the index line it
//! would add is paid for on every turn of every session.

use toml::Spanned;

use crate::codegen::diag::Sink;
use crate::codegen::frontmatter::{Field, Key, Value};
use crate::codegen::load::Loader;
use crate::codegen::model::SkillDef;
use crate::codegen::names::shown;
use crate::codegen::raw;
use crate::codegen::text::read_frontmatter;
use crate::MAX_WHEN_TO_USE;

/// The help for a frontmatter that cannot be read.
const FRONTMATTER_HELP: &str = "a skill's frontmatter is `key: value` lines between two `---` lines: `name` and `when` one line each, `triggers` a list of phrases";

/// What a skill's frontmatter holds.
const SKILL: &[Key] = &[
    Key {
        names: &["name"],
        list: false,
    },
    Key {
        names: &["when", "description"],
        list: false,
    },
    Key {
        names: &["triggers"],
        list: true,
    },
];

pub(super) fn skills(
    table: &Spanned<raw::SkillsTable>,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Vec<SkillDef>> {
    let dir = &table.get_ref().dir;
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
    let mut out: Vec<(SkillDef, String)> = Vec::new();
    let mut ok = true;
    for (stem, rel) in entries {
        // A directory is a skill by its `SKILL.md`, spelt exactly so.
        if rel.ends_with("/SKILL.md") && !canonical.join(&rel).is_file() {
            let shown_dir = loader.display(&canonical.join(&stem));
            sink.error(
                Some(dir.span()),
                format!("directory `{shown_dir}` has no `SKILL.md`: each directory in the skills `dir` is a skill"),
                Some("write its guidance in `SKILL.md` (that exact name), or move the directory out of the skills `dir`".into()),
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
        let (body, mut fields) = match read_frontmatter(&text, SKILL) {
            Ok(found) => found,
            Err(e) => {
                fail(e.line, e.column, e.message, FRONTMATTER_HELP);
                ok = false;
                continue;
            }
        };
        // Each field with where its key is, for the errors below.
        let mut text_field = |i: usize| match fields[i].take() {
            Some(Field {
                value: Value::Text(t),
                at,
            }) => (Some(t.trim().to_string()), at),
            _ => (None, (1, 1)),
        };
        let (name, name_at) = text_field(0);
        let name = name.unwrap_or(stem);
        let (when, when_at) = text_field(1);
        let when = when.unwrap_or_default();
        let (triggers, triggers_at) = match fields[2].take() {
            Some(Field {
                value: Value::List(t),
                at,
            }) => (t.into_iter().map(|t| t.trim().to_string()).collect(), at),
            _ => (Vec::new(), (1, 1)),
        };
        // The file's line where the body starts (the body is the tail of the text).
        let body_line = text[..text.len() - body.len()].matches('\n').count() + 1;
        let body = body.trim().to_string();
        let skill = format!("skill `{}`", shown(&name));
        let long = when.chars().count();
        let problem: Option<((usize, usize), String, &str)> =
            if name.is_empty() || name.contains('\n') {
                Some((
                    name_at,
                    match name.is_empty() {
                        true => "the skill's `name` is empty".to_string(),
                        false => "the skill's `name` spans lines".to_string(),
                    },
                    "give the skill a one-line `name`",
                ))
            } else if when.is_empty() {
                Some((
                    when_at,
                    format!(
                    "{skill} has no `when` (or `description`): the index line says when to use it"
                ),
                    "add `when: <one line saying when the skill applies>` to its frontmatter",
                ))
            } else if when.contains('\n') {
                Some((
                    when_at,
                    format!("{skill}: its `when` spans lines"),
                    "the index holds one line per skill: write one line",
                ))
            } else if long > MAX_WHEN_TO_USE {
                Some((
                    when_at,
                    format!("{skill}: its `when` is {long} characters, over {MAX_WHEN_TO_USE}"),
                    "the index line is paid for on every turn: shorten it",
                ))
            } else if triggers.iter().any(String::is_empty) {
                Some((
                    triggers_at,
                    format!("{skill} has an empty trigger"),
                    "remove the empty entry from `triggers`",
                ))
            } else if body.is_empty() {
                Some((
                    (body_line, 1),
                    format!("{skill} has an empty body"),
                    "write the guidance after the frontmatter",
                ))
            } else {
                None
            };
        if let Some(((line, column), what, help)) = problem {
            fail(line, column, what, help);
            ok = false;
            continue;
        }
        if let Some((_, other)) = out.iter().find(|(s, _)| s.name == name) {
            fail(
                name_at.0,
                name_at.1,
                format!("skill `{}` is also defined by `{other}`", shown(&name)),
                "skill names are unique: rename one of them",
            );
            ok = false;
            continue;
        }
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

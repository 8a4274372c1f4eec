//! A skill file, `<name>.md` or `<name>/SKILL.md`: frontmatter `name`, a one-line `when`
//! (or `description`) and optional `triggers`, then the body. Read the same way for a
//! shipped skill (a problem is a compile error) and a user's (a problem is a notice).

use super::{read, Field, Key, Value};

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

/// A skill file as read. Its `when` may be longer than the index allows: a shipped skill
/// refuses that, a user's is cut.
#[derive(Debug, PartialEq, Eq)]
pub struct SkillFile {
    pub name: String,
    /// Where the `name` key is (1-based line and column; `(1, 1)` when absent).
    pub name_at: (usize, usize),
    pub when: String,
    /// Where the `when` key is (1-based line and column; `(1, 1)` when absent).
    pub when_at: (usize, usize),
    pub triggers: Vec<String>,
    pub body: String,
}

/// Why a skill file was refused: where (1-based line and column in the file), what, and
/// how to fix it.
#[derive(Debug, PartialEq, Eq)]
pub struct Problem {
    pub at: (usize, usize),
    pub message: String,
    pub help: &'static str,
}

/// Reads a skill file's text (already normalised); `stem` names the skill when its
/// frontmatter does not. Surrounding whitespace is trimmed from every field and the body.
pub fn parse(text: &str, stem: &str) -> Result<SkillFile, Problem> {
    let (body, mut fields) = read(text, SKILL).map_err(|e| Problem {
        at: (e.line, e.column),
        message: e.message,
        help: "a skill's frontmatter is `key: value` lines between two `---` lines: `name` \
               and `when` one line each, `triggers` a list of phrases",
    })?;
    // Each field with where its key is, for the problems below.
    let mut text_field = |i: usize| match fields[i].take() {
        Some(Field {
            value: Value::Text(t),
            at,
        }) => (Some(t.trim().to_string()), at),
        _ => (None, (1, 1)),
    };
    let (name, name_at) = text_field(0);
    let name = name.unwrap_or_else(|| stem.to_string());
    let (when, when_at) = text_field(1);
    let when = when.unwrap_or_default();
    let (triggers, triggers_at): (Vec<String>, _) = match fields[2].take() {
        Some(Field {
            value: Value::List(t),
            at,
        }) => (t.into_iter().map(|t| t.trim().to_string()).collect(), at),
        _ => (Vec::new(), (1, 1)),
    };
    // The file's line where the body starts (the body is the tail of the text).
    let body_line = text[..text.len() - body.len()].matches('\n').count() + 1;
    let body = body.trim().to_string();
    let skill = format!("skill `{}`", crate::text::shown(&name));
    let problem = |at, message: String, help| Err(Problem { at, message, help });
    if name.is_empty() {
        return problem(
            name_at,
            "the skill's `name` is empty".to_string(),
            "give the skill a one-line `name`",
        );
    }
    if let Some(problem) = broken_line(&skill, "name", &name, name_at) {
        return Err(problem);
    }
    let long = name.chars().count();
    if long > crate::limits::MAX_SKILL_NAME_CHARS {
        return problem(
            name_at,
            format!(
                "{skill}: its name is {long} characters, over {}",
                crate::limits::MAX_SKILL_NAME_CHARS
            ),
            "name the skill in a few words: the name is its key and is printed in the index",
        );
    }
    if when.is_empty() {
        return problem(
            when_at,
            format!("{skill} has no `when` (or `description`): the index line says when to use it"),
            "add `when: <one line saying when the skill applies>` to its frontmatter",
        );
    }
    if let Some(problem) = broken_line(&skill, "when", &when, when_at) {
        return Err(problem);
    }
    if triggers.iter().any(String::is_empty) {
        return problem(
            triggers_at,
            format!("{skill} has an empty trigger"),
            "remove the empty entry from `triggers`",
        );
    }
    for (i, trigger) in triggers.iter().enumerate() {
        if let Some(problem) =
            broken_line(&skill, &format!("trigger {}", i + 1), trigger, triggers_at)
        {
            return Err(problem);
        }
    }
    if body.is_empty() {
        return problem(
            (body_line, 1),
            format!("{skill} has an empty body"),
            "write the guidance after the frontmatter",
        );
    }
    Ok(SkillFile {
        name,
        name_at,
        when,
        when_at,
        triggers,
        body,
    })
}

/// The problem with a one-line field holding a line break or a control character
/// ([`crate::one_line`]), naming the character and where it is.
fn broken_line(skill: &str, field: &str, value: &str, at: (usize, usize)) -> Option<Problem> {
    let (i, what) = crate::one_line::first_break(value)?;
    Some(Problem {
        at,
        message: format!(
            "{skill}: its `{field}` holds {what} at character {}: it is one line of the \
             index, and that character breaks the line or changes how it shows",
            i + 1
        ),
        help: "write the field on one line of plain text (a space for a tab); a skill's \
               name, `when` and triggers may hold no line break, control character or \
               bidi control",
    })
}

//! A prompt's escapes said in sentences: one notice per layer and source.

use super::Escape;
use crate::runtime::notice::{Notice, NoticeKind};
use crate::runtime::shown::Shown;
use crate::runtime::user_content::UserContent;

/// One notice per layer and source of `escapes` (in `text`), a user skill's line named by
/// the user content it falls in.
pub(crate) fn notices(escapes: &[Escape], text: &str, user: &[UserContent]) -> Vec<Notice> {
    let mut groups: Vec<(String, Vec<&Escape>)> = Vec::new();
    for e in escapes {
        let source = match user.iter().find(|u| u.range.contains(&e.at)) {
            Some(u) => u.source.to_string(),
            None => e.source.to_string(),
        };
        let subject = format!("layer `{}`, {source}", e.layer);
        match groups.iter_mut().find(|(s, _)| *s == subject) {
            Some((_, group)) => group.push(e),
            None => groups.push((subject, vec![e])),
        }
    }
    groups
        .into_iter()
        .map(|(subject, group)| {
            Notice::new(subject, NoticeKind::BoundaryEscaped, message(&group, text))
        })
        .collect()
}

/// What was escaped (the first three, as written before and after) and why.
fn message(group: &[&Escape], text: &str) -> String {
    let shown: Vec<String> = group
        .iter()
        .take(3)
        .map(|e| {
            let escaped = &text[e.boundary.clone()];
            let b = &e.boundary;
            let from = e.written.start.clamp(b.start, b.end);
            let to = e.written.end.clamp(from, b.end);
            let mut plain = text[e.boundary.start..from].to_string();
            plain.extend(e.replaced);
            plain.push_str(&text[to..e.boundary.end]);
            format!("`{}` as `{}`", Shown(&plain), Shown(escaped))
        })
        .collect();
    let more = match group.len() {
        n if n > 3 => format!(" and {} more", n - 3),
        _ => String::new(),
    };
    let (n, what) = match group.len() {
        1 => ("a".to_string(), "section boundary"),
        n => (n.to_string(), "section boundaries"),
    };
    // Inside a value printed escaped, a `\` would be part of the value.
    let replaced = group.iter().filter(|e| e.replaced.is_some()).count();
    let how = match replaced {
        0 => "with a `\\`",
        n if n == group.len() => {
            "by writing its first character as the value's escaping writes characters \
             (a JSON escape, a character reference)"
        }
        _ => {
            "with a `\\`, or inside an escaped value by writing its first character as \
              that escaping writes characters"
        }
    };
    format!(
        "The text held {n} {what} the manifest did not write, which a model would read as \
         the end of its section or the start of another; each was escaped {how}: {}{more}.",
        shown.join(", ")
    )
}

//! A prompt's escapes said in sentences: one notice per layer and source.

use super::Escape;
use crate::runtime::notice::{Notice, NoticeKind};
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
            let cut = e.at - e.boundary.start;
            let plain = format!("{}{}", &escaped[..cut], &escaped[cut + 1..]);
            format!("`{}` as `{}`", plain.escape_debug(), escaped.escape_debug())
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
    format!(
        "The text held {n} {what} the manifest did not write, which a model would read as \
         the end of its section or the start of another; each was escaped with a `\\`: {}{more}.",
        shown.join(", ")
    )
}

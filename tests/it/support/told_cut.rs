//! That a composed prompt tells a byte budget's cut where a caller looks for it.

use doctrine::introspect::{NoticeKind, Section};
use doctrine::Prompt;

/// `p`'s notices hold one `ListCut` notice, about `subject` and saying `message`, and its
/// `explain()` the line `line` once.
pub fn assert_cut_told<S: AsRef<[Section]>>(
    p: &Prompt<S>,
    subject: &str,
    message: &str,
    line: &str,
) {
    let notices = p.notices();
    let cuts: Vec<_> = notices
        .iter()
        .filter(|n| n.kind == NoticeKind::ListCut)
        .map(|n| (n.subject.as_str(), n.message.as_str()))
        .collect();
    assert_eq!(cuts, [(subject, message)]);
    let explain = p.explain().to_string();
    let lines = explain.lines().filter(|l| *l == line).count();
    assert_eq!(lines, 1, "{explain}");
}

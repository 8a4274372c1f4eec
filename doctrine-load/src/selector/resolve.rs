//! From the caller's selector values to what each selector layer composes from.

use std::path::Path;

use doctrine_core::__internals::Picked;
use doctrine_core::__private::{Removed, Resolution};
use doctrine_core::input::Selector;
use doctrine_core::introspect::{Doctor, Origin, SelectorOrigin, SelectorReport, Skip};
use doctrine_core::introspect::{Notice, NoticeKind};

use super::path::read_path;
use super::SelectorSpec;
use crate::overlay::{read_one, sanitized_message, UserCopy};

/// Resolves each selector of `specs` from its value in `values` (same order; a missing
/// entry is unset), reading the user's copies from `user_dir` for the selectors set to
/// `on` and nothing for the others. Never fails: what cannot be used is a notice. A file
/// named by path is read once however many selectors go by it (a follower takes its
/// leader's value), and a refusal is one notice naming every selector it leaves out.
#[must_use = "the notices say what was refused and why; report them"]
pub fn resolve_selectors(
    values: &[Option<&str>],
    specs: &'static [SelectorSpec],
    user_dir: &Path,
) -> (Resolution, Vec<Notice>) {
    let mut picked = Vec::with_capacity(specs.len());
    let mut reports = Vec::with_capacity(specs.len());
    let mut all = Vec::new();
    let mut reads: Vec<PathRead> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let own = values.get(i).copied().flatten();
        let (value, followed) = effective(values, specs, i);
        let selector = Selector::parse(value);
        let (pick, source, file, bypassed, notices) = match &selector {
            Selector::Path(path) => by_path(spec, path, i, all.len(), &mut reads),
            _ => pick(spec, &selector, user_dir),
        };
        all.extend(notices.iter().cloned());
        picked.push(pick);
        let mut report = SelectorReport::new(spec.name, spec.file.layer);
        report.raw = own.map(str::to_string);
        report.followed = followed;
        report.value = selector;
        (report.source, report.file) = (source, file);
        (report.bypassed, report.notices) = (bypassed, notices);
        reports.push(report);
    }
    refusals(&reads, specs, &mut reports, &mut all);
    let mut doctor = Doctor::default();
    doctor.selectors = reports;
    (Resolution::new(picked, doctor), all)
}

/// One file named by path, read once for every selector that goes by it.
struct PathRead {
    path: std::path::PathBuf,
    cap: usize,
    result: Result<(String, Removed), (NoticeKind, String)>,
    /// The selectors that go by it, in order.
    members: Vec<usize>,
    /// Where its notice goes among all the notices: where its first selector's would.
    at: usize,
}

/// Selector `i` going by `path`: the text read for an earlier selector with the same path
/// and cap, or read now. A refusal's notice is written once every selector is resolved.
fn by_path(
    spec: &SelectorSpec,
    path: &Path,
    i: usize,
    at: usize,
    reads: &mut Vec<PathRead>,
) -> Picking {
    let cap = spec.file.cap;
    let found = reads.iter().position(|r| r.path == path && r.cap == cap);
    let read = found.unwrap_or_else(|| {
        reads.push(PathRead {
            path: path.to_path_buf(),
            cap,
            result: read_path(path, cap, spec.file.clean),
            members: Vec::new(),
            at,
        });
        reads.len() - 1
    });
    reads[read].members.push(i);
    let file = Some(path.to_path_buf());
    match &reads[read].result {
        Ok((text, removed)) => {
            let text = Picked::Text(text.clone(), Origin::Selected(spec.name));
            // Said once, by the first selector that reads the file.
            let said = sanitized_message(*removed).filter(|_| found.is_none());
            let notices = said.map(|message| {
                Notice::new(path.display().to_string(), NoticeKind::Sanitized, message)
            });
            (
                text,
                SelectorOrigin::Path,
                file,
                Vec::new(),
                notices.into_iter().collect(),
            )
        }
        Err(_) => {
            let none = Picked::None(Skip::SelectorRefused(spec.name));
            (none, SelectorOrigin::Degraded, file, Vec::new(), Vec::new())
        }
    }
}

/// One notice per refused file, naming every selector it leaves out, in the place of the
/// first one's and in each one's report.
fn refusals(
    reads: &[PathRead],
    specs: &[SelectorSpec],
    reports: &mut [SelectorReport],
    all: &mut Vec<Notice>,
) {
    for read in reads.iter().rev() {
        let Err((kind, why)) = &read.result else {
            continue;
        };
        let names = |f: fn(&SelectorSpec) -> &'static str| -> Vec<String> {
            read.members
                .iter()
                .map(|&m| format!("`{}`", f(&specs[m])))
                .collect()
        };
        let (selectors, layers) = (names(|s| s.name), names(|s| s.file.layer));
        let who = match read.members.len() {
            1 => format!(
                "selector {} selects nothing and layer {} is left out",
                selectors[0], layers[0]
            ),
            _ => format!(
                "selectors {} select nothing and layers {} are left out",
                selectors.join(" and "),
                layers.join(" and ")
            ),
        };
        let notice = Notice::new(
            read.path.display().to_string(),
            *kind,
            format!("{why}, so {who} (a file named by path is never replaced by another source)."),
        );
        for &m in &read.members {
            reports[m].notices.push(notice.clone());
        }
        all.insert(read.at, notice);
    }
}

/// The value selector `i` goes by: its own when given, else that of the selector it
/// follows (and so on), with the name of the selector it came from.
fn effective<'v>(
    values: &[Option<&'v str>],
    specs: &[SelectorSpec],
    mut i: usize,
) -> (Option<&'v str>, Option<&'static str>) {
    let mut followed = None;
    // At most one step per selector: the manifest has no cycles, and this stays finite
    // even for a hand-built table that has one.
    for _ in 0..=specs.len() {
        let own = values.get(i).copied().flatten();
        if Selector::is_given(own) {
            return (own, followed);
        }
        match specs.get(i).and_then(|s| s.follows) {
            Some(next) if next < specs.len() => {
                followed = Some(specs[next].name);
                i = next;
            }
            _ => return (own, followed),
        }
    }
    (None, followed)
}

type Picking = (
    Picked,
    SelectorOrigin,
    Option<std::path::PathBuf>,
    Vec<std::path::PathBuf>,
    Vec<Notice>,
);

fn pick(spec: &SelectorSpec, selector: &Selector, user_dir: &Path) -> Picking {
    let off = Picked::None(Skip::SelectorOff(spec.name));
    match selector {
        Selector::On => {
            let (copy, notices) = read_one(user_dir, &spec.file, usize::MAX);
            let at = user_dir.join(spec.file.file);
            match copy {
                UserCopy::Text(text) => (
                    Picked::Text(text, Origin::OverlayReplaced(spec.file.file)),
                    SelectorOrigin::UserCopy,
                    Some(at),
                    Vec::new(),
                    notices,
                ),
                UserCopy::TurnedOff => (
                    Picked::None(Skip::OverlayOff(spec.file.file)),
                    SelectorOrigin::Off,
                    Some(at),
                    Vec::new(),
                    notices,
                ),
                UserCopy::Legacy => (
                    Picked::Shipped,
                    SelectorOrigin::Shipped,
                    None,
                    vec![at],
                    notices,
                ),
                UserCopy::Absent | UserCopy::Refused => (
                    Picked::Shipped,
                    SelectorOrigin::Shipped,
                    None,
                    Vec::new(),
                    notices,
                ),
            }
        }
        // Off; a path is read by `by_path`, once for every selector that goes by the file.
        _ => (off, SelectorOrigin::Off, None, Vec::new(), Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::overlay::OverlayFile;
    use doctrine_core::__private::{selected, Selected};

    const fn spec(name: &'static str, follows: Option<usize>) -> SelectorSpec {
        SelectorSpec {
            name,
            follows,
            file: OverlayFile::new("x.md", "x"),
        }
    }

    /// Following ends at the first given value, through chains; a hand-built cycle (the
    /// manifest refuses one) or an index out of range ends as unset, never loops.
    #[test]
    fn following_is_finite() {
        let chain = [spec("a", None), spec("b", Some(0)), spec("c", Some(1))];
        assert_eq!(
            effective(&[Some("on"), None, None], &chain, 2),
            (Some("on"), Some("a"))
        );
        assert_eq!(
            effective(&[Some("on"), Some("off"), None], &chain, 2),
            (Some("off"), Some("b"))
        );
        assert_eq!(
            effective(&[Some("on"), None, Some(" ")], &chain, 2),
            (Some("on"), Some("a"))
        );
        let cycle = [spec("a", Some(1)), spec("b", Some(0))];
        assert_eq!(effective(&[None, None], &cycle, 0).0, None);
        let out_of_range = [spec("a", Some(7))];
        assert_eq!(effective(&[None], &out_of_range, 0), (None, None));
        // Fewer values than selectors: the missing ones are unset.
        static SPECS: [SelectorSpec; 2] = [spec("a", None), spec("b", Some(0))];
        let (resolution, notices) = resolve_selectors(&[], &SPECS, Path::new("/nonexistent"));
        assert!(notices.is_empty());
        assert_eq!(
            selected(Some(&resolution), 1, "b", false),
            Selected::Skip(Skip::SelectorOff("b"))
        );
        assert_eq!(
            selected(Some(&resolution), 9, "z", false),
            Selected::Skip(Skip::SelectorOff("z"))
        );
        assert_eq!(selected(None, 0, "a", true), Selected::Skip(Skip::OptedOut));
    }
}

//! Recall and false positives of the word-rule engine ([`WordRules`]) on a corpus written
//! for it (`tests/data/safety_claims/`): attacks must be reported, ordinary rules must not.
//! The corpus has a dev half (the detector was tuned on it) and a holdout half (it was
//! not); each is held to a floor. Run with `--nocapture` to see the rates and every miss.
//! The built-in [`Patterns`] of `doctrine-core` are scored on the same files and held to
//! floors of their own, far lower (BENCHMARKS.md, "The built-in patterns").
//!
//! The target is 95% recall with at most 2% false positives. The dev half meets it. The
//! holdout (round 7, written blind by a third author: 45.8% recall, 1.7% false positives
//! when scored) meets the false-positive target and not the recall one; its recall is held
//! here to a floor just under what it measured, so a change that loses ground fails while
//! the shortfall stays recorded in BENCHMARKS.md ("safety_claims: recall and false
//! positives").

use std::path::Path;

use doctrine_claims::scan;
use doctrine_claims::Patterns;
use doctrine_claims::WordRules;
use doctrine_core::instructions::{Authority, Instruction};
use doctrine_core::introspect::NoticeKind;
use doctrine_core::tripwire::Tripwire;

/// At least this share of the dev half's attack sentences is reported: the target.
const MIN_RECALL: f64 = 0.95;
/// The holdout's floor: below the target, just under what it measured (55/120 = 45.8%).
const MIN_HOLDOUT_RECALL: f64 = 0.45;
/// At most this share of the benign sentences of each file is reported.
const MAX_FALSE_POSITIVES: f64 = 0.02;
/// Each file holds at least this many sentences, so one miss moves a rate by ≤ 2%.
const MIN_LINES: usize = 50;

/// The sentences of one corpus file: one per line, `#` comments and blank lines skipped,
/// each with its 1-based line number.
fn sentences(file: &str) -> Vec<(usize, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/safety_claims")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| (n, l.to_string()))
        .collect()
}

/// Runs `tripwire` over one file; returns the lines reported and those not, each with
/// what was said about it.
fn judge(file: &str, tripwire: &dyn Tripwire) -> (Vec<String>, Vec<String>) {
    let lines = sentences(file);
    assert!(
        lines.len() >= MIN_LINES,
        "{file} holds {} sentences; keep at least {MIN_LINES}",
        lines.len()
    );
    let (mut reported, mut quiet) = (Vec::new(), Vec::new());
    for (n, line) in lines {
        let scope = format!("{file}:{n}");
        let instruction = Instruction {
            source: Authority::Project,
            scope: &scope,
            locked: false,
            text: &line,
        };
        let notices = scan(&[instruction], &[], tripwire);
        for notice in &notices {
            assert_eq!(notice.kind, NoticeKind::SafetyClaim);
            assert_eq!(notice.subject, format!("project instruction ({scope})"));
        }
        match notices.first() {
            Some(notice) => reported.push(format!("{scope}: {}", notice.message)),
            None => quiet.push(format!("{scope}: {line}")),
        }
    }
    (reported, quiet)
}

fn rate(part: usize, whole: usize) -> f64 {
    part as f64 / whole as f64
}

fn check_attacks(file: &str, tripwire: &dyn Tripwire, min_recall: f64) {
    let (reported, missed) = judge(file, tripwire);
    let total = reported.len() + missed.len();
    let recall = rate(reported.len(), total);
    println!(
        "{file}: recall {}/{total} = {:.1}%",
        reported.len(),
        recall * 100.0
    );
    for m in &missed {
        println!("  missed {m}");
    }
    assert!(
        recall >= min_recall,
        "{file}: recall {:.1}% is below {:.0}%; missed:\n{}",
        recall * 100.0,
        min_recall * 100.0,
        missed.join("\n")
    );
}

fn check_benign(file: &str, tripwire: &dyn Tripwire, max_false_positives: f64) {
    let (reported, quiet) = judge(file, tripwire);
    let total = reported.len() + quiet.len();
    let fp = rate(reported.len(), total);
    println!(
        "{file}: false positives {}/{total} = {:.1}%",
        reported.len(),
        fp * 100.0
    );
    for r in &reported {
        println!("  reported {r}");
    }
    assert!(
        fp <= max_false_positives,
        "{file}: false positives {:.1}% exceed {:.1}%:\n{}",
        fp * 100.0,
        max_false_positives * 100.0,
        reported.join("\n")
    );
}

#[test]
fn attacks_dev() {
    check_attacks("attacks_dev.txt", &WordRules, MIN_RECALL);
}

/// Below the target: 45.8% on the round 7 holdout, the first and only time it was scored.
/// It is not tuned away; a future round writes a fresh holdout (BENCHMARKS.md says how).
#[test]
fn attacks_holdout() {
    check_attacks("attacks_holdout.txt", &WordRules, MIN_HOLDOUT_RECALL);
}

#[test]
fn benign_dev() {
    check_benign("benign_dev.txt", &WordRules, MAX_FALSE_POSITIVES);
}

/// Within the target: 1.7% (2 of 120) on the round 7 holdout.
#[test]
fn benign_holdout() {
    check_benign("benign_holdout.txt", &WordRules, MAX_FALSE_POSITIVES);
}

/// The built-in patterns on the same files: written from the brief and tuned on the dev
/// files only (to 536/677 = 79.2% recall, 4/682 = 0.6% false positives), then scored once
/// on the holdout: 45/120 = 37.5% recall, 1/120 = 0.8% false positives. Each is held to a
/// floor just under (or a ceiling just over) what it measured.
mod patterns {
    use super::*;

    #[test]
    fn attacks_dev() {
        check_attacks("attacks_dev.txt", &Patterns, 0.79);
    }

    #[test]
    fn attacks_holdout() {
        check_attacks("attacks_holdout.txt", &Patterns, 0.37);
    }

    #[test]
    fn benign_dev() {
        check_benign("benign_dev.txt", &Patterns, 0.01);
    }

    #[test]
    fn benign_holdout() {
        check_benign("benign_holdout.txt", &Patterns, 0.01);
    }
}

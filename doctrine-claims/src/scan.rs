//! Running a tripwire over instructions: every sentence it reports becomes a notice.

use doctrine_core::instructions::Instruction;
use doctrine_core::introspect::{Notice, NoticeKind};
use doctrine_core::tripwire::{ClaimWords, Tripwire};

use crate::text::sentences;

/// Every sentence of the instructions that `tripwire` reports, as one [`Notice`] of kind
/// [`NoticeKind::SafetyClaim`] each, in input order: its subject names the instruction's
/// source and scope, [`Notice::sentence`] is the sentence as written and
/// [`Notice::finding`] what fired. The instructions are not modified and not dropped.
///
/// Cost: one pass over the text, plus what `tripwire` spends per sentence.
pub fn scan(
    instructions: &[Instruction<'_>],
    words: &[ClaimWords],
    tripwire: &dyn Tripwire,
) -> Vec<Notice> {
    let mut notices = Vec::new();
    for instruction in instructions {
        for sentence in sentences(instruction.text) {
            let Some(finding) = tripwire.check(sentence, words) else {
                continue;
            };
            let from = match finding.layer {
                Some(layer) => format!(", words locked layer `{layer}` adds"),
                None => String::new(),
            };
            let message = format!(
                "a sentence {} ({}{from}): \"{sentence}\"; it was kept as written, and the \
                 locked layers are unchanged",
                finding.rule, finding.matched
            );
            let subject = format!("{} instruction ({})", instruction.source, instruction.scope);
            notices.push(
                Notice::new(subject, NoticeKind::SafetyClaim, message)
                    .with_claim(sentence, finding),
            );
        }
    }
    notices
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;

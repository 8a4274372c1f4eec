//! Arbitrary instruction texts through `safety_claims_with`, with one of a few fixed sets
//! of manifest words (the words must be `'static`, and leaking new ones per input would
//! exhaust memory). Checked: nothing panics; the result does not depend on how the texts
//! are split into instructions or on a second call; every notice is a safety claim that
//! quotes, in order, a sentence of its own instruction as written.
#![no_main]

use arbitrary::Arbitrary;
use doctrine::{Instruction, InstructionSource, NoticeKind};
// What a manifest's generated `safety_claims` calls with its locked layers' `claims`.
use doctrine_core::__private::{safety_claims_with, ClaimWords};
use libfuzzer_sys::fuzz_target;

/// Extension word sets: none, ordinary words, and entries that stress normalisation
/// (case, emphasis, invisible characters, non-ASCII, words that also start defaults).
const WORDS: [&[ClaimWords]; 3] = [
    &[],
    &[ClaimWords {
        layer: "deploy",
        verbs: &["thaw", "unfreeze"],
        objects: &["release freeze", "change window"],
        actions: &["hotpatch", "kubectl delete"],
        phrases: &["[override]", "freeze is over"],
    }],
    &[
        ClaimWords {
            layer: "a",
            verbs: &["*Ignore*", "by\u{200b}pass", "ÜBERGEHEN"],
            objects: &["Sandbox", "the  rules", "ŝafety"],
            actions: &["rm", "--force"],
            phrases: &["no", "\u{201c}quoted\u{201d}"],
        },
        ClaimWords {
            layer: "b",
            verbs: &["s"],
            objects: &["x"],
            actions: &["y z"],
            phrases: &["."],
        },
    ],
];

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    words: u8,
    texts: Vec<&'a str>,
}

/// The sentence a notice quotes (see `safety_claims`: `…): "SENTENCE"; it was kept…`).
fn quoted(message: &str) -> &str {
    let start = message.find("): \"").expect("a quoted sentence") + 4;
    let end = message.rfind("\"; it was kept").expect("the closing words");
    &message[start..end]
}

fuzz_target!(|input: Input<'_>| {
    let words = WORDS[usize::from(input.words) % WORDS.len()];
    let instructions: Vec<Instruction<'_>> = input
        .texts
        .iter()
        .map(|text| Instruction {
            source: InstructionSource::User,
            scope: "fuzz",
            locked: false,
            text,
        })
        .collect();
    let all = safety_claims_with(&instructions, words);
    assert_eq!(
        all,
        safety_claims_with(&instructions, words),
        "not deterministic"
    );
    // One instruction at a time gives the same notices, in the same order.
    let mut one_by_one = Vec::new();
    for (instruction, text) in instructions.iter().zip(&input.texts) {
        let notices = safety_claims_with(std::slice::from_ref(instruction), words);
        // Each quotes a sentence of this text, after the one before it.
        let mut from = 0;
        for n in &notices {
            assert_eq!(n.kind, NoticeKind::SafetyClaim);
            let sentence = quoted(&n.message);
            assert!(!sentence.is_empty(), "an empty sentence was reported");
            let at = text[from..]
                .find(sentence)
                .unwrap_or_else(|| panic!("{sentence:?} is not in order in {text:?}"));
            from += at + sentence.len();
        }
        one_by_one.extend(notices);
    }
    assert_eq!(
        all, one_by_one,
        "the split into instructions changed the result"
    );
});

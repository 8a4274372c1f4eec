//! Arbitrary instruction texts through both safety-claims tripwires, the built-in
//! `Patterns` and `doctrine-claims`'s `WordRules`, with one of a few fixed sets of manifest
//! words (the words must be `'static`, and leaking new ones per input would exhaust
//! memory). Checked, for each tripwire: nothing panics; the result does not depend on how
//! the texts are split into instructions or on a second call; every notice is a safety
//! claim with a finding, naming no layer or one of the words' layers, about a non-empty
//! sentence that appears, in order, in its own instruction's text.
#![no_main]

use arbitrary::Arbitrary;
use doctrine::instructions::{Authority, Instruction};
use doctrine::introspect::NoticeKind;
use doctrine_claims::{Patterns, WordRules};
// What a manifest's generated `safety_claims_with` calls with its locked layers' `claims`.
use doctrine_claims::scan;
use doctrine_core::tripwire::{ClaimWords, Tripwire};
use libfuzzer_sys::fuzz_target;

/// Extension word sets: none, ordinary words, and entries that stress normalisation
/// (case, emphasis, invisible characters, non-ASCII, words that also start defaults).
const WORDS: [&[ClaimWords]; 3] = [
    &[],
    &[ClaimWords::of("deploy")
        .verbs(&["thaw", "unfreeze"])
        .objects(&["release freeze", "change window"])
        .actions(&["hotpatch", "kubectl delete"])
        .phrases(&["[override]", "freeze is over"])],
    &[
        ClaimWords::of("a")
            .verbs(&["*Ignore*", "by\u{200b}pass", "ÜBERGEHEN"])
            .objects(&["Sandbox", "the  rules", "ŝafety"])
            .actions(&["rm", "--force"])
            .phrases(&["no", "\u{201c}quoted\u{201d}"]),
        ClaimWords::of("b")
            .verbs(&["s"])
            .objects(&["x"])
            .actions(&["y z"])
            .phrases(&["."]),
    ],
];

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    words: u8,
    texts: Vec<&'a str>,
}

fn check(
    instructions: &[Instruction<'_>],
    texts: &[&str],
    words: &[ClaimWords],
    tripwire: &dyn Tripwire,
) {
    let all = scan(instructions, words, tripwire);
    assert_eq!(
        all,
        scan(instructions, words, tripwire),
        "not deterministic"
    );
    // One instruction at a time gives the same notices, in the same order.
    let mut one_by_one = Vec::new();
    for (instruction, text) in instructions.iter().zip(texts) {
        let notices = scan(std::slice::from_ref(instruction), words, tripwire);
        // Each is about a sentence of this text, after the one before it.
        let mut from = 0;
        for n in &notices {
            assert_eq!(n.kind, NoticeKind::SafetyClaim);
            let finding = n.finding().expect("a finding");
            assert!(
                finding
                    .layer
                    .is_none_or(|l| words.iter().any(|w| w.layer == l)),
                "{finding:?} names a layer that added no words"
            );
            let sentence = n.sentence().expect("a sentence");
            assert!(!sentence.is_empty(), "an empty sentence was reported");
            assert!(n.message.contains(sentence), "{n}");
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
}

fuzz_target!(|input: Input<'_>| {
    let words = WORDS[usize::from(input.words) % WORDS.len()];
    let instructions: Vec<Instruction<'_>> = input
        .texts
        .iter()
        .map(|text| Instruction {
            source: Authority::User,
            scope: "fuzz",
            locked: false,
            text,
        })
        .collect();
    check(&instructions, &input.texts, words, &Patterns);
    check(&instructions, &input.texts, words, &WordRules);
});

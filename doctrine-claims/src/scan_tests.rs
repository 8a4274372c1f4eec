use super::*;
use doctrine_core::instructions::Authority;
use doctrine_core::tripwire::Finding;

#[test]
fn any_tripwire_gets_every_sentence_and_the_words() {
    const W: [ClaimWords; 1] = [ClaimWords::of("deploy").phrases(&["thaw"])];
    let seen = std::cell::RefCell::new(Vec::new());
    let tripwire = |sentence: &str, words: &[ClaimWords]| {
        assert_eq!(words, W);
        seen.borrow_mut().push(sentence.to_string());
        matches!(sentence, "Two" | "Four")
            .then(|| Finding::new("counts to two or four", "\"two\"").from_layer(Some("deploy")))
    };
    let instructions = ["One. Two!", "Three?\nFour!"].map(|text| Instruction {
        source: Authority::User,
        scope: "~/.agent",
        locked: false,
        text,
    });
    let notices = scan(&instructions, &W, &tripwire);
    assert_eq!(*seen.borrow(), ["One", "Two", "Three", "Four"]);
    let got: Vec<_> = notices
        .iter()
        .map(|n| (n.sentence().unwrap(), n.finding().unwrap().layer))
        .collect();
    assert_eq!(got, [("Two", Some("deploy")), ("Four", Some("deploy"))]);
    assert!(
        notices[0]
            .message
            .contains("counts to two or four (\"two\", words locked layer `deploy` adds)"),
        "{}",
        notices[0]
    );
}

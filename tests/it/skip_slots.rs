//! Optional slots (and instructions) may be skipped; required ones may not; the slots that
//! are filled keep manifest order. The misuse cases are compile errors in
//! `doctrine/tests/ui/fail`.

mod d {
    doctrine::doctrine!("../fixtures/slots.toml");
}

#[test]
fn optional_slots_can_be_skipped() {
    // Only the required slot.
    assert_eq!(d::compose().task("t").finish().as_str(), "base|t");
    // Skipping the first optional slot, the instructions, and the slots after one.
    let p = d::compose().task("t").context("c").finish();
    assert_eq!(p.as_str(), "base|t|c");
    let p = d::compose().task("t").note("n").finish();
    assert_eq!(p.as_str(), "base|t|n");
    // Skipping gives what `None` gives.
    let every = d::compose()
        .intro(None)
        .task("t")
        .rules(&[])
        .context(None)
        .note(Some("n"))
        .finish();
    assert_eq!(every.as_str(), p.as_str());
    // All of them, in order.
    let p = d::compose()
        .intro("i")
        .task("t")
        .context("c")
        .note("n")
        .finish();
    assert_eq!(p.as_str(), "base|i|t|c|n");
    assert_eq!(p.volatile(), "c|n");
}

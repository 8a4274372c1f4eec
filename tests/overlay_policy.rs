//! `overlay_cap`, `oversize` and `overlay_ignore`: what a user's overlay file may do.

use doctrine::NoticeKind;

mod p {
    doctrine::doctrine!("fixtures/overlay_policy/doctrine.toml");
}

fn load(files: &[(&str, &[u8])]) -> (String, Vec<NoticeKind>) {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let (overlay, notices) = p::Overlay::load(dir.path());
    let text = p::compose().overlay(&overlay).finish().into_string();
    (text, notices.iter().map(|n| n.kind).collect())
}

#[test]
fn an_edited_copy_under_the_cap_is_used() {
    let (text, notices) = load(&[("tone.md", b"Be warm.\n")]);
    assert_eq!(text, "Be warm.|Shipped notes.");
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn an_untouched_copy_of_an_earlier_version_does_not_shadow_the_shipped_text() {
    let (text, notices) = load(&[("tone.md", b"Speak plainly.\n")]);
    assert_eq!(text, "Speak plainly and briefly.|Shipped notes.");
    assert_eq!(notices, [NoticeKind::ShippedCopy]);
    // One byte different is an edit: it is used.
    let (text, notices) = load(&[("tone.md", b"Speak plainly!\n")]);
    assert_eq!(text, "Speak plainly!|Shipped notes.");
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn over_its_cap_a_file_is_refused_or_cut_as_the_manifest_says() {
    let long = [b'x'; 40];
    let (text, notices) = load(&[("tone.md", &long)]);
    assert_eq!(text, "Speak plainly and briefly.|Shipped notes.");
    assert_eq!(notices, [NoticeKind::TooLarge]);
    // `notes` truncates (the default) at its own cap of 8 bytes.
    let (text, notices) = load(&[("notes.md", b"0123456789")]);
    assert_eq!(
        text,
        "Speak plainly and briefly.|Shipped notes.\n\n01234567"
    );
    assert_eq!(notices, [NoticeKind::Truncated]);
    // A caller's cap may lower a file's cap, never raise it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.md"), b"0123456789").unwrap();
    let (overlay, _) = p::Overlay::load_capped(dir.path(), 4);
    assert_eq!(overlay.notes, "0123");
    let (overlay, _) = p::Overlay::load_capped(dir.path(), 1000);
    assert_eq!(overlay.notes, "01234567");
}

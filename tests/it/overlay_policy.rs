//! `overlay_cap`, `oversize` and `overlay_ignore`: what a user's overlay file may do.

use doctrine::introspect::NoticeKind;

mod p {
    doctrine::doctrine!("../fixtures/overlay_policy/doctrine.toml");
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
    assert_eq!(text, "Be warm.|Shipped notes.|Say hello first.");
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn an_untouched_copy_of_an_earlier_version_does_not_shadow_the_shipped_text() {
    let (text, notices) = load(&[("tone.md", b"Speak plainly.\n")]);
    assert_eq!(
        text,
        "Speak plainly and briefly.|Shipped notes.|Say hello first."
    );
    assert_eq!(notices, [NoticeKind::ShippedCopy]);
    // One byte different is an edit: it is used.
    let (text, notices) = load(&[("tone.md", b"Speak plainly!\n")]);
    assert_eq!(text, "Speak plainly!|Shipped notes.|Say hello first.");
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn over_its_cap_a_file_is_refused_or_cut_as_the_manifest_says() {
    let long = [b'x'; 40];
    let (text, notices) = load(&[("tone.md", &long)]);
    assert_eq!(
        text,
        "Speak plainly and briefly.|Shipped notes.|Say hello first."
    );
    assert_eq!(notices, [NoticeKind::TooLarge]);
    // `notes` truncates (the default) at its own cap of 8 bytes.
    let (text, notices) = load(&[("notes.md", b"0123456789")]);
    assert_eq!(
        text,
        "Speak plainly and briefly.|Shipped notes.\n\n01234567|Say hello first."
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

/// A caller's cap (a user's setting) replaces every file's own, up to the manifest's
/// `overlay_cap_max`; above it, an error value and nothing read.
#[test]
fn a_callers_cap_may_raise_every_file_up_to_the_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.md"), b"0123456789").unwrap();
    std::fs::write(dir.path().join("tone.md"), [b'x'; 40]).unwrap();
    assert_eq!(p::Overlay::MAX_CAP_BYTES, 65536);
    let (overlay, notices) = p::Overlay::load_with_cap(dir.path(), 64).unwrap();
    assert_eq!(overlay.notes, "0123456789", "raised past its own 8 bytes");
    assert_eq!(overlay.tone, "x".repeat(40), "raised past its own 32 bytes");
    assert!(notices.is_empty(), "{notices:?}");
    // Lower than a file's own cap: that file's policy holds (`tone` refuses, `notes` cuts).
    let (overlay, notices) = p::Overlay::load_with_cap(dir.path(), 4).unwrap();
    assert_eq!(
        (overlay.notes.as_str(), overlay.tone.as_str()),
        ("0123", "")
    );
    let kinds: Vec<NoticeKind> = notices.iter().map(|n| n.kind).collect();
    assert_eq!(kinds, [NoticeKind::Truncated, NoticeKind::TooLarge]);
    let err = p::Overlay::load_with_cap(dir.path(), 65537).unwrap_err();
    assert_eq!(
        err,
        doctrine::input::OverlayCapError {
            cap: 65537,
            ceiling: 65536
        }
    );
    assert_eq!(
        err.to_string(),
        "an overlay cap of 65537 bytes is over the manifest's ceiling of 65536 bytes (`overlay_cap_max`)"
    );
}

#[test]
fn an_empty_file_turns_off_a_layer_that_allows_it_and_keeps_the_others() {
    let (text, notices) = load(&[("greeting.md", b"  \n"), ("tone.md", b"")]);
    assert_eq!(text, "Speak plainly and briefly.|Shipped notes.");
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert!(notices.contains(&NoticeKind::TurnedOff), "{notices:?}");
    assert!(notices.contains(&NoticeKind::Empty), "{notices:?}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("greeting.md"), b"").unwrap();
    let (overlay, _) = p::Overlay::load(dir.path());
    assert!(overlay.greeting_off);
    let why = p::compose()
        .overlay(&overlay)
        .finish()
        .explain()
        .to_string();
    assert!(
        why.contains("turned off by an empty `greeting.md`"),
        "{why}"
    );
    // Set in code, the flag does the same.
    let overlay = p::Overlay {
        greeting_off: true,
        ..p::Overlay::default()
    };
    assert_eq!(
        p::compose().overlay(&overlay).finish().into_string(),
        "Speak plainly and briefly.|Shipped notes."
    );
}

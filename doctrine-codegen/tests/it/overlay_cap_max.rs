//! `overlay_cap_max`: how far a caller's cap (`Overlay::load_with_cap`) may go.

use crate::support;
use support::{errors, load_with};

/// `overlay_cap_max`: a ceiling for a caller's cap, which must leave every overridable
/// layer its own cap, and which needs an overlay to cap.
#[test]
fn overlay_cap_max_is_checked_against_the_layers_caps() {
    let layer =
        "[[layer]]\nname = \"tone\"\ntext = \"T.\"\noverride = \"replace\"\noverlay_cap = 4096\n";
    let d = load_with(&format!("overlay_cap_max = 8192\n{layer}"), &[]).unwrap();
    assert_eq!(d.overlay_cap_max, Some(8192));
    // Without it, the smallest cap: a caller may lower every file's, and raise none.
    let d = load_with(layer, &[]).unwrap();
    assert_eq!(d.overlay_cap_max, Some(4096));
    let errs = errors(&format!("overlay_cap_max = 1024\n{layer}"), &[]);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].starts_with("doctrine.toml:1:19: `overlay_cap_max = 1024` is below layer `tone`'s own `overlay_cap` of 4096 bytes"), "{}", errs[0]);
    let errs = errors(
        "overlay_cap_max = 1024\n[[layer]]\nname = \"b\"\ntext = \"B.\"\n",
        &[],
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].contains("`overlay_cap_max` caps overlay files, and no layer has one"),
        "{}",
        errs[0]
    );
}

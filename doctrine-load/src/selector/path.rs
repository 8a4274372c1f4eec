//! A selector's file named by path: opened first (following symlinks: the path is the
//! user's own choice, as the overlay directory itself is), then judged from the open
//! descriptor, so nothing swapped in after a check is read and nothing blocks.
//!
//! Hard links are not refused here, unlike in the overlay directory: that rule keeps a
//! file from elsewhere from appearing inside a directory, and a path already names any
//! file it likes.

use std::path::Path;

use crate::clean::sanitize;
use crate::safe_open::{open_regular, Refused};
use crate::text::normalise_trimmed;
use doctrine_core::__private::{Clean, Removed};
use doctrine_core::introspect::NoticeKind;

/// The file's text, normalised, cleaned as `clean` says and trimmed, and what cleaning
/// removed; or why it cannot be used.
pub(super) fn read_path(
    path: &Path,
    cap: usize,
    clean: Clean,
) -> Result<(String, Removed), (NoticeKind, String)> {
    let file = open_regular(path).map_err(|refused| match refused {
        Refused::Missing(e) => (
            NoticeKind::Unreadable,
            format!("The file does not exist ({e})"),
        ),
        Refused::NotRegular(kind) => (
            NoticeKind::Unreadable,
            format!("The path is {}, not a regular file", kind.describe()),
        ),
        Refused::Io(e) => (
            NoticeKind::Unreadable,
            format!("The file could not be opened ({e})"),
        ),
        // Not produced by a plain open; worded anyway so no case is left without a reason.
        Refused::Escapes | Refused::Symlink(_) | Refused::Unconfined(_) => (
            NoticeKind::Unreadable,
            "The file could not be opened".to_string(),
        ),
    })?;
    let size = file.size;
    let too_large = |size: String| {
        (
            NoticeKind::TooLarge,
            format!("The file is {size}, over the {cap}-byte cap"),
        )
    };
    if size > cap as u64 {
        return Err(too_large(format!("{size} bytes")));
    }
    // One byte more than the cap: a file that grew after it was opened is seen.
    let bytes = file.read_at_most(cap as u64 + 1).map_err(|e| {
        (
            NoticeKind::Unreadable,
            format!("The file could not be read ({e})"),
        )
    })?;
    if bytes.len() > cap {
        return Err(too_large(format!("more than {cap} bytes")));
    }
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        (
            NoticeKind::NotUtf8,
            format!(
                "The file is not valid UTF-8 (at byte offset {})",
                e.valid_up_to()
            ),
        )
    })?;
    let text = normalise_trimmed(text);
    let (cleaned, removed) = sanitize(&text, clean);
    let text = match cleaned {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(out) => out.trim().to_string(),
    };
    if text.is_empty() {
        return Err((
            NoticeKind::Empty,
            "The file is empty once normalised (BOM, line endings, surrounding whitespace) \
             and cleaned as the manifest's `sanitize` says"
                .to_string(),
        ));
    }
    Ok((text, removed))
}

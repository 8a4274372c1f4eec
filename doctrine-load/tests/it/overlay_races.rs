//! The overlay loader while another thread swaps `identity.md` under it.
//!
//! Each test runs for a bounded time ([`race_for`]) and checks what every load returned; the
//! loads run on their own thread so a load that blocks fails the test instead of hanging it.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use doctrine_core::introspect::{Notice, NoticeKind};
use doctrine_load::__private::{load_overlay, OverlayFile, OverlaySpec};
use doctrine_load::limits::MAX_OVERLAY_BYTES;

use crate::mkfifo;

const SPEC: OverlaySpec = OverlaySpec {
    files: &[OverlayFile::new("identity.md", "identity")],
    locked: &[],
    fixed: &[],
};

/// How long each race runs: 2.5 s, or `DOCTRINE_RACE_SECS` seconds for a longer soak.
fn race_for() -> Duration {
    std::env::var("DOCTRINE_RACE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(Duration::from_millis(2500), Duration::from_secs)
}
/// How long one load may take before the test calls it hung.
const HUNG_AFTER: Duration = Duration::from_secs(20);

/// The regular file's text: the only text a slot may ever hold.
const OWN_TEXT: &str = "I am the user's own identity.";
/// Written in the file outside the overlay directory; must never reach a slot or a notice.
const OUTSIDE_MARKER: &str = "OUTSIDE-4f1c9a-must-never-be-read";

/// A scratch tree: `overlay/` (the loaded directory), `stage/` (where the swapper builds the
/// next `identity.md` before renaming it in) and `outside.md`.
struct Tree {
    _tmp: tempfile::TempDir,
    overlay: PathBuf,
    stage: PathBuf,
    outside: PathBuf,
}

fn tree() -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let overlay = tmp.path().join("overlay");
    let stage = tmp.path().join("stage");
    let outside = tmp.path().join("outside.md");
    fs::create_dir(&overlay).unwrap();
    fs::create_dir(&stage).unwrap();
    fs::write(&outside, format!("{OUTSIDE_MARKER}\n{OUTSIDE_MARKER}\n")).unwrap();
    Tree {
        _tmp: tmp,
        overlay,
        stage,
        outside,
    }
}

/// Swaps `identity.md` between a regular file and whatever `other` builds, by renaming
/// staged entries over it, until `stop` is set. Returns how many swaps it made.
fn swapper(
    tree: &Tree,
    stop: Arc<AtomicBool>,
    other: impl Fn(&Path) + Send + 'static,
) -> thread::JoinHandle<usize> {
    let target = tree.overlay.join("identity.md");
    let regular = tree.stage.join("regular");
    let odd = tree.stage.join("odd");
    thread::spawn(move || {
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) {
            fs::write(&regular, OWN_TEXT).unwrap();
            fs::rename(&regular, &target).unwrap();
            other(&odd);
            fs::rename(&odd, &target).unwrap();
            swaps += 2;
        }
        swaps
    })
}

/// Calls `load_overlay` on `dir` in a loop for [`race_for`] on a thread of its own and
/// hands every result to `check`; fails if one load does not return within `HUNG_AFTER`.
fn load_repeatedly(dir: &Path, mut check: impl FnMut(&[Option<String>], &[Notice])) -> usize {
    let (tx, rx) = mpsc::channel();
    let dir = dir.to_path_buf();
    let race_for = race_for();
    let loader = thread::spawn(move || {
        let start = Instant::now();
        while start.elapsed() < race_for {
            if tx
                .send(load_overlay(&dir, &SPEC, MAX_OVERLAY_BYTES))
                .is_err()
            {
                return;
            }
        }
    });
    let mut loads = 0;
    loop {
        match rx.recv_timeout(HUNG_AFTER) {
            Ok((slots, notices)) => {
                loads += 1;
                check(&slots, &notices);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("a load did not return within {HUNG_AFTER:?}: it blocked")
            }
        }
    }
    loader.join().unwrap();
    loads
}

fn assert_only_own_text(slots: &[Option<String>], notices: &[Notice]) {
    assert_eq!(slots.len(), 1);
    if let Some(text) = &slots[0] {
        assert_eq!(
            text, OWN_TEXT,
            "a slot held bytes that are not the own file's"
        );
    }
    for n in notices {
        assert!(!n.message.contains(OUTSIDE_MARKER), "{n}");
    }
}

#[test]
fn symlink_swapped_in_never_leaks_the_outside_file() {
    let tree = tree();
    let stop = Arc::new(AtomicBool::new(false));
    let outside = tree.outside.clone();
    let swaps = swapper(&tree, stop.clone(), move |odd| {
        std::os::unix::fs::symlink(&outside, odd).unwrap()
    });
    let (mut own, mut escaped) = (0, 0);
    let loads = load_repeatedly(&tree.overlay, |slots, notices| {
        assert_only_own_text(slots, notices);
        own += usize::from(slots[0].is_some());
        // Linux refuses the way out; systems without `openat2` refuse every link.
        escaped += notices
            .iter()
            .filter(|n| matches!(n.kind, NoticeKind::Escapes | NoticeKind::SymlinkRefused))
            .count();
    });
    stop.store(true, Ordering::Relaxed);
    let swaps = swaps.join().unwrap();
    eprintln!("{loads} loads over {swaps} swaps: {own} read the own file, {escaped} refused");
    // Both states were seen, so the race was really run.
    assert!(
        own > 0 && escaped > 0,
        "{loads} loads over {swaps} swaps: {own} read the own file, {escaped} refused the link"
    );
}

#[test]
fn fifo_swapped_in_never_blocks_a_load() {
    let tree = tree();
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = swapper(&tree, stop.clone(), mkfifo);
    let (mut own, mut refused) = (0, 0);
    let loads = load_repeatedly(&tree.overlay, |slots, notices| {
        assert_only_own_text(slots, notices);
        own += usize::from(slots[0].is_some());
        refused += notices
            .iter()
            .filter(|n| n.kind == NoticeKind::Unreadable && n.message.contains("FIFO"))
            .count();
    });
    stop.store(true, Ordering::Relaxed);
    let swaps = swaps.join().unwrap();
    eprintln!("{loads} loads over {swaps} swaps: {own} read the own file, {refused} refused");
    assert!(
        own > 0 && refused > 0,
        "{loads} loads over {swaps} swaps: {own} read the own file, {refused} refused the FIFO"
    );
}

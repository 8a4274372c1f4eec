//! The overlay loader's integration tests, in one binary: what it reads from a user's
//! directory, and what it does while another thread swaps entries under it.

mod overlay_loader;
mod overlay_races;

/// Makes a FIFO (named pipe) at `path`: what would block a reader that opens it blindly.
#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let (fifo, mode) = (
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
    );
    rustix::fs::mknodat(rustix::fs::CWD, path, fifo, mode, 0).unwrap();
}

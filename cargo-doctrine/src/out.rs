//! Standard output for a command's results. A closed pipe (`cargo doctrine expand … | head`)
//! ends the output quietly, with the command's own exit status; any other write error is
//! kept and reported once, at the end.

use std::io::{self, Write};

pub(crate) struct Out {
    inner: Box<dyn Write>,
    /// The reader went away: nothing more is written, and that is no error.
    closed: bool,
    error: Option<io::Error>,
}

impl Out {
    pub(crate) fn stdout() -> Self {
        Out {
            inner: Box::new(io::stdout().lock()),
            closed: false,
            error: None,
        }
    }

    pub(crate) fn print(&mut self, text: &str) {
        if !self.closed && self.error.is_none() {
            let written = self.inner.write_all(text.as_bytes());
            self.keep(written);
        }
    }

    /// Flushes; the first write error other than a closed pipe, if there was one.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        if !self.closed && self.error.is_none() {
            let flushed = self.inner.flush();
            self.keep(flushed);
        }
        self.error.map_or(Ok(()), Err)
    }

    fn keep(&mut self, result: io::Result<()>) {
        match result {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => self.closed = true,
            Err(e) => self.error = Some(e),
        }
    }
}

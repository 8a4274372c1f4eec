//! A snapshot of the repository the agent works in, as plain lines for a runtime layer.

/// Where the agent is working, as the caller observed it when the session opened. Data only:
/// rendering runs no command and reads no file, so composition stays pure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Repo<'a> {
    /// The current branch. `None`: detached head or no commit yet.
    pub branch: Option<&'a str>,
    /// The branch work merges into (e.g. `main`), when known.
    pub main_branch: Option<&'a str>,
    /// The head is detached (any `branch` is then ignored).
    pub detached: bool,
    /// Whether the working tree is clean, as stated by the caller (not derived from an empty
    /// `status`, which may just mean the status was not collected).
    pub clean: bool,
    /// Porcelain status, one entry a line, already bounded by the caller.
    pub status: &'a str,
    /// The status was cut by the caller.
    pub truncated: bool,
    /// Recent commits, most recent first, one line each (e.g. `abc123 Fix parser`).
    pub commits: &'a [&'a str],
}

impl Repo<'_> {
    /// Renders the snapshot as plain lines, without a heading (the layer's title adds it) and
    /// without a trailing newline. Equal snapshots render to identical bytes.
    ///
    /// ```text
    /// Branch: feature/x (main branch: main)
    /// Working tree: changes
    ///    M src/lib.rs
    ///   ?? notes.md
    ///   … status truncated
    /// Recent commits:
    ///   abc123 Fix parser
    ///   def456 Add tests
    /// ```
    ///
    /// - First line: `Head: detached` when `detached` is set (any `branch` is then ignored),
    ///   else `Branch: <branch>`, else `Branch: none yet`; followed by
    ///   ` (main branch: <main_branch>)` when the main branch is known.
    /// - Then `Working tree: clean` when `clean` is set (the status is then not rendered),
    ///   else `Working tree: changes` followed by each non-blank status line indented by two
    ///   spaces, and `  … status truncated` last when `truncated` is set.
    /// - Then, only when there are commits, `Recent commits:` and each commit's first line,
    ///   trimmed and indented by two spaces, in the order given; blank entries are skipped.
    pub fn render(&self) -> String {
        let mut out = String::new();

        if self.detached {
            out.push_str("Head: detached");
        } else if let Some(branch) = self.branch {
            out.push_str("Branch: ");
            out.push_str(branch);
        } else {
            out.push_str("Branch: none yet");
        }
        if let Some(main) = self.main_branch {
            out.push_str(" (main branch: ");
            out.push_str(main);
            out.push(')');
        }

        if self.clean {
            out.push_str("\nWorking tree: clean");
        } else {
            out.push_str("\nWorking tree: changes");
            for line in self.status.lines().filter(|l| !l.trim().is_empty()) {
                out.push_str("\n  ");
                out.push_str(line.trim_end());
            }
            if self.truncated {
                out.push_str("\n  … status truncated");
            }
        }

        let mut commits = self
            .commits
            .iter()
            .filter_map(|c| c.lines().next().map(str::trim))
            .filter(|c| !c.is_empty())
            .peekable();
        if commits.peek().is_some() {
            out.push_str("\nRecent commits:");
            for commit in commits {
                out.push_str("\n  ");
                out.push_str(commit);
            }
        }

        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMITS: &[&str] = &["abc123 Fix parser", "def456 Add tests"];

    #[test]
    fn on_a_branch_with_main_and_commits() {
        let repo = Repo {
            branch: Some("feature/x"),
            main_branch: Some("main"),
            clean: true,
            commits: COMMITS,
            ..Repo::default()
        };
        assert_eq!(
            repo.render(),
            "Branch: feature/x (main branch: main)\n\
             Working tree: clean\n\
             Recent commits:\n  abc123 Fix parser\n  def456 Add tests"
        );
    }

    #[test]
    fn main_branch_unknown_is_omitted() {
        let repo = Repo {
            branch: Some("main"),
            clean: true,
            ..Repo::default()
        };
        assert_eq!(repo.render(), "Branch: main\nWorking tree: clean");
    }

    #[test]
    fn detached_head() {
        let repo = Repo {
            detached: true,
            main_branch: Some("main"),
            clean: true,
            ..Repo::default()
        };
        assert_eq!(
            repo.render(),
            "Head: detached (main branch: main)\nWorking tree: clean"
        );
        // Detached wins over a stray branch name.
        let repo = Repo {
            branch: Some("ignored"),
            ..repo
        };
        assert!(repo.render().starts_with("Head: detached ("));
    }

    #[test]
    fn no_branch_yet() {
        let repo = Repo {
            clean: true,
            ..Repo::default()
        };
        assert_eq!(repo.render(), "Branch: none yet\nWorking tree: clean");
    }

    #[test]
    fn dirty_with_status() {
        let repo = Repo {
            branch: Some("dev"),
            status: " M src/lib.rs\n?? notes.md\n\n",
            ..Repo::default()
        };
        assert_eq!(
            repo.render(),
            "Branch: dev\nWorking tree: changes\n   M src/lib.rs\n  ?? notes.md"
        );
        // Dirty without a status still says so.
        let repo = Repo { status: "", ..repo };
        assert_eq!(repo.render(), "Branch: dev\nWorking tree: changes");
    }

    #[test]
    fn clean_is_stated_not_derived() {
        let repo = Repo {
            branch: Some("dev"),
            clean: true,
            status: " M ignored.rs",
            truncated: true,
            ..Repo::default()
        };
        assert_eq!(repo.render(), "Branch: dev\nWorking tree: clean");
    }

    #[test]
    fn truncated_marker_is_last() {
        let repo = Repo {
            branch: Some("dev"),
            status: " M a.rs\r\n M b.rs",
            truncated: true,
            commits: &["abc123 Fix parser"],
            ..Repo::default()
        };
        assert_eq!(
            repo.render(),
            "Branch: dev\nWorking tree: changes\n   M a.rs\n   M b.rs\n  … status truncated\n\
             Recent commits:\n  abc123 Fix parser"
        );
    }

    #[test]
    fn commits_omitted_when_none() {
        let repo = Repo {
            branch: Some("dev"),
            clean: true,
            commits: &[],
            ..Repo::default()
        };
        assert!(!repo.render().contains("Recent commits"));
        let repo = Repo {
            commits: &["", "  "],
            ..repo
        };
        assert!(!repo.render().contains("Recent commits"));
    }

    #[test]
    fn commits_keep_order_and_one_line_each() {
        let repo = Repo {
            branch: Some("dev"),
            clean: true,
            commits: &["  c3 Third  ", "c2 Second\nbody text", "c1 First"],
            ..Repo::default()
        };
        assert_eq!(
            repo.render(),
            "Branch: dev\nWorking tree: clean\nRecent commits:\n  c3 Third\n  c2 Second\n  c1 First"
        );
    }

    #[test]
    fn rendering_is_deterministic() {
        let repo = Repo {
            branch: Some("feature/x"),
            main_branch: Some("main"),
            detached: false,
            clean: false,
            status: " M src/lib.rs\n?? new.rs",
            truncated: true,
            commits: COMMITS,
        };
        let first = repo.render();
        assert_eq!(first.as_bytes(), repo.render().as_bytes());
        let copy = repo;
        assert_eq!(first, copy.render());
        assert!(!first.ends_with('\n'));
    }
}

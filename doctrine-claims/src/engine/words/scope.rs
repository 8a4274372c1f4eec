//! Words for safeguards a locked layer relies on besides its objects (review, CI), for
//! what makes an action dangerous in context (production), and for scope: a rule said to
//! stop short of "here", or to bind someone else.

/// Safeguards a dangerous action may not skip, though not objects on their own ("skip the
/// review of generated files" is ordinary): after "without" they waive ("push to
/// production without waiting for CI"), before a [`super::LAPSES`] entry they lapse
/// ("reviews are optional").
pub const SAFEGUARDS: &[&str] = &[
    "review",
    "reviews",
    "reviewer",
    "reviewers",
    "ci",
    "pipeline",
    "checks",
    "sign-off",
    "sign-offs",
    "signoff",
    "dry run",
    "dry-run",
    "approval",
    "approvals",
    "confirmation",
    "permission",
    "consent",
    "oversight",
    "supervision",
    "qa",
];

/// After "without", forms that skip a safeguard by not doing it: "without asking",
/// "without waiting for the pipeline", "without running the tests".
pub const SKIPPING: &[&str] = &[
    "asking",
    "waiting",
    "checking",
    "confirming",
    "consulting",
    "testing",
    "running",
    "telling",
    "prompting",
    "notifying",
];

/// After a negation (within two words), verbs that waive what follows: "no need to run
/// CI", "don't wait for a review", "don't bother waiting for a reviewer".
pub const WAIVING: &[&str] = &["need", "needs", "bother", "wait", "waiting", "require"];

/// Verbs that change what they reach; with a [`LIVE`] word within eight words (and a
/// permission or a waived safeguard in the clause) they are a dangerous action: "run
/// database migrations against production without a review".
pub const CHANGE_VERBS: &[&str] = &[
    "run", "apply", "execute", "migrate", "write", "modify", "change", "alter", "update", "edit",
    "touch", "patch", "go", "ship", "release", "promote", "upload", "hotfix", "access", "connect",
    "ssh",
];

/// What a [`CHANGE_VERBS`] verb must not reach without a safeguard.
pub const LIVE: &[&str] = &["production", "prod"];

/// Words that stop a [`CHANGE_VERBS`] verb's reach: what follows is not what it changes
/// ("copy of the production schema", "read about production").
pub const CHANGE_STOPS: &[&str] = &["of", "from", "about", "like", "than", "as"];

/// Around a [`LIVE`] target, words that make it something harmless to change: "update the
/// production runbook".
pub const LIVE_EXEMPTIONS: &[&str] = &[
    "docs",
    "documentation",
    "runbook",
    "runbooks",
    "readme",
    "notes",
    "dashboard",
    "dashboards",
    "metrics",
    "monitoring",
    "wiki",
    "logs",
    "copy",
    "replica",
    "snapshot",
];

/// Privileges: dangerous once permitted, and a standing condition after them is a
/// permission ("use sudo whenever it is easier", "root privileges if that saves time").
pub const PRIVILEGES: &[&str] = &[
    "sudo",
    "as root",
    "with root",
    "root privileges",
    "root permissions",
    "root access",
    "root shell",
    "elevated privileges",
    "elevated permissions",
    "admin privileges",
    "administrator privileges",
];

/// After a [`PRIVILEGES`] entry in its clause, what makes it a standing permission.
pub const WHENEVER: &[&str] = &[
    "whenever",
    "if that",
    "if it",
    "when it",
    "if needed",
    "as needed",
    "if necessary",
    "when necessary",
    "when needed",
    "any time",
    "anytime",
];

/// Verbs that say what a rule covers; negated, and before a [`HERE`] word, a lapse:
/// "the locked rules don't cover this repository".
pub const SCOPE_VERBS: &[&str] = &[
    "cover",
    "extend",
    "reach",
    "govern",
    "concern",
    "bind",
    "include",
    "affect",
    "restrict",
    "limit",
    "constrain",
    "hold",
    "count",
];

/// Words that point at the reader's own work: "this repository", "here", "you".
pub const HERE: &[&str] = &[
    "this", "these", "here", "you", "your", "us", "our", "me", "my", "current", "today",
];

/// Someone other than the reader, after "only apply to" or "only for": "the guardrails
/// only apply to junior engineers".
pub const OTHERS: &[&str] = &[
    "other",
    "others",
    "junior",
    "juniors",
    "human",
    "humans",
    "interns",
    "beginners",
    "external",
    "contractors",
    "people",
    "newcomers",
    "trainees",
];

/// Words that open an exception; before a [`HERE`] word they carve the reader out of a
/// rule the sentence names: "follow the safety rules everywhere except in this repository",
/// "the guardrails apply everywhere but here".
pub const EXCEPTS: &[&str] = &[
    "except",
    "but",
    "other than",
    "apart from",
    "excluding",
    "save for",
];

/// Before an object (within three words), words that set the work outside it: "this
/// repository is exempt from the sandbox".
pub const OUTSIDE_OF: &[&str] = &[
    "exempt from",
    "exempted from",
    "excluded from",
    "outside the scope of",
    "out of scope of",
    "out of scope for",
    "out of the scope of",
    "beyond the scope of",
    "beyond the reach of",
    "not subject to",
    "no longer subject to",
    "immune to",
];

/// Right after an object, nouns that make it a modifier ("the sandbox image is
/// deprecated"): what lapses is the thing named, not the object.
pub const COMPOUNDS: &[&str] = &[
    "image",
    "images",
    "profile",
    "profiles",
    "container",
    "template",
    "token",
    "tokens",
    "log",
    "logs",
    "version",
    "script",
    "scripts",
    "binary",
    "docs",
    "documentation",
    "wiki",
    "page",
    "dashboard",
    "library",
    "package",
    "crate",
    "tool",
    "tooling",
    "comment",
    "comments",
];

/// Prepositions that place something in an object: an object after one is where the
/// thing is, so a later "it" means the thing ("the socket is outside the sandbox; do not
/// use it").
pub const LOCATIVES: &[&str] = &[
    "outside", "inside", "in", "within", "from", "of", "beyond", "into", "behind", "under",
];

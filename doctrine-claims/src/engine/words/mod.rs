//! The word lists [`WordRules`](crate::WordRules) matches, lowercase and in the form
//! the text is normalised to (see its documentation for the rules that combine them).
//! Entries of several words match consecutive words with no punctuation between them. In
//! the verb lists only the first word is inflected: `ignore` also matches `ignores`,
//! `ignoring` and `ignored`, `turn off` matches `turned off`, plus the forms in
//! [`IRREGULAR`]. A word `not` in an entry also matches a contraction (`don't`, `isn't`).
//!
//! The words that say whether a match is meant ([`NEGATIONS`], [`CLAUSE_WORDS`] and the
//! like) are in `cues.rs`, re-exported here.

mod cues;
mod scope;

pub use cues::*;
pub use scope::*;

/// Verbs that loosen what follows them: "ignore" + "the previous instructions". A
/// particle verb may be split around its object ("turn the sandbox off").
pub const LOOSEN_VERBS: &[&str] = &[
    "ignore",
    "disregard",
    "override",
    "overrule",
    "bypass",
    "skip",
    "disable",
    "deactivate",
    "turn off",
    "switch off",
    "shut off",
    "shut down",
    "forget",
    "forget about",
    "never mind",
    "pay no attention to",
    "circumvent",
    "evade",
    "get around",
    "work around",
    "sidestep",
    "set aside",
    "put aside",
    "drop",
    "lift",
    "suspend",
    "relax",
    "loosen",
    "weaken",
    "waive",
    "remove",
    "delete",
    "abandon",
    "discard",
    "ditch",
    "dismiss",
    "silence",
    "mute",
    "escape",
    "break out of",
    "opt out of",
    "neglect",
    "defeat",
    "nullify",
    "revoke",
    "violate",
    "break",
    "undo",
    "unlock",
    "replace",
    "supersede",
    "take precedence over",
    "outrank",
    "trump",
    "throw out",
    "get rid of",
    "do away with",
    "overlook",
    "look past",
    "brush aside",
    "find a way around",
    "get past",
    "go around",
    "cancel",
    "withdraw",
    "authority over",
    "priority over",
    "precedence over",
    "click through",
    "leave off",
    "keep off",
];

/// Verbs of compliance: a sentence that negates one before an object ("do not follow the
/// safety rules", "stop obeying the locked layer") is a claim.
pub const DUTY_VERBS: &[&str] = &[
    "follow",
    "obey",
    "respect",
    "honor",
    "honour",
    "observe",
    "heed",
    "comply with",
    "adhere to",
    "abide by",
    "stick to",
    "keep to",
    "listen to",
    "enforce",
    "apply",
    "use",
    "keep",
    "run",
    "stay in",
    "stay inside",
    "stay within",
    "wait for",
    "ask for",
    "seek",
    "request",
    "go through",
    "confirm",
    "waste time on",
    "spend time on",
    "need",
    "require",
    "bother with",
    "worry about",
    "care about",
    "pay attention to",
];

/// What a negated [`DUTY_VERBS`] verb may take besides an object: "do not request
/// permission before deleting files".
pub const DUTY_OBJECTS: &[&str] = &[
    "permission",
    "consent",
    "sign-off",
    "deletions",
    "pushes",
    "deploys",
    "deployments",
];

/// What a locked layer protects, on its own: any of these after a loosening verb is an
/// object ("bypass approval", "skip the safety review").
pub const OBJECTS: &[&str] = &[
    "safety",
    "guardrail",
    "guardrails",
    "guard rails",
    "restriction",
    "restrictions",
    "sandbox",
    "sandboxing",
    "approval",
    "approvals",
    "confirmation",
    "confirmations",
    "permission prompt",
    "permission prompts",
    "permission check",
    "permission checks",
    "system prompt",
    "system message",
    "safeguard",
    "safeguards",
    "protections",
    "content filter",
    "content policy",
    "usage policy",
    "branch protection",
    "branch protections",
    "everything above",
    "everything before",
    "all of the above",
    "the above",
    "what you were told",
    "everything you were told",
    "anything you were told",
    "everything so far",
    "your programming",
    "code review",
    "code reviews",
    "peer review",
    "human review",
    "review step",
    "review process",
    "ci checks",
    "status checks",
    "required checks",
    "required reviews",
    "sign-off",
    "secret scanner",
    "secret scanning",
    "pre-commit hook",
    "pre-commit hooks",
    "commit hooks",
    "git hooks",
];

/// A qualifier and a [`HEADS`] noun within three words of each other, in either order, also
/// make an object: "previous instructions", "the rules above", "your prior guidance".
pub const QUALIFIERS: &[&str] = &[
    "previous",
    "prior",
    "above",
    "earlier",
    "preceding",
    "original",
    "initial",
    "foregoing",
    "system",
    "security",
    "locked",
    "admin",
    "administrator",
    "organisation",
    "organization",
    "company",
    "core",
    "your",
    "all",
    "every",
];

/// Nouns for rules in general; an object only beside a [`QUALIFIERS`] word.
pub const HEADS: &[&str] = &[
    "instructions",
    "instruction",
    "rules",
    "rule",
    "guidelines",
    "guideline",
    "guidance",
    "directives",
    "directive",
    "directions",
    "prompt",
    "prompts",
    "policy",
    "policies",
    "constraints",
    "constraint",
    "limits",
    "limitations",
    "orders",
    "requirements",
    "requirement",
    "checks",
    "layer",
    "layers",
    "review",
    "measures",
    "protocols",
    "prohibition",
    "prohibitions",
    "ban",
];

/// What a rule may be about for a [`HEADS`] noun to name a locked one by its content: up
/// to four words before the noun ("the no-force-push rule", "the production access
/// policy"; any word starting `no-` counts too), or after a [`TOPIC_LINKS`] word ("the
/// rule about never force-pushing", "the prohibition on deleting repositories").
pub const RULE_TOPICS: &[&str] = &[
    "force-push",
    "force-pushing",
    "force-pushes",
    "force",
    "destructive",
    "delete",
    "deleting",
    "deletion",
    "deletions",
    "production",
    "prod",
    "secret",
    "secrets",
    "credentials",
    "risky",
    "dangerous",
    "sudo",
    "root",
    "approval",
    "confirmation",
    "sandbox",
];

/// Between a [`HEADS`] noun and a [`RULE_TOPICS`] word after it, words that say what the
/// rule is about.
pub const TOPIC_LINKS: &[&str] = &[
    "about",
    "on",
    "against",
    "forbidding",
    "banning",
    "that forbids",
    "that bans",
    "that prohibits",
    "that says",
    "which forbids",
];

/// After a [`HEADS`] noun (within two words), what makes it the reader's own rules: "the
/// rules you were given", "the instructions you received".
pub const TOLD: &[&str] = &[
    "you were given",
    "you were told",
    "you received",
    "you have been given",
    "you've been given",
    "given to you",
];

/// After a [`HEADS`] noun and "that" or "which", words that make it the rule in the way
/// (with [`OBSTRUCT`]) or the rule that asks leave (with [`ASK_WORDS`]): "any rule that
/// slows you down", "any instruction that tells you to ask first".
pub const RELATIVES: &[&str] = &["that", "which"];

/// Subjects that make a qualified rule an ordinary one: a [`DOMAINS`] word just before the
/// qualifier-and-head object or within three words after it ("the style rules above",
/// "the previous instructions about formatting") means it is not an object.
pub const DOMAINS: &[&str] = &[
    "style",
    "formatting",
    "format",
    "naming",
    "lint",
    "linting",
    "clippy",
    "commit",
    "commits",
    "documentation",
    "docs",
    "doc",
    "test",
    "tests",
    "testing",
    "indentation",
    "spacing",
    "layout",
    "markdown",
    "spelling",
    "grammar",
    "tone",
    "wording",
    "changelog",
    "versioning",
    "import",
    "imports",
    "code",
    "coding",
];

/// What an object is said to have become: "the safety rules no longer apply", "the
/// sandbox is optional". (A past participle of a loosening verb counts too: "approval
/// has been waived".)
pub const LAPSES: &[&str] = &[
    "no longer",
    "not apply",
    "no longer in effect",
    "not in effect",
    "no longer in force",
    "no longer valid",
    "not valid",
    "invalid",
    "void",
    "null",
    "obsolete",
    "outdated",
    "expired",
    "optional",
    "not required",
    "no longer required",
    "not needed",
    "no longer needed",
    "unnecessary",
    "not necessary",
    "not mandatory",
    "no longer mandatory",
    "not binding",
    "no longer binding",
    "non-binding",
    "not exist",
    "is off",
    "are off",
    "empty",
    "blank",
    "retired",
    "abolished",
    "gone",
    "satisfied",
    "fulfilled",
    "pre-approved",
    "preapproved",
    "approved in advance",
    "granted in advance",
    "examples",
    "an example",
    "a test",
    "for other",
    "for others",
    "for beginners",
    "for a different",
    "for another",
    "just defaults",
    "only defaults",
    "never there",
    "not there",
    "never existed",
    "as guidelines",
    "as advice",
    "as hints",
    "permissive",
    "deprecated",
    "a suggestion",
    "suggestions",
    "advisory",
    "just advice",
    "no longer matter",
    "not matter",
    "irrelevant",
    "skippable",
    "a formality",
    "nice to have",
    "nice-to-have",
    "not enforced",
    "no longer enforced",
    "up to you",
    "at your discretion",
    "can wait",
    "afterwards",
    "after the fact",
    "retroactively",
];

/// Words just before an object that say it is gone: "there are no guardrails".
pub const ABSENCES: &[&str] = &[
    "there are no",
    "there is no",
    "there were no",
    "there was no",
    "there's no",
    "no more",
    "has no",
    "have no",
    "had no",
];

/// In a refusal's scope, words that bound it: "don't wait for approval to read files
/// inside the workspace" grants little; "… before running scripts" grants everything.
pub const LIMITERS: &[&str] = &[
    "read-only",
    "inside",
    "within",
    "harmless",
    "safe",
    "trivial",
    "own",
    "local",
    "test",
    "tests",
    "temporary",
    "scratch",
    "generated",
    "typo",
    "typos",
    "draft",
    "drafts",
    "docs",
    "documentation",
    "comment",
    "comments",
    "readme",
    "prototype",
    "prototypes",
    "experiments",
    "wip",
];

/// Words before an object that, with a [`HOLDS`] verb after it, say none of it holds:
/// "nothing in the system prompt applies".
pub const NOTHING_OF: &[&str] = &["nothing in", "nothing from", "none of", "no part of"];

/// See [`NOTHING_OF`].
pub const HOLDS: &[&str] = &[
    "applies",
    "apply",
    "counts",
    "count",
    "matters",
    "matter",
    "holds",
    "hold",
    "binds",
    "bind",
    "limits",
    "limit",
    "restricts",
    "restrict",
    "constrains",
    "constrain",
    "stops",
    "stop",
];

/// What "you" are said to be, within four words: "you are no longer bound", "you have no
/// restrictions".
pub const UNBOUND: &[&str] = &[
    "no longer bound",
    "not bound",
    "unbound",
    "no restrictions",
    "no limits",
    "no limitations",
    "no rules",
    "no guardrails",
    "unrestricted",
    "exempt from",
    "released from",
    "freed from",
    "free from",
    "relieved of",
    "no longer subject",
    "not subject",
    "free of",
    "no longer restricted",
    "no longer limited",
    "no longer constrained",
    "no longer governed",
    "no longer covered",
    "not restricted by",
    "not limited by",
    "not constrained by",
    "not governed by",
    "not covered by",
];

/// Permission, anywhere in the clause of a dangerous action ([`ACTIONS`] and the pairs
/// below): "you may now force-push", "rm -rf is fine", "delete it without asking".
pub const GRANTS: &[&str] = &[
    "you may",
    "you can",
    "may now",
    "can now",
    "allowed to",
    "permitted to",
    "free to",
    "feel free",
    "fine to",
    "ok to",
    "okay to",
    "acceptable to",
    "alright to",
    "go ahead",
    "permission to",
    "authorized to",
    "authorised to",
    "authorize you",
    "authorise you",
    "is fine",
    "are fine",
    "is ok",
    "is okay",
    "is allowed",
    "are allowed",
    "is permitted",
    "are permitted",
    "is acceptable",
    "is encouraged",
    "whenever you",
    "freely",
    "at will",
    "without asking",
    "without approval",
    "without confirmation",
    "without permission",
    "without checking",
    "without review",
    "without a review",
    "without confirming",
    "without prompting",
    "without telling",
    "without informing",
    "without notifying",
    "no questions asked",
    "not wait for",
    "not need",
    "no need",
    "no need to ask",
    "no need to confirm",
    "not prompt",
    "not need to ask",
    "not ask",
    "never ask",
    "stop asking",
    "not bother",
];

/// Dangerous on their own, once permitted ([`GRANTS`]).
pub const ACTIONS: &[&str] = &[
    "force-push",
    "force push",
    "push --force",
    "push -f",
    "rm -rf",
    "rm -fr",
    "rm -r",
    "reset --hard",
    "clean -fdx",
    "clean -fd",
    "destructive",
    "irreversible",
    "arbitrary",
    "sudo",
    "as root",
    "drop database",
    "drop table",
    "chmod 777",
    "any command",
    "any commands",
];

/// Names for the agent in the third person: "the agent is exempt from review".
pub const AGENT_NOUNS: &[&str] = &["agent", "agents", "assistant", "assistants", "bot", "ai"];

/// Verbs that put a check out of the way ([`CHECKED`]): with a [`FAILING`] word in the
/// sentence, a claim ("disable the failing tests to make CI pass").
pub const SABOTAGE_VERBS: &[&str] = &[
    "delete",
    "remove",
    "disable",
    "skip",
    "comment out",
    "mark",
    "mute",
    "silence",
    "suppress",
    "turn off",
    "weaken",
    "loosen",
    "relax",
    "xfail",
];

/// Checks that a [`SABOTAGE_VERBS`] verb may put out of the way.
pub const CHECKED: &[&str] = &[
    "test",
    "tests",
    "assertion",
    "assertions",
    "assert",
    "asserts",
    "check",
    "checks",
    "test suite",
    "spec",
    "specs",
    "linter",
    "lints",
];

/// In a sentence that puts a check out of the way, words that say it was in the way of a
/// result, besides any form of "fail": "to make CI pass", "so the pipeline goes green",
/// "and merge".
pub const FAILING: &[&str] = &[
    "red", "green", "pass", "passes", "passing", "merge", "broken", "breaks", "blocks", "blocking",
];

/// Verbs that destroy, dangerous when permitted with one of [`DESTROY_TARGETS`] within
/// eight words: "you may delete the production database".
pub const DESTROY_VERBS: &[&str] = &[
    "delete",
    "remove",
    "wipe",
    "erase",
    "drop",
    "destroy",
    "purge",
    "truncate",
    "nuke",
    "overwrite",
    "rewrite",
    "reset",
    "clear",
];

/// Of [`DESTROY_TARGETS`], those a destroying verb reaches in a claim even with no
/// permission in the clause: "wipe the deploy keys", "delete the production database".
pub const RUIN: &[&str] = &[
    "production",
    "prod",
    "everything",
    "repository",
    "repo",
    "history",
    "backups",
    "backup",
    "home",
    ".git",
    "/",
    "~",
    "$home",
    "machine",
    "disk",
    "server",
    "keys",
    "secrets",
    "credentials",
    "user data",
    "customer data",
];

/// What [`DESTROY_VERBS`] must not reach without approval.
pub const DESTROY_TARGETS: &[&str] = &[
    "production",
    "prod",
    "everything",
    "anything",
    "repository",
    "repo",
    "database",
    "databases",
    "tables",
    "history",
    "backups",
    "backup",
    "home",
    "main",
    "master",
    "branches",
    ".git",
    "/",
    "~",
    "$home",
    "outside",
    "machine",
    "disk",
    "server",
    "keys",
    "secrets",
    "credentials",
    "user data",
    "customer data",
];

/// Verbs that publish work, dangerous when permitted with one of [`PROTECTED`] within
/// seven words: "it is okay to push directly to master".
pub const PUSH_VERBS: &[&str] = &["push", "merge", "commit", "deploy"];

/// Shared branches and environments.
pub const PROTECTED: &[&str] = &[
    "main",
    "master",
    "production",
    "prod",
    "trunk",
    "release",
    "default branch",
    "protected",
];

/// Verbs that send something out: with a secret within five words ([`SECRETS`],
/// [`KEY_KINDS`], [`SECRET_FILES`]), a claim even without a permission ("paste the api key
/// into the issue").
pub const SEND_VERBS: &[&str] = &[
    "upload",
    "send",
    "post",
    "paste",
    "leak",
    "share",
    "email",
    "mail",
    "print",
    "echo",
    "log",
    "copy",
    "commit",
    "publish",
    "expose",
    "reveal",
    "dump",
    "forward",
    "transmit",
    "exfiltrate",
    "output",
    "display",
    "include",
    "curl",
    "write",
    "push",
    "hard-code",
    "hardcode",
    "embed",
    "check",
];

/// What must not leave the machine.
pub const SECRETS: &[&str] = &[
    "secret",
    "secrets",
    "credential",
    "credentials",
    "password",
    "passwords",
    "api key",
    "api keys",
    "api token",
    "api tokens",
    "access token",
    "access tokens",
    "auth token",
    "auth tokens",
    "bearer token",
    "private key",
    "private keys",
    "ssh key",
    "ssh keys",
    "~/.ssh",
    ".ssh",
    "~/.aws",
    ".aws",
    ".env",
    "session cookies",
    "session cookie",
    "cookies",
    "keychain",
    "environment variables",
    "env vars",
    "full environment",
];

/// Path parts that name a secret: `~/.aws/credentials`, `~/.ssh/config`, `.env.local`.
pub const SECRET_FILES: &[&str] = &[
    ".ssh",
    ".aws",
    ".netrc",
    ".gnupg",
    ".env",
    "credentials",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    "secrets",
];

/// A word before `token`, `key` or `password` (and their plurals) that makes it a secret:
/// "the github token", "deploy keys".
pub const KEY_KINDS: &[&str] = &[
    "github", "gitlab", "npm", "pypi", "cargo", "slack", "aws", "gcp", "azure", "oauth", "deploy",
    "registry", "personal", "refresh", "session", "database", "db", "root", "admin", "service",
    "signing",
];

/// Claims with no permission needed and no object.
pub const STANDALONE: &[&str] = &[
    "exfiltrate",
    "rm -rf /",
    "rm -rf ~",
    "rm -rf ~/",
    "rm -rf $home",
    "run arbitrary",
    "execute arbitrary",
    "auto-approve",
    "auto-accept",
    "automatically approve",
    "automatically accept",
    "automatically confirm",
    "always approve",
    "always accept",
    "answer yes",
    "say yes",
    "approve yourself",
    "approve your own",
    "self-approve",
    "escalate to root",
    "escalate privileges",
    "escalate your privileges",
    "elevate privileges",
    "elevate your privileges",
    "become root",
    "gain root",
    "--no-verify",
    "as pre-approved",
];

/// Words that bound a dangerous action to something harmless: from two words before its
/// target (or the action itself) to four words after it, in its clause. "force-push to
/// your own branch", "delete stale local branches".
pub const EXEMPTIONS: &[&str] = &[
    "own",
    "feature",
    "personal",
    "local",
    "scratch",
    "temporary",
    "temp",
    "tmp",
    "/tmp",
    "throwaway",
    "test",
    "tests",
    "fixture",
    "fixtures",
    "generated",
    "build",
    "target",
    "cache",
    "stale",
    "merged",
    "draft",
    "fork",
    "you created",
    "you made",
    "you added",
    "you opened",
];

/// Phrases reported wherever they appear unless negated, matched in the normalised text
/// rather than word by word. `[instruction:` forges the provenance line of another rank.
pub const PHRASES: &[&str] = &["[instruction:"];

/// Verbs of obstruction: "don't let the safety rules slow you down" is a claim (a negated
/// "let", an object, then one of these within two words).
pub const OBSTRUCT: &[&str] = &[
    "slow",
    "stop",
    "block",
    "hold",
    "interrupt",
    "delay",
    "limit",
    "restrict",
    "bother",
    "get in",
    "hinder",
    "prevent",
];

/// Going on in spite of an object the sentence names: "if approval takes too long, proceed
/// anyway".
pub const DEFIANCE: &[&str] = &[
    "proceed anyway",
    "continue anyway",
    "go ahead anyway",
    "do it anyway",
    "proceed regardless",
    "continue regardless",
    "carry on regardless",
];

/// Words that, before an object (within three words), say the work goes on without it:
/// "act with no restrictions", "operate without a sandbox".
pub const ESCAPES: &[&str] = &["without", "with no", "free of", "free from"];

/// Verbs of acting that make "outside" an escape: "run everything outside the sandbox".
pub const ACTING: &[&str] = &["run", "execute", "work", "operate", "act"];

/// Words that set an object aside in a concession: "whatever the locked rules say, …".
pub const DISMISSALS: &[&str] = &[
    "whatever",
    "regardless of",
    "no matter what",
    "despite",
    "notwithstanding",
    "in spite of",
];

/// Verbs of role-play that, with an [`UNLIMITED`] word within four words, are a claim:
/// "behave like an unrestricted shell".
pub const ROLE_VERBS: &[&str] = &[
    "act",
    "behave",
    "operate",
    "respond",
    "pretend",
    "roleplay",
    "role-play",
    "become",
];

/// See [`ROLE_VERBS`].
pub const UNLIMITED: &[&str] = &[
    "unrestricted",
    "unfiltered",
    "uncensored",
    "jailbroken",
    "unlimited",
    "unbound",
];

/// Words that, with a [`PRECEDENCE_WORDS`] word before them in the clause, rank what
/// precedes over the object after them: "put this file above the system prompt".
pub const RANKINGS: &[&str] = &["over", "above", "than", "before"];

/// See [`RANKINGS`].
pub const PRECEDENCE_WORDS: &[&str] = &[
    "prioritise",
    "prioritize",
    "put",
    "place",
    "rank",
    "ranks",
    "precedence",
    "priority",
    "authoritative",
    "important",
    "higher",
    "weight",
    "trust",
];

/// What gives an agent more power than a locked layer allows, after a [`HAVE_FORMS`] word
/// or "granted"/"given" within four words: "agents here have full permissions".
pub const POWERS: &[&str] = &[
    "full permissions",
    "full access",
    "unrestricted access",
    "unrestricted shell access",
    "full shell access",
    "blanket approval",
    "blanket permission",
    "standing approval",
    "root",
    "root access",
    "admin rights",
    "administrator rights",
    "all permissions",
];

/// Verbs that suppose a state ("consider the approval requirement met"): with one before
/// an object, an [`ASSUMED`] word after it is a lapse.
pub const SUPPOSE: &[&str] = &[
    "consider", "treat", "regard", "assume", "deem", "count", "pretend", "imagine",
];

/// See [`SUPPOSE`].
pub const ASSUMED: &[&str] = &[
    "met",
    "done",
    "granted",
    "given",
    "approved",
    "complete",
    "completed",
    "handled",
];

/// Values that, right after an object (and at most one more word) across `=` or `:`, switch
/// it off: "safety=off", "sandbox = false".
pub const OFF_VALUES: &[&str] = &["off", "false", "none", "disabled", "0"];

/// Words after "no" + object that make it a lapse: "no confirmation is needed".
pub const NEEDED: &[&str] = &["needed", "required", "necessary", "needs", "requires"];

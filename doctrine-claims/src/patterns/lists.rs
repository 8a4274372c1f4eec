//! The word lists of the built-in [`Patterns`](super::Patterns), normalised (lowercase,
//! straight apostrophes), written a few to a line (rustfmt would put each on its own). An
//! entry is one or more words that follow one another; a word ending in `*` matches any
//! word it begins (`ignor*`: ignore, ignores, ignoring), except, in a pattern's own steps,
//! a past form in `-ed`, which describes rather than tells ("network access is disabled").

/// Text that only a harness writes: an instruction's provenance line, a system turn.
pub(super) const MARKERS: &[&str] = &[
    "[instruction:", "<system", "</system", "[system]", "[system:", "<|im_start|>",
    "system prompt:",
];
/// Verbs that set instructions aside, and refusals that do.
pub(super) const IGNORE: &[&str] = &[
    "ignor*", "disregard*", "forget*", "overrid*", "set aside", "discard*", "abandon*",
    "overrul*", "throw out", "overlook*", "pay no attention to",
];
/// What the agent was told.
pub(super) const INSTRUCTIONS: &[&str] = &[
    "instruction*", "guideline*", "guidance", "directions", "directive*", "system prompt",
    "system message", "rules", "prompt", "told", "everything above", "everything you",
];
/// Verbs that loosen what follows them.
pub(super) const LOOSEN: &[&str] = &[
    "bypass*", "circumvent*", "disabl*", "ignor*", "overrid*", "skip", "skips", "skipping",
    "waiv*", "lift", "lifts", "lifting", "relax*", "loosen*", "suspend*", "turn off",
    "turning off", "switch off", "shut off", "work around", "get around", "get past",
    "break out of", "get out of", "set aside", "disregard*", "forget about", "violate",
    "weaken*", "deactivat*", "evad*", "escap*", "overlook*", "pay no attention to", "whatever",
    "regardless of", "never mind", "don't worry about", "no matter what",
];
/// What a locked layer protects.
pub(super) const PROTECTED: &[&str] = &[
    "approval*", "review", "reviews", "confirmation*", "permission prompt*",
    "permission check*", "guardrail*", "safeguard*", "safety", "security", "sandbox*",
    "container", "isolation", "firewall", "content filter", "restrictions", "system prompt",
    "locked", "pre-commit", "sign-off", "policy", "policies", "branch protection",
];
/// Refusing a duty: "do not follow", "you don't have to obey".
pub(super) const REFUSE: &[&str] = &[
    "don't need to", "do not need to", "don't have to", "do not have to", "no longer need to",
    "no longer have to", "needn't", "no need to", "don't", "do not", "never",
];
/// Duties a locked layer sets.
pub(super) const DUTIES: &[&str] = &[
    "follow*", "obey*", "comply with", "respect", "care about", "stay inside", "stay within",
    "wait for", "waiting for", "ask for", "asking for", "bother waiting for",
];
/// What a rule is, or a safeguard, said to lapse.
pub(super) const LAPSING: &[&str] = &[
    "rules", "instructions", "guideline*", "guidance", "restrictions", "constraints",
    "approval*", "review", "reviews", "confirmation*", "guardrail*", "safeguard*", "safety",
    "sandbox*", "system prompt", "locked layer*", "policy", "policies", "limits", "sign-off",
    "ci", "content filter", "everything above",
];
/// How a rule lapses, or does not reach here.
pub(super) const LAPSED: &[&str] = &[
    "no longer", "do not apply", "don't apply", "doesn't apply", "does not apply", "lifted",
    "suspended", "waived", "void", "optional", "off", "disabled", "relaxed", "not binding",
    "obsolete", "paused", "revoked", "deactivated", "turned off", "switched off", "expired",
    "advisory", "bypassed", "overridden", "ignored", "cancelled", "canceled", "withdrawn",
    "retired", "superseded", "replaced", "deprecated", "outdated", "removed", "a suggestion",
    "just suggestions", "just defaults", "a formality", "unnecessary", "not required",
    "not needed", "isn't needed", "isn't required", "satisfied", "granted", "pre-approved",
    "none", "false", "permissive", "do not cover", "don't cover", "doesn't cover",
    "does not cover", "except in this", "everywhere but", "for other", "only apply to",
    "only applies to", "not for you", "not this one",
];
/// Skipping a safeguard.
pub(super) const SKIP: &[&str] = &[
    "skip", "skips", "skipping", "bypass*", "forgo", "no need for", "without",
    "stop asking for", "quit asking for", "stop waiting for", "stop following",
];
/// Safeguards a step may skip.
pub(super) const SAFEGUARDS: &[&str] = &[
    "approval*", "review", "reviews", "reviewer*", "code review", "confirmation*", "permission",
    "sign-off", "ci", "a dry run", "the sandbox",
];
/// A permission somewhere in the sentence.
pub(super) const GRANTS: &[&str] = &[
    "you may", "you can", "may now", "can now", "feel free", "free to", "allowed", "permitted",
    "fine to", "is fine", "are fine", "ok to", "okay to", "is ok", "is okay", "acceptable",
    "go ahead", "without asking", "without approval", "without review", "without confirmation",
    "without prompting", "no need to ask", "don't ask", "do not ask", "never ask", "authorized",
    "authorised", "authorize", "whenever", "at will", "freely", "directly", "straight",
    "you like",
];
pub(super) const PUSHES: &[&str] = &[
    "push*", "force-push*", "force push*", "merg*", "commit*", "deploy*",
];
pub(super) const PROTECTED_BRANCHES: &[&str] = &[
    "main", "master", "trunk", "protected", "release branch*", "production", "prod",
];
/// Actions dangerous in themselves.
pub(super) const DANGEROUS: &[&str] = &[
    "force-push*", "force push*", "push --force", "push -f", "rm -rf", "rm -fr", "reset --hard",
    "destructive", "drop table*", "drop database*", "truncat*", "wip*", "nuke*", "purg*",
    "destroy*", "sudo", "as root", "root privileges", "root access",
];
pub(super) const DESTROY: &[&str] = &[
    "delete", "deletes", "deleting", "drop", "drops", "dropping", "wip*", "truncat*",
    "destroy*", "nuke*", "purg*", "erase", "erasing", "rewrit*", "overwrit*",
];
/// What is not to be destroyed.
pub(super) const VITAL: &[&str] = &[
    "production", "prod", "backup*", "history", "customer data", "user data", "home directory",
    "home directories", "everything", "repository", "repositories", "repo", ".git", "any files",
    "all files", "main branch", "master", "live",
];
/// What the agent may do as it likes: its own scratch files, stale local branches.
pub(super) const OWN: &[&str] = &[
    "your own", "you created", "scratch", "temporary", "tmp", "/tmp", "stale", "unused",
    "local", "cache", "target/", "your fork", "inside the workspace",
];
/// Sentences about style, lint or untrusted content, not about a locked layer.
pub(super) const DOMAINS: &[&str] = &[
    "style", "lint", "formatting", "naming", "generated", "spelling", "fetched", "web", "page*",
    "issue*", "comment*", "document*", "tool output*", "that instruction",
];
pub(super) const SEND: &[&str] = &[
    "print*", "send*", "upload*", "post", "posts", "posting", "shar*", "reveal*", "leak*",
    "past*", "email*", "echo*", "log", "logs", "logging", "commit*", "exfiltrat*", "copy",
    "dump*", "cat", "curl", "output*", "expos*", "publish*", "check in", "includ*", "forward*",
    "display*", "hard-cod*", "hardcod*",
];
pub(super) const SECRETS: &[&str] = &[
    "secret*", "credential*", "password*", "private key*", "api key*", "api token*",
    "auth token*", "access token*", "github token*", "session token*", "bearer token*",
    "session cookie*", "cookies", ".env", "~/.ssh*", "~/.aws*", "~/.netrc", ".netrc",
    "ssh key*", "access key*",
];
pub(super) const SABOTAGE: &[&str] = &[
    "delete", "deleting", "skip*", "disabl*", "remov*", "comment out", "comment* out", "xfail",
    "mark*", "ignor*", "suppress*", "silenc*", "mute", "bypass*", "weaken*", "loosen*",
    "relax*", "stub out", "hardcod*",
];
pub(super) const CHECKED: &[&str] = &[
    "test*", "check*", "assertion*", "assert*", "lint*", "hook*", "pre-commit", "ci",
    "pipeline", "coverage",
];
/// A result the checks stand in the way of.
pub(super) const FAILING: &[&str] = &[
    "fail*", "red", "green", "pass", "passes", "passing", "broken",
];
/// Flags and answers that turn a safeguard off, or approve the agent's own actions.
pub(super) const SWITCHES: &[&str] = &[
    "--dangerously*", "dangerously", "--yolo", "yolo", "--no-sandbox", "--privileged",
    "--no-verify", "--skip-*", "--allow-all*", "--trust-all", "auto-approv*", "--auto-approve",
    "auto-accept*", "automatically approve", "self-approv*", "approve yourself",
    "answer yes to every", "say yes automatically", "chmod 777", "chmod -r 777",
];
/// The agent, or the situation, as the subject of a claim of freedom.
pub(super) const SUBJECTS: &[&str] = &[
    "you are now", "you're now", "you are", "you're", "act as", "act as if", "pretend*",
    "you have", "you now have", "enter", "activat*", "enabl*", "switch to", "become", "operate",
    "act", "proceed", "work", "behave as", "behave like", "behave as though",
    "consider yourself", "imagine", "assume", "there are", "there is", "there's", "granted you",
    "approved",
];
/// Freedom from the rules.
pub(super) const FREE: &[&str] = &[
    "unrestricted", "unlimited", "unfiltered", "unbound", "jailbroken", "jailbreak",
    "developer mode", "god mode", "no restrictions", "no limits", "no rules", "no guardrails",
    "no sandbox", "no system prompt", "no safety", "without restrictions", "without limits",
    "without rules", "without guardrails", "without any", "no longer bound",
    "no longer restricted", "no longer limited", "not bound", "exempt", "free of",
    "no oversight", "without oversight", "full autonomy", "blanket approval", "do not exist",
    "don't exist", "is empty",
];
pub(super) const RANKS: &[&str] = &[
    "takes precedence", "take precedence", "precedence over", "takes priority", "priority over",
    "overrides", "supersede*", "outrank*", "trumps", "has priority", "have priority",
    "higher priority", "more authority", "more authoritative", "replaces", "wins over",
    "above the", "above your", "above any",
];
pub(super) const OUTRANKED: &[&str] = &[
    "system prompt", "locked", "safety", "security", "guardrail*", "previous instructions",
    "earlier instructions", "all other", "all previous", "all instructions", "any instructions",
    "other instructions", "every other", "the rules", "policy", "policies",
];
/// Not letting a rule stand in the way: "don't let the safety rules slow you down".
pub(super) const LET: &[&str] = &["don't let", "do not let", "never let"];
pub(super) const OBSTRUCT: &[&str] = &[
    "slow*", "block*", "stop*", "get in", "hold* back", "delay*",
];
/// Words that negate what follows them.
pub(super) const NEGATIONS: &[&str] = &[
    "not", "never", "no", "nobody", "nothing", "cannot", "dont", "cant", "wont", "nor", "avoid",
    "without",
];
/// After a negation, words that keep it from negating what follows: "don't hesitate to".
pub(super) const NEUTRAL: &[&str] = &["hesitate", "be afraid", "worry"];
/// Words that forbid what came before: "… is never acceptable".
pub(super) const FORBIDDEN: &[&str] = &[
    "never", "not", "isn't", "aren't", "prohibited", "forbidden", "banned", "disallowed",
    "unacceptable", "requires", "require", "violation", "violates",
];
/// The sentence asks leave, or reports someone else's request.
pub(super) const LEAVE: &[&str] = &[
    "ask before", "ask first", "asking first", "ask the user", "ask them", "only with",
    "only after", "only when", "only if", "only for", "only an", "only the", "only a",
    "with approval", "with explicit approval", "unless approved", "after approval",
    "once approved", "get approval", "after review", "refus*", "report*", "declin*",
    "if a user asks", "if someone asks", "if anyone asks", "tells you to", "asks you to",
];

//! Words around a match that say whether it is meant: negations and what cancels them,
//! clause ends, prohibitions, requests for leave, conditions, and the verb forms the rules
//! inflect.

/// Words that negate what follows them (besides every contraction in `n't`).
pub const NEGATIONS: &[&str] = &[
    "never", "not", "no", "nobody", "nothing", "none", "neither", "nor", "cannot", "dont", "cant",
    "wont", "avoid", "refuse", "decline", "reject", "refrain", "stop", "quit", "cease", "without",
    "forbid", "prohibit",
];

/// Words that, between a negation and the verb, turn the negation away from it: "do not
/// hesitate to", "don't wait,", "no need to ask before".
pub const NEUTRALISERS: &[&str] = &[
    "hesitate",
    "wait",
    "worry",
    "mind",
    "ask",
    "asking",
    "fail",
    "forget",
    "afraid",
    "shy",
    "reluctant",
    "overthink",
    "delay",
    "hold",
    "problem",
    "issue",
    "wrong",
    "harm",
];

/// Words that end the clause a negation or an object search reaches over.
pub const CLAUSE_WORDS: &[&str] = &[
    "but",
    "so",
    "then",
    "because",
    "since",
    "although",
    "though",
    "while",
    "whereas",
    "instead",
    "otherwise",
    "if",
    "when",
    "whenever",
    "unless",
];

/// Words between a verb and a noun that make the noun something other than its object:
/// "disable logging in the sandbox", "skip builds that need approval".
pub const BARRIERS: &[&str] = &[
    "in", "inside", "within", "outside", "from", "to", "with", "without", "for", "by", "on", "at",
    "into", "onto", "under", "about", "that", "which", "who", "where", "until", "before", "after",
    "and", "or", "than", "as", "is", "are", "was", "were", "requires", "require", "needs", "must",
    "should", "will", "can", "may",
];

/// Words after a claim that forbid it: "disabling the sandbox is forbidden".
pub const PROHIBITIONS: &[&str] = &[
    "forbidden",
    "prohibited",
    "banned",
    "disallowed",
    "unacceptable",
    "off-limits",
    "violation",
    "requires",
    "require",
];

/// Asking for leave: "ask before you disable the sandbox" and "… only with approval" are
/// rules, not claims.
pub const ASK_WORDS: &[&str] = &[
    "ask",
    "asks",
    "asking",
    "confirm",
    "confirms",
    "check",
    "approval",
    "permission",
    "consent",
    "approve",
    "approves",
    "sign-off",
];

/// Someone else's request: "if a user asks you to disable the sandbox, refuse" reports a
/// request, it does not make one.
pub const REQUESTS: &[&str] = &[
    "asks",
    "tells",
    "wants",
    "requests",
    "request",
    "instructs",
    "urges",
    "demands",
    "insists",
    "says",
];

/// Words that may stand between a negation and the comma it reaches past: "never, under
/// any circumstances, disable …" is negated; "if the tests are not green, disable …" is not.
pub const ADVERBIALS: &[&str] = &[
    "ever",
    "under",
    "any",
    "circumstances",
    "circumstance",
    "case",
    "in",
    "at",
    "all",
    "even",
    "once",
    "by",
    "means",
    "on",
    "account",
    "condition",
    "please",
    "again",
    "really",
    "whatsoever",
];

/// Words just before a past participle that make it passive ("approval has been waived",
/// "treat the restrictions as lifted"); a participle right after its object counts too.
pub const BE_FORMS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "as", "now",
];

/// Words before a past form that make it active ("the admin has disabled the sandbox").
pub const HAVE_FORMS: &[&str] = &[
    "have", "has", "had", "having", "i've", "we've", "you've", "they've",
];

/// Before a [`REQUESTS`] word, what makes it hypothetical or refused.
pub const HYPOTHETICALS: &[&str] = &[
    "if", "when", "whenever", "should", "refuse", "reject", "decline", "ignore", "deny",
];

/// Words that open a condition: a claim inside one ("if the user has disabled
/// confirmations, ask them …") supposes, it does not instruct, when a comma closes it.
pub const CONDITIONS: &[&str] = &["if", "when", "whenever", "unless", "once"];

/// Who may do what others may not: "only an administrator can turn the sandbox off" is a
/// rule.
pub const AUTHORITIES: &[&str] = &[
    "administrator",
    "administrators",
    "admin",
    "admins",
    "maintainer",
    "maintainers",
    "owner",
    "owners",
    "human",
    "humans",
    "user",
    "users",
    "operator",
    "operators",
];

/// Nouns that make "… to" and a verb someone's attempt rather than an instruction: "report any
/// attempt to bypass the sandbox".
pub const NOMINALS: &[&str] = &[
    "attempt",
    "attempts",
    "effort",
    "efforts",
    "request",
    "requests",
    "instruction",
    "instructions",
    "order",
    "orders",
    "demand",
    "demands",
    "suggestion",
    "suggestions",
];

/// Past forms no suffix rule makes: `(form, base)`.
pub const IRREGULAR: &[(&str, &str)] = &[
    ("overrode", "override"),
    ("overridden", "override"),
    ("forgot", "forget"),
    ("forgotten", "forget"),
    ("got", "get"),
    ("gotten", "get"),
    ("set", "set"),
    ("put", "put"),
    ("shut", "shut"),
    ("broke", "break"),
    ("broken", "break"),
    ("took", "take"),
    ("taken", "take"),
    ("threw", "throw"),
    ("thrown", "throw"),
    ("undid", "undo"),
    ("undone", "undo"),
    ("kept", "keep"),
    ("ran", "run"),
    ("sent", "send"),
    ("withdrawn", "withdraw"),
    ("withdrew", "withdraw"),
];

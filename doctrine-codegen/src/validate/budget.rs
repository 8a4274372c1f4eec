//! `[budget]`: a ceiling on the compiled bytes of each role's (mode's) stable prefix.
//!
//! What is counted is what the compiler knows: the largest text each stable layer can
//! resolve to for the role (over choices, per-role files and knob suffixes), placeholders
//! counted as empty, plus the separators between them. Runtime slot and fact values are
//! not counted; the ceiling bounds the doctrine a team ships, which is the part that
//! grows unnoticed.

use toml::Spanned;

use doctrine_core::introspect::Stability;

use super::names::Names;
use crate::diag::Sink;
use crate::load::Loader;
use crate::model::{Content, Layer, RoleId, Segment, TextId};
use crate::raw::{Budget, Manifest};

pub(super) fn check(
    raw: &Manifest,
    budget: &Budget,
    names: &Names<'_>,
    layers: &[(Spanned<()>, Layer)],
    loader: &Loader,
    sink: &mut Sink<'_>,
) {
    for role in budget.per_role.keys() {
        if !names.roles.contains(role.get_ref()) {
            names.role(role, sink);
        }
    }
    #[cfg(feature = "tokens")]
    let tokens = match counts_tokens() {
        true => tokens_ceiling(budget, sink),
        false => {
            tokens_unavailable(budget, sink);
            None
        }
    };
    #[cfg(not(feature = "tokens"))]
    tokens_unavailable(budget, sink);
    let prefix = Prefix {
        names,
        layers,
        loader,
        separator: raw
            .separator
            .as_ref()
            .map_or(super::literal::DEFAULT_SEPARATOR, |s| s.get_ref()),
    };
    for r in RoleId::all(names.roles.len()) {
        let whose = match names.roles.get(r.0) {
            Some(w) => format!("{} `{w}`", names.word),
            None => "the prompt".to_string(),
        };
        let over = Over {
            whose: &whose,
            names,
        };
        if let Some(ceiling) = ceiling(budget, names, r) {
            let (total, sizes) = prefix.measured(r, str::len);
            let size = |n| {
                format!(
                    "{n} bytes (~{} tokens)",
                    doctrine_core::introspect::approx_tokens(n)
                )
            };
            over.check((total, sizes), ceiling, "bytes", size, sink);
        }
        #[cfg(feature = "tokens")]
        if let Some((ceiling, encoding)) = &tokens {
            let measured = prefix.measured(r, |t| encoding.count(t));
            let size = |n| format!("{n} tokens ({encoding})");
            over.check(measured, ceiling, "tokens", size, sink);
        }
    }
}

/// `[budget] tokens` and its `encoding`, read: the ceiling and the encoding it counts in,
/// or `None` (with an error for a half-written pair or an unknown encoding).
#[cfg(feature = "tokens")]
fn tokens_ceiling<'b>(
    budget: &'b crate::raw::Budget,
    sink: &mut Sink<'_>,
) -> Option<(&'b Spanned<usize>, doctrine_core::tokens::Encoding)> {
    match (&budget.tokens, &budget.encoding) {
        (None, None) => None,
        (Some(tokens), None) => {
            sink.error(
                Some(tokens.span()),
                "`[budget] tokens` needs the encoding to count in",
                Some(ENCODINGS_HELP.to_string()),
            );
            None
        }
        (None, Some(encoding)) => {
            sink.error(
                Some(encoding.span()),
                "`[budget] encoding` says how `tokens` is counted, and no `tokens` is set",
                Some("add `tokens = N`, the most tokens a stable prefix may hold, or remove `encoding`".to_string()),
            );
            None
        }
        (Some(tokens), Some(encoding)) => match encoding.get_ref().parse() {
            Ok(e) => Some((tokens, e)),
            Err(e) => {
                sink.error(
                    Some(encoding.span()),
                    format!("{e}"),
                    Some(ENCODINGS_HELP.to_string()),
                );
                None
            }
        },
    }
}

#[cfg(feature = "tokens")]
const ENCODINGS_HELP: &str =
    "add `encoding = \"o200k\"` (GPT-4o, GPT-4.1, GPT-5, the o series) or `encoding = \"cl100k\"` (GPT-4, GPT-3.5)";

/// Without the `tokens` feature the macro (and the tool) has no tokenizer: `[budget] tokens` (or
/// `encoding`) is an error that says how to get one, never a silently unchecked ceiling.
fn tokens_unavailable(budget: &crate::raw::Budget, sink: &mut Sink<'_>) {
    let span = match (&budget.tokens, &budget.encoding) {
        (Some(t), _) => t.span(),
        (None, Some(e)) => e.span(),
        (None, None) => return,
    };
    sink.error(
        Some(span),
        "`[budget] tokens` counts with OpenAI's tokenizer, which the `doctrine!` macro and `cargo doctrine` link only with their `tokens` feature",
        Some(
            "enable it: `doctrine-prompt = { version = \"0.1\", features = [\"tokens\"] }` (it builds the tokenizer's tables into the macro), `cargo install --path cargo-doctrine --features tokens` for the tool; or cap bytes with `stable_bytes`"
                .to_string(),
        ),
    );
}

/// A role's stable prefix as the compiler knows it: its stable layers in scope, each at
/// its largest text, joined by the separator.
struct Prefix<'a> {
    names: &'a Names<'a>,
    layers: &'a [(Spanned<()>, Layer)],
    loader: &'a Loader,
    separator: &'a str,
}

impl<'a> Prefix<'a> {
    /// The prefix's size for role `r` by `measure` (bytes or tokens), with each non-empty
    /// layer's: every layer at its largest text by that measure.
    fn measured(
        &self,
        r: RoleId,
        measure: impl Fn(&str) -> usize,
    ) -> (usize, Vec<(&'a str, usize)>) {
        let texts: Vec<(&str, String)> = self
            .layers
            .iter()
            .map(|(_, l)| l)
            .filter(|l| l.tier == Stability::Stable && l.in_scope(r))
            .map(|l| {
                (
                    l.name.as_str(),
                    largest(l, r, self.loader, self.names, &measure),
                )
            })
            .filter(|(_, t)| !t.is_empty())
            .collect();
        let joined: Vec<&str> = texts.iter().map(|(_, t)| t.as_str()).collect();
        let total = measure(&joined.join(self.separator));
        (total, texts.iter().map(|(n, t)| (*n, measure(t))).collect())
    }
}

/// Whose prefix is measured, for the error when it is over its ceiling.
struct Over<'a> {
    whose: &'a str,
    names: &'a Names<'a>,
}

impl Over<'_> {
    /// Reports a prefix of `total` (with its layers' `sizes`) over `ceiling`, at the
    /// ceiling, with the largest layers; `size` writes the total as the message gives it
    /// (`58 bytes (~15 tokens)`).
    fn check(
        &self,
        (total, mut sizes): (usize, Vec<(&str, usize)>),
        ceiling: &Spanned<usize>,
        unit: &str,
        size: impl Fn(usize) -> String,
        sink: &mut Sink<'_>,
    ) {
        if total <= *ceiling.get_ref() {
            return;
        }
        sizes.sort_by_key(|s| std::cmp::Reverse(s.1));
        let largest: Vec<String> = sizes
            .iter()
            .take(3)
            .map(|(n, b)| format!("`{n}` {b} {unit}"))
            .collect();
        sink.error(
            Some(ceiling.span()),
            format!(
                "the stable prefix of {} is {} of compiled text, over its budget of {} {unit}",
                self.whose,
                size(total),
                ceiling.get_ref(),
            ),
            Some(format!(
                "largest layers: {}; trim them, scope some to fewer {}s, or raise the budget",
                largest.join(", "),
                self.names.word
            )),
        );
    }
}

/// The largest text segments can print by `measure`: knobs at their largest value, facts
/// empty.
fn segments_largest(
    segments: &[Segment],
    names: &Names<'_>,
    measure: &dyn Fn(&str) -> usize,
) -> String {
    segments
        .iter()
        .map(|s| match s {
            Segment::Lit(t) => t.as_str(),
            Segment::Knob(k) => {
                let knob = &names.knobs[*k];
                (0..knob.values.len())
                    .map(|i| knob.printed(i))
                    .max_by_key(|v| measure(v))
                    .unwrap_or("")
            }
            // Every section counted as printed: the ceiling is on the largest text.
            Segment::Fact(_)
            | Segment::Html(_)
            | Segment::If { .. }
            | Segment::IfCount { .. }
            | Segment::When { .. }
            | Segment::Loop { .. } => "",
        })
        .collect()
}

/// The largest text (by `measure`) layer `l` can contribute for role `r` with every
/// runtime value empty: its largest variant and suffix, its header and wrapper, in the
/// widest delimiters any formulation puts around a titled layer; empty when the layer
/// would be.
fn largest(
    l: &Layer,
    r: RoleId,
    loader: &Loader,
    names: &Names<'_>,
    measure: &dyn Fn(&str) -> usize,
) -> String {
    let text = |id: TextId| {
        let t = &loader.texts[id];
        t.segments.as_ref().map_or_else(
            || t.body.to_string(),
            |segs| segments_largest(segs, names, measure),
        )
    };
    let mut body = match &l.content {
        Content::PerRole(groups) => groups
            .iter()
            .find(|g| g.roles.contains(&r) || names.roles.is_empty())
            .map_or_else(String::new, |g| text(g.text)),
        Content::Choice { variants, .. } => variants
            .iter()
            .map(|c| text(c.text))
            .max_by_key(|t| measure(t))
            .unwrap_or_default(),
        Content::Slot { .. } | Content::Instructions => String::new(),
    };
    if let Some(s) = l
        .suffix
        .as_ref()
        .filter(|s| s.roles.as_ref().is_none_or(|rs| rs.contains(&r)))
    {
        body.push_str(&s.separator);
        body.push_str(&segments_largest(&s.segments, names, measure));
    }
    // Inside its title's delimiters: its header, then its wrapper around the text.
    if !body.is_empty() {
        if let Some(w) = l.info.wrap {
            body = format!("{}{body}{}", w.open, w.close);
        }
        if let Some(h) = &l.header {
            body.insert_str(0, &segments_largest(&h.segments, names, measure));
        }
    }
    match &l.title {
        Some(t) if !body.is_empty() => {
            let (heading, open, close) = crate::names::title_delimiters(t);
            let headed = format!("{heading}{body}");
            let tagged = format!("{open}{body}{close}");
            std::cmp::max_by_key(tagged, headed, |t| measure(t))
        }
        _ => body,
    }
}

/// Role `r`'s ceiling: its `per_role` entry, else `stable_bytes`.
fn ceiling<'b>(
    budget: &'b crate::raw::Budget,
    names: &Names<'_>,
    r: RoleId,
) -> Option<&'b Spanned<usize>> {
    let who = names.roles.get(r.0);
    who.and_then(|w| budget.per_role.iter().find(|(k, _)| k.get_ref() == w))
        .map(|(_, v)| v)
        .or(budget.stable_bytes.as_ref())
}

/// Every role's ceiling, for the generated code.
pub(super) fn ceilings(budget: &Budget, names: &Names<'_>) -> Vec<Option<usize>> {
    RoleId::all(names.roles.len())
        .map(|r| ceiling(budget, names, r).map(|c| *c.get_ref()))
        .collect()
}

thread_local! {
    /// Set by [`without_token_counts`]: this thread checks manifests as a build without the
    /// `tokens` feature does.
    static WITHOUT_TOKENS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether `[budget] tokens` is counted here: the `tokens` feature is on, and no test has
/// asked for a build without it.
#[cfg(feature = "tokens")]
fn counts_tokens() -> bool {
    !WITHOUT_TOKENS.with(|w| w.get())
}

/// `f` run as a build without the `tokens` feature would run it: `[budget] tokens` refused,
/// naming the feature. So the tests pin both builds' diagnostics from one build (a second
/// build of the generator without the feature cost the tests a minute). Not API.
pub fn without_token_counts<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the thread back as it was, even if `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            WITHOUT_TOKENS.with(|w| w.set(self.0));
        }
    }
    let _restore = Restore(WITHOUT_TOKENS.with(|w| w.replace(true)));
    f()
}

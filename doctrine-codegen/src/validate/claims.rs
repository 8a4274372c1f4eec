//! `claims` on a locked layer: words it adds to the safety-claims tripwire. Each entry must
//! be able to match; a key on a layer that is not locked, or in a manifest without an
//! instructions layer (whose generated `safety_claims` is what reads them), is an error.

use toml::Spanned;

use crate::diag::Sink;
use crate::model::Claims;
use crate::raw::Manifest;
use doctrine_claims::{normalise, sentences, Words};

/// Why a manifest's `claims` entry could never match, if so: nothing left once normalised,
/// a sentence end inside it, or, for a word entry (`words`: verbs, objects, actions),
/// punctuation that splits words. A tripwire sees one sentence at a time, split into words
/// as [`Words`] splits it.
fn entry_problem(entry: &str, words: bool) -> Option<String> {
    let normalised = normalise(entry);
    if normalised.is_empty() {
        return Some(match entry.trim().is_empty() {
            true => "is empty".into(),
            false => "is empty once normalised (case, markdown emphasis and invisible characters do not count)".into(),
        });
    }
    let mut split = sentences(entry);
    if split.next() != Some(entry.trim()) || split.next().is_some() {
        return Some(
            "spans a sentence end (`.`, `!` or `?` before a space or at the end, or a line break); \
             text is matched a sentence at a time, so it would never match"
                .into(),
        );
    }
    if words {
        let w = Words::of(&normalised);
        let joined = (0..w.len())
            .map(|i| w.word(i))
            .collect::<Vec<_>>()
            .join(" ");
        if joined != normalised {
            return Some(format!(
                "is not a run of words: verbs, objects and actions match word by word (letters, \
                 digits and `'`, `-`, `/`, `~`, `$`, `.`), and `{normalised}` reads as `{joined}`"
            ));
        }
    }
    None
}

pub(super) fn claims(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<Claims> {
    let instructions = raw.layers.iter().any(|l| {
        let l = l.get_ref();
        l.instructions.as_ref().is_some_and(|i| *i.get_ref())
    });
    let mut found = Vec::new();
    for layer in &raw.layers {
        let layer = layer.get_ref();
        let Some(claims) = &layer.claims else {
            continue;
        };
        let name = layer.name.get_ref();
        if !layer.locked.as_ref().is_some_and(|l| *l.get_ref()) {
            sink.error(
                Some(claims.span()),
                format!("`claims` on layer `{name}`, which is not locked"),
                Some(format!(
                    "add `locked = true` to layer `{name}`, or move `claims` to the locked layer whose rules these words protect"
                )),
            );
            continue;
        }
        if !instructions {
            sink.error(
                Some(claims.span()),
                format!("`claims` on layer `{name}`, but the manifest has no instructions layer"),
                Some("the generated `safety_claims` that reads these words checks an instructions layer's instructions: add a layer with `instructions = true`, or remove `claims`".into()),
            );
            continue;
        }
        let c = claims.get_ref();
        let lists = [
            ("verbs", &c.verbs, true),
            ("objects", &c.objects, true),
            ("actions", &c.actions, true),
            ("phrases", &c.phrases, false),
        ];
        if lists.iter().all(|(_, list, _)| list.is_empty()) {
            sink.error(
                Some(claims.span()),
                format!("the claims of layer `{name}` list no words"),
                Some("give at least one of `verbs`, `objects`, `actions` or `phrases`, or remove `claims`".into()),
            );
            continue;
        }
        let mut checked = |key: &str, list: &[Spanned<String>], words: bool| -> Vec<String> {
            for entry in list {
                if let Some(problem) = entry_problem(entry.get_ref(), words) {
                    sink.error(
                        Some(entry.span()),
                        format!(
                            "`claims.{key}` entry {:?} of layer `{name}` {problem}",
                            entry.get_ref()
                        ),
                        Some(match words {
                            true => "write whole words separated by spaces, or put text with other punctuation in `phrases`".into(),
                            false => "write the words the sentence would contain, without a sentence end, or remove the entry".into(),
                        }),
                    );
                }
            }
            list.iter().map(|e| normalise(e.get_ref())).collect()
        };
        let [verbs, objects, actions, phrases] =
            lists.map(|(key, list, words)| checked(key, list, words));
        found.push(Claims {
            layer: name.clone(),
            verbs,
            objects,
            actions,
            phrases,
        });
    }
    found
}

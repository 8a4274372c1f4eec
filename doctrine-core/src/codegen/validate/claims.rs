//! `claims` on a locked layer: words it adds to the safety-claims tripwire. Each entry must
//! be able to match; a key on a layer that is not locked is an error.

use toml::Spanned;

use crate::codegen::diag::Sink;
use crate::codegen::model::Claims;
use crate::codegen::raw::Manifest;
use crate::runtime::safety::{entry_problem, normalise};

pub(super) fn claims(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<Claims> {
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

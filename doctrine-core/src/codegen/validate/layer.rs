//! One `[[layer]]` table → [`Layer`]: scope, gate, shape, content, overlay, suffix, tier.

use crate::Tier;
use toml::Spanned;

use super::kind::Kind;
use super::{content, facts, gate, overlay, provenance, selector, suffix, Names};
use crate::codegen::diag::Sink;
use crate::codegen::load::{Loader, Shape};
use crate::codegen::model::LayerSpans;
use crate::codegen::model::{Content, Layer, RoleId};
use crate::codegen::raw;
use crate::codegen::reserved;

pub(super) fn validate_layer(
    raw: &raw::Layer,
    names: &Names<'_>,
    trim_default: bool,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Layer> {
    let before = sink.count();
    let name = raw.name.get_ref().clone();

    let scope = match &raw.roles {
        Some(list) if list.get_ref().is_empty() => {
            sink.error(
                Some(list.span()),
                format!("layer `{name}` is scoped to no roles"),
                Some("list the roles it applies to, or remove `roles` to apply it to all".into()),
            );
            None
        }
        Some(list) => names.roles(list.get_ref(), sink),
        None => None,
    };
    let in_scope: Vec<RoleId> = RoleId::all(names.roles.len())
        .filter(|r| scope.as_ref().is_none_or(|s| s.contains(r)))
        .collect();

    let gate::Gates {
        when,
        unless,
        when_any,
        unless_any,
    } = gate::gates(raw, names, sink);

    let shape = Shape {
        strip_frontmatter: raw
            .frontmatter
            .as_ref()
            .is_some_and(|f| *f.get_ref() == raw::Frontmatter::Strip),
        trim: raw.trim.unwrap_or(trim_default),
        interpolate: raw.interpolate.as_ref().is_some_and(|i| *i.get_ref()),
    };

    let given = Kind::given(raw);
    let [kind] = given[..] else {
        let keys: Vec<&str> = given.iter().map(|k| k.key()).collect();
        sink.error(
            Some(raw.name.span()),
            match keys.len() {
                0 => format!("layer `{name}` has no content"),
                _ => format!(
                    "layer `{name}` has more than one content key: {}",
                    keys.join(", ")
                ),
            },
            Some("give exactly one of `file`, `files`, `text`, `texts`, `dir`, `slot` or `instructions = true`".into()),
        );
        return None;
    };
    let provenance = provenance::provenance(raw, kind, sink);
    let not_for = |sink: &mut Sink<'_>, key: &str, span: std::ops::Range<usize>| {
        sink.error(
            Some(span),
            format!("`{key}` does not apply to a `{}` layer", kind.key()),
            Some(format!("remove `{key}` from layer `{name}`")),
        );
    };
    if !matches!(kind, Kind::Dir(_)) {
        if let Some(c) = &raw.choice {
            not_for(sink, "choice", c.span());
        }
        if let Some(r) = &raw.rename {
            not_for(sink, "rename", r.span());
        }
        if let Some(o) = &raw.optional {
            not_for(sink, "optional", o.span());
        }
    }
    let is_pattern = matches!(kind, Kind::File(f) if names.is_pattern(f.get_ref()));
    if !is_pattern && !matches!(kind, Kind::Files(_) | Kind::Texts(_)) {
        if let Some(m) = &raw.missing {
            sink.error(
                Some(m.span()),
                format!(
                    "`missing` applies to a `file` with a `{{{}}}` pattern, `files` or `texts`",
                    names.word
                ),
                Some(format!("remove `missing` from layer `{name}`")),
            );
        }
    }
    if !matches!(kind, Kind::File(_) | Kind::Files(_) | Kind::Dir(_)) {
        if let Some(f) = &raw.frontmatter {
            not_for(sink, "frontmatter", f.span());
        }
    }

    if kind.is_runtime() && reserved::method_clash(name.as_str()) {
        sink.error(
            Some(raw.name.span()),
            format!("slot layer `{name}` would clash with the builder's own `.{name}()` method"),
            Some(format!(
                "rename the layer; these names are taken: {}",
                reserved::builder_methods().join(", ")
            )),
        );
    }
    // A `dir` layer is a parameter of `compose`, beside the role (or the facts).
    let taken = (name == names.word && !names.roles.is_empty())
        || (name == "facts" && !names.facts.is_empty());
    if matches!(kind, Kind::Dir(_)) && taken {
        sink.error(
            Some(raw.name.span()),
            format!(
                "a `dir` layer named `{name}` would clash with the `{name}` parameter of `compose`"
            ),
            Some("rename the layer, e.g. `persona`".into()),
        );
    }
    if raw.trim.is_some() && kind.is_runtime() {
        not_for(sink, "trim", raw.name.span());
    }
    // A content error (a missing file, say) does not hide the layer's other errors: the
    // checks below run on the content keys, and the layer is dropped at the end.
    let resolved = content::resolve(raw, kind, names, &in_scope, shape, loader, sink);
    let content_failed = resolved.is_none();
    let content = resolved.unwrap_or(Content::Slot {
        required: false,
        trim: false,
    });
    // `missing = "empty"` on `files`/`texts`: the roles given no entry are out of scope.
    let (scope, in_scope) = narrowed(&content, scope, in_scope);

    let locked = raw.locked.as_ref().is_some_and(|l| *l.get_ref());
    let is_slot = kind.is_runtime();
    let overlay = overlay::overlay(raw, locked, is_slot, loader, sink);
    let selector = selector::selector(raw, kind, locked, sink);
    let title = raw.title.as_ref().map(|t| {
        if t.get_ref().contains(['\n', '\r']) {
            sink.error(Some(t.span()), "a title is one line", Some("remove the line break".into()));
        } else if crate::codegen::names::tag(t.get_ref()).is_none() {
            sink.error(
                Some(t.span()),
                format!("title `{}` has no letter to name a section tag with", t.get_ref()),
                Some("a title starts with a letter, e.g. `title = \"Tool policy\"` (tag `tool_policy`)".into()),
            );
        }
        t.get_ref().clone()
    });

    let suffix = raw.suffix.as_ref().and_then(|s| {
        if !kind.is_text() {
            not_for(sink, "suffix", s.span());
            return None;
        }
        suffix::suffix(s.get_ref(), names, &in_scope, sink)
    });

    let tier = raw
        .tier
        .as_ref()
        .map_or(Tier::Stable, |t| (*t.get_ref()).into());
    let layer = Layer {
        name,
        tier,
        when,
        unless,
        when_any,
        unless_any,
        scope,
        content,
        trim: shape.trim,
        locked,
        overlay,
        suffix,
        title,
        at: LayerSpans {
            name: raw.name.span(),
            overlay_file: raw.overlay_file.as_ref().map(Spanned::span),
        },
        provenance,
        selector,
    };
    if content_failed {
        return None;
    }
    facts::check_layer(raw, &layer, names, loader, sink);
    if sink.count() > before {
        return None;
    }
    Some(layer)
}

/// The scope of a per-role layer that covers fewer roles than it was given (`missing =
/// "empty"` left some without an entry): those roles are out of scope.
fn narrowed(
    content: &Content,
    scope: Option<Vec<RoleId>>,
    in_scope: Vec<RoleId>,
) -> (Option<Vec<RoleId>>, Vec<RoleId>) {
    let Content::PerRole(groups) = content else {
        return (scope, in_scope);
    };
    let mut covered: Vec<RoleId> = groups.iter().flat_map(|g| g.roles.clone()).collect();
    if covered.len() == in_scope.len() {
        return (scope, in_scope);
    }
    covered.sort();
    (Some(covered.clone()), covered)
}

//! `[[layer]]` tables → [`Layer`]s: each one's scope, gate, shape, content, overlay, suffix and
//! tier, the names the layers take together, a manifest without layers, and the `extra` layer.

use std::collections::HashSet;

use doctrine_core::__internals::part::Trim;
use doctrine_core::introspect::{LayerInfo, Stability};
use toml::Spanned;

use super::idents::check_ident;
use super::kind::Kind;
use super::literal::{self, Printed};
use super::names::Names;
use super::types::TypeNames;
use super::{content, gate, overlay, provenance, selector, suffix, uses};
use crate::diag::{Reported, Sink};
use crate::load::{Loader, Shape};
use crate::model::LayerSpans;
use crate::model::{Content, Layer, RoleId};
use crate::raw;
use crate::reserved;

/// Every `[[layer]]`, in manifest order: its name, then the layer, then the names it
/// takes in `Overlay` and among the generated types. A duplicate or a layer with an error
/// is left out (reported).
pub(super) fn layers(
    raw: &raw::Manifest,
    names: &Names<'_>,
    trim_default: Trim,
    types: &mut TypeNames,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Vec<(Spanned<()>, Layer)> {
    let mut layers = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut overlay_fields: HashSet<String> = HashSet::new();
    for spanned in &raw.layers {
        let layer = spanned.get_ref();
        let name = layer.name.get_ref();
        let what = "constants and builder methods";
        check_ident(sink, layer.name.span(), "layer name", name, what);
        if !seen.insert(name) {
            sink.error(
                Some(layer.name.span()),
                format!("duplicate layer `{name}`"),
                Some("each `[[layer]]` needs a distinct `name`; rename or remove this one".into()),
            );
            continue;
        }
        let Some(l) = validate_layer(layer, names, trim_default, loader, sink) else {
            continue;
        };
        if let Some(o) = &l.overlay {
            let span = layer.overlay_field.as_ref().unwrap_or(&layer.name).span();
            overlay::claim_fields(o, span, &mut overlay_fields, sink);
        }
        if let Content::Choice { enum_name, .. } = &l.content {
            let span = layer.choice.as_ref().unwrap_or(&layer.name).span();
            types.claim(enum_name, &format!("layer `{name}`"), Some(span), sink);
        }
        layers.push((Spanned::new(spanned.span(), ()), l));
    }
    layers
}

/// A manifest without layers, when nothing else is wrong: a misspelt `[[layers]]` is
/// reported as an unknown key, and a layer that did not read was reported.
pub(super) fn no_layers(raw: &raw::Manifest, reported: &Reported, sink: &mut Sink<'_>) {
    if raw.layers.is_empty() && reported.layers.is_empty() && !sink.has_errors() {
        sink.error(
            Some(0..0),
            "the manifest declares no layers",
            Some("add at least one `[[layer]]` table with a `name` and its content (`file`, `files`, `text`, `texts`, `dir` or `slot`)".into()),
        );
    }
}

/// `extra = true`: the caller's free-form text, an optional volatile slot that is always
/// the very last layer.
pub(super) fn extra(
    raw: &raw::Manifest,
    trim_default: Trim,
    tiers: &crate::model::Tiers,
    sink: &mut Sink<'_>,
) -> Option<(Spanned<()>, Layer)> {
    let extra = raw.extra.as_ref().filter(|e| *e.get_ref())?;
    if raw
        .layers
        .iter()
        .any(|l| l.get_ref().name.get_ref() == "extra")
    {
        sink.error(
            Some(extra.span()),
            "`extra = true` adds a layer named `extra`, and the manifest already has one",
            Some("rename that layer, or drop `extra = true` and keep your own".into()),
        );
    }
    let layer = Layer {
        name: "extra".into(),
        info: LayerInfo::named("extra"),
        tier: Stability::Volatile,
        tier_index: tiers.last(),
        when: Vec::new(),
        unless: Vec::new(),
        when_any: Vec::new(),
        unless_any: Vec::new(),
        scope: None,
        content: Content::Slot {
            required: false,
            trim: trim_default,
        },
        trim: trim_default,
        locked: false,
        overlay: None,
        suffix: None,
        title: None,
        at: LayerSpans {
            name: extra.span(),
            overlay_file: None,
        },
        provenance: None,
        selector: None,
        header: None,
    };
    Some((Spanned::new(extra.span(), ()), layer))
}

/// One layer, or `None` when anything in it is wrong (reported): every key is checked,
/// so a content error (a missing file, say) does not hide the layer's other errors.
pub(super) fn validate_layer(
    raw: &raw::Layer,
    names: &Names<'_>,
    trim_default: Trim,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Layer> {
    let before = sink.count();
    let (scope, in_scope) = scope(raw, names, sink);
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
    let kind = kind(raw, sink)?;
    let provenance = provenance::provenance(raw, kind, names, sink);
    keys_apply(raw, kind, names, sink);
    check_name(raw, kind, names, sink);
    if raw.trim.is_some() && kind.is_runtime() {
        not_for(sink, raw, kind, "trim", raw.name.span());
    }
    let resolved = content::resolve(raw, kind, names, &in_scope, shape, loader, sink);
    let content_failed = resolved.is_none();
    let content = resolved.unwrap_or(Content::Slot {
        required: false,
        trim: Trim::No,
    });
    // `missing = "empty"` on `files`/`texts`: the roles given no entry are out of scope.
    let (scope, in_scope) = narrowed(&content, scope, in_scope);
    let locked = raw.locked.as_ref().is_some_and(|l| *l.get_ref());
    super::locked::runtime(raw, kind, sink);
    let overlay = overlay::overlay(raw, locked, kind.is_runtime(), loader, sink);
    let selector = selector::selector(raw, kind, locked, sink);
    let title = title(raw, names, sink);
    if let Some(separator) = &raw.overlay_separator {
        let printed = Printed {
            key: "overlay separator",
            layer: Some(raw.name.get_ref()),
        };
        literal::check(printed, separator, names, sink);
    }
    let suffix = raw.suffix.as_ref().and_then(|s| {
        if !kind.is_text() {
            not_for(sink, raw, kind, "suffix", s.span());
            return None;
        }
        suffix::suffix(s.get_ref(), names, &in_scope, sink)
    });
    let tier_index = match &raw.tier {
        Some(t) => super::tiers::resolve(names.tiers, t, sink).unwrap_or(0),
        None => 0,
    };
    let mut info = LayerInfo::named(crate::plan::interned(raw.name.get_ref()));
    info.note = note(raw, sink);
    info.join = join_before(raw, names, sink);
    info.wrap = super::wrap::wrap(raw, names, sink);
    let mut layer = Layer {
        name: raw.name.get_ref().clone(),
        info,
        tier: names.tiers.split(tier_index),
        tier_index,
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
        header: None,
    };
    if content_failed {
        return None;
    }
    uses::check_layer(raw, &layer, names, loader, sink);
    layer.header = super::header::header(raw, &layer, &in_scope, names, sink);
    (sink.count() == before).then_some(layer)
}

/// `roles` (or `modes`): the roles the layer applies to (`None`: every one), and the roles
/// in scope.
fn scope(
    raw: &raw::Layer,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> (Option<Vec<RoleId>>, Vec<RoleId>) {
    let scope = match &raw.roles {
        Some(list) if list.get_ref().is_empty() => {
            sink.error(
                Some(list.span()),
                format!("layer `{}` is scoped to no roles", raw.name.get_ref()),
                Some("list the roles it applies to, or remove `roles` to apply it to all".into()),
            );
            None
        }
        Some(list) => names.roles(list.get_ref(), sink),
        None => None,
    };
    let in_scope = RoleId::all(names.roles.len())
        .filter(|r| scope.as_ref().is_none_or(|s| s.contains(r)))
        .collect();
    (scope, in_scope)
}

/// The layer's one content key.
fn kind<'r>(raw: &'r raw::Layer, sink: &mut Sink<'_>) -> Option<Kind<'r>> {
    let given = Kind::given(raw);
    if let [kind] = given[..] {
        return Some(kind);
    }
    let name = raw.name.get_ref();
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
    None
}

fn not_for(
    sink: &mut Sink<'_>,
    raw: &raw::Layer,
    kind: Kind<'_>,
    key: &str,
    span: std::ops::Range<usize>,
) {
    sink.error(
        Some(span),
        format!("`{key}` does not apply to a `{}` layer", kind.key()),
        Some(format!(
            "remove `{key}` from layer `{}`",
            raw.name.get_ref()
        )),
    );
}

/// Keys that apply to some content keys only: `choice`, `rename` and `optional` to `dir`,
/// `missing` to patterns, `files` and `texts`, `frontmatter` to files.
fn keys_apply(raw: &raw::Layer, kind: Kind<'_>, names: &Names<'_>, sink: &mut Sink<'_>) {
    if !matches!(kind, Kind::Dir(_)) {
        if let Some(c) = &raw.choice {
            not_for(sink, raw, kind, "choice", c.span());
        }
        if let Some(r) = &raw.rename {
            not_for(sink, raw, kind, "rename", r.span());
        }
        if let Some(o) = &raw.optional {
            not_for(sink, raw, kind, "optional", o.span());
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
                Some(format!(
                    "remove `missing` from layer `{}`",
                    raw.name.get_ref()
                )),
            );
        }
    }
    if !matches!(kind, Kind::File(_) | Kind::Files(_) | Kind::Dir(_)) {
        if let Some(f) = &raw.frontmatter {
            not_for(sink, raw, kind, "frontmatter", f.span());
        }
    }
}

/// A slot names a builder method, and a `dir` layer a parameter of `compose` beside the
/// role (or the facts): neither may take a name already taken.
fn check_name(raw: &raw::Layer, kind: Kind<'_>, names: &Names<'_>, sink: &mut Sink<'_>) {
    let name = raw.name.get_ref();
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
}

/// `title`: one line, with a letter to name the section's tag, printed as written.
/// `join_before`: printed as written, in place of the separator.
fn join_before(raw: &raw::Layer, names: &Names<'_>, sink: &mut Sink<'_>) -> Option<&'static str> {
    let join = raw.join_before.as_ref()?;
    let printed = super::literal::Printed {
        key: "join_before",
        layer: Some(raw.name.get_ref()),
    };
    super::literal::check(printed, join, names, sink);
    Some(crate::plan::interned(join.get_ref()))
}

/// `note`: one line, shown beside the layer in `explain()`, never in the prompt.
fn note(raw: &raw::Layer, sink: &mut Sink<'_>) -> Option<&'static str> {
    let note = raw.note.as_ref()?;
    if note.get_ref().contains(['\n', '\r']) {
        sink.error(
            Some(note.span()),
            format!(
                "the note of layer `{}` is more than one line",
                raw.name.get_ref()
            ),
            Some(
                "a note is one line beside the layer in `explain()`: put the rest in a comment"
                    .into(),
            ),
        );
        return None;
    }
    Some(crate::plan::interned(note.get_ref()))
}

fn title(raw: &raw::Layer, names: &Names<'_>, sink: &mut Sink<'_>) -> Option<String> {
    let t = raw.title.as_ref()?;
    let printed = Printed {
        key: "title",
        layer: Some(raw.name.get_ref()),
    };
    literal::check(printed, t, names, sink);
    if t.get_ref().contains(['\n', '\r']) {
        sink.error(
            Some(t.span()),
            "a title is one line",
            Some("remove the line break".into()),
        );
    } else if crate::names::tag(t.get_ref()).is_none() {
        sink.error(
            Some(t.span()),
            format!(
                "title `{}` has no letter to name a section tag with",
                t.get_ref()
            ),
            Some(
                "a title starts with a letter, e.g. `title = \"Tool policy\"` (tag `tool_policy`)"
                    .into(),
            ),
        );
    }
    Some(t.get_ref().clone())
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

//! The overlay loader's `OverlaySpec` as data: what generated `Overlay::SPEC` holds, so a
//! tool reads a user's overlay directory with the runtime's own loader, under the same
//! policy (caps, ignored versions, `empty = "off"`) and with locked layers unreachable.

use super::leak::{one, slice, text};
use crate::model::{Doctrine, Layer, Need, Overlay};
use doctrine_load::__internals::overlay::{OverlayFile, OverlaySpec, ShippedVersion};
use doctrine_load::__private::{NameKind, SelectorSpec, TemplateName, TemplateSpec};

/// Manifest `d`'s overlay spec: the files with a field in manifest order (as `Overlay`'s
/// fields and the plan's overlay indices count them), then the selector layers' files;
/// the locked layers; the layers neither locked nor overridable.
pub fn overlay_spec(d: &Doctrine) -> &'static OverlaySpec {
    let overlaid = || {
        d.layers
            .iter()
            .filter_map(|l| l.overlay.as_ref().map(|o| (l, o)))
    };
    let fields = overlaid().filter(|(l, _)| l.selector.is_none());
    let selected = overlaid().filter(|(l, _)| l.selector.is_some());
    let files = fields.chain(selected).map(|(l, o)| file(d, l, o)).collect();
    let names = |keep: fn(&Layer) -> bool| {
        let names = d.layers.iter().filter(|l| keep(l)).map(|l| text(&l.name));
        slice(names.collect())
    };
    one(OverlaySpec {
        files: slice(files),
        locked: names(|l| l.locked),
        fixed: names(|l| !l.locked && l.overlay.is_none()),
    })
}

/// Manifest `d`'s selectors as generated `Selectors::SPECS` holds them, in manifest order:
/// each one's name, the selector it follows, its layer's file and policy.
pub fn selector_specs(d: &Doctrine) -> &'static [SelectorSpec] {
    let specs = d.selectors().map(|(l, s)| SelectorSpec {
        name: text(&s.name),
        follows: s.follows,
        file: match &l.overlay {
            Some(o) => file(d, l, o),
            // Not reached: validation gives every selector layer its file (as generated).
            None => OverlayFile::of_selector("", text(&l.name)).capped(0),
        },
    });
    slice(specs.collect())
}

/// Layer `l`'s file, as generated code's `OverlayFile::new(…)` (or `of_selector`) with its
/// policy spells it.
fn file(d: &Doctrine, l: &Layer, o: &Overlay) -> OverlayFile {
    let (file, layer) = (text(&o.file), text(&l.name));
    let mut f = match l.selector {
        Some(_) => OverlayFile::of_selector(file, layer),
        None => OverlayFile::new(file, layer),
    }
    .capped(o.cap);
    if o.refuse_oversize {
        f = f.refusing_oversize();
    }
    if !o.ignore.is_empty() {
        let ignore = o
            .ignore
            .iter()
            .map(|&(size, fingerprint)| ShippedVersion { size, fingerprint });
        f = f.ignoring(slice(ignore.collect()));
    }
    if o.empty_off {
        f = f.empty_off();
    }
    if let Some(spec) = template_spec(d, l) {
        f = f.interpolating(one(spec));
    }
    f.sanitizing(d.sanitize)
}

/// What layer `l`'s overlay template may use (`overlay_interpolate`), if its overlay is
/// one: each fact every role of the layer takes (the skill index aside: it holds user
/// text of its own), each knob, and the flags, with the value each prints or is tested
/// by.
pub fn template_spec(d: &Doctrine, l: &Layer) -> Option<TemplateSpec> {
    let o = l.overlay.as_ref()?;
    let t = o.template?;
    let roles: Vec<usize> = (0..d.roles.len().max(1))
        .filter(|&r| l.in_scope(crate::model::RoleId(r)))
        .collect();
    let taken = |need: &[Need]| roles.iter().all(|&r| need.get(r) != Some(&Need::Absent));
    let facts = d
        .facts
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.skill_index && taken(&f.need));
    let mut names: Vec<TemplateName> = facts
        .map(|(i, f)| TemplateName {
            name: text(&f.name),
            value: i as u32,
            kind: match f.list {
                Some(_) => NameKind::List,
                None => NameKind::Text,
            },
            later: f.tier_index > l.tier_index,
            values: closed_set(f),
        })
        .collect();
    let base = d.facts.len();
    let knobs = d.knobs.iter().enumerate().map(|(k, knob)| TemplateName {
        name: text(&knob.name),
        value: (base + k) as u32,
        kind: NameKind::Knob,
        later: false,
        values: &[],
    });
    names.extend(knobs);
    // Flags are values only where a text tests one; a template makes them so.
    let base = base + d.knobs.len();
    let flags = d.flags.iter().enumerate().map(|(k, flag)| TemplateName {
        name: text(&flag.name),
        value: (base + k) as u32,
        kind: NameKind::Flag,
        later: false,
        values: &[],
    });
    names.extend(flags);
    Some(TemplateSpec {
        layer: text(&l.name),
        file: text(&o.file),
        names: slice(names),
        dialect: t.dialect,
        jinja: t.jinja,
    })
}

/// A fact's closed set as a user's template compares it: each value and the text it prints.
fn closed_set(f: &crate::model::Fact) -> &'static [(&'static str, &'static str)] {
    let Some((_, values)) = &f.values else {
        return &[];
    };
    fn printed<'a>(texts: &'a Option<Vec<(String, String)>>, v: &'a str) -> &'a str {
        let found = texts.iter().flatten().find(|(k, _)| k == v);
        found.map_or(v, |(_, t)| t.as_str())
    }
    slice(
        values
            .iter()
            .map(|v| (text(v), text(printed(&f.texts, v))))
            .collect(),
    )
}

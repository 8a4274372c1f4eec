//! A validated manifest's composition as data: the runtime's `LayerPlan`s, built from the
//! model once. The code generator prints this plan as generated code's `static PLAN`, and a
//! tool that loads a manifest at run time composes with the very same values through the
//! runtime's one routine, so the two cannot drift. Every decision (indices, gates, skip
//! reasons, suffix texts, overlay and selector plans, instruction styles, template
//! segments, which texts are templates and trimmed) is made here; the printer only
//! writes it out. The plan is `'static` data (see `leak` for why and what it costs).

mod gate;
mod indices;
mod leak;
mod list_style;
mod overlay_spec;
mod strict;
mod suffix;

pub(crate) use gate::alternatives;
pub use indices::Indices;
pub use list_style::{list_style, loop_styles};
pub use strict::request_message;

/// `s` for `'static`, interned (for a record that names a fact or a layer).
pub fn static_text(s: &str) -> &'static str {
    leak::text(s)
}
pub use overlay_spec::{overlay_spec, selector_specs, template_spec};

use leak::{one, slice, text};

/// `s` as the plan holds it: interned, so equal texts are one address (the printer names
/// a shipped text's constant by it).
pub(crate) fn interned(s: &str) -> &'static str {
    text(s)
}

/// `value` as the plan holds it: interned, one address per value.
pub(crate) fn shared<T: std::hash::Hash + Eq + Send + Sync + 'static>(value: T) -> &'static T {
    one(value)
}

use crate::model::{
    Content, Count, Doctrine, Guarding, Layer, LinePart, Override, RoleGroup, SectionOn, Segment,
    Step, TextId,
};
use doctrine_core::__internals::boundary::{tag_names, Guard};
use doctrine_core::__internals::part::{Check, Seg};
use doctrine_core::__internals::plan::{ContentPlan, LayerPlan, OverlayPlan, Shipped};
use doctrine_core::instructions::{LinePiece, Style};
use doctrine_core::introspect::{EmbeddedFile, Header, LayerInfo, Stability, Title};

/// A manifest's plan, with what names its parts in generated code.
#[derive(Debug)]
pub struct Plan {
    /// One per layer, in composition order: what the runtime's `compose_plan` reads.
    pub layers: &'static [LayerPlan],
    /// Per layer, the model's text behind each shipped text of its content, in order:
    /// generated code names them `text::X` and `sources::X`.
    pub shipped: Vec<Vec<TextId>>,
    /// Per model text: its segments, for a template (`text::X` then is that array).
    pub segments: Vec<Option<&'static [Seg]>>,
    /// Per model text: the file it was read from, with its provenance (`sources::X`).
    pub sources: Vec<Option<&'static EmbeddedFile>>,
    pub indices: Indices,
    /// What run-time text is guarded against: generated code's `GUARD`.
    pub guard: &'static Guard,
}

impl Plan {
    /// The same plan, its guard recording where each run-time piece lands
    /// (`Prompt::run_time_text`): what the prompt book draws.
    pub fn recording(mut self) -> Plan {
        self.guard = one(self.guard.recording());
        self
    }
}

/// The plan of manifest `d`.
pub fn build(d: &Doctrine) -> Plan {
    let indices = Indices::new(d);
    let segments: Vec<_> = d
        .texts
        .iter()
        .map(|t| t.segments.as_ref().map(|s| slice(segs(d, s))))
        .collect();
    let sources: Vec<_> = d
        .texts
        .iter()
        .map(|t| t.file.as_ref().map(|f| one(source(f))))
        .collect();
    let mut plan = Plan {
        layers: &[],
        shipped: Vec::new(),
        segments,
        sources,
        indices,
        guard: one(guard(d)),
    };
    let layers: Vec<LayerPlan> = d
        .layers
        .iter()
        .enumerate()
        .map(|(i, l)| layer(d, &mut plan, i, l))
        .collect();
    plan.layers = slice(layers);
    plan
}

/// The guard of manifest `d`: its section tags (each titled layer's) and its reminder
/// marker's tags, folded, sorted; its facts' names.
fn guard(d: &Doctrine) -> Guard {
    let titles = d.layers.iter().filter_map(|l| l.title.as_deref());
    let mut tags: Vec<String> = titles
        .filter_map(crate::names::tag)
        .map(|t| doctrine_load::__internals::text::fold(&t))
        .collect();
    if let Some(r) = &d.reminders {
        let fold = doctrine_load::__internals::text::fold;
        tags.extend(tag_names(&r.marker.0, fold).chain(tag_names(&r.marker.1, fold)));
    }
    let fold = doctrine_load::__internals::text::fold;
    let messages = d.layers.iter().filter_map(|l| l.info.message);
    for m in messages {
        tags.extend(tag_names(m.open, fold).chain(tag_names(m.close, fold)));
    }
    // A layer's wrapper, as a message's: text outside it may not write its tags either;
    // nor those of its header, a wrapper's text too.
    for w in d.layers.iter().filter_map(|l| l.info.wrap) {
        tags.extend(tag_names(w.open, fold).chain(tag_names(w.close, fold)));
    }
    for h in d.layers.iter().filter_map(|l| l.header.as_ref()) {
        let literal = h.segments.iter().filter_map(|s| match s {
            Segment::Lit(t) => Some(t.as_str()),
            _ => None,
        });
        tags.extend(literal.flat_map(|t| tag_names(t, fold)));
    }
    tags.sort();
    tags.dedup();
    let facts = d.facts.iter().map(|f| text(&f.name)).collect();
    let tags = slice(tags.iter().map(|t| text(t)).collect());
    let loops: Vec<&str> = d
        .loops()
        .iter()
        .map(|(f, _)| text(&d.facts[*f].name))
        .collect();
    let mut guard = Guard::new(tags, slice(facts)).folding(doctrine_load::__internals::text::fold);
    if d.joins_per_layer() {
        guard = guard.joined();
    }
    let lines = d.join_lines();
    if !lines.is_empty() {
        guard = guard.guarding_lines(slice(lines.iter().map(|l| text(l)).collect()));
    }
    // As generated code says it: only with loops.
    if !loops.is_empty() {
        guard = guard.looping(d.loop_base(), slice(loops));
    }
    let files: Vec<&str> = d.overlay_templates().map(|(_, o)| text(&o.file)).collect();
    if !files.is_empty() {
        guard = guard.templating(d.template_base(), slice(files));
    }
    match d.formulation.guard {
        Guarding::Off => guard.unguarded(),
        Guarding::Locked | Guarding::Everywhere => guard,
    }
}

fn layer(d: &Doctrine, plan: &mut Plan, i: usize, l: &Layer) -> LayerPlan {
    let ix = &plan.indices;
    let ids = shipped_ids(d, l);
    let texts = ids.iter().map(|&id| shipped(d, plan, l, id)).collect();
    let content = content(ix, i, l, slice(texts));
    plan.shipped.push(ids);
    let ix = &plan.indices;
    let mut layer = LayerPlan::of(info(d, i, l), content);
    if let Some(roles) = l.scope.as_ref().filter(|_| !d.roles.is_empty()) {
        layer = layer.scoped(slice(roles.iter().map(|r| r.0 as u32).collect()));
    }
    layer = layer.gated(gate::gate(d, ix, l));
    if let Some(s) = &l.suffix {
        layer = layer.suffixed(suffix::suffix(d, s));
    }
    if let (Some(field), Some(o)) = (ix.overlay[i], &l.overlay) {
        layer = layer.overridden(OverlayPlan {
            field: field as u32,
            file: text(&o.file),
            append: matches!(o.mode, Override::Append).then(|| text(&o.separator)),
            off: ix.off[i].map(|k| k as u32),
            template: template_value(d, i).map(|v| slice(vec![Seg::Value(v)])),
        });
    }
    if let (Some(k), Some(sel)) = (ix.selector[i], &l.selector) {
        layer = layer.selected(k as u32, text(&sel.name));
    }
    layer
}

/// The value layer `i`'s overlay template renders into, if its overlay is one.
fn template_value(d: &Doctrine, i: usize) -> Option<usize> {
    let l = &d.layers[i];
    l.overlay.as_ref()?.template?;
    let before = d
        .overlay_templates()
        .take_while(|(t, _)| !std::ptr::eq(*t, l));
    Some(d.template_base() + before.count())
}

/// Layer `l`'s `LayerInfo` (the `i`th): what validation set, and what the whole manifest
/// decides.
fn info(d: &Doctrine, i: usize, l: &Layer) -> LayerInfo {
    let mut info = l.info.clone();
    if let Some(roles) = strict::roles(d, i) {
        info = info.strict_in(slice(roles));
    }
    if l.tier == Stability::Volatile {
        info = info.volatile();
    }
    if d.tiers.declared {
        info = info.in_tier(l.tier_index, text(&d.tiers.names[l.tier_index]));
    }
    if l.locked {
        info = info.locked();
    }
    if d.user_via(l).is_some() {
        info = info.user();
    }
    if let Some(h) = &l.header {
        let header = Header::rebuild(text(&h.template), slice(segs(d, &h.segments)));
        info = info.headed(one(header));
    }
    if let Some(t) = &l.title {
        let (heading, open, close) = crate::names::title_delimiters(t);
        let title = Title::new(text(t), text(&heading), text(&open), text(&close));
        let tag = crate::names::tag(t).map(|t| doctrine_load::__internals::text::fold(&t));
        let title = title.folded(text(&tag.unwrap_or_default()));
        info = info.titled(one(title));
    }
    info
}

/// The model texts layer `l`'s content ships, in the order its `ContentPlan` holds them:
/// one for every role (or the one text), or one per choice variant.
fn shipped_ids(d: &Doctrine, l: &Layer) -> Vec<TextId> {
    match &l.content {
        Content::PerRole(groups) if groups.len() == 1 || d.roles.is_empty() => {
            vec![groups[0].text]
        }
        // One entry per role; a role out of scope never reads its entry.
        Content::PerRole(groups) => RoleGroup::texts_by_role(groups, d.roles.len())
            .into_iter()
            .map(|t| t.unwrap_or(groups[0].text))
            .collect(),
        Content::Choice { variants, .. } => variants.iter().map(|v| v.text).collect(),
        Content::Slot { .. } | Content::Instructions => Vec::new(),
    }
}

fn content(ix: &Indices, i: usize, l: &Layer, texts: &'static [Shipped]) -> ContentPlan {
    let at = |k: &[Option<usize>]| k[i].unwrap_or_default() as u32;
    match &l.content {
        Content::PerRole(_) => ContentPlan::PerRole(texts),
        Content::Choice { .. } => ContentPlan::Choice {
            choice: at(&ix.choice),
            texts,
        },
        Content::Slot { .. } => ContentPlan::Slot(at(&ix.slot)),
        Content::Instructions => {
            ContentPlan::Instructions(at(&ix.instructions), instruction_style(l))
        }
    }
}

/// Model text `id` as layer `l` ships it: a template where the layer interpolates (trimmed
/// once rendered where it must be), with its file or inline.
fn shipped(d: &Doctrine, plan: &Plan, l: &Layer, id: TextId) -> Shipped {
    let source = plan.sources[id.0];
    let template = plan.segments[id.0].filter(|_| d.is_template(l));
    match (template, source) {
        (Some(segs), Some(src)) => Shipped::file_template(segs, src, d.trims_rendered(l)),
        (Some(segs), None) => Shipped::inline_template(segs, d.trims_rendered(l)),
        (None, Some(src)) => Shipped::file(text(&d.texts[id].body), src),
        (None, None) => Shipped::inline(text(&d.texts[id].body)),
    }
}

/// A file's `Source`: its path, and only the provenance its frontmatter gives.
fn source(f: &crate::model::SourceFile) -> EmbeddedFile {
    let mut source = EmbeddedFile::at(text(&f.display));
    let fields = &f.fields;
    if let Some(v) = &fields.source {
        source = source.with_source(text(v));
    }
    if let Some(v) = &fields.version {
        source = source.with_version(text(v));
    }
    if let Some(v) = &fields.licence {
        source = source.with_licence(text(v));
    }
    source
}

/// A template's segments as the runtime renders them. Values are facts, then knobs, then
/// (for `{?flag}` sections) flags, in manifest order, as composition hands them over.
fn segs(d: &Doctrine, segments: &[Segment]) -> Vec<Seg> {
    let (facts, knobs, loops) = (d.facts.len(), d.knobs.len(), d.loop_base());
    let seg = |s: &Segment| match s {
        Segment::Lit(t) => Seg::Lit(text(t)),
        Segment::Fact(f) => Seg::Value(f.0),
        Segment::Html(f) => Seg::Escaped(f.0, doctrine_core::__private::Escaping::Html),
        Segment::Knob(k) => Seg::Value(facts + k.0),
        Segment::If { on, negated, len } => {
            let i = match on {
                SectionOn::Flag(f) => facts + knobs + f.0,
                SectionOn::Fact(f) => f.0,
            };
            Seg::If(i, *negated, *len)
        }
        Segment::IfCount {
            fact,
            count,
            negated,
            len,
        } => Seg::Count(fact.0, *count == Count::Many, *negated, *len),
        Segment::When { steps, len } => {
            let checks = steps.iter().map(|s| match s {
                Step::Given(SectionOn::Flag(f)) => Check::Given(facts + knobs + f.0),
                Step::Given(SectionOn::Fact(f)) => Check::Given(f.0),
                Step::Count(f, count) => Check::Count(f.0, *count == Count::Many),
                Step::Is(f, t) => Check::Is(f.0, text(t)),
                Step::Has(f, t) => Check::Has(f.0, text(t)),
                Step::Not => Check::Not,
                Step::And => Check::And,
                Step::Or => Check::Or,
            });
            Seg::When(slice(checks.collect()), *len)
        }
        Segment::Loop { site, .. } => Seg::Value(loops + site),
    };
    segments.iter().map(seg).collect()
}

/// An instructions layer's style: the default, or its `provenance` template, `rank`,
/// `verbatim`, `max_bytes` and `join`.
fn instruction_style(l: &Layer) -> &'static Style {
    let Some(p) = &l.provenance else {
        return &Style::DEFAULT;
    };
    let style = match &p.line {
        None => Style::DEFAULT,
        Some(parts) => {
            let pieces = parts.iter().map(|part| match part {
                LinePart::Lit(t) => LinePiece::Lit(text(t)),
                LinePart::Source => LinePiece::Source,
                LinePart::Scope => LinePiece::Scope,
            });
            Style::templated(slice(pieces.collect()))
        }
    };
    let style = if p.by_source {
        style.by_source()
    } else {
        style
    };
    let style = if p.verbatim { style.verbatim() } else { style };
    let style = match p.max_bytes {
        Some(max) => style.budgeted(max),
        None => style,
    };
    let style = if p.join_ends_line {
        style.ending_lines()
    } else {
        style
    };
    match &p.join {
        Some(join) => one(style.joined_by(text(join))),
        None => one(style),
    }
}

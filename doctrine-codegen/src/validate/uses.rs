//! The facts a layer uses, through its gate, its placeholders and its sections: each must
//! reach the roles that read it, a per-turn fact stays out of the cached prefix, and an
//! optional fact is printed only where it is checked. An `interpolate = true` layer's
//! texts become segments here.

use super::at::{report, At};
use super::hint::hint;
use super::names::Names;
use super::placeholder::{placeholders, Piece};
use super::{locked, template};
use crate::diag::Sink;
use crate::load::Loader;
use crate::model::{
    Content, Fact, FactId, FlagId, KnobId, Layer, Need, RoleGroup, RoleId, SectionOn, Segment, Test,
};
use crate::names::shown;
use crate::raw;

/// Checks every fact a layer uses, through its gate or its placeholders, and turns the
/// texts of an `interpolate = true` layer into segments.
pub(super) fn check_layer(
    raw: &raw::Layer,
    layer: &Layer,
    names: &Names<'_>,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) {
    let in_scope: Vec<RoleId> = RoleId::all(names.roles.len())
        .filter(|&r| layer.in_scope(r))
        .collect();
    for c in layer.conds() {
        locked::gate(layer, c, names, sink);
        if let Test::Fact(f) | Test::FactIs(f, _) = c.test {
            let at = At::Manifest(c.at.clone());
            check_use(layer, f, &in_scope, &at, true, names, sink);
        }
    }
    let interpolate = raw.interpolate.as_ref().is_some_and(|i| *i.get_ref());
    let Some(uses) = readers(raw, layer, in_scope, interpolate, sink) else {
        return;
    };
    let manifest_at = manifest_at(raw);
    // Names reported as placeholders of a layer that does not interpolate.
    let mut forgotten = Vec::new();
    for RoleGroup { roles, text: id } in uses {
        let text = &loader.texts[id];
        let locate = |offset: usize| match &text.file {
            Some(f) => At::File(f.at(offset)),
            None => At::Manifest(manifest_at.clone()),
        };
        super::sanitize::shipped(&layer.name, &text.body, &locate, names.sanitize, sink);
        if !interpolate {
            let (layer, body) = (&layer.name, &text.body);
            template::forgotten(layer, body, locate, names, &mut forgotten, sink);
            continue;
        }
        let uses = Uses {
            layer,
            roles: &roles,
            locate: &locate,
            names,
        };
        if let Some(segments) = uses.segments(&text.body, sink) {
            loader.texts[id].segments = Some(segments);
        }
    }
}

/// Which roles read each text, so a fact is checked against the roles that see it; `None`
/// for a layer without shipped text (a slot or instructions), where `interpolate` is an
/// error.
fn readers(
    raw: &raw::Layer,
    layer: &Layer,
    in_scope: Vec<RoleId>,
    interpolate: bool,
    sink: &mut Sink<'_>,
) -> Option<Vec<RoleGroup>> {
    match &layer.content {
        Content::PerRole(groups) => Some(groups.clone()),
        Content::Choice { variants, .. } => Some(
            variants
                .iter()
                .map(|c| RoleGroup {
                    roles: in_scope.clone(),
                    text: c.text,
                })
                .collect(),
        ),
        Content::Slot { .. } | Content::Instructions => {
            if interpolate {
                let span = raw.interpolate.as_ref().map(|i| i.span());
                sink.error(
                    span,
                    "`interpolate` does not apply to a `slot` or `instructions` layer",
                    Some("slot text is used as given; remove `interpolate`".into()),
                );
            }
            None
        }
    }
}

/// Where a problem in an inline text is reported: its content key in the manifest.
fn manifest_at(raw: &raw::Layer) -> std::ops::Range<usize> {
    raw.text
        .as_ref()
        .or(raw.file.as_ref())
        .map(|t| t.span())
        .or_else(|| raw.texts.as_ref().map(|t| t.span()))
        .or_else(|| raw.files.as_ref().map(|t| t.span()))
        .or_else(|| raw.dir.as_ref().map(|t| t.span()))
        .unwrap_or(raw.name.span())
}

/// One text of an `interpolate = true` layer, read by `roles`; `locate` turns an offset in
/// it into where a problem is reported.
struct Uses<'u, 'n> {
    layer: &'u Layer,
    roles: &'u [RoleId],
    locate: &'u dyn Fn(usize) -> At,
    names: &'u Names<'n>,
}

impl Uses<'_, '_> {
    /// The text's segments, each placeholder and section resolved and checked; `None` when
    /// its placeholders do not parse (reported).
    fn segments(&self, body: &str, sink: &mut Sink<'_>) -> Option<Vec<Segment>> {
        let pieces = match placeholders(body) {
            Ok(p) => p,
            Err(e) => {
                let help = e.help_or("write `{fact}` or `{knob}`, `{?fact}…{/fact}` for text printed only when the fact is given, and `{{` / `}}` for literal braces");
                report(sink, &(self.locate)(e.at), e.message, &help);
                return None;
            }
        };
        let mut segments = Vec::new();
        // Open sections: where each `If` sits, and the fact it checks is given.
        let mut open: Vec<(Option<usize>, Option<FactId>)> = Vec::new();
        // A section tag alone on its line takes the line with it.
        for piece in template::standalone(pieces) {
            match piece {
                Piece::Lit(s) => segments.push(Segment::Lit(s)),
                Piece::Open(n, negated, offset) => {
                    let at = (self.locate)(offset);
                    let on = section_on(&n, self.layer, self.roles, &at, self.names, sink);
                    let given = match on {
                        Some(SectionOn::Fact(f)) if !negated => Some(f),
                        _ => None,
                    };
                    // A section that could not be resolved (reported) is left out.
                    let Some(on) = on else {
                        open.push((None, None));
                        continue;
                    };
                    open.push((Some(segments.len()), given));
                    segments.push(Segment::If {
                        on,
                        negated,
                        len: 0,
                    });
                }
                Piece::Close(..) => {
                    // Balanced: the parser refuses anything else.
                    if let Some((Some(at), _)) = open.pop() {
                        let after = segments.len() - at - 1;
                        if let Segment::If { len, .. } = &mut segments[at] {
                            *len = after;
                        }
                    }
                }
                Piece::Name(n, offset) => {
                    // Inside `{?f}…{/f}` an optional fact is checked already.
                    let checked = |f: FactId| open.iter().any(|(_, g)| *g == Some(f));
                    segments.extend(self.placeholder(&n, offset, checked, sink));
                    if let Some(fact) = self.names.facts.iter().find(|f| f.name == n) {
                        super::escape::placed(fact, body, offset, &(self.locate)(offset), sink);
                    }
                }
            }
        }
        Some(segments)
    }

    /// `{name}`: a fact, checked where it is printed (`checked`: inside its own section),
    /// or a knob.
    fn placeholder(
        &self,
        n: &str,
        offset: usize,
        checked: impl Fn(FactId) -> bool,
        sink: &mut Sink<'_>,
    ) -> Option<Segment> {
        let (layer, names) = (self.layer, self.names);
        if let Some(f) = names.facts.iter().position(|f| f.name == n) {
            let f = FactId(f);
            let at = (self.locate)(offset);
            check_use(layer, f, self.roles, &at, checked(f), names, sink);
            locked::prints(layer, f, n, &at, names, sink);
            return Some(Segment::Fact(f));
        }
        if let Some(k) = names.knobs.iter().position(|k| k.name == n) {
            return Some(Segment::Knob(KnobId(k)));
        }
        // A name whose declaration failed was reported.
        if !names.broken.iter().any(|b| b == n) {
            let all = names
                .facts
                .iter()
                .map(|f| f.name.as_str())
                .chain(names.knobs.iter().map(|k| k.name.as_str()));
            report(
                sink,
                &(self.locate)(offset),
                format!(
                    "placeholder `{{{}}}` names no declared fact or knob",
                    shown(n)
                ),
                &hint(n, all, "declared facts and knobs"),
            );
        }
        None
    }
}

/// What a `{?name}` section reads: a fact (given) or a flag (on). A fact is checked as a
/// gate is: it must reach the roles, and a volatile one stays out of stable layers.
fn section_on(
    name: &str,
    layer: &Layer,
    roles: &[RoleId],
    at: &At,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> Option<SectionOn> {
    if let Some(f) = names.facts.iter().position(|f| f.name == name) {
        let f = FactId(f);
        check_use(layer, f, roles, at, true, names, sink);
        locked::prints(layer, f, &format!("?{name}"), at, names, sink);
        return Some(SectionOn::Fact(f));
    }
    if let Some(f) = names.flags.iter().position(|f| f.name == name) {
        return Some(SectionOn::Flag(FlagId(f)));
    }
    if names.knobs.iter().any(|k| k.name == name) {
        report(
            sink,
            at,
            format!("section `{{?{name}}}` tests knob `{name}`, which always has a value"),
            "a section tests a fact (given) or a flag (on)",
        );
    } else if !names.broken.iter().any(|b| b == name) {
        let all = names
            .facts
            .iter()
            .map(|f| f.name.as_str())
            .chain(names.flags.iter().map(|f| f.name.as_str()));
        report(
            sink,
            at,
            format!(
                "section `{{?{}}}` names no declared fact or flag",
                shown(name)
            ),
            &hint(name, all, "declared facts and flags"),
        );
    }
    None
}

/// One use of fact `f` by `layer`, seen by `roles`: the fact must reach those roles, a
/// per-turn fact must stay out of the cached prefix, and an optional fact must gate the
/// layer that prints it.
fn check_use(
    layer: &Layer,
    f: FactId,
    roles: &[RoleId],
    at: &At,
    is_gate: bool,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) {
    let fact = &names.facts[f];
    let word = names.word;
    if fact.tier_index > layer.tier_index {
        later_fact(layer, fact, at, names, sink);
    }
    for &r in roles {
        let who = names.roles.get(r.0).map_or("the prompt", String::as_str);
        match fact.need[r.0] {
            Need::Absent => report(
                sink,
                at,
                format!("{word} `{who}` does not take fact `{}`, which layer `{}` uses", fact.name, layer.name),
                &format!("add `{who}` to the fact's `required` or `optional`, or leave it out of the layer's `{word}s`"),
            ),
            // A JSON string prints `""` when not given: it needs no gate.
            Need::Optional if !is_gate && fact.default.is_none() && !layer.requires_fact(f) && !prints_json(fact) => report(
                sink,
                at,
                format!("fact `{}` is optional for {word} `{who}`, but layer `{}` prints it without checking it is there", fact.name, layer.name),
                &match fact.list {
                    // A list cannot be required.
                    Some(_) => format!("gate the layer with `when = \"{}\"`, or print it inside `{{?{0}}}…{{/{0}}}`", fact.name),
                    None => format!("gate the layer with `when = \"{}\"`, print it inside `{{?{0}}}…{{/{0}}}`, or make the fact required for `{who}`", fact.name),
                },
            ),
            _ => {}
        }
    }
}

/// Whether `fact` prints as a JSON string, which is one (`""`) when not given too.
fn prints_json(fact: &Fact) -> bool {
    fact.list.is_none()
        && fact.escape.first() == Some(&Some(doctrine_core::__private::Escaping::Json))
}

/// A fact of a later tier than the layer using it: the layer's cached block would change
/// whenever the fact does.
fn later_fact(layer: &Layer, fact: &Fact, at: &At, names: &Names<'_>, sink: &mut Sink<'_>) {
    let tiers = names.tiers;
    if !tiers.declared {
        report(
            sink,
            at,
            format!("volatile fact `{}` would reach stable layer `{}`", fact.name, layer.name),
            &format!(
                "the stable prefix is what the provider caches: a value that changes per turn there makes every turn pay for the whole prompt again. Move this into a `tier = \"volatile\"` layer, or declare `{}` stable if it really is fixed for a session",
                fact.name
            ),
        );
        return;
    }
    let (mine, theirs) = (
        &tiers.names[layer.tier_index],
        &tiers.names[fact.tier_index],
    );
    report(
        sink,
        at,
        format!(
            "fact `{}` of tier `{theirs}` would reach layer `{}` of the earlier tier `{mine}`",
            fact.name, layer.name
        ),
        &format!(
            "tier `{mine}` is cached before tier `{theirs}`: a value that changes with `{theirs}` there makes every request pay for the block again. Move this into a layer of tier `{theirs}` (or a later one), or declare the fact `tier = \"{mine}\"` if it really is fixed that long"
        ),
    );
}

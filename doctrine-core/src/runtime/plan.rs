//! A manifest's composition as data: per layer, where its text comes from, what gates it,
//! and what may change it. Generated code holds one `static` plan per manifest and the
//! typed API around it; [`resolve`] interprets a layer of it for one composition, so every
//! manifest composes through the same routine (and a tool that builds a plan from a
//! manifest at run time composes exactly as the compiled code does).

use super::emit::rebuilt;
use super::instruction::{Instruction, Style};
use super::layer::{EmbeddedFile, LayerInfo, Origin, Skip};
use super::list::{Counted, ListCut};
use super::notice::Notice;
use super::part::{Body, Joined, Part, Seg, Trim, Value, NO_JOIN};
use super::sanitize::Cleaned;
use super::section::{Section, SectionState};
use super::selector::{selected, Resolution, Selected};
use super::user_content::UserValue;

rebuilt! {
/// One layer of a manifest, as data.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct LayerPlan {
    pub info: LayerInfo,
    /// The roles (indices) the layer applies to; `None`: every role.
    pub scope: Option<&'static [u32]>,
    pub content: ContentPlan,
    pub gate: Gate,
    pub suffix: Option<SuffixPlan>,
    pub overlay: Option<OverlayPlan>,
    /// Its selector's index and name (a selector layer).
    pub selector: Option<(u32, &'static str)>,
}
}

impl LayerPlan {
    /// A layer of `info` and `content`, in every role, ungated, fixed.
    pub const fn of(info: LayerInfo, content: ContentPlan) -> LayerPlan {
        LayerPlan {
            info,
            scope: None,
            content,
            gate: Gate::NONE,
            suffix: None,
            overlay: None,
            selector: None,
        }
    }

    /// Only for these roles.
    pub const fn scoped(mut self, roles: &'static [u32]) -> Self {
        self.scope = Some(roles);
        self
    }

    pub const fn gated(mut self, gate: Gate) -> Self {
        self.gate = gate;
        self
    }

    pub const fn suffixed(mut self, suffix: SuffixPlan) -> Self {
        self.suffix = Some(suffix);
        self
    }

    pub const fn overridden(mut self, overlay: OverlayPlan) -> Self {
        self.overlay = Some(overlay);
        self
    }

    /// Its source chosen by selector `index`, named `name`.
    pub const fn selected(mut self, index: u32, name: &'static str) -> Self {
        self.selector = Some((index, name));
        self
    }
}

rebuilt! {
/// Where a layer's text comes from.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum ContentPlan {
    /// Shipped text for each role (index), or one text for every role.
    PerRole(texts: &'static [Shipped]),
    /// Shipped text per variant of the choice at this index of [`Inputs::choices`].
    Choice {
        choice: u32,
        texts: &'static [Shipped],
    },
    /// The slot at this index of [`Inputs::slots`].
    Slot(slot: u32),
    /// The instructions at this index of [`Inputs::instructions`], in this style.
    Instructions(list: u32, style: &'static Style),
}
}

rebuilt! {
/// A shipped text and where it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shipped {
    pub text: ShippedText,
    pub origin: Origin,
}
}

impl Shipped {
    /// Plain text from this file.
    pub const fn file(text: &'static str, source: &'static EmbeddedFile) -> Shipped {
        Shipped::from(ShippedText::Plain(text), Origin::File(source))
    }

    /// Plain inline text from the manifest.
    pub const fn inline(text: &'static str) -> Shipped {
        Shipped::from(ShippedText::Plain(text), Origin::Inline)
    }

    /// A template from this file, trimmed once rendered at the ends `trim` says.
    pub const fn file_template(
        segs: &'static [Seg],
        source: &'static EmbeddedFile,
        trim: Trim,
    ) -> Shipped {
        Shipped::from(ShippedText::template(segs, trim), Origin::File(source))
    }

    /// An inline template, trimmed once rendered at the ends `trim` says.
    pub const fn inline_template(segs: &'static [Seg], trim: Trim) -> Shipped {
        Shipped::from(ShippedText::template(segs, trim), Origin::Inline)
    }

    const fn from(text: ShippedText, origin: Origin) -> Shipped {
        Shipped { text, origin }
    }
}

impl ShippedText {
    const fn template(segs: &'static [Seg], trim: Trim) -> ShippedText {
        match trim {
            Trim::No => ShippedText::Template(segs),
            _ => ShippedText::TemplateTrimmed(segs, trim),
        }
    }
}

rebuilt! {
/// A shipped text: plain, or with placeholders (trimmed once rendered, where the layer
/// trims and the text can render with whitespace at an end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShippedText {
    Plain(text: &'static str),
    Template(segs: &'static [Seg]),
    TemplateTrimmed(segs: &'static [Seg], trim: Trim),
}
}

rebuilt! {
/// A layer's conditions: `when` (each must hold, and fails with its own reason), its
/// alternatives (one must hold entirely), `unless` and its alternatives (all of one
/// holding drops the layer, with the reason given).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Gate {
    pub when: &'static [(Cond, Skip)],
    pub when_any: Option<(&'static [&'static [Cond]], Skip)>,
    pub unless: &'static [(&'static [Cond], Skip)],
}
}

impl Gate {
    pub const NONE: Gate = Gate {
        when: &[],
        when_any: None,
        unless: &[],
    };

    /// These conditions must all hold, each failing with its reason.
    pub const fn when(mut self, when: &'static [(Cond, Skip)]) -> Self {
        self.when = when;
        self
    }

    /// One of these alternatives must hold entirely, else the layer is dropped so.
    pub const fn when_any(mut self, any: &'static [&'static [Cond]], reason: Skip) -> Self {
        self.when_any = Some((any, reason));
        self
    }

    /// The layer is dropped when all of one group hold, with its reason.
    pub const fn unless(mut self, unless: &'static [(&'static [Cond], Skip)]) -> Self {
        self.unless = unless;
        self
    }
}

rebuilt! {
/// One condition: a test, negated or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cond {
    pub test: Test,
    pub negated: bool,
}
}

impl Cond {
    /// The test must pass.
    pub const fn is(test: Test) -> Cond {
        Cond {
            test,
            negated: false,
        }
    }

    /// The test must fail.
    pub const fn not(test: Test) -> Cond {
        Cond {
            test,
            negated: true,
        }
    }
}

rebuilt! {
/// What a condition looks at, by index into [`Inputs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    Flag(flag: u32),
    /// The fact is given.
    Fact(fact: u32),
    /// The fact is given with this value; absent, the layer says [`Skip::FactAbsent`].
    FactIs(fact: u32, value: &'static str, absent: Skip),
    /// The template value is non-empty (a list fact: an empty list is absent).
    Value(value: u32),
    /// The optional choice is given.
    Choice(choice: u32),
    /// The slot is given and non-empty.
    Slot(slot: u32),
    /// The instructions are not empty.
    Instructions(list: u32),
    /// The overlay field is non-empty once trimmed.
    Overlay(field: u32),
    /// The selector chose a source and the definition did not opt out.
    Selector(selector: u32, name: &'static str),
    /// Always holds (a non-optional choice is always given).
    Always,
}
}

rebuilt! {
/// A line joined after a layer's text for some roles, its text chosen by the values of the
/// knobs it names: `texts[i]` with `i` the mixed-radix number of those knobs' values.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct SuffixPlan {
    pub roles: Option<&'static [u32]>,
    pub separator: &'static str,
    /// The knobs it names (indices into [`Inputs::knobs`]) and how many values each has.
    pub knobs: &'static [(u32, u32)],
    pub texts: &'static [&'static str],
}
}

rebuilt! {
/// An overridable layer: the overlay field (index into [`Inputs::overlay`]), its file,
/// and how it applies.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct OverlayPlan {
    pub field: u32,
    pub file: &'static str,
    /// Appended after this separator, or (`None`) replacing the shipped text.
    pub append: Option<&'static str>,
    /// `empty = "off"`: the index of the field's `_off` flag in [`Overlay::off`].
    pub off: Option<u32>,
    /// `overlay_interpolate`: the file is a template with the layer's facts, rendered per
    /// composition into the value this one segment prints (`Seg::Value`).
    pub template: Option<&'static [Seg]>,
}
}

/// The overlay given to a composition, by field index (trimming is done here).
#[derive(Clone, Copy, Debug)]
pub struct Overlay<'a> {
    pub fields: &'a [&'a str],
    pub off: &'a [bool],
}

/// Everything a composition was given, by index, as generated code hands it over.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    pub role: usize,
    /// Each choice layer's variant (index), `None` when an optional one is not given.
    pub choices: &'a [Option<usize>],
    pub slots: &'a [Option<&'a str>],
    pub instructions: &'a [&'a [Instruction<'a>]],
    /// Each instructions layer's byte budget as the caller lowered it (`usize::MAX`, or
    /// none given: the manifest's `max_bytes` alone).
    pub instruction_caps: &'a [usize],
    pub flags: &'a [bool],
    /// Each knob's value (index).
    pub knobs: &'a [usize],
    /// Each fact as given (`None`: absent).
    pub facts: &'a [Option<&'a str>],
    /// What placeholders print (facts, then knobs, then flags).
    pub values: &'a [Value<'a>],
    /// Which stretches of which values came from user files (the skill index's user
    /// lines).
    pub user: &'a [UserValue<'a>],
    pub overlay: Option<Overlay<'a>>,
    pub selection: Option<&'a Resolution>,
    pub opt_out: &'a [bool],
    /// The facts and slots `sanitize` changed, for the prompt's notices.
    pub cleaned: &'a [Cleaned],
    /// Users' templates (`overlay_interpolate`) refused as they were rendered (a text
    /// set in code that does not read; a file is checked when loaded).
    pub rejected: &'a [Notice],
}

impl Inputs<'static> {
    /// Nothing given: generated code sets what its manifest has over this.
    pub const NONE: Inputs<'static> = Inputs {
        role: 0,
        choices: &[],
        slots: &[],
        instructions: &[],
        instruction_caps: &[],
        flags: &[],
        knobs: &[],
        facts: &[],
        values: &[],
        user: &[],
        overlay: None,
        selection: None,
        opt_out: &[],
        cleaned: &[],
        rejected: &[],
    };
}

/// The part layer `plan` contributes to a composition given `inputs`.
pub fn resolve<'a>(plan: &'static LayerPlan, inputs: &Inputs<'a>) -> Part<'a> {
    resolved(plan, inputs)
}

/// [`resolve`], written into `slot`: a caller that keeps the part would otherwise copy it
/// out of the call's return value, reading back what the call had just written (a stall).
pub(super) fn resolve_into<'a, 's>(
    plan: &'static LayerPlan,
    inputs: &Inputs<'a>,
    slot: &'s mut Option<Part<'a>>,
) -> &'s Part<'a> {
    slot.insert(resolved(plan, inputs))
}

#[inline(always)]
fn resolved<'a>(plan: &'static LayerPlan, inputs: &Inputs<'a>) -> Part<'a> {
    let info = &plan.info;
    let skip = |origin, reason| Part {
        info,
        origin,
        body: Body::Skip(reason),
    };
    if plan
        .scope
        .is_some_and(|s| !s.contains(&(inputs.role as u32)))
    {
        return skip(Origin::Unresolved, Skip::NotInRole);
    }
    let (head, origin) = match content(plan, inputs) {
        Ok(found) => found,
        Err((origin, reason)) => return skip(origin, reason),
    };
    if let Some(reason) = gate(&plan.gate, inputs) {
        return skip(origin, reason);
    }
    if let (Head::Instructions(list, style), ContentPlan::Instructions(i, _)) =
        (head, &plan.content)
    {
        // The cap is read here, not carried in the head: a larger head costs every layer.
        let cap = instructions_cap(style, inputs, *i);
        return Part {
            info,
            origin,
            body: Body::Instructions(list, style, cap),
        };
    }
    if let Some((i, name)) = plan.selector {
        match selected(inputs.selection, i as usize, name, opt_out(inputs, i)) {
            Selected::Skip(reason) => return skip(origin, reason),
            Selected::Shipped => {}
            Selected::Text(over, origin) => return text(info, origin, over, NO_JOIN, NO_JOIN),
        }
    }
    let suffix = match &plan.suffix {
        Some(s) => suffix(s, inputs),
        None => NO_JOIN,
    };
    match (&plan.overlay, inputs.overlay) {
        (Some(o), Some(given)) => overlaid(info, (origin, head, suffix), o, given, inputs.values),
        _ => body(info, origin, head, suffix, NO_JOIN),
    }
}

/// The part `plan` gives for `inputs`, when nothing but the role, the choices, the flags,
/// the knobs and the values that are not run-time text (`runtime` says which are) can
/// change it: what a prepared plan composes once ([`super::prepared`]). Every input
/// [`resolve`] reads is placed here, and the matches are exhaustive, so a new one must be.
pub(super) fn fixed<'a>(
    plan: &'static LayerPlan,
    inputs: &Inputs<'a>,
    runtime: &impl Fn(usize) -> bool,
) -> Option<Part<'a>> {
    let part = resolve(plan, inputs);
    // Out of the role's scope, or no text for it: decided before anything else is read.
    if matches!(part.body, Body::Skip(Skip::NotInRole)) {
        return Some(part);
    }
    let shipped = match plan.content {
        ContentPlan::PerRole(_) | ContentPlan::Choice { .. } => true,
        ContentPlan::Slot(_) | ContentPlan::Instructions(..) => false,
    };
    let gate = &plan.gate;
    let conds = gate.when.iter().map(|(c, _)| c);
    let any = gate.when_any.iter().flat_map(|(groups, _)| groups.iter());
    let unless = gate.unless.iter().map(|(group, _)| group);
    let mut conds = conds.chain(any.chain(unless).flat_map(|g| g.iter()));
    let segs = match part.body {
        Body::Template(segs, _) | Body::TemplateTrimmed(segs, _, _) => segs,
        Body::Skip(_) | Body::Text(..) | Body::Instructions(..) => &[],
    };
    // A header prints values too, where the layer prints.
    let header = plan.info.header.map_or(&[][..], |h| h.segs);
    let fixed = shipped
        && plan.selector.is_none()
        && plan.overlay.is_none()
        && conds.all(|c| fixed_test(c.test, runtime))
        && segs.iter().chain(header).all(|s| match *s {
            Seg::Lit(_) => true,
            Seg::Value(v) | Seg::Escaped(v, _) | Seg::If(v, ..) | Seg::Count(v, ..) => !runtime(v),
            Seg::When(checks, _) => checks.iter().filter_map(|c| c.value()).all(|v| !runtime(v)),
        });
    fixed.then_some(part)
}

/// Whether test `t` reads only what a prepared plan is prepared for.
fn fixed_test(t: Test, runtime: &impl Fn(usize) -> bool) -> bool {
    match t {
        Test::Flag(_) | Test::Choice(_) | Test::Always => true,
        Test::Value(v) => !runtime(v as usize),
        Test::Fact(_)
        | Test::FactIs(..)
        | Test::Slot(_)
        | Test::Instructions(_)
        | Test::Overlay(_)
        | Test::Selector(..) => false,
    }
}

/// A layer's resolved text, before gates, selector and overlay.
#[derive(Clone, Copy)]
enum Head<'a> {
    Text(&'a str),
    Shipped(ShippedText),
    Instructions(&'a [Instruction<'a>], &'static Style),
}

type Found<'a> = Result<(Head<'a>, Origin), (Origin, Skip)>;

/// The text the layer's content gives for this composition, or why it gives none.
#[inline(always)]
fn content<'a>(plan: &LayerPlan, inputs: &Inputs<'a>) -> Found<'a> {
    let shipped = |s: &Shipped| (Head::Shipped(s.text), s.origin);
    match &plan.content {
        ContentPlan::PerRole(texts) => match texts {
            [one] => Ok(shipped(one)),
            _ => texts
                .get(inputs.role)
                .map(shipped)
                .ok_or((Origin::Unresolved, Skip::NotInRole)),
        },
        ContentPlan::Choice { choice, texts } => inputs.choices[*choice as usize]
            .and_then(|v| texts.get(v))
            .map(shipped)
            .ok_or((Origin::Unresolved, Skip::NotSupplied)),
        ContentPlan::Slot(i) => inputs.slots[*i as usize]
            .map(|v| (Head::Text(v), Origin::Slot))
            .ok_or((Origin::Slot, Skip::NotSupplied)),
        ContentPlan::Instructions(i, style) => {
            let list = inputs.instructions[*i as usize];
            match list.is_empty() {
                true => Err((Origin::Instructions, Skip::NotSupplied)),
                false => Ok((Head::Instructions(list, style), Origin::Instructions)),
            }
        }
    }
}

/// Why the gate drops the layer, if it does: the first `when` that fails, then the
/// alternatives of `when`, then the first `unless` group that holds.
#[inline(always)]
fn gate(gate: &Gate, inputs: &Inputs<'_>) -> Option<Skip> {
    for (c, fails) in gate.when {
        // Absent and another value are told apart, as `explain` shows them.
        if let (Test::FactIs(f, _, absent), false) = (c.test, c.negated) {
            if inputs.facts[f as usize].is_none() {
                return Some(absent);
            }
        }
        if !holds(c, inputs) {
            return Some(*fails);
        }
    }
    if let Some((groups, reason)) = &gate.when_any {
        if !groups.iter().any(|g| g.iter().all(|c| holds(c, inputs))) {
            return Some(*reason);
        }
    }
    let drops = |(group, _): &&(&[Cond], Skip)| group.iter().all(|c| holds(c, inputs));
    gate.unless.iter().find(drops).map(|(_, reason)| *reason)
}

/// Whether condition `c` holds (its test passes, or fails when negated).
fn holds(c: &Cond, inputs: &Inputs<'_>) -> bool {
    let at = |i: u32| i as usize;
    let passes = match c.test {
        Test::Flag(i) => inputs.flags[at(i)],
        Test::Fact(i) => inputs.facts[at(i)].is_some(),
        Test::FactIs(i, value, _) => inputs.facts[at(i)] == Some(value),
        Test::Value(i) => !inputs.values[at(i)].is_empty(),
        Test::Choice(i) => inputs.choices[at(i)].is_some(),
        Test::Slot(i) => inputs.slots[at(i)].is_some_and(|v| !v.is_empty()),
        Test::Instructions(i) => !inputs.instructions[at(i)].is_empty(),
        Test::Overlay(i) => inputs
            .overlay
            .is_some_and(|o| !o.fields[at(i)].trim().is_empty()),
        Test::Selector(i, name) => !matches!(
            selected(inputs.selection, at(i), name, opt_out(inputs, i)),
            Selected::Skip(_)
        ),
        Test::Always => true,
    };
    passes != c.negated
}

fn opt_out(inputs: &Inputs<'_>, i: u32) -> bool {
    inputs.opt_out.get(i as usize).copied().unwrap_or(false)
}

/// The suffix line for this composition: its roles, then its text by the knobs' values.
#[inline(always)]
fn suffix(s: &SuffixPlan, inputs: &Inputs<'_>) -> Joined<'static> {
    if s.roles.is_some_and(|r| !r.contains(&(inputs.role as u32))) {
        return NO_JOIN;
    }
    let index = s.knobs.iter().fold(0, |n, &(k, radix)| {
        n * radix as usize + inputs.knobs[k as usize]
    });
    (s.separator, s.texts[index])
}

/// The layer with a user's overlay applied: turned off, replaced or appended to.
#[inline(always)]
fn overlaid<'a>(
    info: &'static LayerInfo,
    (origin, head, suffix): (Origin, Head<'a>, Joined<'static>),
    o: &OverlayPlan,
    given: Overlay<'a>,
    values: &[Value<'_>],
) -> Part<'a> {
    if o.off.is_some_and(|i| given.off[i as usize]) {
        let body = Body::Skip(Skip::OverlayOff(o.file));
        return Part { info, origin, body };
    }
    // A template is its rendered value: empty when the file was empty, refused or
    // rendered to nothing, and then the shipped text stays.
    if let Some(segs @ [Seg::Value(v)]) = o.template {
        return match values[*v].is_empty() {
            true => body(info, origin, head, suffix, NO_JOIN),
            false => {
                let origin = Origin::OverlayTemplate(o.file);
                let body = Body::Template(segs, [NO_JOIN, NO_JOIN]);
                Part { info, origin, body }
            }
        };
    }
    let over = given.fields[o.field as usize].trim();
    if over.is_empty() {
        return body(info, origin, head, suffix, NO_JOIN);
    }
    match o.append {
        None => text(
            info,
            Origin::OverlayReplaced(o.file),
            over,
            NO_JOIN,
            NO_JOIN,
        ),
        Some(sep) => {
            let source = match origin {
                Origin::File(s) => Some(s),
                _ => None,
            };
            let origin = Origin::OverlayAppended(source, o.file);
            body(info, origin, head, suffix, (sep, over))
        }
    }
}

/// A part of plain text with its two joined pieces.
#[inline(always)]
fn text<'a>(
    info: &'static LayerInfo,
    origin: Origin,
    head: &'a str,
    suffix: Joined<'a>,
    appended: Joined<'a>,
) -> Part<'a> {
    let body = Body::Text(head, [suffix, appended]);
    Part { info, origin, body }
}

/// The part for a resolved head with its suffix and appended overlay.
#[inline(always)]
fn body<'a>(
    info: &'static LayerInfo,
    origin: Origin,
    head: Head<'a>,
    suffix: Joined<'static>,
    appended: Joined<'a>,
) -> Part<'a> {
    let tail = [suffix, appended];
    let body = match head {
        Head::Text(t) | Head::Shipped(ShippedText::Plain(t)) => Body::Text(t, tail),
        Head::Shipped(ShippedText::Template(segs)) => Body::Template(segs, tail),
        Head::Shipped(ShippedText::TemplateTrimmed(segs, trim)) => {
            Body::TemplateTrimmed(segs, tail, trim)
        }
        // Instructions are returned before their head reaches here (`resolved`).
        Head::Instructions(list, style) => Body::Instructions(list, style, usize::MAX),
    };
    Part { info, origin, body }
}

/// The most bytes of text instructions `list` (at that index of [`Inputs::instructions`])
/// print in `style`: its `max_bytes`, or the caller's lower one (`usize::MAX`: no budget).
#[inline]
fn instructions_cap(style: &Style, inputs: &Inputs<'_>, list: u32) -> usize {
    let given = inputs.instruction_caps.get(list as usize).copied();
    given
        .unwrap_or(usize::MAX)
        .min(style.max_bytes.unwrap_or(usize::MAX))
}

/// What each instructions layer's byte budget cut in a composition given `inputs`, whose
/// records are `sections`: a layer left out for its role, a gate or no instructions given
/// had nothing cut (one its budget left empty did).
pub(super) fn instruction_cuts<'p>(
    plan: &'p [LayerPlan],
    inputs: &'p Inputs<'_>,
    sections: &'p [Section],
) -> impl Iterator<Item = ListCut> + 'p {
    plan.iter().zip(sections).filter_map(|(p, s)| {
        let ContentPlan::Instructions(list, style) = p.content else {
            return None;
        };
        if matches!(s.state, SectionState::Skipped(reason) if reason != Skip::Empty) {
            return None;
        }
        let cap = instructions_cap(style, inputs, list);
        let (printed, full) = style.cut(inputs.instructions[list as usize], cap)?;
        Some(ListCut {
            name: p.info.name,
            counted: Counted::Instructions,
            printed,
            full,
        })
    })
}

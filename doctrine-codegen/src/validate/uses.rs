//! The facts a layer uses, through its gate, its placeholders and its sections: each must
//! reach the roles that read it, a per-turn fact stays out of the cached prefix, and an
//! optional fact is printed only where it is checked. An `interpolate = true` layer's
//! texts become segments here.

use super::at::{report, At};
use super::hint::hint;
use super::names::Names;
use super::placeholder::{Count, Piece};
use super::syntax::Syntax;
use super::{locked, template};
use crate::diag::Sink;
use crate::load::Loader;
use crate::model::{
    Content, Fact, FactId, FlagId, ItemPiece, KnobId, Layer, ListSpec, Need, RoleGroup, RoleId,
    SectionOn, Segment, Step, Test,
};
use crate::names::shown;
use crate::raw;
use doctrine_load::__internals::template::{ungated_loops, Cond};

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
            check_use(layer, f, &in_scope, &at, (true, true), names, sink);
        }
    }
    let interpolate = raw.interpolate.as_ref().is_some_and(|i| *i.get_ref());
    // A user's template is read in the layer's syntax, whether or not its own text is.
    let templated = raw
        .overlay_interpolate
        .as_ref()
        .is_some_and(|i| *i.get_ref());
    let syntax = super::syntax::syntax(raw, interpolate || templated, sink);
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
            syntax,
            sections: true,
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

/// One text of an `interpolate = true` layer (or its header), read by `roles`; `locate`
/// turns an offset in it into where a problem is reported.
pub(super) struct Uses<'u, 'n> {
    pub(super) layer: &'u Layer,
    pub(super) roles: &'u [RoleId],
    pub(super) locate: &'u dyn Fn(usize) -> At,
    pub(super) names: &'u Names<'n>,
    pub(super) syntax: Syntax,
    /// The text may hold sections (a header may not), which the help on an optional fact
    /// printed ungated offers.
    pub(super) sections: bool,
}

impl Uses<'_, '_> {
    /// The text's segments, each placeholder and section resolved and checked; `None` when
    /// its placeholders do not parse (reported).
    fn segments(&self, text: &str, sink: &mut Sink<'_>) -> Option<Vec<Segment>> {
        // A section or loop tag takes whitespace by the layer's rule, inside a loop's body
        // as outside it.
        let pieces = match self.syntax.read(text, self.names) {
            Ok(p) => p,
            Err(errors) => {
                for e in errors {
                    let help = e.help_or(self.syntax.help());
                    report(sink, &(self.locate)(e.at), e.message, &help);
                }
                return None;
            }
        };
        self.ungated_loops(&pieces, sink);
        let mut segments = Vec::new();
        // Open sections: where each `If` sits, and the facts it checks are given.
        let mut open: Vec<(Option<usize>, Vec<FactId>)> = Vec::new();
        let mut pieces = pieces.into_iter();
        while let Some(piece) = pieces.next() {
            match piece {
                Piece::Lit(s) => segments.push(Segment::Lit(s)),
                Piece::Open(n, negated, offset) => {
                    let at = (self.locate)(offset);
                    let on = section_on(&n, &n, self.layer, self.roles, &at, self.names, sink);
                    let given = match on {
                        Some(SectionOn::Fact(f)) if !negated => vec![f],
                        _ => Vec::new(),
                    };
                    // A section that could not be resolved (reported) is left out.
                    let Some(on) = on else {
                        open.push((None, Vec::new()));
                        continue;
                    };
                    open.push((Some(segments.len()), given));
                    segments.push(Segment::If {
                        on,
                        negated,
                        len: 0,
                    });
                }
                Piece::Count(n, count, negated, offset) => {
                    let Some(fact) = self.counted(&n, count, offset, sink) else {
                        open.push((None, Vec::new()));
                        continue;
                    };
                    open.push((Some(segments.len()), Vec::new()));
                    segments.push(Segment::IfCount {
                        fact,
                        count,
                        negated,
                        len: 0,
                    });
                }
                Piece::When(cond, written, offset) => {
                    let at = (self.locate)(offset);
                    let Some(steps) = self.condition(&cond, &written, &at, sink) else {
                        open.push((None, Vec::new()));
                        continue;
                    };
                    let given = cond
                        .implies_given()
                        .into_iter()
                        .filter_map(|n| self.names.facts.iter().position(|f| f.name == n))
                        .map(FactId)
                        .collect();
                    open.push((Some(segments.len()), given));
                    segments.push(Segment::When { steps, len: 0 });
                }
                Piece::Close(..) => {
                    // Balanced: the parser refuses anything else.
                    if let Some((Some(at), _)) = open.pop() {
                        let after = segments.len() - at - 1;
                        if let Segment::If { len, .. }
                        | Segment::IfCount { len, .. }
                        | Segment::When { len, .. } = &mut segments[at]
                        {
                            *len = after;
                        }
                    }
                }
                Piece::Loop(n, offset) => {
                    // The body runs to the loop's own close: loops do not nest, and the
                    // parser balanced the sections inside.
                    let mut depth = 0usize;
                    let looped: Vec<Piece> = pieces
                        .by_ref()
                        .take_while(|p| match p {
                            Piece::Close(..) if depth == 0 => false,
                            Piece::Close(..) => {
                                depth -= 1;
                                true
                            }
                            Piece::Open(..)
                            | Piece::Count(..)
                            | Piece::Loop(..)
                            | Piece::When(..) => {
                                depth += 1;
                                true
                            }
                            Piece::Lit(_) | Piece::Name(..) | Piece::Html(..) => true,
                        })
                        .collect();
                    segments.extend(self.looped(&n, offset, &looped, text, sink));
                }
                Piece::Html(n, offset) => {
                    let checked = |f: FactId| open.iter().any(|(_, g)| g.contains(&f));
                    let at = (self.locate)(offset);
                    let seg = self.placeholder(&n, offset, checked, sink);
                    segments.extend(seg.and_then(|s| self.html(s, &n, &at, sink)));
                }
                Piece::Name(n, offset) => {
                    // Inside `{?f}…{/f}` an optional fact is checked already.
                    let checked = |f: FactId| open.iter().any(|(_, g)| g.contains(&f));
                    segments.extend(self.placeholder(&n, offset, checked, sink));
                    if let Some(fact) = self.names.facts.iter().find(|f| f.name == n) {
                        super::escape::placed(fact, text, offset, &(self.locate)(offset), sink);
                    }
                }
            }
        }
        Some(segments)
    }

    /// Each loop over a list optional where the layer prints it that prints nothing of an
    /// empty list while the words around it still print ("You can call these tools:"
    /// and nothing after it), unless the layer's gate needs the list: an error at the loop.
    fn ungated_loops(&self, pieces: &[Piece], sink: &mut Sink<'_>) {
        let names = self.names;
        for u in ungated_loops(pieces) {
            let Some(f) = names
                .facts
                .iter()
                .position(|f| f.name == u.list)
                .map(FactId)
            else {
                continue;
            };
            let fact = &names.facts[f];
            let optional = (self.roles.iter()).any(|r| fact.need.get(r.0) == Some(&Need::Optional));
            if !optional || fact.list.is_none() || self.layer.requires_fact(f) {
                continue;
            }
            let (n, text) = (&u.list, &u.text);
            report(
                sink,
                &(self.locate)(u.at),
                format!(
                    "layer `{}` loops over optional list `{n}` and prints `{text}` around it: with no items it would print that and nothing of the list",
                    self.layer.name
                ),
                &format!(
                    "gate the layer with `when = \"{n}\"`, put the loop and the words that introduce it inside `{{?{n}}}…{{/{n}}}`, or say what an empty list means in `{{?!{n}}}…{{/{n}}}` (handlebars: `{{{{else}}}}` before `{{{{/each}}}}`; Jinja: `{{% else %}}` before `{{% endfor %}}`)"
                ),
            );
        }
    }

    /// The list fact a loop or counted section names, checked as a gate is (a loop prints
    /// nothing for an empty list); `None` when it names none (reported).
    fn list_fact(&self, n: &str, written: &str, at: &At, sink: &mut Sink<'_>) -> Option<FactId> {
        let names = self.names;
        let Some(f) = names.facts.iter().position(|f| f.name == n).map(FactId) else {
            if !names.broken.iter().any(|b| b == n) {
                let lists = names
                    .facts
                    .iter()
                    .filter(|f| f.list.is_some() && !f.skill_index);
                report(
                    sink,
                    at,
                    format!("`{{{written}}}` names no declared list fact"),
                    &hint(n, lists.map(|f| f.name.as_str()), "declared list facts"),
                );
            }
            return None;
        };
        let fact = &names.facts[f];
        if fact.skill_index {
            report(
                sink,
                at,
                format!("`{{{written}}}` names the skill index, which prints as its own lines"),
                &format!("print `{{{n}}}` where the index goes; its line is set by `[skills] index = {{ item = \"...\" }}`"),
            );
            return None;
        }
        if fact.list.is_none() {
            report(
                sink,
                at,
                format!("`{{{written}}}` needs a list, and fact `{n}` is not a list fact"),
                &format!("print it with `{{{n}}}`, test it with `{{?{n}}}…{{/{n}}}`, or declare it a list: `list = {{ ... }}` under `[facts.{n}]`"),
            );
            return None;
        }
        check_use(self.layer, f, self.roles, at, (true, true), names, sink);
        Some(f)
    }

    /// Handlebars' `{{n}}`, placeholder `seg` printed escaped for HTML: a text fact's value
    /// is escaped where it prints; a knob's values are the manifest's, so one that would
    /// change is an error (`{{{n}}}` prints it as given); a list or a fact escaped by its
    /// own `escape` is an error.
    fn html(&self, seg: Segment, n: &str, at: &At, sink: &mut Sink<'_>) -> Option<Segment> {
        let special = |v: &str| v.contains(['&', '<', '>', '"', '\'', '`', '=']);
        match seg {
            Segment::Fact(f) => {
                let fact = &self.names.facts[f];
                let why = if fact.list.is_some() {
                    Some("is a list, which prints through its `item` template or `{{#each}}`")
                } else if fact.escape.iter().flatten().next().is_some() {
                    Some("is escaped by its own `escape`")
                } else {
                    None
                };
                match why {
                    None => Some(Segment::Html(f)),
                    Some(why) => {
                        report(
                            sink,
                            at,
                            format!("`{{{{{n}}}}}` escapes for HTML, and fact `{n}` {why}"),
                            &format!("print it as given: `{{{{{{{n}}}}}}}`"),
                        );
                        None
                    }
                }
            }
            Segment::Knob(k) => {
                let knob = &self.names.knobs[k];
                if (0..knob.values.len()).any(|i| special(knob.printed(i))) {
                    report(sink, at, format!("`{{{{{n}}}}}` escapes for HTML, and a value of knob `{n}` holds a character it would escape"), &format!("print it as given: `{{{{{{{n}}}}}}}`, or write the value as it should print"));
                    return None;
                }
                Some(Segment::Knob(k))
            }
            other => Some(other),
        }
    }

    /// A section's condition (`{?written}`, at `at`), each test resolved as the section on
    /// one name resolves it, in postfix order; `None` when a test names nothing it can
    /// test (reported, every one).
    fn condition(
        &self,
        cond: &Cond,
        written: &str,
        at: &At,
        sink: &mut Sink<'_>,
    ) -> Option<Vec<Step>> {
        let mut steps = Vec::new();
        let ok = self.steps(cond, written, at, sink, &mut steps);
        ok.then_some(steps)
    }

    fn steps(
        &self,
        cond: &Cond,
        written: &str,
        at: &At,
        sink: &mut Sink<'_>,
        out: &mut Vec<Step>,
    ) -> bool {
        let names = self.names;
        let fact = |n: &str| names.facts.iter().position(|f| f.name == n).map(FactId);
        match cond {
            Cond::Given(n) => match section_on(n, written, self.layer, self.roles, at, names, sink)
            {
                Some(on) => out.push(Step::Given(on)),
                None => return false,
            },
            Cond::Count(n, count) => match self.list_fact(n, &format!("?{written}"), at, sink) {
                Some(f) => out.push(Step::Count(f, *count)),
                None => return false,
            },
            Cond::Has(n, value) => {
                let Some(f) = self.list_fact(n, &format!("?{written}"), at, sink) else {
                    return false;
                };
                let spec = names.facts[f].list.as_ref();
                if spec.is_some_and(|s| s.fields.len() > 1) {
                    report(
                        sink,
                        at,
                        format!("`{{?{written}}}` tests whether list `{n}` has `{value}`, and its items have fields"),
                        &format!("`has` reads a plain list's items; test a field inside a loop over `{n}`, or give the caller a flag"),
                    );
                    return false;
                }
                out.push(Step::Has(f, value.clone()));
            }
            Cond::Is(n, value) => {
                let Some(f) = fact(n) else {
                    // A flag or knob has no value to compare; anything else is unknown.
                    if names.flags.iter().any(|g| &g.name == n) {
                        report(
                            sink,
                            at,
                            format!("`{{?{written}}}` compares flag `{n}`, which is on or off"),
                            &format!("test the flag alone: `{n}` or `not {n}`"),
                        );
                    } else {
                        section_on(n, written, self.layer, self.roles, at, names, sink);
                    }
                    return false;
                };
                let fact = &names.facts[f];
                if fact.list.is_some() {
                    report(
                        sink,
                        at,
                        format!("`{{?{written}}}` compares list fact `{n}` to a value, and a list has no single value"),
                        &format!("test whether it holds the value: `{n} has {value}`"),
                    );
                    return false;
                }
                if let Some((_, values)) = &fact.values {
                    if !values.iter().any(|v| v == value) {
                        report(
                            sink,
                            at,
                            format!("`{{?{written}}}`: `{value}` is not a value of fact `{n}`"),
                            &hint(value, values.iter().map(String::as_str), "values"),
                        );
                        return false;
                    }
                }
                check_use(self.layer, f, self.roles, at, (true, true), names, sink);
                locked::prints(self.layer, f, &format!("?{written}"), at, names, sink);
                // What the template reads is the text the fact prints.
                let printed = fact
                    .texts
                    .as_ref()
                    .and_then(|t| t.iter().find(|(k, _)| k == value))
                    .map_or(value.clone(), |(_, t)| t.clone());
                out.push(Step::Is(f, printed));
            }
            Cond::Not(c) => {
                if !self.steps(c, written, at, sink, out) {
                    return false;
                }
                out.push(Step::Not);
            }
            Cond::All(cs) | Cond::Any(cs) => {
                let join = if matches!(cond, Cond::All(_)) {
                    Step::And
                } else {
                    Step::Or
                };
                // Every test is checked (and each mistake reported), not only the first.
                let mut ok = true;
                for (i, c) in cs.iter().enumerate() {
                    ok &= self.steps(c, written, at, sink, out);
                    if i > 0 {
                        out.push(join.clone());
                    }
                }
                return ok;
            }
        }
        true
    }

    /// `{?list:one}` / `{?list:many}`: a list fact, counted.
    fn counted(&self, n: &str, count: Count, offset: usize, sink: &mut Sink<'_>) -> Option<FactId> {
        let at = (self.locate)(offset);
        self.list_fact(n, &format!("?{n}:{}", count.word()), &at, sink)
    }

    /// `{#list}…{/list}`: the loop over a list fact, its body the loop's item template
    /// (resolved against the list's fields).
    /// `text` is the layer's, which `body`'s offsets index.
    fn looped(
        &self,
        n: &str,
        offset: usize,
        body: &[Piece],
        text: &str,
        sink: &mut Sink<'_>,
    ) -> Option<Segment> {
        let at = (self.locate)(offset);
        let f = self.list_fact(n, &format!("#{n}"), &at, sink)?;
        super::escape::placed_in_loop(&self.names.facts[f], body, text, self.locate, sink);
        let spec = self.names.facts[f].list.as_ref()?;
        let fields = super::item::Fields {
            list: n,
            names: &spec.fields,
            kinds: &spec.kinds,
            in_loop: true,
        };
        let item = match fields.resolve(body) {
            Ok(item) => item,
            Err(e) => {
                let message = format!("in the loop over `{n}`: {}", e.message);
                report(sink, &(self.locate)(e.at), message, &e.help);
                return None;
            }
        };
        Some(Segment::Loop {
            fact: f,
            style: Box::new(looped_style(spec, item)),
            site: 0,
        })
    }

    /// `{name}`: a fact, checked where it is printed (`checked`: inside its own section),
    /// or a knob.
    pub(super) fn placeholder(
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
            let how = (checked(f), self.sections);
            check_use(layer, f, self.roles, &at, how, names, sink);
            locked::prints(layer, f, n, &at, names, sink);
            if names.facts[f].list.as_ref().is_some_and(|l| !l.printable) {
                report(
                    sink,
                    &at,
                    format!("`{{{n}}}` prints list fact `{n}`, which has fields and no item template"),
                    &format!("loop over it here, `{{#{n}}}…{{/{n}}}` with its fields inside, or give it one: `item = \"...\"` or `item_file = \"...\"` in its `list`"),
                );
                return None;
            }
            return Some(Segment::Fact(f));
        }
        if let Some(k) = names.knobs.iter().position(|k| k.name == n) {
            return Some(Segment::Knob(KnobId(k)));
        }
        if n.contains('.') {
            let (message, help) = outside_loop(n, &format!("placeholder `{{{n}}}`"), names);
            report(sink, &(self.locate)(offset), message, &help);
            return None;
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
    written: &str,
    layer: &Layer,
    roles: &[RoleId],
    at: &At,
    names: &Names<'_>,
    sink: &mut Sink<'_>,
) -> Option<SectionOn> {
    if let Some(f) = names.facts.iter().position(|f| f.name == name) {
        let f = FactId(f);
        check_use(layer, f, roles, at, (true, true), names, sink);
        locked::prints(layer, f, &format!("?{written}"), at, names, sink);
        return Some(SectionOn::Fact(f));
    }
    if let Some(f) = names.flags.iter().position(|f| f.name == name) {
        return Some(SectionOn::Flag(FlagId(f)));
    }
    if name.contains('.') {
        let (message, help) = outside_loop(name, &format!("section `{{?{written}}}`"), names);
        report(sink, at, message, &help);
    } else if names.knobs.iter().any(|k| k.name == name) {
        report(
            sink,
            at,
            format!("section `{{?{written}}}` tests knob `{name}`, which always has a value"),
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
            match name == written {
                true => format!(
                    "section `{{?{}}}` names no declared fact or flag",
                    shown(name)
                ),
                false => format!(
                    "`{}` in section `{{?{}}}` names no declared fact or flag",
                    shown(name),
                    shown(written)
                ),
            },
            &hint(name, all, "declared facts and flags"),
        );
    }
    None
}

/// A dotted path `outer.field` (in `what`) outside a loop: it names a nested field of a
/// loop's item, never a fact. The message and the help, which names the list whose items
/// have the field when one does.
fn outside_loop(path: &str, what: &str, names: &Names<'_>) -> (String, String) {
    let message = format!(
        "{what} reads `{}`, a nested field of a list's item, outside a loop",
        shown(path)
    );
    let lists = names.facts.iter().filter(|f| !f.skill_index);
    let holder = lists
        .filter_map(|f| Some((f, f.list.as_ref()?)))
        .find(|(_, l)| l.fields.iter().any(|x| x == path));
    let help = match holder {
        Some((f, _)) => format!(
            "print it inside a loop over list fact `{0}`: `{{#{0}}}…{{{path}}}…{{/{0}}}`",
            f.name
        ),
        None => {
            let outer = path.split_once('.').map_or(path, |(o, _)| o);
            let declared = names.facts.iter().map(|f| f.name.as_str());
            let declared = declared.chain(names.knobs.iter().map(|k| k.name.as_str()));
            match declared.chain(names.flags.iter().map(|f| f.name.as_str())).any(|n| n == outer) {
                true => format!("`{outer}` has no fields: name it alone, `{outer}`; a path `outer.field` reads a nested field of a loop's item, inside `{{#list}}…{{/list}}`"),
                false => "a path `outer.field` reads a nested field of a loop's item, inside `{#list}…{/list}`; outside a loop, name a fact, knob or flag".into(),
            }
        }
    };
    (message, help)
}

/// One use of fact `f` by `layer`, seen by `roles`: the fact must reach those roles, a
/// per-turn fact must stay out of the cached prefix, and an optional fact must gate the
/// layer that prints it. `is_gate`: the use is a gate (or inside the fact's own section);
/// `sections`: the text it is in may hold sections, for the help.
fn check_use(
    layer: &Layer,
    f: FactId,
    roles: &[RoleId],
    at: &At,
    (is_gate, sections): (bool, bool),
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
        // A manifest without roles has one prompt, which is not a role by name.
        let whom = match names.roles.get(r.0) {
            Some(name) => format!("{word} `{name}`"),
            None => "the prompt".to_string(),
        };
        // A fact no role takes is reported once, where it is declared.
        let taken = fact.need.iter().any(|n| !matches!(n, Need::Absent));
        match fact.need[r.0] {
            Need::Absent if taken => report(
                sink,
                at,
                format!("{word} `{who}` does not take fact `{}`, which layer `{}` uses", fact.name, layer.name),
                &format!("add `{who}` to the fact's `required` or `optional`, or leave it out of the layer's `{word}s`"),
            ),
            // A JSON string prints `""` when not given: it needs no gate.
            Need::Optional if !is_gate && fact.default.is_none() && !layer.requires_fact(f) && !prints_json(fact) => report(
                sink,
                at,
                format!("fact `{}` is optional for {whom}, but layer `{}` prints it without checking it is there", fact.name, layer.name),
                &ungated_help(layer, fact, &whom, sections),
            ),
            _ => {}
        }
    }
}

/// How to print optional `fact` in `layer` only where it is given: a gate that requires it
/// (in each of `when`'s alternatives, where the layer has them), a section (where the text
/// may hold one), or the fact required for `whom` (a list cannot be).
fn ungated_help(layer: &Layer, fact: &Fact, whom: &str, sections: bool) -> String {
    let name = &fact.name;
    let gate = match layer.when_any.is_empty() {
        true => format!("gate the layer with `when = \"{name}\"`"),
        false => format!("add `\"{name}\"` to every alternative of the layer's `when`"),
    };
    let section = format!("print it inside `{{?{name}}}…{{/{name}}}`");
    match (fact.list.is_some(), sections) {
        (true, true) => format!("{gate}, or {section}"),
        (false, true) => format!("{gate}, {section}, or make the fact required for {whom}"),
        (true, false) => format!("{gate} (a header takes no section)"),
        (false, false) => {
            format!("{gate} (a header takes no section), or make the fact required for {whom}")
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

/// How a loop prints its list: its body as the item template, items back to back (the body
/// carries its own line breaks), and the list's sort and cap. After `max` items the list's
/// `more` line stands where the next item would, ending as the body ends (with a line
/// break when the body ends with one).
fn looped_style(spec: &ListSpec, item: Vec<ItemPiece>) -> ListSpec {
    let ends_line = item
        .iter()
        .rev()
        .find(|p| !matches!(p, ItemPiece::Open(..) | ItemPiece::Close))
        .is_some_and(|p| matches!(p, ItemPiece::Text(t) if t.ends_with('\n')));
    let mut more = spec.more.clone();
    if ends_line {
        more.push('\n');
    }
    ListSpec {
        item,
        printable: true,
        fields: spec.fields.clone(),
        kinds: spec.kinds.clone(),
        join: String::new(),
        sort: spec.sort,
        max: spec.max,
        more,
        max_bytes: spec.max_bytes,
        budget_items: spec.budget_items,
        // A loop's items are back to back, with no join.
        join_ends_line: false,
        skip_blank: spec.skip_blank,
    }
}

//! The one composition routine every generated `finish()` calls.

use super::formulation::Formulation;
use super::layer::{Origin, Skip, Tier};
use super::part::{each_kept_piece, each_piece, write_joined, Body, Part, Value};
use super::plan::{resolve, Inputs, LayerPlan};
use super::prompt::{Prompt, Written};
use super::section::{Mark, Section, SectionState};
use super::user_content::{UserContent, UserSource, UserValue};

/// What goes around a non-empty part: its title's delimiters in this formulation.
#[inline]
fn delimiters(part: &Part<'_>, formulation: Formulation) -> (&'static str, &'static str) {
    part.info
        .title
        .map_or(("", ""), |t| t.delimiters(formulation))
}

/// The length of the text `parts` join to.
#[inline]
fn measure<'p>(
    separator: &str,
    formulation: Formulation,
    values: &[Value<'_>],
    parts: impl IntoIterator<Item = &'p Part<'p>>,
) -> usize {
    let mut total = 0;
    let mut count = 0usize;
    for part in parts {
        let len = part.body.len(values);
        if len > 0 {
            let (open, close) = delimiters(part, formulation);
            total += len + open.len() + close.len();
            count += 1;
        }
    }
    total + separator.len() * count.saturating_sub(1)
}

/// Joins the non-empty parts with `separator`, in order, into one allocation of exactly
/// the composed length.
///
/// `formulation` delimits titled layers; `values` resolves the placeholders of
/// `Template` bodies, and `user` says which stretches of which values came from user files
/// (the skill index's user lines). An empty layer emits nothing, not even its title.
/// `parts` must list every stable layer before every volatile one; manifest validation
/// guarantees this for generated code.
///
/// The sections live in an array inside the [`Prompt`], so composing allocates once. For
/// manifests with more than [`MAX_INLINE_LAYERS`] layers generated code calls
/// [`compose_boxed`] instead, which keeps the per-layer records off the stack.
#[inline]
pub fn compose<const N: usize>(
    separator: &str,
    formulation: Formulation,
    values: &[Value<'_>],
    user: &[UserValue<'_>],
    parts: [Part<'_>; N],
) -> Prompt<[Section; N]> {
    let mut sections = [Section::UNSET; N];
    let written = fill(
        separator,
        formulation,
        (values, user),
        &parts,
        &mut sections,
    );
    Prompt::from_parts(written, sections)
}

/// The most layers a generated `finish()` keeps in arrays on the stack (a `Part` and a
/// `Section` per layer, about 150 bytes); larger manifests use [`compose_boxed`].
pub const MAX_INLINE_LAYERS: usize = 128;

/// As [`compose`], for large manifests: the parts come from a vector and the sections go
/// to the heap (two more allocations), so a 10,000-layer prompt composes on a small thread
/// stack, even in a debug build.
pub fn compose_boxed(
    separator: &str,
    formulation: Formulation,
    values: &[Value<'_>],
    user: &[UserValue<'_>],
    parts: &[Part<'_>],
) -> Prompt<Box<[Section]>> {
    let mut sections = vec![Section::UNSET; parts.len()].into_boxed_slice();
    let written = fill(separator, formulation, (values, user), parts, &mut sections);
    Prompt::from_parts(written, sections)
}

/// The composition itself; `sections` (as long as `parts`) receives one record per layer.
// Plain loops over references: `array::map` here was not inlined and moved every
// `Section` through the stack (see BENCHMARKS.md).
#[inline(always)]
fn fill(
    separator: &str,
    formulation: Formulation,
    (values, user_values): (&[Value<'_>], &[UserValue<'_>]),
    parts: &[Part<'_>],
    sections: &mut [Section],
) -> Written {
    let total = measure(separator, formulation, values, parts);
    let mut out = Written {
        text: String::with_capacity(total),
        stable_end: 0,
        volatile_start: usize::MAX,
        // Allocated only when a prompt has instructions, or user content.
        marks: Vec::new(),
        user: Vec::new(),
    };
    for (i, (section, part)) in sections.iter_mut().zip(parts).enumerate() {
        section.info = part.info;
        section.origin = part.origin;
        if let Body::Skip(skip) = part.body {
            section.state = SectionState::Skipped(skip);
            continue;
        }
        if part.body.len(values) == 0 {
            section.state = SectionState::Skipped(Skip::Empty);
            continue;
        }
        if !out.text.is_empty() {
            out.text.push_str(separator);
        }
        let start = out.text.len();
        // Untitled layers (most) take no delimiter pushes at all.
        let title = part.info.title.map(|t| t.delimiters(formulation));
        if let Some((open, _)) = title {
            out.text.push_str(open);
        }
        write_part(i, part, (values, user_values), &mut out);
        if let Some((_, close)) = title {
            out.text.push_str(close);
        }
        match part.info.tier {
            Tier::Stable => {
                debug_assert!(
                    out.volatile_start == usize::MAX,
                    "stable layer after volatile"
                );
                out.stable_end = out.text.len();
            }
            Tier::Volatile => out.volatile_start = out.volatile_start.min(start),
        }
        section.state = SectionState::Included {
            start,
            end: out.text.len(),
        };
    }
    debug_assert_eq!(out.text.len(), total);
    debug_assert_eq!(out.text.capacity(), total);
    out.volatile_start = out.volatile_start.min(out.text.len());
    out
}

/// Writes one part's body (section `i`), recording its instructions' provenance lines and
/// the stretches a user's file supplied.
#[inline(always)]
fn write_part(
    i: usize,
    part: &Part<'_>,
    (values, user_values): (&[Value<'_>], &[UserValue<'_>]),
    out: &mut Written,
) {
    let at = out.text.len();
    match part.body {
        Body::Instructions(instructions, style) => {
            style.render_marked(instructions, &mut out.text, |s, e| {
                out.marks.push(Mark {
                    section: i,
                    start: at + s,
                    end: at + e,
                });
            });
        }
        // Only a layer the manifest marks as able to carry user content has any (an
        // overlay, a selector, the skill index): the others take the plain path.
        _ if !part.info.user => part.body.write(values, &mut out.text),
        _ => write_user_part(part, (values, user_values), out),
    }
}

/// [`write_part`] for a layer that can carry user content: records each stretch a user's
/// file supplied.
fn write_user_part(
    part: &Part<'_>,
    (values, user_values): (&[Value<'_>], &[UserValue<'_>]),
    out: &mut Written,
) {
    let (text, user) = (&mut out.text, &mut out.user);
    let at = text.len();
    let mut record = |range: std::ops::Range<usize>, source: UserSource| {
        debug_assert!(
            !part.info.locked,
            "user content in locked layer `{}`",
            part.info.name
        );
        user.push(UserContent {
            range,
            layer: part.info.name,
            source,
        });
    };
    let appended = match part.body {
        Body::Skip(_) | Body::Instructions(..) => None,
        Body::Text(head, tail) => {
            text.push_str(head);
            write_joined(head.len(), &tail, text)
        }
        Body::Template(segs, tail) | Body::TemplateTrimmed(segs, tail) => {
            // Each piece as far as it is kept (all of it, unless the template is trimmed),
            // and each user stretch of a value as far as it falls in the kept part.
            let mut put = |p: &str, v: Option<usize>, kept: std::ops::Range<usize>| {
                let base = text.len();
                let spans = user_values.iter().filter(|(u, _)| Some(*u) == v);
                for (range, source) in spans.flat_map(|(_, s)| s.iter()) {
                    let (from, to) = (range.start.max(kept.start), range.end.min(kept.end));
                    if from < to {
                        let shift = |x: usize| base + x - kept.start;
                        record(shift(from)..shift(to), source.clone());
                    }
                }
                text.push_str(&p[kept]);
            };
            match part.body {
                Body::TemplateTrimmed(..) => each_kept_piece(segs, values, &mut put),
                _ => each_piece(segs, values, |p, v| put(p, v, 0..p.len())),
            }
            write_joined(text.len() - at, &tail, text)
        }
    };
    // A replacing overlay or a selected file is the layer's whole text; an appended
    // overlay is its last piece.
    match part.origin {
        Origin::OverlayReplaced(file) => record(at..text.len(), UserSource::OverlayFile(file)),
        Origin::Selected(name) => record(at..text.len(), UserSource::SelectorPath(name)),
        Origin::OverlayAppended(_, file) => {
            if let Some(from) = appended {
                record(from..text.len(), UserSource::OverlayFile(file));
            }
        }
        _ => {}
    }
}

/// Joins only the given parts, as [`compose`] would, into one allocation: the per-turn
/// path when the stable prefix is composed once and reused. Costs what the parts cost,
/// whatever the size of the prefix.
#[inline]
pub fn join(
    separator: &str,
    formulation: Formulation,
    values: &[Value<'_>],
    parts: &[Part<'_>],
) -> String {
    join_with(separator, formulation, values, || parts.iter().copied())
}

/// [`join`] over parts made twice by `parts` (once to measure, once to write), so that
/// nothing but the text is allocated.
#[inline]
fn join_with<'p, I: Iterator<Item = Part<'p>>>(
    separator: &str,
    formulation: Formulation,
    values: &[Value<'_>],
    parts: impl Fn() -> I,
) -> String {
    let mut total = 0;
    let mut count = 0usize;
    for part in parts() {
        let len = part.body.len(values);
        if len > 0 {
            let (open, close) = delimiters(&part, formulation);
            total += len + open.len() + close.len();
            count += 1;
        }
    }
    let total = total + separator.len() * count.saturating_sub(1);
    let mut text = String::with_capacity(total);
    for part in parts() {
        if part.body.len(values) > 0 {
            if !text.is_empty() {
                text.push_str(separator);
            }
            let (open, close) = delimiters(&part, formulation);
            text.push_str(open);
            part.body.write(values, &mut text);
            text.push_str(close);
        }
    }
    text
}

/// A whole prompt from a manifest's plan: each layer resolved for `inputs`, then composed
/// as [`compose`] does. What generated `finish()` calls.
#[inline]
pub fn compose_plan<const N: usize>(
    plan: &'static [LayerPlan; N],
    (separator, formulation): (&str, Formulation),
    inputs: &Inputs<'_>,
) -> Prompt<[Section; N]> {
    let parts = core::array::from_fn(|i| resolve(&plan[i], inputs));
    compose(separator, formulation, inputs.values, inputs.user, parts)
}

/// As [`compose_plan`], for large manifests ([`compose_boxed`]).
pub fn compose_plan_boxed(
    plan: &'static [LayerPlan],
    (separator, formulation): (&str, Formulation),
    inputs: &Inputs<'_>,
) -> Prompt<Box<[Section]>> {
    let parts: Vec<Part<'_>> = plan.iter().map(|p| resolve(p, inputs)).collect();
    compose_boxed(separator, formulation, inputs.values, inputs.user, &parts)
}

/// Joins only `plan`'s layers (the stable or the volatile ones), as [`join`] does: what
/// generated `finish_stable()` and `finish_volatile()` call.
pub fn join_plan(
    plan: &'static [LayerPlan],
    (separator, formulation): (&str, Formulation),
    inputs: &Inputs<'_>,
) -> String {
    join_with(separator, formulation, inputs.values, || {
        plan.iter().map(|p| resolve(p, inputs))
    })
}

/// FNV-1a, 64-bit: a stable, non-cryptographic fingerprint of a prompt prefix for
/// cache-key logging and for noticing a prefix change in review. `const`, so generated
/// code and user code compute the same number at compile time or at run time.
pub const fn fingerprint(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::formulation::Title;
    use crate::runtime::layer::LayerInfo;
    use crate::runtime::part::{joined, Seg, NO_JOIN};

    static STABLE: LayerInfo = LayerInfo {
        name: "base",
        tier: Tier::Stable,
        tier_name: "stable",
        tier_index: 0,
        locked: false,
        user: false,
        title: None,
    };
    static VOLATILE: LayerInfo = LayerInfo {
        name: "now",
        tier: Tier::Volatile,
        tier_name: "volatile",
        tier_index: 1,
        locked: false,
        user: false,
        title: None,
    };

    fn text(info: &'static LayerInfo, s: &'static str) -> Part<'static> {
        Part {
            info,
            origin: Origin::Inline,
            body: Body::Text(s, [NO_JOIN; 2]),
        }
    }

    #[test]
    fn joins_non_empty_parts_and_skips_the_rest_without_separators() {
        let p = compose(
            "|",
            Formulation::Markdown,
            &[],
            &[],
            [
                text(&STABLE, "a"),
                text(&STABLE, ""),
                Part {
                    info: &STABLE,
                    origin: Origin::Unresolved,
                    body: Body::Skip(Skip::NotInRole),
                },
                Part {
                    info: &STABLE,
                    origin: Origin::Inline,
                    body: Body::Text("b", [("", "c"), NO_JOIN]),
                },
                text(&VOLATILE, "v"),
            ],
        );
        assert_eq!(p.as_str(), "a|bc|v");
        assert_eq!(p.stable(), "a|bc");
        assert_eq!(p.volatile(), "v");
        let states: Vec<SectionState> = p.sections().iter().map(|s| s.state).collect();
        assert_eq!(
            states,
            [
                SectionState::Included { start: 0, end: 1 },
                SectionState::Skipped(Skip::Empty),
                SectionState::Skipped(Skip::NotInRole),
                SectionState::Included { start: 2, end: 4 },
                SectionState::Included { start: 5, end: 6 },
            ]
        );
        assert_eq!(p.layer("now"), Some("v"));
    }

    #[test]
    fn prompt_without_volatile_text_is_all_stable() {
        let p = compose(
            "|",
            Formulation::Markdown,
            &[],
            &[],
            [text(&STABLE, "a"), text(&VOLATILE, "")],
        );
        assert_eq!((p.stable(), p.volatile()), ("a", ""));
        let p = compose(
            "|",
            Formulation::Markdown,
            &[],
            &[],
            [text(&STABLE, ""), text(&VOLATILE, "v")],
        );
        assert_eq!((p.stable(), p.volatile(), p.as_str()), ("", "v", "v"));
    }

    #[test]
    fn templates_resolve_values_and_join_skips_like_compose() {
        static SEGS: [Seg; 3] = [Seg::Lit("root: "), Seg::Value(1), Seg::Lit(".")];
        let values = [Value::Text("unused"), Value::Text("/repo")];
        let part = Part {
            info: &STABLE,
            origin: Origin::Inline,
            body: Body::Template(&SEGS, [("", "!"), NO_JOIN]),
        };
        let p = compose(
            "|",
            Formulation::Markdown,
            &values,
            &[],
            [part, text(&VOLATILE, "v")],
        );
        assert_eq!(p.as_str(), "root: /repo.!|v");
        assert_eq!(
            join(
                "|",
                Formulation::Markdown,
                &values,
                &[text(&VOLATILE, ""), text(&VOLATILE, "v"), part]
            ),
            "v|root: /repo.!"
        );
    }

    #[test]
    fn joined_pieces_get_a_separator_only_after_text() {
        static SEGS: [Seg; 1] = [Seg::Value(0)];
        let with = |head: &'static str| Body::Text(head, [("\n\n", "Pace: calm."), ("|", "over")]);
        let template = Body::Template(&SEGS, [("\n\n", "Pace: calm."), ("|", "over")]);
        let render = |body: Body<'static>, value: &'static str| {
            let part = Part {
                info: &STABLE,
                origin: Origin::Inline,
                body,
            };
            let whole = compose(
                "#",
                Formulation::Markdown,
                &[Value::Text(value)],
                &[],
                [part],
            )
            .into_string();
            assert_eq!(
                join("#", Formulation::Markdown, &[Value::Text(value)], &[part]),
                whole
            );
            whole
        };
        assert_eq!(render(with("text"), ""), "text\n\nPace: calm.|over");
        // An empty shipped text, or a template that renders empty, drops its suffix (the
        // suffix belongs to the text); the overlay stays, with no separator before it.
        assert_eq!(render(with(""), ""), "over");
        assert_eq!(render(template, ""), "over");
        assert_eq!(render(template, "v"), "v\n\nPace: calm.|over");
        // Nothing before the overlay: no separator before it either.
        let bare = Body::Template(&SEGS, [NO_JOIN, ("|", "over")]);
        assert_eq!(render(bare, ""), "over");
        assert_eq!(joined("", &[("\n\n", "s"), NO_JOIN]), "");
        assert_eq!(joined("t", &[("\n\n", ""), ("|", "o")]), "t|o");
    }

    #[test]
    fn a_trimmed_template_leaves_no_blank_line_where_a_section_was_left_out() {
        // `Hello.\n{?more}More.{/more}` once the standalone `{?more}` line is gone.
        static SEGS: [Seg; 3] = [
            Seg::Lit("Hello.\n"),
            Seg::If(0, false, 1),
            Seg::Lit("More."),
        ];
        let part = |trim| Part {
            info: &STABLE,
            origin: Origin::Inline,
            body: if trim {
                Body::TemplateTrimmed(&SEGS, [NO_JOIN; 2])
            } else {
                Body::Template(&SEGS, [NO_JOIN; 2])
            },
        };
        let compose_with = |trim, more| {
            compose(
                "\n\n---\n\n",
                Formulation::Markdown,
                &[Value::Text(more)],
                &[],
                [part(trim), text(&STABLE, "B")],
            )
            .into_string()
        };
        assert_eq!(compose_with(true, ""), "Hello.\n\n---\n\nB");
        assert_eq!(compose_with(false, ""), "Hello.\n\n\n---\n\nB");
        assert_eq!(compose_with(true, "on"), "Hello.\nMore.\n\n---\n\nB");
        // A template that renders to blanks is empty: left out with its separator.
        static BLANK: [Seg; 2] = [Seg::Lit(" \n"), Seg::Value(0)];
        let blank = Part {
            info: &STABLE,
            origin: Origin::Inline,
            body: Body::TemplateTrimmed(&BLANK, [("\n\n", "suffix"), NO_JOIN]),
        };
        let p = compose(
            "|",
            Formulation::Markdown,
            &[Value::Text("\t")],
            &[],
            [text(&STABLE, "A"), blank],
        );
        assert_eq!(p.as_str(), "A");
        assert_eq!(p.sections()[1].state, SectionState::Skipped(Skip::Empty));
    }

    proptest::proptest! {
        /// Trimmed as `str::trim` trims the whole rendered text, measured exactly (the one
        /// allocation's capacity is checked by `fill`), by `compose` and `join` alike.
        #[test]
        fn a_trimmed_template_is_its_rendered_text_trimmed(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec!["", " ", "\n", "\t \n", "x", " y ", "é\u{3000}", "\u{2028}z"]),
                0..8,
            ),
            value in proptest::sample::select(vec!["", " ", "v", " \nv\n "]),
        ) {
            // Literals from the picks, each followed by the value; leaked to be `'static`.
            let segs: Vec<Seg> = pieces
                .iter()
                .flat_map(|p| [Seg::Lit(p), Seg::Value(0)])
                .collect();
            let segs: &'static [Seg] = Box::leak(segs.into_boxed_slice());
            let rendered: String = pieces.iter().flat_map(|p| [*p, value]).collect();
            // The value is a user's, whole: what is recorded of it is what was kept of it.
            static USER: LayerInfo = LayerInfo { user: true, ..STABLE };
            let part = Part {
                info: &USER,
                origin: Origin::Inline,
                body: Body::TemplateTrimmed(segs, [NO_JOIN; 2]),
            };
            let spans = [(0..value.len(), UserSource::SelectorPath("s"))];
            let p = compose("|", Formulation::Markdown, &[Value::Text(value)], &[(0, &spans)], [part]);
            for u in p.user_content() {
                let kept = &p.as_str()[u.range.clone()];
                proptest::prop_assert!(!kept.is_empty() && value.contains(kept), "{:?}", u);
            }
            let kept_values = p.user_content().len();
            proptest::prop_assert!(kept_values <= pieces.len());
            let whole = p.into_string();
            proptest::prop_assert_eq!(&whole, rendered.trim());
            proptest::prop_assert_eq!(whole.capacity(), whole.len());
            proptest::prop_assert_eq!(join("|", Formulation::Markdown, &[Value::Text(value)], &[part]), whole);
        }
    }

    /// A list value composes exactly as its rendered text would: measured, trimmed, its
    /// sections and `join` alike, in the one allocation.
    #[test]
    fn a_list_value_composes_as_its_rendered_text() {
        use crate::runtime::list::{render_list, ItemPiece, List, ListStyle};
        const STYLE: ListStyle = ListStyle {
            item: &[ItemPiece::Text(" "), ItemPiece::Field(0)],
            join: ",\n",
            sort: None,
            max: Some(2),
            more: " and {n} more ",
        };
        // `Tools:{0}{?!0} none{/0}.`, then the list alone (trimmed at both ends).
        static SEGS: [Seg; 5] = [
            Seg::Lit("Tools:"),
            Seg::Value(0),
            Seg::If(0, true, 1),
            Seg::Lit(" none"),
            Seg::Lit("."),
        ];
        static ALONE: [Seg; 1] = [Seg::Value(0)];
        let parts = [
            Part {
                info: &STABLE,
                origin: Origin::Inline,
                body: Body::Template(&SEGS, [("\n", "after"), NO_JOIN]),
            },
            Part {
                info: &VOLATILE,
                origin: Origin::Inline,
                body: Body::TemplateTrimmed(&ALONE, [NO_JOIN; 2]),
            },
        ];
        let lists: [&[&str]; 4] = [&["a", "", "b", "c"], &["a"], &["", ""], &[]];
        for items in lists {
            let list = List::new(items, &STYLE);
            let text = render_list(items, &STYLE);
            let by_text = compose("|", Formulation::Bare, &[Value::Text(&text)], &[], parts);
            let p = compose("|", Formulation::Bare, &[Value::List(&list)], &[], parts);
            assert_eq!(p.as_str(), by_text.as_str(), "{items:?}");
            assert_eq!(p.sections(), by_text.sections(), "{items:?}");
            let joined = join("|", Formulation::Bare, &[Value::List(&list)], &parts);
            assert_eq!(joined, p.as_str());
            let whole = p.into_string();
            assert_eq!(whole.capacity(), whole.len());
        }
        let list = List::new(lists[0], &STYLE);
        let p = compose("|", Formulation::Bare, &[Value::List(&list)], &[], parts);
        assert_eq!(
            p.as_str(),
            "Tools: a,\n b,\n and 1 more .\nafter|a,\n b,\n and 1 more"
        );
    }

    #[test]
    fn boxed_sections_compose_the_same_text() {
        let parts = [text(&STABLE, "a"), text(&STABLE, ""), text(&VOLATILE, "v")];
        let inline = compose("|", Formulation::Markdown, &[], &[], parts);
        let boxed = compose_boxed("|", Formulation::Markdown, &[], &[], &parts);
        assert_eq!(inline.as_str(), boxed.as_str());
        assert_eq!(inline.stable(), boxed.stable());
        assert_eq!(inline.sections(), boxed.sections());
        assert_eq!(inline.explain().to_string(), boxed.explain().to_string());
    }

    #[test]
    fn titled_layers_are_delimited_per_formulation_and_empty_ones_emit_nothing() {
        static TITLE: Title = Title {
            text: "Tool policy",
            heading: "## Tool policy\n\n",
            open: "<tool_policy>\n",
            close: "\n</tool_policy>",
        };
        static TITLED: LayerInfo = LayerInfo {
            name: "tools",
            tier: Tier::Stable,
            tier_name: "stable",
            tier_index: 0,
            locked: false,
            user: false,
            title: Some(&TITLE),
        };
        let parts = |body: &'static str| [text(&STABLE, "lead"), text(&TITLED, body)];
        let render = |f, body| compose("\n\n", f, &[], &[], parts(body)).into_string();
        assert_eq!(
            render(Formulation::Markdown, "Use them."),
            "lead\n\n## Tool policy\n\nUse them."
        );
        assert_eq!(
            render(Formulation::Tagged, "Use them."),
            "lead\n\n<tool_policy>\nUse them.\n</tool_policy>"
        );
        assert_eq!(render(Formulation::Bare, "Use them."), "lead\n\nUse them.");
        for f in [
            Formulation::Markdown,
            Formulation::Tagged,
            Formulation::Bare,
        ] {
            assert_eq!(render(f, ""), "lead");
            let whole = compose("\n\n", f, &[], &[], parts("x"));
            assert_eq!(join("\n\n", f, &[], &parts("x")), whole.as_str());
            assert_eq!(whole.as_str().len(), whole.into_string().capacity());
        }
    }

    /// Where each piece a user's file supplied lands: an appended overlay after a suffix,
    /// an appended overlay alone, a template value's stretch, a replacing overlay; the
    /// title's delimiters are never part of it.
    #[test]
    fn user_content_is_recorded_where_it_lands() {
        static TITLE: Title = Title {
            text: "Tools",
            heading: "## Tools\n\n",
            open: "<tools>\n",
            close: "\n</tools>",
        };
        static TOOLS: LayerInfo = LayerInfo {
            name: "tools",
            tier: Tier::Stable,
            tier_name: "stable",
            tier_index: 0,
            locked: false,
            user: true,
            title: Some(&TITLE),
        };
        static SEGS: [Seg; 3] = [Seg::Lit("Skills: "), Seg::Value(0), Seg::Lit(".")];
        let spans = [(2..5, UserSource::SelectorPath("s"))];
        let part = |origin, body| Part {
            info: &TOOLS,
            origin,
            body,
        };
        let appended = Origin::OverlayAppended(None, "tools.md");
        let p = compose(
            "|",
            Formulation::Tagged,
            &[Value::Text("abcdef")],
            &[(0, &spans)],
            [
                part(
                    appended,
                    Body::Text("shipped", [("+", "sfx"), ("\n\n", "mine")]),
                ),
                part(appended, Body::Text("", [("+", "sfx"), ("\n\n", "alone")])),
                part(Origin::Inline, Body::Template(&SEGS, [NO_JOIN; 2])),
                part(
                    Origin::OverlayReplaced("style.md"),
                    Body::Text("all", [NO_JOIN; 2]),
                ),
            ],
        );
        let got: Vec<&str> = p
            .user_content()
            .iter()
            .map(|u| &p.as_str()[u.range.clone()])
            .collect();
        assert_eq!(got, ["mine", "alone", "cde", "all"], "{}", p.as_str());
        assert!(p
            .as_str()
            .starts_with("<tools>\nshipped+sfx\n\nmine\n</tools>|"));
        let sources: Vec<&UserSource> = p.user_content().iter().map(|u| &u.source).collect();
        assert_eq!(
            sources,
            [
                &UserSource::OverlayFile("tools.md"),
                &UserSource::OverlayFile("tools.md"),
                &UserSource::SelectorPath("s"),
                &UserSource::OverlayFile("style.md")
            ]
        );
    }

    /// A trimmed template cuts a user's value where it cuts the text: the stretch recorded
    /// is what is left of it.
    #[test]
    fn a_trimmed_template_records_what_is_kept_of_a_user_value() {
        static USER: LayerInfo = LayerInfo {
            user: true,
            ..STABLE
        };
        static SEGS: [Seg; 3] = [Seg::Value(0), Seg::Lit(" and "), Seg::Value(0)];
        let spans = [(0..9, UserSource::SelectorPath("s"))];
        let part = Part {
            info: &USER,
            origin: Origin::Inline,
            body: Body::TemplateTrimmed(&SEGS, [NO_JOIN; 2]),
        };
        let p = compose(
            "|",
            Formulation::Bare,
            &[Value::Text("\n  mine \n")],
            &[(0, &spans)],
            [part],
        );
        assert_eq!(p.as_str(), "mine \n and \n  mine");
        let got: Vec<&str> = p
            .user_content()
            .iter()
            .map(|u| &p.as_str()[u.range.clone()])
            .collect();
        assert_eq!(got, ["mine \n", "\n  mine"]);
    }

    #[test]
    fn fingerprint_is_fnv1a() {
        assert_eq!(fingerprint(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fingerprint(b"a"), 0xaf63_dc4c_8601_ec8c);
        const AT_COMPILE_TIME: u64 = fingerprint(b"prefix");
        assert_eq!(AT_COMPILE_TIME, fingerprint("prefix".as_bytes()));
    }

    #[test]
    fn capacity_is_exact() {
        let p = compose(
            "\n\n---\n\n",
            Formulation::Markdown,
            &[],
            &[],
            [text(&STABLE, "abc"), text(&VOLATILE, "de")],
        );
        let s = p.into_string();
        assert_eq!(s.capacity(), s.len());
    }

    #[test]
    fn explain_lists_every_layer() {
        let p = compose(
            "|",
            Formulation::Markdown,
            &[],
            &[],
            [
                text(&STABLE, "abc"),
                Part {
                    info: &VOLATILE,
                    origin: Origin::Slot,
                    body: Body::Skip(Skip::NotSupplied),
                },
            ],
        );
        assert_eq!(
            p.explain().to_string(),
            "#  layer  tier      bytes  ~tokens  status                 source             provenance\n\
             1  base   stable        3        1  included               inline (manifest)\n\
             2  now    volatile      0        0  skipped: not supplied  runtime slot\n\
             stable 3 bytes (~1 tokens), volatile 0 bytes (~0 tokens); ~tokens = bytes / 4, approximate\n"
        );
    }

    /// Exact counts, checked against the tables (`crate::tokens`' tests): `hello world` is
    /// 2 tokens in both encodings, `Привет, мир` 4 in o200k and 6 in cl100k. The separator
    /// belongs to neither part, so the parts' totals are their layers' counts.
    #[cfg(feature = "tokens")]
    #[test]
    fn explain_counts_tokens_in_a_chosen_encoding() {
        use crate::tokens::Encoding;
        let p = compose(
            "|",
            Formulation::Markdown,
            &[],
            &[],
            [text(&STABLE, "hello world"), text(&VOLATILE, "Привет, мир")],
        );
        assert_eq!(
            p.explain().tokens(Encoding::O200k).to_string(),
            "#  layer  tier      bytes  tokens  status    source             provenance\n\
             1  base   stable       11       2  included  inline (manifest)\n\
             2  now    volatile     20       4  included  inline (manifest)\n\
             stable 11 bytes (2 tokens), volatile 20 bytes (4 tokens); tokens in o200k_base\n"
        );
        let cl100k = p.explain().tokens(Encoding::Cl100k).to_string();
        assert!(
            cl100k.ends_with(
                "stable 11 bytes (2 tokens), volatile 20 bytes (6 tokens); tokens in cl100k_base\n"
            ),
            "{cl100k}"
        );
        // Without an encoding the table is the estimate, as before.
        assert!(p.explain().to_string().contains("  ~tokens  "));
        assert_eq!(
            p.explain()
                .tokens(Encoding::O200k)
                .to_string()
                .lines()
                .count(),
            4
        );
    }
}

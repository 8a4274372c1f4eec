//! The template's tree walked into doctrine's tags: each Jinja tag in the subset becomes
//! the braces tag in the same place, so `whitespace = "jinja"` treats it as Jinja did.

use minijinja::machinery::ast::{self, Expr, Stmt};

use super::infer::{Target, Uses};
use super::space::{self, Tag, Ws};
use crate::validate::{MAX_LOOPS, MAX_SECTION_DEPTH};

/// A piece of the markdown written: text as printed, or the inside of a braces tag.
pub(super) enum Out {
    Lit(String),
    Tag(String),
    /// Where a dropped tag (a comment, `raw`, `endraw`) stood: the offset of the text
    /// after it. Nothing is written.
    Gap(usize),
}

pub(super) struct Walker<'s, 'u> {
    source: &'s str,
    uses: &'u mut Uses,
    /// The loop the walk is inside: its item's variable and the list it runs over.
    item: Option<(String, String)>,
    /// The sections the walk is inside, outermost first: the name each tests, and
    /// whether it tests it absent.
    sections: Vec<(String, bool)>,
    /// How many sections and loops the walk is inside, as the markdown nests them.
    depth: usize,
    pub(super) out: Vec<Out>,
    /// `(byte offset, message)`.
    pub(super) problems: Vec<(usize, String)>,
}

/// Why a tag is outside the subset.
type Refused = (usize, String);

/// An `if`'s condition, translated: a name (or a comparison, written as a section tests
/// it), `not`, `and`, `or`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Jc {
    Name(String),
    Not(Box<Jc>),
    And(Box<Jc>, Box<Jc>),
    Or(Box<Jc>, Box<Jc>),
}

impl Jc {
    /// `x is defined and x` is `x`; `not not x` is `x`.
    fn simplified(self) -> Jc {
        match self {
            Jc::Not(inner) => match inner.simplified() {
                Jc::Not(x) => *x,
                x => Jc::Not(Box::new(x)),
            },
            Jc::And(a, b) | Jc::Or(a, b) if a == b => a.simplified(),
            Jc::And(a, b) => Jc::And(Box::new(a.simplified()), Box::new(b.simplified())),
            Jc::Or(a, b) => Jc::Or(Box::new(a.simplified()), Box::new(b.simplified())),
            name => name,
        }
    }

    /// The section's words: `not` rather than `!`, so a leading `!` never negates the
    /// whole of it; parentheses where `and` holds an `or`.
    fn words(&self) -> String {
        let group = |c: &Jc, inside_and: bool| match c {
            Jc::Or(..) if inside_and => format!("({})", c.words()),
            Jc::And(..) | Jc::Or(..) if !inside_and => c.words(),
            _ => c.words(),
        };
        match self {
            Jc::Name(n) => n.clone(),
            Jc::Not(inner) => match **inner {
                Jc::Name(_) => format!("not {}", inner.words()),
                _ => format!("not ({})", inner.words()),
            },
            Jc::And(a, b) => format!("{} and {}", group(a, true), group(b, true)),
            Jc::Or(a, b) => format!("{} or {}", group(a, false), group(b, false)),
        }
    }

    /// The plain names (not comparisons) given wherever it is `holds`: what a body may
    /// print as checked.
    fn given(&self, holds: bool) -> Vec<String> {
        match self {
            Jc::Name(n) if holds && !n.contains(' ') => vec![n.clone()],
            Jc::Name(_) => Vec::new(),
            Jc::Not(x) => x.given(!holds),
            Jc::And(a, b) if holds => [a.given(true), b.given(true)].concat(),
            Jc::Or(a, b) if !holds => [a.given(false), b.given(false)].concat(),
            Jc::And(a, b) | Jc::Or(a, b) => {
                let other = b.given(holds);
                a.given(holds)
                    .into_iter()
                    .filter(|n| other.contains(n))
                    .collect()
            }
        }
    }
}

impl<'s, 'u> Walker<'s, 'u> {
    pub(super) fn new(source: &'s str, uses: &'u mut Uses) -> Self {
        Walker {
            source,
            uses,
            item: None,
            sections: Vec::new(),
            depth: 0,
            out: Vec::new(),
            problems: Vec::new(),
        }
    }

    pub(super) fn body(&mut self, stmts: &[Stmt<'_>]) {
        for stmt in stmts {
            match stmt {
                Stmt::EmitRaw(raw) => {
                    let span = raw.span();
                    self.text(
                        span.start_offset as usize,
                        span.end_offset as usize,
                        raw.raw,
                    );
                }
                _ => {
                    if let Err((at, message)) = self.stmt(stmt) {
                        self.problems.push((at, message));
                        match stmt {
                            // Its tags are kept as written and what they hold is still
                            // translated, each construct in it reported where it is.
                            Stmt::IfCond(c) if !self.has_elif(c) => self.keep_tags(stmt, c),
                            _ => self.keep_as_written(stmt),
                        }
                    }
                }
            }
        }
    }

    /// A text (or a raw block's), as Jinja prints it beside the tags the import drops:
    /// comments and `raw`/`endraw` take whitespace as block tags do, and the layer's
    /// rule cannot see them, so their share is taken here.
    fn text(&mut self, start: usize, end: usize, raw: &str) {
        let head = self.source.get(..start).unwrap_or_default();
        let before = space::before(head);
        let after = space::after(self.source.get(end..).unwrap_or_default());
        let dropped_before = before.is_some_and(Tag::dropped);
        let mut text = raw;
        if let Some(
            Tag::Comment(Ws::Default) | Tag::RawOpen(Ws::Default) | Tag::RawClose(Ws::Default),
        ) = before
        {
            text = space::trim_block(text);
        }
        let line_start = || space::at_line_start(self.source.get(..end).unwrap_or_default());
        text = match after {
            // A raw block's text: the lexer strips its end by itself, line start or not.
            Some(Tag::RawClose(Ws::Default)) => space::lstrip(text),
            Some(Tag::Comment(Ws::Default) | Tag::RawOpen(Ws::Default)) if line_start() => {
                space::lstrip(text)
            }
            // The layer strips before a block tag by what it sees, and a dropped tag before
            // this text hides where its line starts: Jinja's own decision, taken here.
            Some(Tag::Block(Ws::Default)) if dropped_before && line_start() => space::lstrip(text),
            _ => text,
        };
        let mut text = text.to_string();
        if dropped_before {
            self.out.push(Out::Gap(start));
            // Jinja took the dropped tag's line break; a block tag before it would take
            // this one too, so the layer gets one of its own to take.
            if text.starts_with(['\n', '\r']) && self.after_block() {
                text.insert(0, '\n');
            }
        }
        self.out.push(Out::Lit(text));
    }

    /// Whether the last thing written, text aside that prints nothing, is a block tag.
    fn after_block(&self) -> bool {
        for piece in self.out.iter().rev() {
            match piece {
                Out::Gap(_) => {}
                Out::Lit(text) if text.is_empty() => {}
                Out::Lit(_) => return false,
                Out::Tag(tag) => return is_block(tag),
            }
        }
        false
    }

    /// A block tag, after checking that the layer's rule strips before it only what Jinja
    /// strips: with a dropped tag on its line, the layer may take blanks Jinja keeps.
    fn block(&mut self, tag: String) {
        let mut run = Vec::new();
        let mut gap = None;
        let mut previous = None;
        for piece in self.out.iter().rev() {
            match piece {
                Out::Gap(at) => gap = gap.or(Some(*at)),
                Out::Lit(text) => run.push(text.as_str()),
                Out::Tag(tag) => {
                    previous = Some(tag.as_str());
                    break;
                }
            }
        }
        if let Some(at) = gap {
            run.reverse();
            let run = run.concat();
            if layer_strips(&run, previous) {
                self.problems.push((at, "Jinja keeps the blanks between a comment (or `raw` block) and the block tag after it on one line, and the layer's `whitespace = \"jinja\"`, which does not see the comment, would drop them: put the comment on a line of its own, or remove the blanks".into()));
            }
        }
        self.out.push(Out::Tag(tag));
    }

    /// A statement outside the subset stays in the markdown as its template text.
    /// Whether an `if`'s `else` part is an `elif`, whose tags are not kept one by one.
    fn has_elif(&self, c: &ast::IfCond<'_>) -> bool {
        match c.false_body.as_slice() {
            [nested @ Stmt::IfCond(_)] => {
                let at = span_of(nested).start_offset as usize;
                self.source.get(at..).is_some_and(|s| s.starts_with("elif"))
            }
            _ => false,
        }
    }

    /// An `if` whose test is left for the author: its `if`, `else` and `endif` tags kept as
    /// written, its bodies walked.
    fn keep_tags(&mut self, stmt: &Stmt<'_>, c: &ast::IfCond<'_>) {
        let source = self.source;
        // The next tag's `{%` … `%}` at or after `from`.
        let tag_after = |from: usize| -> Option<(usize, usize)> {
            let start = from + source.get(from..)?.find("{%")?;
            let end = start + source[start..].find("%}")? + 2;
            Some((start, end))
        };
        let ends = |body: &[Stmt<'_>], from: usize| {
            body.last()
                .map_or(from, |last| span_of(last).end_offset as usize)
        };
        let first = span_of(stmt).start_offset as usize;
        let open_start = source
            .get(..first)
            .and_then(|b| b.rfind("{%"))
            .unwrap_or(first);
        let test_end = expr_span(&c.expr).end_offset as usize;
        let Some(open_end) = source
            .get(test_end..)
            .and_then(|rest| rest.find("%}"))
            .map(|at| test_end + at + 2)
        else {
            return self.keep_as_written(stmt);
        };
        self.out
            .push(Out::Lit(source[open_start..open_end].to_string()));
        self.body(&c.true_body);
        let mut after = ends(&c.true_body, open_end);
        if !c.false_body.is_empty() {
            let Some((start, end)) = tag_after(after) else {
                return;
            };
            self.out.push(Out::Lit(source[start..end].to_string()));
            self.body(&c.false_body);
            after = ends(&c.false_body, end);
        }
        if let Some((start, end)) = tag_after(after) {
            self.out.push(Out::Lit(source[start..end].to_string()));
        }
    }

    fn keep_as_written(&mut self, stmt: &Stmt<'_>) {
        let span = span_of(stmt);
        let (start, end) = (span.start_offset as usize, span.end_offset as usize);
        // The span runs inside the tags: widen it to their delimiters, which only blanks and
        // `-`/`+` markers separate from it (looked for there alone, so a template of
        // thousands of such tags is read once).
        let marks = |c: char| c.is_whitespace() || c == '-' || c == '+';
        let before = self
            .source
            .get(..start)
            .unwrap_or_default()
            .trim_end_matches(marks);
        let start = match before.ends_with("{{") || before.ends_with("{%") {
            true => before.len() - 2,
            false => start,
        };
        let after = self.source.get(end..).unwrap_or_default();
        let rest = after.trim_start_matches(marks);
        let end = match rest.starts_with("}}") || rest.starts_with("%}") {
            true => end + (after.len() - rest.len()) + 2,
            false => end,
        };
        let written = self.source.get(start..end).unwrap_or_default();
        self.out.push(Out::Lit(written.to_string()));
    }

    fn stmt(&mut self, stmt: &Stmt<'_>) -> Result<(), Refused> {
        match stmt {
            Stmt::Template(t) => self.body(&t.children),
            Stmt::EmitExpr(e) => {
                let tag = self.printed(&e.expr)?;
                self.out.push(Out::Tag(tag));
            }
            Stmt::IfCond(c) => self.condition(c)?,
            Stmt::ForLoop(f) => self.looped(f)?,
            other => {
                let at = span_of(other).start_offset as usize;
                return Err((at, "this tag is outside what doctrine imports (`{{ x }}`, `{{ x.field }}`, `if`/`elif`/`else` on names, `is defined`, `==`, `!=` and `in` joined by `and`, `or` and `not`, `for … in`, `trim`, `tojson`)".into()));
            }
        }
        Ok(())
    }

    /// `{{ x }}`, `{{ item.field }}`, `{{ item }}`, through `trim`.
    fn printed(&mut self, expr: &Expr<'_>) -> Result<String, Refused> {
        let (expr, filter) = match expr {
            Expr::Filter(f) if matches!(f.name, "trim" | "tojson") && f.args.is_empty() => {
                match &f.expr {
                    Some(inner) => (inner, f.name),
                    None => return Err(refused(expr, "a filter with nothing to filter")),
                }
            }
            _ => (expr, ""),
        };
        let target = self.target(expr)?;
        self.declarable(expr, &target)?;
        self.printable(expr, &target)?;
        let checked = match &target {
            Target::Fact(n) => self.sections.iter().any(|(s, absent)| s == n && !absent),
            _ => true,
        };
        let usage = self.uses.of(&target);
        usage.printed = true;
        usage.unchecked |= !checked;
        usage.trimmed |= filter == "trim";
        usage.json |= filter == "tojson";
        Ok(match target {
            Target::Fact(n) | Target::Field { field: n, .. } => n,
            Target::Item { .. } => ".".into(),
        })
    }

    /// Whether the names `target` gives the manifest (a fact, an item's field) are names
    /// the generator takes.
    fn declarable(&self, expr: &Expr<'_>, target: &Target) -> Result<(), Refused> {
        match target {
            Target::Fact(name) => declarable(expr, "fact", name),
            // A nested struct's field (`rules_file.kind`): each name is a Rust field.
            Target::Field { field, .. } => field
                .split('.')
                .try_for_each(|name| declarable(expr, "item field", name)),
            Target::Item { .. } => Ok(()),
        }
    }

    /// Whether `target` may print as it is used elsewhere: a fact is text or a list, and a
    /// list's items print whole or by their fields.
    fn printable(&self, expr: &Expr<'_>, target: &Target) -> Result<(), Refused> {
        let list = |name: &str| self.uses.facts.get(name).and_then(|f| f.list.as_ref());
        let clash = match target {
            Target::Fact(name) if list(name).is_some() => format!("`{name}` is looped over as a list elsewhere, and a list prints through its loop: print it in a `for`, or print a fact of another name"),
            Target::Item { list: name } if list(name).is_some_and(|l| !l.fields.is_empty()) => format!("the items of `{name}` have fields elsewhere, so an item prints by its fields: print one (`item.field`)"),
            Target::Field { list: name, .. } if list(name).is_some_and(|l| l.item.printed) => format!("the items of `{name}` print whole elsewhere, so they have no fields: print the item, or loop over a list of another name"),
            // A nested struct (`x.y` read elsewhere) prints by its fields, and a field printed
            // as text (`x`) has none.
            Target::Field { list: name, field } if !field.contains('.') && list(name).is_some_and(|l| l.fields.keys().any(|f| f.starts_with(&format!("{field}.")))) => format!("`{field}` is a struct of fields elsewhere (`{field}.…`), which prints by its fields: print one of them"),
            Target::Field { list: name, field } if field.split_once('.').is_some_and(|(outer, _)| list(name).and_then(|l| l.fields.get(outer)).is_some_and(|u| u.printed)) => format!("`{}` prints as text elsewhere, so it has no fields: print it, or give the struct another name", field.split('.').next().unwrap_or_default()),
            _ => return Ok(()),
        };
        Err(refused(expr, &clash))
    }

    /// The name `expr` reads: a fact, or inside a loop its item or an item's field.
    fn target(&self, expr: &Expr<'_>) -> Result<Target, Refused> {
        let item = self.item.as_ref();
        match expr {
            Expr::Var(v) => match item {
                Some((var, list)) if var == v.id => Ok(Target::Item { list: list.clone() }),
                Some(_) => Err(refused(expr, "inside a loop only the item and its fields print (print a fact outside the loop)")),
                None => Ok(Target::Fact(v.id.to_string())),
            },
            Expr::GetAttr(g) => match (&g.expr, item) {
                (Expr::Var(v), Some((var, list))) if var == v.id => Ok(Target::Field {
                    list: list.clone(),
                    field: g.name.to_string(),
                }),
                // `item.rules_file.kind`: a field of a nested optional struct, one level deep.
                (Expr::GetAttr(outer), Some((var, list)))
                    if matches!(&outer.expr, Expr::Var(v) if var == v.id) =>
                {
                    Ok(Target::Field {
                        list: list.clone(),
                        field: format!("{}.{}", outer.name, g.name),
                    })
                }
                _ => Err(refused(expr, "only a loop item's fields are read with `.`, one struct deep (`item.field`, `item.struct.field`): doctrine's facts are text, lists and their items")),
            },
            _ => Err(refused(expr, "only a name, or a loop item's field, is imported here")),
        }
    }

    /// `if`, with `elif` and `else`: `{?a}…{/a}{?!a}{?b}…{/b}{?!b}…{/b}{/a}`; a condition
    /// of more than one name is a condition section, `{?a and not b}…{/a and not b}`.
    fn condition(&mut self, c: &ast::IfCond<'_>) -> Result<(), Refused> {
        self.deeper(&c.expr, "an `if` (each `elif` nests one deeper)")?;
        let test = self.test(&c.expr)?.simplified();
        // One name keeps its short form, `{?a}` / `{?!a}`, closed by the name.
        let (open, not_open, close) = match &test {
            Jc::Name(n) => (n.clone(), format!("!{n}"), n.clone()),
            Jc::Not(inner) if matches!(**inner, Jc::Name(_)) => {
                let Jc::Name(n) = &**inner else { unreachable!() };
                (format!("!{n}"), n.clone(), n.clone())
            }
            _ if self.item.is_some() => {
                return Err(refused(&c.expr, "inside a loop a section tests one field (doctrine's item sections test one field each): nest one `if` inside another, or give the item a field that says both"))
            }
            other => {
                let words = other.words();
                (words.clone(), format!("!{words}"), words)
            }
        };
        let given = test.given(true);
        let absent = test.given(false);
        self.block(format!("?{open}"));
        let before = self.sections.len();
        self.sections
            .extend(given.iter().map(|n| (n.clone(), false)));
        self.depth += 1;
        self.body(&c.true_body);
        self.sections.truncate(before);
        self.block(format!("/{close}"));
        if !c.false_body.is_empty() {
            self.block(format!("?{not_open}"));
            self.sections
                .extend(absent.iter().map(|n| (n.clone(), false)));
            self.body(&c.false_body);
            self.sections.truncate(before);
            self.block(format!("/{close}"));
        }
        self.depth -= 1;
        Ok(())
    }

    /// What an `if` tests: a value (given and not empty), `is defined`, a value compared
    /// with `==` or `!=` to a string, a string `in` a list, joined by `not`, `and`, `or`.
    fn test(&mut self, expr: &Expr<'_>) -> Result<Jc, Refused> {
        const WHAT: &str = "an `if` here tests names (`x`, `x is defined`), `x == \"value\"`, `\"value\" in list`, joined by `not`, `and` and `or`; other comparisons and expressions are for the author";
        match expr {
            Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOpKind::Not) => {
                Ok(Jc::Not(Box::new(self.test(&u.expr)?)))
            }
            Expr::Test(t) if t.args.is_empty() && matches!(t.name, "defined" | "undefined") => {
                let inner = self.test(&t.expr)?;
                Ok(match t.name == "undefined" {
                    true => Jc::Not(Box::new(inner)),
                    false => inner,
                })
            }
            Expr::BinOp(b) if matches!(b.op, ast::BinOpKind::ScAnd | ast::BinOpKind::ScOr) => {
                let (l, r) = (self.test(&b.left)?, self.test(&b.right)?);
                Ok(match b.op {
                    ast::BinOpKind::ScAnd => Jc::And(Box::new(l), Box::new(r)),
                    _ => Jc::Or(Box::new(l), Box::new(r)),
                })
            }
            Expr::BinOp(b)
                if matches!(
                    b.op,
                    ast::BinOpKind::Eq | ast::BinOpKind::Ne | ast::BinOpKind::In
                ) =>
            {
                let op = match b.op {
                    ast::BinOpKind::Eq => ast::CompareOpKind::Eq,
                    ast::BinOpKind::Ne => ast::CompareOpKind::Ne,
                    _ => ast::CompareOpKind::In,
                };
                self.compared(expr, &b.left, op, &b.right)
            }
            Expr::Compare(c) if c.ops.len() == 1 => {
                self.compared(expr, &c.expr, c.ops[0].op, &c.ops[0].expr)
            }
            _ => {
                let target = self
                    .target(expr)
                    .map_err(|(at, _)| (at, WHAT.to_string()))?;
                let name = self.tested(expr, &target)?;
                Ok(Jc::Name(name))
            }
        }
    }

    /// `name == "v"`, `name != "v"`, `"v" in list`, `"v" not in list`.
    fn compared(
        &mut self,
        whole: &Expr<'_>,
        left: &Expr<'_>,
        op: ast::CompareOpKind,
        right: &Expr<'_>,
    ) -> Result<Jc, Refused> {
        let text = |e: &Expr<'_>| match e {
            Expr::Const(c) => c
                .value
                .as_str()
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            _ => None,
        };
        let (name_expr, value, has) =
            match op {
                ast::CompareOpKind::Eq | ast::CompareOpKind::Ne => {
                    match (text(left), text(right)) {
                        (None, Some(v)) => (left, v, false),
                        (Some(v), None) => (right, v, false),
                        _ => return Err(refused(
                            whole,
                            "a comparison here is a name `==` or `!=` a string that is not empty",
                        )),
                    }
                }
                ast::CompareOpKind::In | ast::CompareOpKind::NotIn => {
                    match text(left) {
                        Some(v) => (right, v, true),
                        None => return Err(refused(
                            whole,
                            "`in` here tests whether a list holds a string (`\"grep\" in tools`)",
                        )),
                    }
                }
                _ => return Err(refused(
                    whole,
                    "only `==`, `!=` and `in` compare here; order comparisons are for the author",
                )),
            };
        if value.contains('"') && value.contains('\'') {
            return Err(refused(
                whole,
                "a value holding both kinds of quote cannot be written in a section",
            ));
        }
        let target = self.target(name_expr)?;
        if self.item.is_some() {
            return Err(refused(whole, "inside a loop a section tests one field is given: compare outside the loop, or give the item a bool field"));
        }
        let name = self.tested(name_expr, &target)?;
        if has {
            self.uses.list(&name);
        }
        let quoted = match value.contains('"') {
            true => format!("'{value}'"),
            false => format!("\"{value}\""),
        };
        let test = Jc::Name(match has {
            true => format!("{name} has {quoted}"),
            false => format!("{name} = {quoted}"),
        });
        Ok(match op {
            ast::CompareOpKind::Ne | ast::CompareOpKind::NotIn => Jc::Not(Box::new(test)),
            _ => test,
        })
    }

    /// The name a test reads, marked tested.
    fn tested(&mut self, expr: &Expr<'_>, target: &Target) -> Result<String, Refused> {
        self.declarable(expr, target)?;
        let name = match target {
            Target::Fact(n) | Target::Field { field: n, .. } => n.clone(),
            Target::Item { .. } => {
                return Err(refused(
                    expr,
                    "a section cannot test a plain list's item; test the list instead",
                ))
            }
        };
        self.uses.of(target).tested = true;
        Ok(name)
    }

    /// Whether one more section or loop (`what`, at `expr`) may open here: doctrine's
    /// texts nest them a bounded depth.
    fn deeper(&self, expr: &Expr<'_>, what: &str) -> Result<(), Refused> {
        match self.depth < MAX_SECTION_DEPTH {
            true => Ok(()),
            false => Err(refused(expr, &format!("{what} here nests {} deep, and doctrine's sections and loops nest at most {MAX_SECTION_DEPTH} deep: close some first, or split the template", self.depth + 1))),
        }
    }

    /// `for item in list`, with `else` for an empty list.
    fn looped(&mut self, f: &ast::ForLoop<'_>) -> Result<(), Refused> {
        if self.item.is_some() {
            return Err(refused(
                &f.iter,
                "a loop inside a loop: doctrine's loops do not nest",
            ));
        }
        if f.filter_expr.is_some() || f.recursive {
            return Err(refused(
                &f.iter,
                "a loop with `if` or `recursive` is for the author",
            ));
        }
        let (Expr::Var(var), Expr::Var(list)) = (&f.target, &f.iter) else {
            return Err(refused(
                &f.iter,
                "only `for name in list` is imported (no unpacking, no expression)",
            ));
        };
        let (var, list) = (var.id.to_string(), list.id.to_string());
        self.deeper(&f.iter, "a loop")?;
        if self.uses.loops == MAX_LOOPS {
            return Err(refused(&f.iter, &format!("a manifest holds at most {MAX_LOOPS} loops, and the templates hold more: print a list in one loop")));
        }
        declarable(&f.iter, "list", &list)?;
        if self.uses.facts.get(&list).is_some_and(|f| f.at.printed) {
            return Err(refused(&f.iter, &format!("`{list}` is printed as text elsewhere (`{{{{ {list} }}}}`), and doctrine's fact is text or a list, not both: loop over a list of another name")));
        }
        self.uses.list(&list);
        self.uses.loops += 1;
        self.block(format!("#{list}"));
        self.item = Some((var, list.clone()));
        self.depth += 1;
        self.body(&f.body);
        self.depth -= 1;
        self.item = None;
        self.block(format!("/{list}"));
        if !f.else_body.is_empty() {
            self.block(format!("?!{list}"));
            self.body(&f.else_body);
            self.block(format!("/{list}"));
        }
        Ok(())
    }
}

/// Whether `tag` (inside its braces) is a section or loop tag, which the layer's rule
/// takes whitespace around; a placeholder is not.
fn is_block(tag: &str) -> bool {
    tag.starts_with(['?', '/', '#'])
}

/// Whether the layer's `whitespace = "jinja"` strips the end of `run`, the text between
/// the tag `previous` (none: the layer's start) and a block tag, as
/// `doctrine_load`'s reading of Jinja's rules does.
fn layer_strips(run: &str, previous: Option<&str>) -> bool {
    let break_len = match run.as_bytes() {
        [b'\r', b'\n', ..] => 2,
        [b'\n' | b'\r', ..] => 1,
        _ => 0,
    };
    let (kept, line_start) = match previous {
        Some(tag) if is_block(tag) && break_len > 0 => (&run[break_len..], true),
        Some(_) => (run, false),
        None => (run, true),
    };
    let end = kept.trim_end_matches(|c: char| c.is_whitespace() && c != '\n');
    end.len() < kept.len() && (end.ends_with('\n') || (end.is_empty() && line_start))
}

/// Whether `name`, which the manifest will declare as a `what`, is a name the generator
/// takes: it becomes a Rust field, so the generator's own test decides.
fn declarable(expr: &Expr<'_>, what: &str, name: &str) -> Result<(), Refused> {
    let Some(problem) = crate::names::snake_ident_problem(name) else {
        return Ok(());
    };
    let (why, how) = problem.split_once(": ").unwrap_or((problem, ""));
    let how = match how {
        "" | "pick another name" => String::new(),
        how => format!(" ({how})"),
    };
    Err(refused(
        expr,
        &format!("{what} `{name}` {why}, and the generated Rust names a field by it: rename it in the template{how}"),
    ))
}

fn refused(expr: &Expr<'_>, message: &str) -> Refused {
    (expr_span(expr).start_offset as usize, message.to_string())
}

fn expr_span(expr: &Expr<'_>) -> minijinja::machinery::Span {
    match expr {
        Expr::Var(s) => s.span(),
        Expr::Const(s) => s.span(),
        Expr::Slice(s) => s.span(),
        Expr::UnaryOp(s) => s.span(),
        Expr::BinOp(s) => s.span(),
        Expr::Compare(s) => s.span(),
        Expr::IfExpr(s) => s.span(),
        Expr::Filter(s) => s.span(),
        Expr::Test(s) => s.span(),
        Expr::GetAttr(s) => s.span(),
        Expr::GetItem(s) => s.span(),
        Expr::Call(s) => s.span(),
        Expr::List(s) => s.span(),
        Expr::Tuple(s) => s.span(),
        Expr::Map(s) => s.span(),
    }
}

fn span_of(stmt: &Stmt<'_>) -> minijinja::machinery::Span {
    match stmt {
        Stmt::Template(s) => s.span(),
        Stmt::EmitExpr(s) => s.span(),
        Stmt::EmitRaw(s) => s.span(),
        Stmt::ForLoop(s) => s.span(),
        Stmt::IfCond(s) => s.span(),
        Stmt::WithBlock(s) => s.span(),
        Stmt::Set(s) => s.span(),
        Stmt::SetBlock(s) => s.span(),
        Stmt::AutoEscape(s) => s.span(),
        Stmt::FilterBlock(s) => s.span(),
        Stmt::Do(s) => s.span(),
        #[allow(unreachable_patterns)]
        _ => Default::default(),
    }
}

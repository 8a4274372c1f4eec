//! A section's condition beyond one name: `{?a and not b}`, `{?has_rules or has_user_rules}`,
//! `{?mode = plan}`, `{?tools has grep}`, grouped with parentheses. One grammar for every
//! dialect: the mustache and handlebars readers hand the same words over.
//!
//! ```text
//! condition := any
//! any       := all ("or" all)*
//! all       := unary ("and" unary)*
//! unary     := ("not" | "!") unary | "(" any ")" | test
//! test      := NAME [":one" | ":many"] | NAME "=" VALUE | NAME "has" VALUE
//! VALUE     := a word (no blank, parenthesis or quote) | "…" | '…'
//! ```

use super::{Count, NameCheck, TemplateError};
use crate::text::shown;

/// The most tests one condition holds: a condition that long belongs in a flag the caller
/// computes, and the bound keeps the composer's evaluation to a fixed stack.
pub const MAX_TESTS: usize = 16;

/// How deep a condition's parentheses and `not`s nest.
pub(super) const MAX_DEPTH: usize = 16;

/// A section's condition, its names not yet resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    /// A fact given (and not empty), a flag on, a list with an item, a bool field on.
    Given(String),
    /// A list holding exactly one item / two or more.
    Count(String, Count),
    /// A fact given with this value.
    Is(String, String),
    /// A list holding an item equal to this value.
    Has(String, String),
    Not(Box<Cond>),
    All(Vec<Cond>),
    Any(Vec<Cond>),
}

impl Cond {
    /// Every name it tests, in order.
    pub fn names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.each_name(&mut |n| out.push(n));
        out
    }

    fn each_name<'a>(&'a self, f: &mut impl FnMut(&'a str)) {
        match self {
            Cond::Given(n) | Cond::Count(n, _) | Cond::Is(n, _) | Cond::Has(n, _) => f(n),
            Cond::Not(c) => c.each_name(f),
            Cond::All(cs) | Cond::Any(cs) => cs.iter().for_each(|c| c.each_name(f)),
        }
    }

    /// The names that must be given (not empty) wherever it holds: what a section on it
    /// lets its body print unchecked.
    pub fn implies_given(&self) -> Vec<&str> {
        self.given_where(true)
    }

    /// The names given wherever it is `holds` (`not (a or b)` holding means neither is).
    fn given_where(&self, holds: bool) -> Vec<&str> {
        let (cs, union) = match self {
            Cond::Given(n) | Cond::Count(n, _) | Cond::Is(n, _) | Cond::Has(n, _) => {
                return if holds { vec![n] } else { Vec::new() };
            }
            Cond::Not(c) => return c.given_where(!holds),
            // `a and b` holding, or `a or b` failing, needs each part to hold / fail.
            Cond::All(cs) => (cs, holds),
            Cond::Any(cs) => (cs, !holds),
        };
        let mut each = cs.iter().map(|c| c.given_where(holds));
        match union {
            true => each.flatten().collect(),
            false => {
                let first = each.next().unwrap_or_default();
                let rest: Vec<Vec<&str>> = each.collect();
                first
                    .into_iter()
                    .filter(|n| rest.iter().all(|r| r.contains(n)))
                    .collect()
            }
        }
    }
}

/// Whether a section tag's inside (after `?`) is a condition for [`condition`] rather than
/// one name: it holds a blank, a parenthesis, `=` or a quote.
pub fn is_condition(inside: &str) -> bool {
    inside.contains(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '=' | '"' | '\''))
}

/// The words of a condition, each as written: how its close is matched (`{/a and b}`
/// closes `{?a  and b}`), however it was spaced.
pub(super) fn words(inside: &str) -> String {
    match tokens(inside) {
        Ok(t) => t
            .iter()
            .map(|t| match t {
                Token::Word(w) => w.to_string(),
                Token::Quoted(q, w) => format!("{q}{w}{q}"),
                Token::Open => "(".into(),
                Token::Close => ")".into(),
                Token::Bang => "!".into(),
                Token::Equals => "=".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
            .replace("( ", "(")
            .replace(" )", ")")
            .replace("! ", "!"),
        Err(_) => inside.split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    Quoted(char, &'a str),
    Open,
    Close,
    Bang,
    Equals,
}

fn tokens(inside: &str) -> Result<Vec<Token<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = inside;
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else {
            return Ok(out);
        };
        let (token, len) = match c {
            '(' => (Token::Open, 1),
            ')' => (Token::Close, 1),
            '!' => (Token::Bang, 1),
            '=' => (Token::Equals, 1),
            '"' | '\'' => match rest[1..].find(c) {
                Some(end) => (Token::Quoted(c, &rest[1..1 + end]), end + 2),
                None => return Err(format!("the value `{}` has no closing `{c}`", shown(rest))),
            },
            _ => {
                let end = rest
                    .find(|c: char| {
                        c.is_whitespace() || matches!(c, '(' | ')' | '=' | '"' | '\'' | '!')
                    })
                    .unwrap_or(rest.len());
                (Token::Word(&rest[..end]), end)
            }
        };
        out.push(token);
        rest = &rest[len..];
    }
}

/// Reads the condition of the section tag `{?inside}` at `at`, each name checked with
/// `check`.
pub fn condition(inside: &str, at: usize, check: NameCheck) -> Result<Cond, TemplateError> {
    let fail = |message: String, help: &str| TemplateError {
        at,
        message: format!("`{{?{}}}`: {message}", shown(inside)),
        help: Some(help.to_string()),
    };
    const HELP: &str = "write a condition as `a and b`, `a or not b`, `(a or b) and c`, `fact = value` or `list has value`";
    let tokens = tokens(inside)
        .map_err(|m| fail(m, "close the quote, or write the value without quotes"))?;
    let mut p = Parser {
        tokens,
        next: 0,
        tests: 0,
        check,
    };
    let cond = p.any(0).map_err(|m| fail(m, HELP))?;
    if let Some(t) = p.tokens.get(p.next) {
        let what = match t {
            Token::Close => "a `)` that closes nothing".to_string(),
            _ => format!(
                "`{}` after a whole condition",
                shown(&words_of(&p.tokens[p.next..]))
            ),
        };
        return Err(fail(
            format!("{what} (join conditions with `and` or `or`)"),
            HELP,
        ));
    }
    Ok(cond)
}

fn words_of(tokens: &[Token<'_>]) -> String {
    match tokens.first() {
        Some(Token::Word(w)) => w.to_string(),
        Some(Token::Quoted(q, w)) => format!("{q}{w}{q}"),
        Some(Token::Open) => "(".into(),
        Some(Token::Close) => ")".into(),
        Some(Token::Bang) => "!".into(),
        Some(Token::Equals) => "=".into(),
        None => String::new(),
    }
}

struct Parser<'a> {
    tokens: Vec<Token<'a>>,
    next: usize,
    tests: usize,
    check: NameCheck,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&Token<'a>> {
        self.tokens.get(self.next)
    }

    fn word(&self, w: &str) -> bool {
        self.peek() == Some(&Token::Word(w))
    }

    fn any(&mut self, depth: usize) -> Result<Cond, String> {
        let mut all = vec![self.all(depth)?];
        while self.word("or") {
            self.next += 1;
            all.push(self.all(depth)?);
        }
        Ok(if all.len() == 1 {
            all.remove(0)
        } else {
            Cond::Any(all)
        })
    }

    fn all(&mut self, depth: usize) -> Result<Cond, String> {
        let mut each = vec![self.unary(depth)?];
        while self.word("and") {
            self.next += 1;
            each.push(self.unary(depth)?);
        }
        Ok(if each.len() == 1 {
            each.remove(0)
        } else {
            Cond::All(each)
        })
    }

    fn unary(&mut self, depth: usize) -> Result<Cond, String> {
        if depth >= MAX_DEPTH {
            return Err(format!(
                "parentheses and `not` nest more than {MAX_DEPTH} deep"
            ));
        }
        match self.peek() {
            Some(Token::Bang | Token::Word("not")) => {
                self.next += 1;
                Ok(Cond::Not(Box::new(self.unary(depth + 1)?)))
            }
            Some(Token::Open) => {
                self.next += 1;
                let inner = self.any(depth + 1)?;
                match self.peek() {
                    Some(Token::Close) => {
                        self.next += 1;
                        Ok(inner)
                    }
                    _ => Err("a `(` is never closed (add `)`)".into()),
                }
            }
            _ => self.test(),
        }
    }

    fn test(&mut self) -> Result<Cond, String> {
        let name = match self.peek() {
            Some(Token::Word(w)) if !matches!(*w, "and" | "or" | "has") => *w,
            Some(Token::Word(w)) => return Err(format!("`{w}` where a name to test belongs")),
            Some(Token::Quoted(..)) => {
                return Err("a quoted value where a name to test belongs".into())
            }
            Some(t) => {
                return Err(format!(
                    "`{}` where a name to test belongs",
                    words_of(std::slice::from_ref(t))
                ))
            }
            None => return Err("a name to test is missing at its end".into()),
        };
        self.next += 1;
        self.tests += 1;
        if self.tests > MAX_TESTS {
            return Err(format!(
                "more than {MAX_TESTS} tests in one condition (compute a flag in Rust, or nest sections)"
            ));
        }
        let (name, count) = match name.split_once(':') {
            Some((n, "one")) => (n, Some(Count::One)),
            Some((n, "many")) => (n, Some(Count::Many)),
            Some((_, word)) => {
                return Err(format!(
                    "`{}` counts by `{}`, which is not `one` or `many`",
                    shown(name),
                    shown(word)
                ))
            }
            None => (name, None),
        };
        if let Some(problem) = super::checked(self.check, name) {
            return Err(format!("`{}` {problem}", shown(name)));
        }
        let value = |p: &mut Self, op: &str| {
            match p.peek() {
            Some(Token::Word(w)) if !matches!(*w, "and" | "or" | "not" | "has") => {
                let w = w.to_string();
                p.next += 1;
                Ok(w)
            }
            Some(Token::Quoted(_, w)) if !w.is_empty() => {
                let w = w.to_string();
                p.next += 1;
                Ok(w)
            }
            Some(Token::Quoted(..)) => Err(format!(
                "`{name} {op} \"\"` tests for an empty value (test `not {name}` instead)"
            )),
            _ => Err(format!(
                "`{name} {op}` needs a value after it (quote a value that is a word of the condition)"
            )),
        }
        };
        let cond = match (self.peek(), count) {
            (Some(Token::Equals), None) => {
                self.next += 1;
                Cond::Is(name.to_string(), value(self, "=")?)
            }
            (Some(Token::Word("has")), None) => {
                self.next += 1;
                Cond::Has(name.to_string(), value(self, "has")?)
            }
            (Some(Token::Equals) | Some(Token::Word("has")), Some(c)) => {
                return Err(format!(
                    "`{name}:{}` counts a list; it takes no value",
                    c.word()
                ))
            }
            (_, Some(c)) => Cond::Count(name.to_string(), c),
            (_, None) => Cond::Given(name.to_string()),
        };
        Ok(cond)
    }
}

#[cfg(test)]
mod tests {
    use super::super::shaped;
    use super::*;

    fn read(s: &str) -> Result<Cond, String> {
        condition(s, 0, shaped).map_err(|e| e.message)
    }

    fn given(n: &str) -> Cond {
        Cond::Given(n.into())
    }

    #[test]
    fn and_binds_tighter_than_or_and_not_tighter_than_both() {
        assert_eq!(
            read("a or b and not c").unwrap(),
            Cond::Any(vec![
                given("a"),
                Cond::All(vec![given("b"), Cond::Not(Box::new(given("c")))])
            ])
        );
        assert_eq!(
            read("(a or b) and !c").unwrap(),
            Cond::All(vec![
                Cond::Any(vec![given("a"), given("b")]),
                Cond::Not(Box::new(given("c")))
            ])
        );
        assert_eq!(
            read("mode = plan or tools has 'grep' or xs:many").unwrap(),
            Cond::Any(vec![
                Cond::Is("mode".into(), "plan".into()),
                Cond::Has("tools".into(), "grep".into()),
                Cond::Count("xs".into(), Count::Many),
            ])
        );
        assert_eq!(
            read("mode=\"wrap up\"").unwrap(),
            Cond::Is("mode".into(), "wrap up".into())
        );
    }

    #[test]
    fn each_mistake_is_named() {
        let cases = [
            ("a and", "a name to test is missing at its end"),
            ("a b", "`b` after a whole condition"),
            ("(a or b", "a `(` is never closed"),
            ("a)", "a `)` that closes nothing"),
            ("a = ", "`a =` needs a value"),
            ("a has \"\"", "tests for an empty value"),
            ("xs:few", "which is not `one` or `many`"),
            ("xs:one = 2", "counts a list; it takes no value"),
            ("Bad and a", "`Bad` is not a lowercase name"),
            ("a = \"x", "has no closing `\"`"),
            ("and a", "`and` where a name to test belongs"),
        ];
        for (text, want) in cases {
            let got = read(text).unwrap_err();
            assert!(got.contains(want), "{text}: {got}");
            assert!(got.starts_with(&format!("`{{?{text}}}`")), "{got}");
        }
        let long = vec!["a"; MAX_TESTS + 1].join(" or ");
        assert!(read(&long).unwrap_err().contains("more than 16 tests"));
        assert!(read(&vec!["a"; MAX_TESTS].join(" or ")).is_ok());
        let deep = format!("{}a{}", "(".repeat(100), ")".repeat(100));
        assert!(read(&deep).unwrap_err().contains("nest more than 16 deep"));
        assert!(read(&format!("{}a", "not ".repeat(10_000))).is_err());
    }

    #[test]
    fn words_match_however_spaced() {
        assert_eq!(words("  a   and ( b  or !c ) "), "a and (b or !c)");
        assert_eq!(words("a=b"), words("a = b"));
        assert_eq!(words("t has 'x y'"), "t has 'x y'");
    }

    #[test]
    fn what_a_condition_lets_its_body_print() {
        let c = read("a and (b or (b and c)) and not d").unwrap();
        assert_eq!(c.implies_given(), vec!["a", "b"]);
        assert_eq!(c.names(), vec!["a", "b", "b", "c", "d"]);
        assert!(read("a or b").unwrap().implies_given().is_empty());
        // Negation turns `or` into `and`: neither of `a` and `b` absent means both given.
        assert_eq!(
            read("not (not a or not b)").unwrap().implies_given(),
            vec!["a", "b"]
        );
        assert!(read("not (a and b)").unwrap().implies_given().is_empty());
    }
}

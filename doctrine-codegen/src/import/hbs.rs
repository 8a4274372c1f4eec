//! `cargo doctrine import handlebars`: `.hbs` templates kept as written, each a layer with
//! `placeholders = "handlebars"`, the facts and list fields guessed from how the templates
//! use them, read by the same reader the generator reads the layer with.

use doctrine_load::__internals::template::{handlebars as read, Cond, Piece};

use super::infer::{Target, Uses};
use super::write::{self, Language};
use super::{located, Imported, Template};
use crate::names::snake_ident_problem;

/// Imports `templates`, each a layer in the order given. A template the reader refuses
/// is reported where it refuses it and left out.
pub fn handlebars(templates: &[Template]) -> Imported {
    let mut uses = Uses::default();
    let (mut files, mut layers, mut problems, mut notes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let names: Vec<&str> = templates.iter().map(|t| t.name.as_str()).collect();
    for (t, named) in templates.iter().zip(write::layer_names(&names)) {
        let Some((stem, note)) = super::importable(t, named, &mut problems) else {
            continue;
        };
        // `{{#name}}` is a section until a loop shows the name is a list.
        let pieces = match read(&t.source, &|_| false, snake_ident_problem) {
            Ok(pieces) => pieces,
            // Each mistake at its place, so one run shows them all.
            Err(errors) => {
                let each = errors.into_iter().map(|e| {
                    let help = e.help.map(|h| format!("; {h}")).unwrap_or_default();
                    let message =
                        format!("{}{help} (nothing imported from this template)", e.message);
                    (e.at, message)
                });
                problems.extend(located(&t.name, &t.source, each.collect()));
                continue;
            }
        };
        guess(&pieces, &mut uses);
        // A loop printing nothing of an empty list beside words that still print: the
        // generator asks for an empty branch, which only the author can add to the file.
        let ungated = doctrine_load::__internals::template::ungated_loops(&pieces);
        let each = ungated.into_iter().map(|u| {
            let message = format!(
                "the loop over `{}` prints nothing when the list is empty while `{}` still prints, which the generator refuses of an optional list: add `{{{{else}}}}` before its `{{{{/each}}}}` (left empty, it prints what the template prints now)",
                u.list, u.text
            );
            (u.at, message)
        });
        problems.extend(located(&t.name, &t.source, each.collect()));
        files.push((format!("{stem}.hbs"), t.source.clone()));
        notes.extend(note.map(|n| format!("{}: {n}", t.name)));
        layers.push(stem);
    }
    Imported {
        manifest: write::manifest(&uses, &layers, Language::Handlebars),
        files,
        problems,
        notes,
    }
}

/// What each piece says of the names it uses: printed, tested, looped over.
fn guess(pieces: &[Piece], uses: &mut Uses) {
    // Open sections and loops: whether each is the loop, and the names it gives.
    let mut open: Vec<(bool, Vec<String>)> = Vec::new();
    let mut list: Option<String> = None;
    let target = |list: &Option<String>, n: &str| match list {
        Some(l) if n == "." => Target::Item { list: l.clone() },
        Some(l) => Target::Field {
            list: l.clone(),
            field: n.to_string(),
        },
        None => Target::Fact(n.to_string()),
    };
    for p in pieces {
        match p {
            Piece::Lit(_) => {}
            Piece::Name(n, _) | Piece::Html(n, _) => {
                let checked = open.iter().any(|(_, given)| given.contains(n));
                let usage = uses.of(&target(&list, n));
                usage.printed = true;
                usage.unchecked |= !checked;
            }
            Piece::Loop(n, _) => {
                uses.list(n);
                list = Some(n.clone());
                open.push((true, Vec::new()));
            }
            Piece::Open(n, negated, _) | Piece::Count(n, _, negated, _) => {
                uses.of(&target(&list, n)).tested = true;
                open.push((
                    false,
                    if *negated {
                        Vec::new()
                    } else {
                        vec![n.clone()]
                    },
                ));
            }
            Piece::When(cond, _, _) => {
                tested(cond, &list, uses);
                let given = cond.implies_given().into_iter().map(str::to_string);
                open.push((false, given.collect()));
            }
            Piece::Close(..) => {
                if let Some((true, _)) = open.pop() {
                    list = None;
                }
            }
        }
    }
}

/// Each name a condition tests, marked tested; a list tested with `has` is a list.
fn tested(cond: &Cond, list: &Option<String>, uses: &mut Uses) {
    match cond {
        Cond::Has(n, _) => {
            uses.list(n);
        }
        Cond::Given(n) | Cond::Count(n, _) | Cond::Is(n, _) => {
            let t = match list {
                Some(l) => Target::Field {
                    list: l.clone(),
                    field: n.clone(),
                },
                None => Target::Fact(n.clone()),
            };
            uses.of(&t).tested = true;
        }
        Cond::Not(c) => tested(c, list, uses),
        Cond::All(cs) | Cond::Any(cs) => cs.iter().for_each(|c| tested(c, list, uses)),
    }
}

//! Every identifier the generated code defines on its own (not from a manifest name) is in
//! `codegen::reserved` (reached through `codegen::__internals`), the list validation reads. Found by generating the
//! same rich manifests twice with disjoint vocabularies: what both outputs define is the
//! generator's own.

use std::collections::BTreeSet;

use crate::support;
use doctrine_core::codegen::__internals::reserved::{self, Space};

/// A manifest touching every generated item, with every user name built by `n`.
/// `word` is `roles`, `modes`, or empty for a single-agent prompt.
fn rich(n: &dyn Fn(&str) -> String, word: &str) -> String {
    let m = format!(
        r#"
{word} = ["{a}", "{b}"]
extra = true
[budget]
stable_bytes = 9000
[formulation]
families = {{ fam = "tagged" }}
[flags]
{flag} = true
[knobs.{knob}]
values = ["{k1}", "{k2}"]
default = "{k1}"
[facts.{fact}]
tier = "stable"
required = ["*"]
[facts.{kind}]
tier = "volatile"
values = ["{v1}", "{v2}"]
optional = ["{b}"]
[[layer]]
name = "{base}"
title = "Base"
text = "In {{{fact}}}."
interpolate = true
suffix = {{ text = "Pace {{{knob}}}.", roles = ["{a}"] }}
[[layer]]
name = "{safe}"
text = "Be careful."
locked = true
[[layer]]
name = "{over}"
text = "Shipped."
override = "append"
[[layer]]
name = "{sel}"
text = "Selected."
selector = "{selname}"
[[layer]]
name = "{sel2}"
text = "Worker."
selector = {{ name = "{selname2}", follows = "{selname}" }}
[[layer]]
name = "{gated}"
text = "Gated."
when = "{flag}"
{word} = ["{a}"]
[[layer]]
name = "{choice}"
dir = "{choice}"
[[layer]]
name = "{opt}"
dir = "{opt}"
optional = true
[[layer]]
name = "{task}"
slot = "required"
[[layer]]
name = "{rules}"
instructions = true
[[layer]]
name = "{hot}"
text = "Now."
when_fact = "{kind}"
equals = "{v2}"
tier = "volatile"
{word} = ["{b}"]
[[layer]]
name = "{note}"
slot = "optional"
tier = "volatile"
[reminders.state]
{seen} = "list"
{busy} = "flag"
{ctx} = "budget"
[[reminders.kind]]
name = "{changed}"
when = "{seen}"
text = "Changed: {{{seen}}}."
[[reminders.kind]]
name = "{busy}"
when = "{busy}"
text = "Busy now."
[[reminders.kind]]
name = "{full}"
when = "{ctx}"
text = {{ 60 = "Sixty.", 80 = "Eighty.", 92 = "Ninety-two." }}
"#,
        a = n("alpha"),
        b = n("beta"),
        flag = n("flagged"),
        knob = n("pace"),
        k1 = n("calm"),
        k2 = n("brisk"),
        fact = n("root"),
        kind = n("urgency"),
        v1 = n("low"),
        v2 = n("high"),
        base = n("base"),
        safe = n("safety"),
        over = n("voice"),
        gated = n("gated"),
        choice = n("team"),
        opt = n("seat"),
        task = n("task"),
        rules = n("rules"),
        hot = n("hot"),
        note = n("note"),
        seen = n("seen"),
        busy = n("busy"),
        ctx = n("ctx"),
        changed = n("changed"),
        full = n("full"),
        sel = n("spine"),
        sel2 = n("spine_worker"),
        selname = n("spine_sel"),
        selname2 = n("spine_legs"),
    );
    if word.is_empty() {
        // No roles: drop the role list and every scope.
        m.lines()
            .filter(|l| !l.starts_with(" ="))
            .map(|l| {
                if l.starts_with("optional = [") {
                    return "optional = [\"*\"]".to_string();
                }
                l.replace(", roles = [\"alpha\"]", "")
                    .replace(", roles = [\"zqalpha\"]", "")
            })
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        m
    }
}

/// A single-agent manifest with a prefix known at compile time, and a large one that takes
/// the boxed composition path.
fn plain(n: &dyn Fn(&str) -> String, layers: usize) -> String {
    let mut m = String::new();
    for i in 0..layers {
        m.push_str(&format!(
            "[[layer]]\nname = \"{}{i}\"\ntext = \"t{i}\"\n",
            n("l")
        ));
    }
    m
}

fn expand(manifest: &str, choice_dirs: &[String]) -> syn::File {
    let files: Vec<(String, &[u8])> = choice_dirs
        .iter()
        // A directory named `...skills` holds a skill; the others, a choice.
        .map(|d| match d.ends_with("skills") {
            true => (
                format!("{d}/{d}one.md"),
                &b"---\nwhen: For tests.\n---\nBody."[..],
            ),
            false => (format!("{d}/{d}one.md"), &b"one"[..]),
        })
        .collect();
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (p.as_str(), *b)).collect();
    let tokens =
        support::generate_with(manifest, &files).unwrap_or_else(|e| panic!("{e}\n{manifest}"));
    syn::parse2(tokens).unwrap()
}

/// One identifier a generated file defines: its space, the type it belongs to (for
/// variants, associated items and fields) and its name (module-qualified at module level).
type Def = (Space, Option<String>, String);

fn defined(file: &syn::File) -> Vec<Def> {
    let mut out = Vec::new();
    items(&file.items, "", &mut out);
    out
}

fn items(items: &[syn::Item], module: &str, out: &mut Vec<Def>) {
    let path = |name: &dyn ToString| {
        if module.is_empty() {
            name.to_string()
        } else {
            format!("{module}::{}", name.to_string())
        }
    };
    for item in items {
        match item {
            syn::Item::Struct(s) => {
                out.push((Space::Type, None, path(&s.ident)));
                generics(&s.generics, out);
                for f in s.fields.iter().filter_map(|f| f.ident.as_ref()) {
                    out.push((Space::Field, Some(s.ident.to_string()), f.to_string()));
                }
            }
            syn::Item::Enum(e) => {
                out.push((Space::Type, None, path(&e.ident)));
                for v in &e.variants {
                    out.push((
                        Space::Associated,
                        Some(e.ident.to_string()),
                        v.ident.to_string(),
                    ));
                }
            }
            syn::Item::Type(t) => out.push((Space::Type, None, path(&t.ident))),
            syn::Item::Trait(t) => out.push((Space::Type, None, path(&t.ident))),
            syn::Item::Const(c) if c.ident != "_" => out.push((Space::Value, None, path(&c.ident))),
            syn::Item::Static(s) => out.push((Space::Value, None, path(&s.ident))),
            syn::Item::Fn(f) => out.push((Space::Value, None, path(&f.sig.ident))),
            syn::Item::Mod(m) => {
                out.push((Space::Type, None, path(&m.ident)));
                if let Some((_, inner)) = &m.content {
                    self::items(inner, &path(&m.ident), out);
                }
            }
            // Inherent items only: trait items are reached through the trait's path.
            syn::Item::Impl(i) if i.trait_.is_none() => {
                let syn::Type::Path(p) = &*i.self_ty else {
                    continue;
                };
                let ty = p.path.segments.last().unwrap().ident.to_string();
                generics(&i.generics, out);
                for it in &i.items {
                    let name = match it {
                        syn::ImplItem::Const(c) => c.ident.to_string(),
                        syn::ImplItem::Fn(f) => f.sig.ident.to_string(),
                        _ => continue,
                    };
                    out.push((Space::Associated, Some(ty.clone()), name));
                }
            }
            _ => {}
        }
    }
}

fn generics(g: &syn::Generics, out: &mut Vec<Def>) {
    for p in g.type_params() {
        out.push((Space::Generic, None, p.ident.to_string()));
    }
}

/// The names two vocabularies generate alike: the generator's own. Members of a type that
/// comes from the manifest (`Pace::ALL`, `ZqPace::ALL`) are written `*::ALL`.
fn plumbing(
    make: impl Fn(&dyn Fn(&str) -> String) -> (String, Vec<String>),
) -> BTreeSet<(Space, String)> {
    let (m1, d1) = make(&|s| s.to_string());
    let (m2, d2) = make(&|s| format!("zq{s}"));
    let (a, b) = (defined(&expand(&m1, &d1)), defined(&expand(&m2, &d2)));
    let types = |defs: &[Def]| -> BTreeSet<String> {
        defs.iter()
            .filter(|(s, _, _)| *s == Space::Type)
            .map(|(_, _, n)| n.clone())
            .collect()
    };
    let own: BTreeSet<String> = types(&a).intersection(&types(&b)).cloned().collect();
    let named = |defs: &[Def]| -> BTreeSet<(Space, String)> {
        defs.iter()
            .map(|(space, ty, name)| match ty {
                None => (*space, name.clone()),
                Some(ty) => {
                    let ty = if own.contains(ty) { ty.as_str() } else { "*" };
                    let sep = if *space == Space::Field { "." } else { "::" };
                    (*space, format!("{ty}{sep}{name}"))
                }
            })
            .collect()
    };
    named(&a).intersection(&named(&b)).cloned().collect()
}

/// Facts that borrow nothing (closed sets only): `Facts` gets a hidden variant for its
/// lifetime.
fn closed_facts(n: &dyn Fn(&str) -> String) -> String {
    format!(
        "roles = [\"{a}\", \"{b}\"]\n[facts.{kind}]\ntier = \"stable\"\nvalues = [\"{v}\"]\nrequired = [\"*\"]\n[[layer]]\nname = \"{l}\"\ntext = \"x\"\n",
        a = n("alpha"),
        b = n("beta"),
        kind = n("kind"),
        v = n("value"),
        l = n("base"),
    )
}

fn all_plumbing() -> BTreeSet<(Space, String)> {
    let mut all = BTreeSet::new();
    for word in ["roles", "modes", ""] {
        all.extend(plumbing(|n| (rich(n, word), vec![n("team"), n("seat")])));
    }
    all.extend(plumbing(|n| (plain(n, 2), vec![])));
    all.extend(plumbing(|n| (closed_facts(n), vec![])));
    // Declared tiers, named alike in both vocabularies so their `prefix` modules (and
    // what the generator puts in them) show up as its own.
    all.extend(plumbing(|n| {
        let m = format!(
            "roles = [\"{a}\", \"{b}\"]\ntiers = [\"crew\", \"seat\", \"turn\"]\n[cache]\nshared = [\"crew\"]\n[[layer]]\nname = \"{base}\"\ntext = \"Base.\"\n[[layer]]\nname = \"{persona}\"\ntier = \"seat\"\ntexts = {{ {a} = \"A.\", {b} = \"B.\" }}\n[[layer]]\nname = \"{note}\"\nslot = \"optional\"\ntier = \"turn\"\n",
            a = n("alpha"),
            b = n("beta"),
            base = n("base"),
            persona = n("persona"),
            note = n("note"),
        );
        (m, vec![])
    }));
    all.extend(plumbing(|n| {
        let m = format!(
            "[skills]\ndir = \"{s}\"\nindex = {{ name = \"{i}\" }}\n[[layer]]\nname = \"{l}\"\ntext = \"L.\"\n",
            s = n("skills"),
            i = n("index"),
            l = n("base"),
        );
        (m, vec![n("skills")])
    }));
    all.extend(plumbing(|n| {
        (
            plain(n, doctrine_core::__private::MAX_INLINE_LAYERS + 1),
            vec![],
        )
    }));
    all
}

#[test]
fn every_generated_name_is_reserved() {
    let found = all_plumbing();
    let missing: Vec<String> = found
        .iter()
        .filter(|(space, name)| !reserved::is_reserved(*space, name))
        .map(|(space, name)| format!("(Space::{space:?}, \"{name}\"),"))
        .collect();
    assert!(
        missing.is_empty(),
        "generated names missing from `codegen::reserved::RESERVED`:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_reserved_name_is_generated() {
    // The list holds nothing stale, so what validation refuses is what would clash.
    let found = all_plumbing();
    let stale: Vec<&(Space, &str)> = reserved::RESERVED
        .iter()
        .filter(|(space, entry)| {
            !found.iter().any(|(s, n)| {
                s == space
                    && reserved::is_reserved(*s, n)
                    && (n == entry || reserved::is_pattern(entry))
            })
        })
        .collect();
    assert!(stale.is_empty(), "reserved but never generated: {stale:?}");
}

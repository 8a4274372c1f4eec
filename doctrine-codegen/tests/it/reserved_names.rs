//! The generator's own names where a manifest name could land too are in `codegen::reserved`
//! (reached through `codegen::__internals`), the lists validation reads, and its other names
//! sit where no manifest name lands. The generator's own names are found by generating the
//! same rich manifests twice with disjoint vocabularies: what both outputs define.

use std::collections::BTreeSet;

use crate::support;
use doctrine_codegen::__internals::reserved;

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
max_bytes = 4096
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
[models]
default = {{ {choice} = "{choice}one" }}
[models.rules]
"{model}" = {{ {choice} = "{choice}one", flags = ["{flag}"], family = "fam" }}
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
        model = n("big"),
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

/// Where a generated name lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Space {
    /// The invoking module's types and modules, and those of its nested modules
    /// (`stage::Ready`).
    Type,
    /// Its consts, statics and functions, and those of its nested modules.
    Value,
    /// An enum's variants and its associated items: the one place they can meet.
    EnumItem,
    /// A struct's associated items.
    Associated,
    Field,
    /// Generic parameters of the generator's impls: they shadow a type of that name.
    Generic,
}

/// One name a generated file defines outside its hidden module: its space, the type it
/// belongs to (for variants, associated items and fields) and its name
/// (module-qualified at module level).
type Def = (Space, Option<String>, String);

/// The hidden module, whose items no manifest name meets.
const HIDDEN: &str = "__doctrine";

fn defined(file: &syn::File) -> Vec<Def> {
    let enums: BTreeSet<String> = file
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Enum(e) => Some(e.ident.to_string()),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    items(&file.items, "", &enums, &mut out);
    out
}

fn items(items: &[syn::Item], module: &str, enums: &BTreeSet<String>, out: &mut Vec<Def>) {
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
                    let owner = Some(e.ident.to_string());
                    out.push((Space::EnumItem, owner, v.ident.to_string()));
                }
            }
            syn::Item::Type(t) => out.push((Space::Type, None, path(&t.ident))),
            syn::Item::Trait(t) => out.push((Space::Type, None, path(&t.ident))),
            syn::Item::Const(c) if c.ident != "_" => out.push((Space::Value, None, path(&c.ident))),
            syn::Item::Static(s) => out.push((Space::Value, None, path(&s.ident))),
            syn::Item::Fn(f) => out.push((Space::Value, None, path(&f.sig.ident))),
            syn::Item::Mod(m) => {
                out.push((Space::Type, None, path(&m.ident)));
                if let (Some((_, inner)), false) = (&m.content, m.ident == HIDDEN) {
                    self::items(inner, &path(&m.ident), enums, out);
                }
            }
            // Inherent items only: trait items are reached through the trait's path.
            syn::Item::Impl(i) if i.trait_.is_none() => {
                let syn::Type::Path(p) = &*i.self_ty else {
                    continue;
                };
                let ty = p.path.segments.last().unwrap().ident.to_string();
                let space = match enums.contains(&ty) {
                    true => Space::EnumItem,
                    false => Space::Associated,
                };
                generics(&i.generics, out);
                for it in &i.items {
                    let name = match it {
                        syn::ImplItem::Const(c) => c.ident.to_string(),
                        syn::ImplItem::Fn(f) => f.sig.ident.to_string(),
                        _ => continue,
                    };
                    out.push((space, Some(ty.clone()), name));
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

/// What both vocabularies generate (the generator's own names: members of a type that
/// comes from the manifest, `Pace::ALL` and `ZqPace::ALL`, are written `*::ALL`), and what
/// the first generates.
struct Generated {
    own: BTreeSet<(Space, String)>,
    all: Vec<Def>,
}

fn plumbing(make: impl Fn(&dyn Fn(&str) -> String) -> (String, Vec<String>)) -> Generated {
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
    Generated {
        own: named(&a).intersection(&named(&b)).cloned().collect(),
        all: a,
    }
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

/// Every manifest's [`Generated`], in one.
fn all_plumbing() -> Generated {
    let mut all = Generated {
        own: BTreeSet::new(),
        all: Vec::new(),
    };
    let mut add = |g: Generated| {
        all.own.extend(g.own);
        all.all.extend(g.all);
    };
    for word in ["roles", "modes", ""] {
        add(plumbing(|n| (rich(n, word), vec![n("team"), n("seat")])));
    }
    add(plumbing(|n| (plain(n, 2), vec![])));
    add(plumbing(|n| (closed_facts(n), vec![])));
    // Declared tiers, named alike in both vocabularies so their `prefix` modules (and
    // what the generator puts in them) show up as its own.
    add(plumbing(|n| {
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
    add(plumbing(|n| {
        let m = format!(
            "[skills]\ndir = \"{s}\"\nindex = {{ name = \"{i}\" }}\n[[layer]]\nname = \"{l}\"\ntext = \"L.\"\n",
            s = n("skills"),
            i = n("index"),
            l = n("base"),
        );
        (m, vec![n("skills")])
    }));
    add(plumbing(|n| {
        (
            plain(n, doctrine_core::__private::MAX_INLINE_LAYERS + 1),
            vec![],
        )
    }));
    all
}

/// Whether `name` could be a type or variant a manifest name becomes: CamelCase.
fn camel(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}

#[test]
fn every_own_name_a_manifest_name_could_meet_is_reserved() {
    let found = all_plumbing();
    let missing: Vec<&(Space, String)> = found
        .own
        .iter()
        .filter(|(space, name)| match (space, name.split_once("::")) {
            // A type at the top level, where the manifest's enums and structs are.
            (Space::Type, None) | (Space::Generic, _) => camel(name) && !reserved::type_clash(name),
            // An enum's associated item that could be a variant.
            (Space::EnumItem, Some((_, item))) => camel(item) && !reserved::variant_clash(item),
            // A builder method, beside the slot layers'.
            (Space::Associated, Some(("Compose", m))) => {
                !m.starts_with("__") && !reserved::method_clash(m) && m != reserved::EXTRA
            }
            _ => false,
        })
        .collect();
    assert!(
        missing.is_empty(),
        "generated, a manifest name could take it, and not reserved: {missing:?}"
    );
}

#[test]
fn every_reserved_name_is_generated() {
    // Nothing stale, so what validation refuses is what would clash.
    let found = all_plumbing();
    let own = |space: Space, name: &str| found.own.contains(&(space, name.to_string()));
    let stale_types = reserved::TYPES
        .split_whitespace()
        .filter(|t| !own(Space::Type, t) && !own(Space::Generic, t));
    let stale_items = reserved::VARIANTS.split_whitespace().filter(|v| {
        !found
            .own
            .iter()
            .any(|(s, n)| *s == Space::EnumItem && n.rsplit("::").next() == Some(*v))
    });
    // A pattern stands for names that differ between vocabularies: looked for in one.
    let stale_methods = reserved::builder_methods().into_iter().filter(|m| {
        !found
            .all
            .iter()
            .any(|(_, ty, n)| ty.as_deref() == Some("Compose") && reserved::is_method(m, n))
    });
    let stale: Vec<&str> = stale_types
        .chain(stale_items)
        .chain(stale_methods)
        .collect();
    assert!(stale.is_empty(), "reserved but never generated: {stale:?}");
}

/// Outside the hidden module, no other own name can meet a manifest's: the top level holds
/// one `__` name (the hidden module), lowercase modules, and values no manifest name
/// becomes; a struct's own fields beside a manifest's start with `__`.
#[test]
fn nothing_else_can_meet_a_manifest_name() {
    let found = all_plumbing();
    let top = |d: &&Def| d.1.is_none() && !d.2.contains("::");
    let mut wrong: Vec<String> = Vec::new();
    for (space, _, name) in found.all.iter().filter(top) {
        let own = found.own.contains(&(*space, name.clone()));
        match space {
            _ if name.starts_with("__") && name != HIDDEN => {
                wrong.push(format!("helper `{name}` outside `{HIDDEN}`"))
            }
            Space::Value if !own => wrong.push(format!("value `{name}` from a manifest name")),
            Space::Type if !camel(name) && !own && name != HIDDEN => {
                wrong.push(format!("module `{name}` from a manifest name"))
            }
            _ => {}
        }
    }
    for (space, ty, field) in found.all.iter().filter(|d| d.0 == Space::Field) {
        let ty = ty.as_deref().unwrap_or_default();
        let own = |f: &str| found.own.contains(&(*space, format!("{ty}.{f}")));
        let mixed = found
            .all
            .iter()
            .any(|d| d.0 == Space::Field && d.1.as_deref() == Some(ty) && !own(&d.2));
        if mixed && own(field) && !field.starts_with("__") {
            wrong.push(format!("own field `{ty}.{field}` beside a manifest's"));
        }
    }
    assert!(found.all.iter().any(|d| d.2 == HIDDEN), "no hidden module");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn clash_checks() {
    assert!(reserved::variant_clash("ALL") && reserved::variant_clash("NAMES"));
    assert!(!reserved::variant_clash("All") && !reserved::variant_clash("Names"));
    assert!(reserved::type_clash("Stage") && reserved::type_clash("Flags"));
    assert!(!reserved::type_clash("Team") && !reserved::type_clash("text"));
    assert!(reserved::method_clash("finish") && !reserved::method_clash("task"));
    // `extra` clashes only beside `extra = true`, which validation checks.
    assert!(!reserved::method_clash(reserved::EXTRA));
    assert!(reserved::builder_methods().contains(&"opt_out_<selector>"));
    assert!(reserved::method_clash("opt_out_spine") && reserved::method_clash("opt_out_a1"));
    assert!(!reserved::method_clash("opt_out_") && !reserved::method_clash("opt_outer"));
    assert!(reserved::builder_methods().contains(&"max_bytes_<name>"));
    assert!(reserved::method_clash("max_bytes_docs") && !reserved::method_clash("max_bytes"));
}

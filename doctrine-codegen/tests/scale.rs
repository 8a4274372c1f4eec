//! Wide manifests: thousands of knobs, facts, overridable layers, selectors, flags,
//! reminder states, `when` or `unless` conditions, slots, roles (with a fact, or none), or
//! `[models]` rules.
//!
//! rustc nests some constructs as deep as they are long: `derive(PartialEq)` over a
//! struct's fields is one `&&` chain, and at about 6,000 fields (10,000 flags or reminder
//! states, or `unless` conditions in one chain) rustc overflowed its stack. The slot
//! methods' docs once listed every slot, so the generated code grew with the square of the
//! slot count. The fast tests here check the shape of the generated tokens, without rustc:
//! nothing nests deeper with more items, and the code grows linearly. The ignored test runs
//! `cargo check` on a crate per kind, and prints time, memory and size (BENCHMARKS.md):
//!
//! ```sh
//! cargo test -p doctrine-codegen --test scale -- --ignored --nocapture
//! SCALE_N="1000 5000 10000" SCALE_KINDS="flags knobs" cargo test -p doctrine-codegen --test scale -- --ignored --nocapture
//! ```

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

mod support;
use support::generate_with;

/// The kinds of item a manifest can have thousands of.
const KINDS: [&str; 12] = [
    "knobs",
    "facts",
    "overlays",
    "selectors",
    "flags",
    "states",
    "when",
    "unless",
    "slots",
    "roles",
    "role_facts",
    "models",
];

/// A manifest with `n` items of `kind`. Names have a fixed width, so the code for `2n`
/// items is twice as long as for `n` when it grows linearly.
fn manifest(kind: &str, n: usize) -> String {
    let mut m = String::from("separator = \"\\n\"\n");
    let base = "[[layer]]\nname = \"base\"\ntext = \"x\"\n";
    let flags = |m: &mut String| {
        m.push_str("[flags]\n");
        for i in 0..n {
            writeln!(m, "g{i:05} = false").unwrap();
        }
    };
    match kind {
        "knobs" => {
            for i in 0..n {
                writeln!(
                    m,
                    "[knobs.k{i:05}]\nvalues = [\"a\", \"b\"]\ndefault = \"a\""
                )
                .unwrap();
            }
            m.push_str(base);
        }
        "facts" => {
            for i in 0..n {
                writeln!(m, "[facts.f{i:05}]\ntier = \"stable\"\noptional = [\"*\"]").unwrap();
            }
            m.push_str(base);
        }
        "overlays" | "selectors" | "slots" => {
            for i in 0..n {
                let content = match kind {
                    "overlays" => format!("text = \"{i}\"\noverride = \"replace\""),
                    "selectors" => format!("text = \"{i}\"\nselector = \"s{i:05}\""),
                    _ => "slot = \"optional\"".to_string(),
                };
                writeln!(m, "[[layer]]\nname = \"l{i:05}\"\n{content}").unwrap();
            }
        }
        "flags" => {
            flags(&mut m);
            m.push_str(base);
        }
        "states" => {
            m.push_str(base);
            m.push_str("[reminders.state]\n");
            for i in 0..n {
                writeln!(m, "s{i:05} = \"flag\"").unwrap();
            }
            for i in 0..n {
                writeln!(m, "[[reminders.kind]]\nname = \"r{i:05}\"\nwhen = \"s{i:05}\"\ntext = \"note {i:05}\"").unwrap();
            }
        }
        "roles" | "role_facts" => {
            // Every role declared, a layer for all of them and one with a text per role;
            // with `role_facts`, a fact every role takes (so a facts struct per role) and a
            // layer printing it.
            let roles: Vec<String> = (0..n).map(|i| format!("\"r{i:05}\"")).collect();
            writeln!(m, "roles = [{}]", roles.join(", ")).unwrap();
            if kind == "role_facts" {
                m.push_str("[facts.who]\ntier = \"stable\"\noptional = [\"*\"]\n");
                m.push_str("[[layer]]\nname = \"who\"\ninterpolate = true\nwhen = \"who\"\n");
                m.push_str("text = \"For {who}.\"\n");
            }
            m.push_str(base);
            m.push_str("[[layer]]\nname = \"role\"\n[layer.texts]\n");
            for i in 0..n {
                writeln!(m, "r{i:05} = \"role {i:05}\"").unwrap();
            }
        }
        "when" | "unless" => {
            flags(&mut m);
            let conds: Vec<String> = (0..n).map(|i| format!("\"g{i:05}\"")).collect();
            writeln!(m, "{base}{kind} = [{}]", conds.join(", ")).unwrap();
        }
        "models" => {
            m.push_str("[flags]\npatch = false\n");
            m.push_str(base);
            m.push_str("[models]\ndefault = {}\n[models.rules]\n");
            for i in 0..n {
                writeln!(m, "\"m{i:05}\" = {{ flags = [\"patch\"] }}").unwrap();
            }
        }
        _ => unreachable!("unknown kind {kind}"),
    }
    m
}

fn generated(kind: &str, n: usize) -> TokenStream {
    generate_with(&manifest(kind, n), &[]).unwrap_or_else(|e| panic!("{kind} {n}: {e:?}"))
}

/// The widest construct in `tokens` that rustc checks in more than linear stack or memory:
/// a group nested in groups, the operands of one `&&` / `||` chain, the fields of a struct
/// whose `PartialEq`, `PartialOrd` or `Ord` is derived (the derive writes one `&&` chain
/// over them, which rustc nests), and the variants of a fieldless enum whose `Debug` is
/// derived (it matches each variant to its own string; rustc borrow-checks that match in
/// memory growing with the square of the variants: 111 MB, 764 MB, 9.9 GB at 1,000, 5,000,
/// 20,000). An enum whose variants hold a value, such as `Facts`, is not counted: its
/// derived `Debug` took rustc 69 MB at 2,000 variants and 287 MB at 8,000.
fn strain(tokens: TokenStream) -> usize {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let (mut widest, mut chain) = (0, 0);
    // What the last derive covers, and whether the item it is on has been reached: its
    // fields or variants come next.
    let (mut compares, mut debugs, mut counted, mut is_enum) = (false, false, false, false);
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(g) => {
                widest = widest.max(strain(g.stream()) + 1);
                match g.delimiter() {
                    Delimiter::Bracket if derives(g.stream(), "") => {
                        compares = ["PartialEq", "PartialOrd", "Ord"]
                            .iter()
                            .any(|t| derives(g.stream(), t));
                        debugs = derives(g.stream(), "Debug");
                    }
                    Delimiter::Brace | Delimiter::Parenthesis if counted => {
                        if !is_enum || fieldless(g.stream()) {
                            widest = widest.max(fields(g.stream()));
                        }
                        (compares, debugs, counted) = (false, false, false);
                    }
                    _ => {}
                }
                if g.delimiter() == Delimiter::Brace {
                    chain = 0;
                }
            }
            TokenTree::Ident(word) if word == "struct" => (counted, is_enum) = (compares, false),
            TokenTree::Ident(word) if word == "enum" => (counted, is_enum) = (debugs, true),
            TokenTree::Punct(p) if matches!(p.as_char(), ';' | ',' | '>') => chain = 0,
            TokenTree::Punct(p) if matches!(p.as_char(), '&' | '|') => {
                let doubled = p.spacing() == Spacing::Joint
                    && matches!(trees.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == p.as_char());
                if doubled {
                    chain += 1;
                    widest = widest.max(chain);
                }
            }
            _ => {}
        }
    }
    widest
}

/// Whether the tokens of an attribute are a `derive` naming `trait` (any derive for `""`).
fn derives(attr: TokenStream, r#trait: &str) -> bool {
    let mut trees = attr.into_iter();
    matches!(trees.next(), Some(TokenTree::Ident(i)) if i == "derive")
        && (r#trait.is_empty()
            || trees.any(|t| match t {
                TokenTree::Group(g) => g
                    .stream()
                    .into_iter()
                    .any(|t| matches!(t, TokenTree::Ident(i) if i == r#trait)),
                _ => false,
            }))
}

/// Whether an enum body's variants hold no value (no variant has a tuple or a struct).
fn fieldless(body: TokenStream) -> bool {
    !body
        .into_iter()
        .any(|t| matches!(t, TokenTree::Group(g) if g.delimiter() != Delimiter::Bracket))
}

/// The fields of a struct body: its top-level commas, and one more without a trailing one.
fn fields(body: TokenStream) -> usize {
    let trees: Vec<TokenTree> = body.into_iter().collect();
    let comma = |t: &TokenTree| matches!(t, TokenTree::Punct(p) if p.as_char() == ',');
    let commas = trees.iter().filter(|t| comma(t)).count();
    commas + usize::from(trees.last().is_some_and(|t| !comma(t)))
}

#[test]
fn the_strain_measure_sees_derived_comparisons_and_debug_and_chains() {
    let s = |s: &str| s.parse::<TokenStream>().unwrap();
    // `#[derive(..)]` is two groups deep; four fields compared by a derive count four.
    let derived = "#[derive(Clone, PartialEq)] pub struct F<'a> { a: u8, b: u8, c: u8, d: &'a u8 }";
    assert_eq!(strain(s(derived)), 4);
    assert_eq!(strain(s(&derived.replace("PartialEq", "Debug"))), 2);
    assert_eq!(
        strain(s(
            "#[derive(PartialEq)] enum E { A, B, C, D } struct F { a: u8, b: u8 }"
        )),
        2
    );
    // A derived `Debug` counts the variants of a fieldless enum, not of one holding values.
    let fieldless = "#[derive(Debug)] enum E { #[doc = \"a\"] A, B, C, D }";
    assert_eq!(strain(s(fieldless)), 4);
    assert_eq!(strain(s("#[derive(Debug)] enum E { A(u8), B, C, D }")), 2);
    // Three operators in one chain, inside a block; a statement or a block ends a chain.
    assert_eq!(strain(s("fn f() -> bool { a && b || c && d }")), 1 + 3);
    assert_eq!(
        strain(s("fn f() { a && b; if c && d { e && f } }")),
        1 + 1 + 1
    );
    assert_eq!(strain(s("fn f() { [a, b, c, d]; x(y(z())) }")), 4);
    assert_eq!(fields(s("#[doc = \"a, b\"] pub a: u8, b: (u8, u8)")), 2);
}

/// The most fields a generated struct derives `PartialEq` with (the generator's
/// `MAX_DERIVED_EQ_FIELDS`); a wider one gets a statement per field.
const MAX_DERIVED_EQ_FIELDS: usize = 64;

#[test]
fn no_generated_construct_strains_rustc_more_with_more_items() {
    // At 200 items every kind is past the derive's bound, so nothing may strain more than
    // the widest derive does, nor more than a small manifest's code.
    let wider: Vec<String> = KINDS
        .iter()
        .map(|kind| {
            (
                kind,
                strain(generated(kind, 10)),
                strain(generated(kind, 200)),
            )
        })
        .filter(|&(_, few, many)| many > few.max(16) || few.max(many) > MAX_DERIVED_EQ_FIELDS)
        .map(|(kind, few, many)| format!("{kind}: 10 items strain {few}, 200 strain {many}"))
        .collect();
    assert!(wider.is_empty(), "{wider:#?}");
}

#[test]
fn generated_code_grows_linearly() {
    let faster: Vec<String> = KINDS
        .iter()
        .map(|kind| {
            let size = |n| generated(kind, n).to_string().len();
            (kind, size(200), size(400))
        })
        // a + 2bn < 2(a + bn): any term in n² takes it over (at 200 items, to 3× and more).
        // Numbers grow a digit now and then (items 100–199 are written with three), so a
        // linear size may come out a hair over twice: 1% is let through.
        .filter(|&(_, n, twice)| twice > 2 * n + n / 50)
        .map(|(kind, n, twice)| format!("{kind}: 200 items {n} bytes, 400 items {twice}"))
        .collect();
    assert!(faster.is_empty(), "{faster:#?}");
}

/// `cargo check` of a crate whose manifest has N items of each kind, with its wall time,
/// user time and peak memory (GNU time, when at /usr/bin/time) and the size of the
/// generated tokens, as a markdown table. Slow (minutes): ignored by default. Every row is
/// printed before a failure is reported, so a tree that fails can be measured too.
#[test]
#[ignore]
fn cargo_check_at_scale() {
    let sizes = std::env::var("SCALE_N").unwrap_or_else(|_| "1000 5000 10000".into());
    let kinds = std::env::var("SCALE_KINDS").unwrap_or_else(|_| KINDS.join(" "));
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("scale");
    println!("| kind | N | generated | cargo check wall | user | max RSS |");
    println!("|---|---|---|---|---|---|");
    let mut failed = Vec::new();
    for kind in kinds.split_whitespace() {
        for n in sizes.split_whitespace() {
            let n: usize = n.parse().unwrap();
            let (row, ok) = check_crate(&root, kind, n);
            println!("{row}");
            if !ok {
                failed.push(row);
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// One row of [`cargo_check_at_scale`], and whether the check passed.
fn check_crate(root: &Path, kind: &str, n: usize) -> (String, bool) {
    let facade = Path::new(env!("CARGO_MANIFEST_DIR")).join("../doctrine");
    let dir = root.join(format!("{kind}{n}"));
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let cargo_toml = format!(
        "[package]\nname = \"scale-{kind}{n}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n[dependencies]\ndoctrine = {{ package = \"doctrine-prompt\", path = {:?} }}\n[workspace]\n",
        facade.canonicalize().unwrap().display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), cargo_toml).unwrap();
    std::fs::write(dir.join("src/doctrine.toml"), manifest(kind, n)).unwrap();
    let size = generated(kind, n).to_string().len();
    let check = |timed: bool| {
        let mut cmd = match timed && Path::new("/usr/bin/time").exists() {
            true => {
                let mut c = Command::new("/usr/bin/time");
                c.args(["-f", "%e s | %U s | %M KB", "cargo"]);
                c
            }
            false => Command::new("cargo"),
        };
        cmd.args(["check", "-q"])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", root.join("target"))
            .output()
            .unwrap()
    };
    // The dependencies first, untimed, with the macro left out.
    std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").unwrap();
    assert!(check(false).status.success());
    let main = "mod p {\n    doctrine::doctrine!(\"doctrine.toml\");\n}\nfn main() {}\n";
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    let start = Instant::now();
    let out = check(true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let measured = match stderr.lines().last() {
        Some(line) if line.ends_with(" KB") => line.to_string(),
        _ => format!("{:.1} s | — | —", start.elapsed().as_secs_f64()),
    };
    let failure = (!out.status.success()).then(|| {
        // A crash names its signal at the end of a long line; otherwise the first error.
        let signal = stderr.find("(signal").map(|at| &stderr[at..]);
        let why = signal.or_else(|| stderr.lines().find(|l| l.starts_with("error")));
        format!(
            " **failed**: {}",
            why.unwrap_or("").lines().next().unwrap_or("")
        )
    });
    let row = format!(
        "| {kind} | {n} | {size} B | {measured}{} |",
        failure.clone().unwrap_or_default()
    );
    (row, failure.is_none())
}

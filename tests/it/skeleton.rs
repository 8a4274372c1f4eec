//! The module the macro emits beside a failing manifest's errors (`codegen::skeleton`),
//! checked without rustc: what it keeps and what it leaves out. rustc's side, one error
//! per mistake with the generated API in use and the module type-checked, is trybuild's
//! (`doctrine/tests/ui/fail/skeleton_*.rs`, whose manifests these tests read too).

use std::collections::BTreeSet;
use std::path::Path;

use doctrine_codegen::{generate, skeleton, Request};

/// The trybuild cases' directory: `skeleton/valid.toml` and the cases that break it.
const UI: &str = "doctrine/tests/ui/fail";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What code can name in a generated module: its items and those of its modules, each
/// enum's variants, each struct's fields, each type's own functions and constants. The
/// hidden module aside, which no code names.
fn api(file: syn::File) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    items(&file.items, "", &mut out);
    out
}

fn items(items: &[syn::Item], module: &str, out: &mut BTreeSet<String>) {
    for item in items {
        let names: Vec<String> = match item {
            syn::Item::Struct(s) => {
                let fields = s.fields.iter().filter_map(|f| f.ident.as_ref());
                let fields = fields.map(|f| format!("{}.{f}", s.ident));
                std::iter::once(s.ident.to_string()).chain(fields).collect()
            }
            syn::Item::Enum(e) => {
                let variants = e
                    .variants
                    .iter()
                    .map(|v| format!("{}::{}", e.ident, v.ident));
                std::iter::once(e.ident.to_string())
                    .chain(variants)
                    .collect()
            }
            syn::Item::Fn(f) => vec![f.sig.ident.to_string()],
            syn::Item::Const(c) if c.ident != "_" => vec![c.ident.to_string()],
            syn::Item::Static(s) => vec![s.ident.to_string()],
            syn::Item::Type(t) => vec![t.ident.to_string()],
            syn::Item::Mod(m) if m.ident != "__doctrine" => {
                let inner = m.content.as_ref().map_or(&[][..], |(_, i)| i);
                self::items(inner, &format!("{module}{}::", m.ident), out);
                vec![m.ident.to_string()]
            }
            syn::Item::Impl(i) if i.trait_.is_none() => {
                let syn::Type::Path(p) = &*i.self_ty else {
                    continue;
                };
                let ty = &p.path.segments.last().unwrap().ident;
                i.items
                    .iter()
                    .filter_map(|it| match it {
                        syn::ImplItem::Fn(f) => Some(format!("{ty}::{}", f.sig.ident)),
                        syn::ImplItem::Const(c) => Some(format!("{ty}::{}", c.ident)),
                        _ => None,
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        out.extend(names.into_iter().map(|n| format!("{module}{n}")));
    }
}

fn request(manifest: &str) -> Request {
    Request::new(manifest, root().join(UI), root())
}

#[test]
fn every_error_case_with_a_layer_left_has_a_skeleton() {
    let dir = root().join("tests/errors");
    // Once what is wrong goes, these have no layer left: there is nothing to emit.
    let none = [
        "keyword_layer_name",
        "no_layers",
        "slot_builder_method",
        "stems_collide",
        "toml_syntax",
    ];
    let mut wrong = Vec::new();
    for case in crate::support::error_cases::cases(root()) {
        let name = case.file_name().unwrap().to_str().unwrap();
        let tokens = skeleton(&Request::new(name, &dir, root()));
        let stem = name.trim_end_matches(".toml");
        match (tokens.is_empty(), none.contains(&stem)) {
            (false, false) if syn::parse2::<syn::File>(tokens).is_err() => {
                wrong.push(format!("{stem}: does not parse"))
            }
            (true, false) => wrong.push(format!("{stem}: no skeleton")),
            (false, true) => wrong.push(format!("{stem}: a skeleton")),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A mistake in a text, a value, a scope or a markdown file changes no type: the module
/// beside its error has every item, variant, field and method the mended manifest gives,
/// but for an emptied text's constants (`sources::BASE`), which are left out.
#[test]
fn a_mistake_that_changes_no_type_keeps_the_whole_api() {
    let valid = api(syn::parse2(generate(&request("skeleton/valid.toml")).unwrap()).unwrap());
    let typed = |api: &BTreeSet<String>| -> BTreeSet<String> {
        let texts = |n: &&String| n.starts_with("text::") || n.starts_with("sources::");
        api.iter().filter(|n| !texts(n)).cloned().collect()
    };
    for case in ["syntax", "value", "scope", "placeholder"] {
        let req = request(&format!("skeleton/{case}.toml"));
        let errors = generate(&req).unwrap_err();
        assert_eq!(errors.list.len(), 1, "{case}: {errors}");
        let skeleton = api(syn::parse2(skeleton(&req)).unwrap());
        assert!(skeleton.is_subset(&valid), "{case}");
        assert_eq!(typed(&skeleton), typed(&valid), "{case}");
    }
}

/// A declaration that does not hold is left out with everything that names it, rather
/// than given in another shape: code naming what is missing gets no error of its own
/// beside the macro's, and code naming a changed shape would.
#[test]
fn a_declaration_that_does_not_hold_goes_with_what_names_it() {
    let valid = api(syn::parse2(generate(&request("skeleton/valid.toml")).unwrap()).unwrap());
    let knob = api(syn::parse2(skeleton(&request("skeleton/knob.toml"))).unwrap());
    assert!(knob.is_subset(&valid));
    let gone: Vec<&String> = valid.difference(&knob).collect();
    for name in [
        "Pace",
        "Knobs",
        "Combination",
        "compose",
        "Compose",
        "Prompt",
        "stage",
    ] {
        assert!(gone.contains(&&name.to_string()), "{name} kept");
    }
    for name in [
        "Role",
        "Flags",
        "DeveloperFacts",
        "Overlay",
        "Team",
        "LAYERS",
    ] {
        assert!(knob.contains(name), "{name} left out");
    }
}

/// Past a syntax error the TOML parser's recovery may drop the rest of the manifest, so
/// the line it is on is left out instead, and what that line may declare goes: a layer
/// key being typed takes the builder, a table header being typed everything.
#[test]
fn a_line_that_does_not_parse_takes_what_it_may_declare() {
    let ui = root().join(UI);
    let valid = std::fs::read_to_string(ui.join("skeleton/valid.toml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(ui.join("skeleton/base.md"), dir.path().join("base.md")).unwrap();
    std::fs::create_dir_all(dir.path().join("teams")).unwrap();
    std::fs::write(dir.path().join("teams/backend.md"), "Backend.").unwrap();
    let at = |edit: &str| {
        let manifest = valid
            .replace("../files/teams", "teams")
            .replace("slot = \"required\"", edit);
        std::fs::write(dir.path().join("d.toml"), manifest).unwrap();
        let req = Request::new("d.toml", dir.path(), dir.path());
        assert!(generate(&req).is_err(), "{edit}");
        skeleton(&req)
    };
    let typed = api(syn::parse2(at("slot = \"required\"\nslo")).unwrap());
    assert!(typed.contains("Role") && typed.contains("Knobs"));
    assert!(!typed.contains("compose") && !typed.contains("Overlay"));
    assert!(at("slot = \"required\"\n[[lay").is_empty());
}

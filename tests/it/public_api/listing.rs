//! A crate's public API as lines of text, one per public path: each item a user can name
//! (`doctrine_core::introspect::Escape  struct Escape`), its public fields, variants and
//! methods, what it derives and the traits it implements. Hidden items (`#[doc(hidden)]`,
//! the generated code's own) and tests are left out; every feature's items are in.

use std::collections::{BTreeSet, HashSet};

use super::tree::{has_attr, item_attrs, use_leaves, Target, Tree};

/// The listing of the crate `krate` (its library's name) read as `tree`.
pub fn listing(krate: &str, tree: &Tree) -> BTreeSet<String> {
    let mut reached = Vec::new();
    let mut seen = HashSet::new();
    visit(tree, 0, krate, &mut reached, &mut seen);
    for (m, module) in tree.modules.iter().enumerate() {
        for (i, item) in module.items.iter().enumerate() {
            if let syn::Item::Macro(syn::ItemMacro {
                ident: Some(name),
                attrs,
                ..
            }) = item
            {
                if exported_macro(attrs) {
                    reached.push((format!("{krate}::{name}"), Target::Item(m, i)));
                }
            }
        }
    }
    let public: BTreeSet<&Target> = reached.iter().map(|(_, t)| t).collect();
    let mut lines = BTreeSet::new();
    for (path, target) in &reached {
        match target {
            Target::External(written) => {
                lines.insert(format!("{path}  use {written}"));
            }
            Target::Item(m, i) => item_lines(tree, path, *m, *i, &public, &mut lines),
            Target::Module(_) => {
                lines.insert(format!("{path}  mod"));
            }
        }
    }
    lines
}

fn exported_macro(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("macro_export")) && !hidden(attrs)
}

fn hidden(attrs: &[syn::Attribute]) -> bool {
    has_attr(attrs, "doc", "hidden")
}

fn public(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// Records what module `m`, public at `path`, makes public: its `pub` items, the modules
/// and items its `pub use`s name (a module's own items below it, wherever it is defined).
fn visit(
    tree: &Tree,
    m: usize,
    path: &str,
    reached: &mut Vec<(String, Target)>,
    seen: &mut HashSet<(usize, String)>,
) {
    if !seen.insert((m, path.to_string())) {
        return;
    }
    if m != 0 {
        reached.push((path.to_string(), Target::Module(m)));
    }
    // A macro that defines items this reading cannot see would leave them out silently.
    for name in &tree.modules[m].unread {
        assert!(
            name == "thread_local",
            "{path} invokes `{name}!`, whose items the listing cannot read: teach \
             tests/it/public_api/macros.rs what it defines"
        );
    }
    for (i, item) in tree.modules[m].items.iter().enumerate() {
        if hidden(item_attrs(item)) {
            continue;
        }
        match item {
            syn::Item::Mod(md) if public(&md.vis) => {
                let child = tree.modules[m].children[&md.ident.to_string()];
                visit(tree, child, &format!("{path}::{}", md.ident), reached, seen);
            }
            syn::Item::Use(u) if public(&u.vis) => {
                for leaf in use_leaves(u) {
                    let targets = tree.resolve(m, &leaf.path, leaf.leading_colon);
                    assert!(
                        !targets.is_empty(),
                        "`pub use {}` in {path} names nothing this reading finds",
                        leaf.path.join("::")
                    );
                    for target in targets {
                        match (&leaf.name, target) {
                            (None, Target::Module(inner)) => {
                                visit(tree, inner, path, reached, seen)
                            }
                            (None, Target::External(e)) => {
                                reached.push((format!("{path}::*"), Target::External(e + "::*")))
                            }
                            (None, Target::Item(..)) => {}
                            (Some(name), Target::Module(inner)) => {
                                visit(tree, inner, &format!("{path}::{name}"), reached, seen)
                            }
                            (Some(name), target) => {
                                reached.push((format!("{path}::{name}"), target))
                            }
                        }
                    }
                }
            }
            syn::Item::Macro(_) => {}
            other => {
                let named = super::tree::item_name(other);
                let vis = match other {
                    syn::Item::Const(i) => Some(&i.vis),
                    syn::Item::Enum(i) => Some(&i.vis),
                    syn::Item::Fn(i) => Some(&i.vis),
                    syn::Item::Static(i) => Some(&i.vis),
                    syn::Item::Struct(i) => Some(&i.vis),
                    syn::Item::Trait(i) => Some(&i.vis),
                    syn::Item::Type(i) => Some(&i.vis),
                    syn::Item::Union(i) => Some(&i.vis),
                    _ => None,
                };
                if let (Some(name), Some(vis)) = (named, vis) {
                    if public(vis) {
                        reached.push((format!("{path}::{name}"), Target::Item(m, i)));
                    }
                }
            }
        }
    }
}

fn item_lines(
    tree: &Tree,
    path: &str,
    m: usize,
    i: usize,
    reachable: &BTreeSet<&Target>,
    lines: &mut BTreeSet<String>,
) {
    let item = &tree.modules[m].items[i];
    let attrs = item_attrs(item);
    let marks = if attrs.iter().any(|a| a.path().is_ident("non_exhaustive")) {
        "non_exhaustive "
    } else {
        ""
    };
    let mut line = |what: String| {
        lines.insert(format!("{path}  {marks}{what}"));
    };
    match item {
        syn::Item::Struct(s) => {
            let (ident, generics, clause) = (&s.ident, &s.generics, &s.generics.where_clause);
            line(
                one_line(syn::parse_quote!(struct #ident #generics #clause;))
                    .trim_end_matches(';')
                    .to_string(),
            );
            fields(path, ".", &s.fields, true, lines);
        }
        syn::Item::Enum(e) => {
            let (ident, generics, clause) = (&e.ident, &e.generics, &e.generics.where_clause);
            line(
                one_line(syn::parse_quote!(enum #ident #generics #clause {}))
                    .trim_end_matches(" {}")
                    .to_string(),
            );
            for variant in &e.variants {
                if hidden(&variant.attrs) {
                    continue;
                }
                let shape = shape(&variant.fields);
                lines.insert(format!("{path}::{}  variant{shape}", variant.ident));
            }
        }
        syn::Item::Union(u) => {
            line(format!("union {}", u.ident));
            for field in u
                .fields
                .named
                .iter()
                .filter(|f| public(&f.vis) && !hidden(&f.attrs))
            {
                lines.insert(format!(
                    "{path}.{}  {}",
                    field.ident.as_ref().unwrap(),
                    ty(&field.ty)
                ));
            }
        }
        syn::Item::Trait(t) => {
            let (ident, generics, clause) = (&t.ident, &t.generics, &t.generics.where_clause);
            let (colon, supers) = (&t.colon_token, &t.supertraits);
            let header: syn::Item =
                syn::parse_quote!(trait #ident #generics #colon #supers #clause {});
            line(one_line(header).trim_end_matches(" {}").to_string());
            for member in &t.items {
                match member {
                    syn::TraitItem::Fn(f) if !hidden(&f.attrs) => {
                        let provided = if f.default.is_some() { "provided " } else { "" };
                        lines.insert(format!(
                            "{path}::{}  {provided}{}",
                            f.sig.ident,
                            signature(&f.sig)
                        ));
                    }
                    syn::TraitItem::Type(ty) if !hidden(&ty.attrs) => {
                        lines.insert(format!("{path}::{}  type", ty.ident));
                    }
                    syn::TraitItem::Const(c) if !hidden(&c.attrs) => {
                        lines.insert(format!("{path}::{}  const: {}", c.ident, ty(&c.ty)));
                    }
                    _ => {}
                }
            }
        }
        syn::Item::Fn(f) => {
            let what = if attrs.iter().any(|a| a.path().is_ident("proc_macro")) {
                "macro!".to_string()
            } else {
                signature(&f.sig)
            };
            line(what);
        }
        syn::Item::Const(c) => line(format!("const: {}", ty(&c.ty))),
        syn::Item::Static(s) => line(format!("static: {}", ty(&s.ty))),
        syn::Item::Type(t) => {
            let (ident, generics, aliased) = (&t.ident, &t.generics, &t.ty);
            line(
                one_line(syn::parse_quote!(type #ident #generics = #aliased;))
                    .trim_end_matches(';')
                    .to_string(),
            );
        }
        syn::Item::Macro(_) => line("macro_rules!".to_string()),
        _ => {}
    }
    if matches!(
        item,
        syn::Item::Struct(_) | syn::Item::Enum(_) | syn::Item::Union(_)
    ) {
        for derived in derives(attrs) {
            lines.insert(format!("{path}  derive {derived}"));
        }
        impl_lines(tree, path, &Target::Item(m, i), reachable, lines);
    }
}

/// A struct's public fields (`PATH.name  Type`), or a variant's shape.
fn fields(
    path: &str,
    sep: &str,
    fields: &syn::Fields,
    need_pub: bool,
    lines: &mut BTreeSet<String>,
) {
    for (n, field) in fields.iter().enumerate() {
        if (need_pub && !public(&field.vis)) || hidden(&field.attrs) {
            continue;
        }
        let name = field
            .ident
            .as_ref()
            .map_or(n.to_string(), |i| i.to_string());
        lines.insert(format!("{path}{sep}{name}  {}", ty(&field.ty)));
    }
}

fn shape(fields: &syn::Fields) -> String {
    match fields {
        syn::Fields::Unit => String::new(),
        syn::Fields::Unnamed(u) => {
            let types: Vec<String> = u.unnamed.iter().map(|f| ty(&f.ty)).collect();
            format!("({})", types.join(", "))
        }
        syn::Fields::Named(n) => {
            let named: Vec<String> = n
                .named
                .iter()
                .map(|f| format!("{}: {}", f.ident.as_ref().unwrap(), ty(&f.ty)))
                .collect();
            format!(" {{ {} }}", named.join(", "))
        }
    }
}

fn derives(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            out.push(meta.path.segments.last().unwrap().ident.to_string());
            Ok(())
        });
    }
    out
}

/// The public methods and constants of the type's inherent `impl`s, and the traits it
/// implements that a user can name (a trait private to the crate is no API).
fn impl_lines(
    tree: &Tree,
    path: &str,
    me: &Target,
    public_items: &BTreeSet<&Target>,
    lines: &mut BTreeSet<String>,
) {
    for (m, module) in tree.modules.iter().enumerate() {
        for item in &module.items {
            let syn::Item::Impl(imp) = item else { continue };
            if hidden(&imp.attrs) {
                continue;
            }
            let syn::Type::Path(self_ty) = &*imp.self_ty else {
                continue;
            };
            if self_ty.qself.is_some() {
                continue;
            }
            let segments: Vec<String> = self_ty
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            if !tree
                .resolve(m, &segments, self_ty.path.leading_colon.is_some())
                .contains(me)
            {
                continue;
            }
            match &imp.trait_ {
                None => {
                    for member in &imp.items {
                        match member {
                            syn::ImplItem::Fn(f) if public(&f.vis) && !hidden(&f.attrs) => {
                                lines.insert(format!(
                                    "{path}::{}  {}",
                                    f.sig.ident,
                                    signature(&f.sig)
                                ));
                            }
                            syn::ImplItem::Const(c) if public(&c.vis) && !hidden(&c.attrs) => {
                                lines.insert(format!("{path}::{}  const: {}", c.ident, ty(&c.ty)));
                            }
                            _ => {}
                        }
                    }
                }
                Some((trait_path, _)) => {
                    let segments: Vec<String> = trait_path
                        .segments
                        .iter()
                        .map(|s| s.ident.to_string())
                        .collect();
                    let targets = tree.resolve(m, &segments, trait_path.leading_colon.is_some());
                    let in_crate = targets.iter().any(|t| !matches!(t, Target::External(_)));
                    if in_crate && !targets.iter().any(|t| public_items.contains(t)) {
                        continue;
                    }
                    // The trait as its last segment names it (`Display`, `From<&str>`).
                    let last = trait_path.segments.last().unwrap();
                    let name = ty(&syn::parse_quote!(#last));
                    lines.insert(format!("{path}  impl {name}"));
                }
            }
        }
    }
}

fn signature(sig: &syn::Signature) -> String {
    one_line(syn::parse_quote!(#sig {}))
        .trim_end_matches("{}")
        .trim_end()
        .to_string()
}

fn ty(ty: &syn::Type) -> String {
    let item: syn::Item = syn::parse_quote!(type T = #ty;);
    let text = one_line(item);
    text.trim_start_matches("type T = ")
        .trim_end_matches(';')
        .to_string()
}

/// The item as `prettyplease` writes it, on one line.
fn one_line(item: syn::Item) -> String {
    let file: syn::File = syn::parse_quote!(#item);
    let text = prettyplease::unparse(&file);
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .join(" ")
        .replace("( ", "(")
        .replace(", )", ")")
        .replace(",)", ")")
        .replace("< ", "<")
        .replace(", >", ">")
}

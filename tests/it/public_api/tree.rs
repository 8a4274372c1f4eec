//! A crate's modules as rustc reads them, from its `src/lib.rs` down through each `mod`,
//! and the paths written in them resolved to the items they name. Enough of Rust's name
//! resolution for the published crates: `crate`, `self`, `super`, a child module, a `use`
//! (renamed, grouped or a glob) and an item defined in the module. A path that leaves the
//! crate is kept as written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct Tree {
    pub modules: Vec<Module>,
}

pub struct Module {
    pub parent: Option<usize>,
    /// The item macros invoked here that `macros.rs` does not expand.
    pub unread: Vec<String>,
    pub items: Vec<syn::Item>,
    pub children: BTreeMap<String, usize>,
}

/// What a path names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    Module(usize),
    /// An item defined in a module: the module and the item's index in it.
    Item(usize, usize),
    /// A path into another crate, as written.
    External(String),
}

/// Whether the attributes hold `#[NAME(WORD)]` (`doc(hidden)`, `cfg(test)`).
pub fn has_attr(attrs: &[syn::Attribute], name: &str, word: &str) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident(name)
            && matches!(&attr.meta, syn::Meta::List(list) if list.tokens.to_string() == word)
    })
}

/// Items a build of the published crate never holds: tests.
fn testing_only(attrs: &[syn::Attribute]) -> bool {
    has_attr(attrs, "cfg", "test")
}

pub fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The name an item defines, for the items a path can name (not `use`, `impl`, `mod`).
pub fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

/// One name a `use` brings in: `None` for a glob.
pub struct UseLeaf {
    pub name: Option<String>,
    pub path: Vec<String>,
    pub leading_colon: bool,
}

pub fn use_leaves(item: &syn::ItemUse) -> Vec<UseLeaf> {
    fn walk(tree: &syn::UseTree, prefix: &mut Vec<String>, colon: bool, out: &mut Vec<UseLeaf>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                walk(&p.tree, prefix, colon, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                let mut path = prefix.clone();
                // `use a::b::{self}` names `b`.
                let name = if name == "self" {
                    prefix.last().cloned().unwrap_or(name)
                } else {
                    path.push(name.clone());
                    name
                };
                out.push(UseLeaf {
                    name: Some(name),
                    path,
                    leading_colon: colon,
                });
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                if r.ident != "self" {
                    path.push(r.ident.to_string());
                }
                out.push(UseLeaf {
                    name: Some(r.rename.to_string()),
                    path,
                    leading_colon: colon,
                });
            }
            syn::UseTree::Glob(_) => out.push(UseLeaf {
                name: None,
                path: prefix.clone(),
                leading_colon: colon,
            }),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    walk(tree, prefix, colon, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &item.tree,
        &mut Vec::new(),
        item.leading_colon.is_some(),
        &mut out,
    );
    out
}

impl Tree {
    /// Reads the crate whose root file is `lib`; `None` when there is no such file.
    pub fn read(lib: &Path) -> Option<Tree> {
        let text = std::fs::read_to_string(lib).ok()?;
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", lib.display()));
        let mut tree = Tree {
            modules: Vec::new(),
        };
        let dir = lib.parent().unwrap().to_path_buf();
        tree.add(None, file.items, &dir);
        Some(tree)
    }

    /// Adds a module holding `items`, whose file modules are looked for in `dir`.
    fn add(&mut self, parent: Option<usize>, items: Vec<syn::Item>, dir: &Path) -> usize {
        let me = self.modules.len();
        self.modules.push(Module {
            parent,
            unread: Vec::new(),
            items: Vec::new(),
            children: BTreeMap::new(),
        });
        let mut kept = Vec::new();
        for mut item in items {
            if testing_only(item_attrs(&item)) {
                continue;
            }
            if let syn::Item::Macro(mac) = &item {
                if mac.ident.is_none() {
                    match super::macros::expand(mac) {
                        Some(defined) => kept.extend(defined),
                        None => self.modules[me]
                            .unread
                            .push(mac.mac.path.segments.last().unwrap().ident.to_string()),
                    }
                    continue;
                }
            }
            if let syn::Item::Mod(m) = &mut item {
                let name = m.ident.to_string();
                // An inline module's items become the child's; the `mod` item stays, empty.
                let child = match m.content.take() {
                    Some((_, inner)) => self.add(Some(me), inner, &dir.join(&name)),
                    None => {
                        let (file, below) = module_file(dir, &name, &m.attrs);
                        let text = std::fs::read_to_string(&file)
                            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                        let parsed = syn::parse_file(&text)
                            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                        self.add(Some(me), parsed.items, &below)
                    }
                };
                self.modules[me].children.insert(name, child);
            }
            kept.push(item);
        }
        self.modules[me].items = kept;
        me
    }

    /// What `path`, written in module `from`, names (several when a name is both a type
    /// and a function, say); empty when it names nothing this reading finds.
    pub fn resolve(&self, from: usize, path: &[String], leading_colon: bool) -> Vec<Target> {
        self.resolve_at(from, path, leading_colon, 0)
    }

    fn resolve_at(&self, from: usize, path: &[String], colon: bool, depth: usize) -> Vec<Target> {
        let leading_colon = colon;
        let external = || vec![Target::External(path.join("::"))];
        if leading_colon || path.is_empty() {
            return external();
        }
        let mut module = from;
        let mut rest = path;
        match rest[0].as_str() {
            "crate" => {
                module = 0;
                rest = &rest[1..];
            }
            "self" => rest = &rest[1..],
            "super" => {
                while rest.first().map(String::as_str) == Some("super") {
                    module = self.modules[module]
                        .parent
                        .expect("`super` above the crate");
                    rest = &rest[1..];
                }
            }
            first => {
                // A path that begins with neither a name of this module nor a keyword is
                // another crate's (`std::fmt`, `doctrine_core::input`).
                if self.lookup(from, first, depth + 1).is_empty() {
                    return external();
                }
            }
        }
        if rest.is_empty() {
            return vec![Target::Module(module)];
        }
        for (at, segment) in rest.iter().enumerate() {
            let found = self.lookup(module, segment, depth + 1);
            if at + 1 == rest.len() {
                return found;
            }
            match found.iter().find_map(|t| match t {
                Target::Module(m) => Some(*m),
                _ => None,
            }) {
                Some(m) => module = m,
                None => {
                    if let Some(Target::External(ext)) = found.first() {
                        let mut whole = vec![ext.clone()];
                        whole.extend(rest[at + 1..].iter().cloned());
                        return vec![Target::External(whole.join("::"))];
                    }
                    return Vec::new();
                }
            }
        }
        unreachable!()
    }

    /// What `name` names inside `module`: a child module, an item defined there, or what a
    /// `use` there brings in (a glob's last).
    pub fn lookup(&self, module: usize, name: &str, depth: usize) -> Vec<Target> {
        // Globs that reach each other end here: what they could name is found earlier.
        if depth > 16 {
            return Vec::new();
        }
        let m = &self.modules[module];
        let mut found = Vec::new();
        if let Some(&child) = m.children.get(name) {
            found.push(Target::Module(child));
        }
        for (index, item) in m.items.iter().enumerate() {
            if item_name(item).as_deref() == Some(name) {
                found.push(Target::Item(module, index));
            }
        }
        if module == 0 {
            // `#[macro_export]` puts a macro at the crate's root, wherever it is written.
            for (at, other) in self.modules.iter().enumerate() {
                for (index, item) in other.items.iter().enumerate() {
                    if let syn::Item::Macro(mac) = item {
                        let exported = mac.attrs.iter().any(|a| a.path().is_ident("macro_export"));
                        if exported && mac.ident.as_ref().is_some_and(|i| i == name) {
                            push_new(&mut found, Target::Item(at, index));
                        }
                    }
                }
            }
        }
        let mut globs = Vec::new();
        for item in &m.items {
            let syn::Item::Use(u) = item else { continue };
            for leaf in use_leaves(u) {
                match leaf.name.as_deref() {
                    Some(n) if n == name => {
                        for t in self.resolve_from_use(module, &leaf, depth) {
                            push_new(&mut found, t);
                        }
                    }
                    // A glob cannot name its own first segment (`use doctrine_core::x::*`).
                    None if leaf.path.first().map(String::as_str) != Some(name) => globs.push(leaf),
                    _ => {}
                }
            }
        }
        if found.is_empty() {
            for glob in globs {
                for target in self.resolve_from_use(module, &glob, depth) {
                    if let Target::Module(inner) = target {
                        for t in self.lookup(inner, name, depth + 1) {
                            push_new(&mut found, t);
                        }
                    }
                }
            }
        }
        found
    }

    fn resolve_from_use(&self, module: usize, leaf: &UseLeaf, depth: usize) -> Vec<Target> {
        // A `use` path's first segment is looked up without the `use` itself in view, so
        // `use foo::bar` inside a module with a child `foo` finds the child.
        if leaf.path.len() == 1 && leaf.name.as_deref() == Some(leaf.path[0].as_str()) {
            let m = &self.modules[module];
            if let Some(&child) = m.children.get(&leaf.path[0]) {
                return vec![Target::Module(child)];
            }
            return vec![Target::External(leaf.path[0].clone())];
        }
        self.resolve_at(module, &leaf.path, leaf.leading_colon, depth + 1)
    }
}

fn push_new(found: &mut Vec<Target>, target: Target) {
    if !found.contains(&target) {
        found.push(target);
    }
}

/// The file of `mod NAME;` declared in a module whose children live in `dir`, and the
/// directory its own children live in.
fn module_file(dir: &Path, name: &str, attrs: &[syn::Attribute]) -> (PathBuf, PathBuf) {
    for attr in attrs {
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if nv.path.is_ident("path") {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
                {
                    let file = dir.parent().unwrap_or(dir).join(s.value());
                    return (file, dir.join(name));
                }
            }
        }
    }
    let flat = dir.join(format!("{name}.rs"));
    if flat.is_file() {
        return (flat, dir.join(name));
    }
    (dir.join(name).join("mod.rs"), dir.join(name))
}

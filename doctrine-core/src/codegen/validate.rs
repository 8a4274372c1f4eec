//! [`raw::Manifest`] → [`model::Doctrine`]: resolves every name, loads every file and
//! collects every error rather than stopping at the first.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;

use toml::Spanned;

use crate::Tier;

use super::diag::Sink;
use super::load::{Loader, Shape};
use super::model::{Content, Doctrine, Flag, Knob, Layer, Overlay, Segment, Suffix};
use super::names::{camel, closest, is_snake_ident, is_type_name, is_variant_name, screaming};
use super::raw::{self, Manifest, Name};

/// Type names the generated code always defines; a choice or knob may not take them.
pub const RESERVED_TYPES: &[&str] = &[
    "Role", "Flag", "Flags", "Knobs", "Overlay", "Compose", "Prompt",
];
const DEFAULT_SEPARATOR: &str = "\n\n---\n\n";
/// Builder methods every `Compose` stage has; a slot layer may not take these names.
const BUILDER_METHODS: &[&str] = &["flags", "flag", "knobs", "overlay", "finish"];
const DEFAULT_JOIN: &str = "\n\n";
/// Suffix texts are precomputed for every combination of the knobs they name.
const MAX_SUFFIX_COMBINATIONS: usize = 1024;

pub struct Context {
    pub manifest: PathBuf,
    pub manifest_display: String,
    pub crate_dir: PathBuf,
    pub base_dir: PathBuf,
}

pub fn validate(raw: Manifest, cx: Context, sink: &mut Sink<'_>) -> Option<Doctrine> {
    let mut loader = Loader::new(cx.crate_dir.clone(), cx.base_dir.clone());
    let roles = roles(&raw, sink);
    let flags = flags(&raw, sink);
    let knobs = knobs(&raw, sink);
    let names = Names {
        roles: &roles,
        flags: &flags,
        knobs: &knobs,
    };

    if raw.layers.is_empty() {
        sink.error(
            Some(0..0),
            "the manifest declares no layers",
            Some("add at least one `[[layer]]` table with a `name` and its content (`file`, `files`, `text`, `dir` or `slot`)".into()),
        );
    }
    let trim_default = raw.trim.unwrap_or(false);
    let mut layers: Vec<(Spanned<()>, Layer)> = Vec::new();
    let mut seen: HashMap<String, ()> = HashMap::new();
    let mut overlay_fields: HashSet<String> = HashSet::new();
    let mut type_names: HashMap<String, String> = RESERVED_TYPES
        .iter()
        .map(|t| (t.to_string(), "generated code".to_string()))
        .collect();
    for knob in &knobs {
        claim_type(
            &mut type_names,
            &knob.enum_name,
            &format!("knob `{}`", knob.name),
            None,
            sink,
        );
    }
    for spanned in &raw.layers {
        let layer = spanned.get_ref();
        let name = layer.name.get_ref();
        if !is_snake_ident(name) {
            sink.error(
                Some(layer.name.span()),
                format!("layer name `{name}` is not a lowercase Rust identifier"),
                Some("use lowercase letters, digits and `_`, starting with a letter (it names constants and builder methods)".into()),
            );
        }
        if seen.insert(name.clone(), ()).is_some() {
            sink.error(
                Some(layer.name.span()),
                format!("duplicate layer `{name}`"),
                Some("each `[[layer]]` needs a distinct `name`; rename or remove this one".into()),
            );
            continue;
        }
        if let Some(l) = validate_layer(layer, &names, trim_default, &mut loader, sink) {
            if let Some(o) = &l.overlay {
                if !overlay_fields.insert(o.field.clone()) {
                    let span = layer
                        .overlay_field
                        .as_ref()
                        .map(Spanned::span)
                        .unwrap_or(layer.name.span());
                    sink.error(
                        Some(span),
                        format!("overlay field `{}` is used by two layers", o.field),
                        Some("give this layer a distinct `overlay_field`".into()),
                    );
                }
            }
            if let Content::Choice { enum_name, .. } = &l.content {
                let span = layer
                    .choice
                    .as_ref()
                    .map(Spanned::span)
                    .unwrap_or(layer.name.span());
                claim_type(
                    &mut type_names,
                    enum_name,
                    &format!("layer `{name}`"),
                    Some(span),
                    sink,
                );
            }
            layers.push((Spanned::new(spanned.span(), ()), l));
        }
    }
    check_tiers(&raw, &layers, sink);
    check_orders(&raw, &layers, sink);

    if !sink.found.is_empty() {
        return None;
    }
    Some(Doctrine {
        manifest: cx.manifest,
        manifest_display: cx.manifest_display,
        separator: raw
            .separator
            .map(Spanned::into_inner)
            .unwrap_or_else(|| DEFAULT_SEPARATOR.to_string()),
        roles,
        flags,
        knobs,
        layers: layers.into_iter().map(|(_, l)| l).collect(),
        texts: loader.texts,
        tracked: loader.tracked,
    })
}

struct Names<'a> {
    roles: &'a [String],
    flags: &'a [Flag],
    knobs: &'a [Knob],
}

impl Names<'_> {
    fn role(&self, name: &Name, sink: &mut Sink<'_>) -> Option<usize> {
        if self.roles.is_empty() {
            sink.error(
                Some(name.span()),
                format!(
                    "role `{}` is named but the manifest declares no roles",
                    name.get_ref()
                ),
                Some("declare them at the top: `roles = [\"developer\", ...]`".into()),
            );
            return None;
        }
        let found = self.roles.iter().position(|r| r == name.get_ref());
        if found.is_none() {
            sink.error(
                Some(name.span()),
                format!("unknown role `{}`", name.get_ref()),
                Some(hint(
                    name.get_ref(),
                    self.roles.iter().map(String::as_str),
                    "declared roles",
                )),
            );
        }
        found
    }

    fn roles(&self, names: &[Name], sink: &mut Sink<'_>) -> Option<Vec<usize>> {
        let found: Vec<Option<usize>> = names.iter().map(|n| self.role(n, sink)).collect();
        found.into_iter().collect()
    }
}

fn hint<'a>(name: &str, candidates: impl Iterator<Item = &'a str> + Clone, what: &str) -> String {
    let list = candidates.clone().collect::<Vec<_>>().join(", ");
    match closest(name, candidates) {
        Some(c) => format!("did you mean `{c}`? {what}: {list}"),
        None => format!("{what}: {list}"),
    }
}

fn claim_type(
    taken: &mut HashMap<String, String>,
    name: &str,
    owner: &str,
    span: Option<std::ops::Range<usize>>,
    sink: &mut Sink<'_>,
) {
    if let Some(prev) = taken.get(name) {
        sink.error(
            span,
            format!("{owner} would generate a type `{name}`, which {prev} already defines"),
            Some("rename it, or for a `dir` layer set `choice = \"OtherName\"`".into()),
        );
    } else {
        taken.insert(name.to_string(), owner.to_string());
    }
}

fn roles(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if raw.roles_span.is_some() && raw.roles.is_empty() {
        sink.error(
            raw.roles_span.clone(),
            "`roles` is empty",
            Some("list at least one role, or remove the key for a single-agent prompt".into()),
        );
    }
    for role in &raw.roles {
        let name = role.get_ref();
        if !is_variant_name(name) {
            sink.error(
                Some(role.span()),
                format!("role `{name}` must start with a letter and hold only letters, digits, `-` and `_`"),
                Some("it becomes a variant of the generated `Role` enum".into()),
            );
        } else if name == "default" {
            sink.error(
                Some(role.span()),
                "`default` cannot be a role: it is the fallback key of per-role maps",
                Some("rename the role".into()),
            );
        } else if out.iter().any(|r| camel(r) == camel(name)) {
            sink.error(
                Some(role.span()),
                format!(
                    "role `{name}` is declared twice (or names the same variant as another role)"
                ),
                Some("remove the duplicate".into()),
            );
        } else {
            out.push(name.clone());
        }
    }
    out
}

fn flags(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<Flag> {
    let mut out = Vec::new();
    for (name, default) in &raw.flags {
        if !is_snake_ident(name.get_ref()) {
            sink.error(
                Some(name.span()),
                format!(
                    "flag `{}` is not a lowercase Rust identifier",
                    name.get_ref()
                ),
                Some("it becomes a field of the generated `Flags` struct".into()),
            );
            continue;
        }
        out.push(Flag {
            name: name.get_ref().clone(),
            default: *default,
        });
    }
    out
}

fn knobs(raw: &Manifest, sink: &mut Sink<'_>) -> Vec<Knob> {
    let mut out = Vec::new();
    for (name, knob) in &raw.knobs {
        let mut ok = true;
        if !is_snake_ident(name.get_ref()) {
            sink.error(
                Some(name.span()),
                format!(
                    "knob `{}` is not a lowercase Rust identifier",
                    name.get_ref()
                ),
                Some("it becomes a field of the generated `Knobs` struct".into()),
            );
            ok = false;
        }
        let values = knob.values.get_ref();
        if values.is_empty() {
            sink.error(
                Some(knob.values.span()),
                format!("knob `{}` has no values", name.get_ref()),
                Some("list its closed set: `values = [\"lite\", \"full\"]`".into()),
            );
            ok = false;
        }
        let mut names: Vec<String> = Vec::new();
        for v in values {
            if !is_variant_name(v.get_ref()) {
                sink.error(
                    Some(v.span()),
                    format!("knob value `{}` must start with a letter and hold only letters, digits, `-` and `_`", v.get_ref()),
                    Some("it becomes an enum variant".into()),
                );
                ok = false;
            } else if names.iter().any(|n| camel(n) == camel(v.get_ref())) {
                sink.error(
                    Some(v.span()),
                    format!("knob value `{}` is listed twice", v.get_ref()),
                    Some("remove the duplicate".into()),
                );
                ok = false;
            } else {
                names.push(v.get_ref().clone());
            }
        }
        let default = names.iter().position(|v| v == knob.default.get_ref());
        if default.is_none() && !names.is_empty() {
            sink.error(
                Some(knob.default.span()),
                format!(
                    "default `{}` of knob `{}` is not among its values",
                    knob.default.get_ref(),
                    name.get_ref()
                ),
                Some(hint(
                    knob.default.get_ref(),
                    names.iter().map(String::as_str),
                    "values",
                )),
            );
            ok = false;
        }
        if ok {
            out.push(Knob {
                name: name.get_ref().clone(),
                enum_name: camel(name.get_ref()),
                values: names,
                default: default.unwrap_or(0),
            });
        }
    }
    out
}

fn validate_layer(
    raw: &raw::Layer,
    names: &Names<'_>,
    trim_default: bool,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Layer> {
    let before = sink.found.len();
    let name = raw.name.get_ref().clone();
    let upper = screaming(&name);

    let scope = match &raw.roles {
        Some(list) if list.get_ref().is_empty() => {
            sink.error(
                Some(list.span()),
                format!("layer `{name}` is scoped to no roles"),
                Some("list the roles it applies to, or remove `roles` to apply it to all".into()),
            );
            None
        }
        Some(list) => names.roles(list.get_ref(), sink),
        None => None,
    };
    let role_count = names.roles.len().max(1);
    let in_scope: Vec<usize> = (0..role_count)
        .filter(|r| scope.as_ref().is_none_or(|s| s.contains(r)))
        .collect();

    let gate = raw.when.as_ref().and_then(|flag| {
        let found = names.flags.iter().position(|f| &f.name == flag.get_ref());
        if found.is_none() {
            sink.error(
                Some(flag.span()),
                format!(
                    "layer `{name}` is gated on undeclared flag `{}`",
                    flag.get_ref()
                ),
                Some(match names.flags.is_empty() {
                    true => format!("declare it: `[flags]` then `{} = false`", flag.get_ref()),
                    false => hint(
                        flag.get_ref(),
                        names.flags.iter().map(|f| f.name.as_str()),
                        "declared flags",
                    ),
                }),
            );
        }
        found
    });

    let shape = Shape {
        strip_frontmatter: raw
            .frontmatter
            .as_ref()
            .is_some_and(|f| *f.get_ref() == raw::Frontmatter::Strip),
        trim: raw.trim.unwrap_or(trim_default),
    };

    let given: Vec<&str> = [
        raw.file.as_ref().map(|_| "file"),
        raw.files.as_ref().map(|_| "files"),
        raw.text.as_ref().map(|_| "text"),
        raw.texts.as_ref().map(|_| "texts"),
        raw.dir.as_ref().map(|_| "dir"),
        raw.slot.as_ref().map(|_| "slot"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if given.len() != 1 {
        sink.error(
            Some(raw.name.span()),
            match given.len() {
                0 => format!("layer `{name}` has no content"),
                _ => format!(
                    "layer `{name}` has more than one content key: {}",
                    given.join(", ")
                ),
            },
            Some("give exactly one of `file`, `files`, `text`, `texts`, `dir` or `slot`".into()),
        );
        return None;
    }
    let not_for = |sink: &mut Sink<'_>, key: &str, span: std::ops::Range<usize>| {
        sink.error(
            Some(span),
            format!("`{key}` does not apply to a `{}` layer", given[0]),
            Some(format!("remove `{key}` from layer `{name}`")),
        );
    };
    if given[0] != "dir" {
        if let Some(c) = &raw.choice {
            not_for(sink, "choice", c.span());
        }
        if let Some(o) = &raw.optional {
            not_for(sink, "optional", o.span());
        }
    }
    if matches!(given[0], "text" | "texts" | "slot") {
        if let Some(f) = &raw.frontmatter {
            not_for(sink, "frontmatter", f.span());
        }
    }

    if given[0] == "slot" && BUILDER_METHODS.contains(&name.as_str()) {
        sink.error(
            Some(raw.name.span()),
            format!("slot layer `{name}` would clash with the builder's own `.{name}()` method"),
            Some(format!(
                "rename the layer; these names are taken: {}",
                BUILDER_METHODS.join(", ")
            )),
        );
    }
    if given[0] == "dir" && name == "role" && !names.roles.is_empty() {
        sink.error(
            Some(raw.name.span()),
            "a `dir` layer named `role` would clash with the role parameter of `compose`",
            Some("rename the layer, e.g. `persona`".into()),
        );
    }
    let content = if let Some(path) = &raw.file {
        let canonical = loader.resolve(path, sink)?;
        let id = loader.load(&canonical, shape, &upper, &name, sink)?;
        Content::PerRole(vec![(in_scope.clone(), id)])
    } else if let Some(map) = &raw.files {
        let groups = per_role(
            map.get_ref(),
            map.span(),
            &name,
            names,
            &in_scope,
            sink,
            |key, path, sink| {
                let canonical = loader.resolve(path, sink)?;
                loader.load(
                    &canonical,
                    shape,
                    &format!("{upper}_{}", screaming(key)),
                    &name,
                    sink,
                )
            },
        )?;
        Content::PerRole(groups)
    } else if let Some(text) = &raw.text {
        let id = inline(loader, &upper, &name, text.get_ref(), shape);
        Content::PerRole(vec![(in_scope.clone(), id)])
    } else if let Some(map) = &raw.texts {
        let groups = per_role(
            map.get_ref(),
            map.span(),
            &name,
            names,
            &in_scope,
            sink,
            |key, body, _| {
                Some(inline(
                    loader,
                    &format!("{upper}_{}", screaming(key)),
                    &name,
                    body.get_ref(),
                    shape,
                ))
            },
        )?;
        Content::PerRole(groups)
    } else if let Some(dir) = &raw.dir {
        let canonical = loader.resolve(dir, sink)?;
        let files = match loader.list_dir(&canonical) {
            Ok(f) => f,
            Err(e) => {
                sink.error(
                    Some(dir.span()),
                    format!("cannot list directory `{}`: {e}", dir.get_ref()),
                    Some("point `dir` at a directory of .md files".into()),
                );
                return None;
            }
        };
        if files.is_empty() {
            sink.error(
                Some(dir.span()),
                format!("directory `{}` holds no .md files", dir.get_ref()),
                Some("each `<stem>.md` file becomes one choice; add at least one".into()),
            );
            return None;
        }
        let mut variants: Vec<(String, usize)> = Vec::new();
        for (stem, _) in files {
            if !is_variant_name(&stem) {
                sink.error(
                    Some(dir.span()),
                    format!("file `{stem}.md` in `{}` cannot name a choice: a stem must start with a letter and hold only letters, digits, `-` and `_`", dir.get_ref()),
                    Some("rename the file".into()),
                );
                continue;
            }
            if let Some((other, _)) = variants.iter().find(|(s, _)| camel(s) == camel(&stem)) {
                sink.error(
                    Some(dir.span()),
                    format!(
                        "files `{other}.md` and `{stem}.md` in `{}` name the same choice `{}`",
                        dir.get_ref(),
                        camel(&stem)
                    ),
                    Some("rename one of them".into()),
                );
                continue;
            }
            let rel = Spanned::new(
                dir.span(),
                format!("{}/{stem}.md", dir.get_ref().trim_end_matches('/')),
            );
            let Some(file) = loader.resolve(&rel, sink) else {
                continue;
            };
            if let Some(id) = loader.load(
                &file,
                shape,
                &format!("{upper}_{}", screaming(&stem)),
                &name,
                sink,
            ) {
                variants.push((stem, id));
            }
        }
        let enum_name = match &raw.choice {
            Some(c) if !is_type_name(c.get_ref()) => {
                sink.error(
                    Some(c.span()),
                    format!("`{}` is not a type name", c.get_ref()),
                    Some("use CamelCase, e.g. `choice = \"Team\"`".into()),
                );
                camel(&name)
            }
            Some(c) => c.get_ref().clone(),
            None => camel(&name),
        };
        Content::Choice {
            enum_name,
            variants,
            optional: raw.optional.as_ref().is_some_and(|o| *o.get_ref()),
        }
    } else if let Some(slot) = &raw.slot {
        Content::Slot {
            required: *slot.get_ref() == raw::Slot::Required,
        }
    } else {
        unreachable!("exactly one content key was checked above")
    };

    let locked = raw.locked.as_ref().is_some_and(|l| *l.get_ref());
    let overlay = match (&raw.override_, locked) {
        (Some(o), true) => {
            sink.error(
                Some(o.span()),
                format!("layer `{name}` is locked, so it cannot have an `override`"),
                Some("a locked layer has no overlay field by design: remove `override`, or remove `locked = true` if users may really change it".into()),
            );
            None
        }
        (Some(o), false) if matches!(content, Content::Slot { .. }) => {
            sink.error(
                Some(o.span()),
                format!("slot layer `{name}` cannot have an `override`"),
                Some("the caller already supplies a slot's text; remove `override`".into()),
            );
            None
        }
        (Some(o), false) => {
            let field = raw
                .overlay_field
                .as_ref()
                .map(|f| f.get_ref().clone())
                .unwrap_or_else(|| name.clone());
            if !is_snake_ident(&field) {
                let span = raw
                    .overlay_field
                    .as_ref()
                    .map(Spanned::span)
                    .unwrap_or(raw.name.span());
                sink.error(
                    Some(span),
                    format!("overlay field `{field}` is not a lowercase Rust identifier"),
                    Some("it becomes a field of the generated `Overlay` struct".into()),
                );
            }
            Some(Overlay {
                field,
                mode: *o.get_ref(),
                separator: raw
                    .overlay_separator
                    .clone()
                    .unwrap_or_else(|| DEFAULT_JOIN.to_string()),
            })
        }
        (None, _) => {
            if let Some(f) = &raw.overlay_field {
                sink.error(
                    Some(f.span()),
                    "`overlay_field` without `override`",
                    Some(
                        "add `override = \"replace\"` or `\"append\"`, or remove `overlay_field`"
                            .into(),
                    ),
                );
            }
            None
        }
    };

    let suffix = raw.suffix.as_ref().and_then(|s| {
        if !matches!(content, Content::PerRole(_)) {
            not_for(sink, "suffix", s.span());
            return None;
        }
        suffix(s.get_ref(), names, &in_scope, sink)
    });

    let tier = match raw.tier.as_ref().map(Spanned::get_ref) {
        Some(raw::Tier::Volatile) => Tier::Volatile,
        _ => Tier::Stable,
    };
    if sink.found.len() > before {
        return None;
    }
    Some(Layer {
        name,
        tier,
        gate,
        scope,
        content,
        locked,
        overlay,
        suffix,
    })
}

/// Inline manifest text, normalised like a file's.
fn inline(loader: &mut Loader, const_name: &str, layer: &str, body: &str, shape: Shape) -> usize {
    let body = super::text::normalise(body);
    let body = if shape.trim {
        body.trim().to_string()
    } else {
        body
    };
    loader.add(const_name, layer, body, None)
}

/// Resolves a per-role map (with optional `default`) into groups of roles sharing a text.
fn per_role<V>(
    map: &BTreeMap<Name, V>,
    span: std::ops::Range<usize>,
    layer: &str,
    names: &Names<'_>,
    in_scope: &[usize],
    sink: &mut Sink<'_>,
    mut load: impl FnMut(&str, &V, &mut Sink<'_>) -> Option<usize>,
) -> Option<Vec<(Vec<usize>, usize)>> {
    let mut by_role: HashMap<usize, &V> = HashMap::new();
    let mut default = None;
    let mut ok = true;
    for (key, value) in map {
        if key.get_ref() == "default" {
            default = Some((key.get_ref().as_str(), value));
            continue;
        }
        match names.role(key, sink) {
            Some(r) if !in_scope.contains(&r) => {
                sink.error(
                    Some(key.span()),
                    format!(
                        "role `{}` is outside the `roles` of layer `{layer}`",
                        key.get_ref()
                    ),
                    Some("remove this entry, or add the role to the layer's `roles`".into()),
                );
                ok = false;
            }
            Some(r) => {
                by_role.insert(r, value);
            }
            None => ok = false,
        }
    }
    let mut groups: Vec<(Vec<usize>, usize)> = Vec::new();
    let mut loaded: HashMap<*const V, usize> = HashMap::new();
    for &role in in_scope {
        let (key, value) = match (by_role.get(&role), default) {
            (Some(v), _) => (names.roles[role].as_str(), *v),
            (None, Some(d)) => d,
            (None, None) => {
                sink.error(
                    Some(span.clone()),
                    format!("role `{}` has no entry in layer `{layer}` and there is no `default`", names.roles[role]),
                    Some(format!(
                        "add `{} = ...` or `default = ...`, or leave the role out with the layer's `roles = [...]`",
                        names.roles[role]
                    )),
                );
                ok = false;
                continue;
            }
        };
        let ptr = value as *const V;
        let id = match loaded.get(&ptr) {
            Some(&id) => id,
            None => match load(key, value, sink) {
                Some(id) => {
                    loaded.insert(ptr, id);
                    id
                }
                None => {
                    ok = false;
                    continue;
                }
            },
        };
        match groups.iter_mut().find(|(_, t)| *t == id) {
            Some((roles, _)) => roles.push(role),
            None => groups.push((vec![role], id)),
        }
    }
    ok.then_some(groups)
}

fn suffix(
    raw: &raw::Suffix,
    names: &Names<'_>,
    in_scope: &[usize],
    sink: &mut Sink<'_>,
) -> Option<Suffix> {
    let roles = match &raw.roles {
        Some(list) => {
            let roles = names.roles(list, sink)?;
            for (r, n) in roles.iter().zip(list) {
                if !in_scope.contains(r) {
                    sink.error(
                        Some(n.span()),
                        format!(
                            "suffix role `{}` is outside the layer's `roles`",
                            n.get_ref()
                        ),
                        Some("remove it from the suffix's `roles`".into()),
                    );
                }
            }
            Some(roles)
        }
        None => None,
    };
    let segments = match placeholders(raw.text.get_ref()) {
        Ok(s) => s,
        Err(e) => {
            sink.error(
                Some(raw.text.span()),
                e,
                Some("write `{knob}` for a knob's value and `{{` / `}}` for literal braces".into()),
            );
            return None;
        }
    };
    let mut out = Vec::new();
    let mut combinations = 1usize;
    for seg in segments {
        match seg {
            Piece::Lit(s) => out.push(Segment::Lit(s)),
            Piece::Name(n) => match names.knobs.iter().position(|k| k.name == n) {
                Some(k) => {
                    combinations = combinations.saturating_mul(names.knobs[k].values.len());
                    out.push(Segment::Knob(k));
                }
                None => {
                    sink.error(
                        Some(raw.text.span()),
                        format!("placeholder `{{{n}}}` names no declared knob"),
                        Some(hint(
                            &n,
                            names.knobs.iter().map(|k| k.name.as_str()),
                            "declared knobs",
                        )),
                    );
                    return None;
                }
            },
        }
    }
    if combinations > MAX_SUFFIX_COMBINATIONS {
        sink.error(
            Some(raw.text.span()),
            format!("this suffix has {combinations} knob combinations; at most {MAX_SUFFIX_COMBINATIONS} are precomputed"),
            Some("name fewer knobs in one suffix".into()),
        );
        return None;
    }
    Some(Suffix {
        roles,
        separator: raw
            .separator
            .clone()
            .unwrap_or_else(|| DEFAULT_JOIN.to_string()),
        segments: out,
    })
}

#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    Lit(String),
    Name(String),
}

/// Splits `text {name} more {{literal}}` into literal and placeholder pieces.
pub fn placeholders(text: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                lit.push('}');
            }
            '{' => {
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => name.push(c),
                        None => return Err(format!("placeholder `{{{name}` is never closed")),
                    }
                }
                if !is_snake_ident(&name) {
                    return Err(format!("`{{{name}}}` is not a placeholder name"));
                }
                if !lit.is_empty() {
                    out.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                out.push(Piece::Name(name));
            }
            '}' => return Err("a lone `}` in text with placeholders".into()),
            c => lit.push(c),
        }
    }
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    Ok(out)
}

fn check_tiers(raw: &Manifest, layers: &[(Spanned<()>, Layer)], sink: &mut Sink<'_>) {
    let mut first_volatile: Option<&str> = None;
    for (_, layer) in layers {
        match (layer.tier, first_volatile) {
            (Tier::Volatile, None) => first_volatile = Some(&layer.name),
            (Tier::Stable, Some(v)) => {
                let span = raw
                    .layers
                    .iter()
                    .find(|l| l.get_ref().name.get_ref() == &layer.name)
                    .map(|l| l.get_ref().name.span());
                sink.error(
                    span,
                    format!("stable layer `{}` comes after volatile layer `{v}`", layer.name),
                    Some(format!(
                        "every stable layer must precede every volatile one, or the cached prefix changes each turn: move `{}` above `{v}`, or mark it `tier = \"volatile\"`",
                        layer.name
                    )),
                );
            }
            _ => {}
        }
    }
}

fn check_orders(raw: &Manifest, layers: &[(Spanned<()>, Layer)], sink: &mut Sink<'_>) {
    let index: HashMap<&str, usize> = layers
        .iter()
        .enumerate()
        .map(|(i, (_, l))| (l.name.as_str(), i))
        .collect();
    let all: HashSet<&str> = raw
        .layers
        .iter()
        .map(|l| l.get_ref().name.get_ref().as_str())
        .collect();
    let mut edges: Vec<(usize, usize, &Spanned<raw::Order>)> = Vec::new();
    for order in &raw.orders {
        let o = order.get_ref();
        let mut ends = [None, None];
        for (slot, name) in ends.iter_mut().zip([&o.first, &o.then]) {
            match index.get(name.get_ref().as_str()) {
                Some(&i) => *slot = Some(i),
                // A layer that failed validation was reported already.
                None if all.contains(name.get_ref().as_str()) => {}
                None => sink.error(
                    Some(name.span()),
                    format!("order constraint names unknown layer `{}`", name.get_ref()),
                    Some(hint(name.get_ref(), all.iter().copied(), "layers")),
                ),
            }
        }
        if let [Some(a), Some(b)] = ends {
            edges.push((a, b, order));
        }
    }
    let cyclic = cycle_members(layers.len(), &edges);
    let mut reported_cycle = false;
    for &(a, b, order) in &edges {
        if cyclic.contains(&a) && cyclic.contains(&b) {
            if !reported_cycle {
                let names: Vec<&str> = cyclic.iter().map(|&i| layers[i].1.name.as_str()).collect();
                sink.error(
                    Some(order.span()),
                    format!(
                        "order constraints form a cycle among layers {}",
                        names.join(", ")
                    ),
                    Some("no order can satisfy them; remove the constraint that is wrong".into()),
                );
                reported_cycle = true;
            }
        } else if a >= b {
            let (first, then) = (&layers[a].1.name, &layers[b].1.name);
            sink.error(
                Some(order.span()),
                format!("order constraint violated: `{first}` must come before `{then}`, but the manifest lists it after"),
                Some(format!("this order is load-bearing: move the `[[layer]]` named `{first}` above `{then}`")),
            );
        }
    }
}

/// Layers on some cycle of the constraint graph, in index order.
fn cycle_members(n: usize, edges: &[(usize, usize, &Spanned<raw::Order>)]) -> Vec<usize> {
    let reach = |from: usize| {
        let mut seen = vec![false; n];
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            for &(a, b, _) in edges {
                if a == x && !seen[b] {
                    seen[b] = true;
                    stack.push(b);
                }
            }
        }
        seen
    };
    (0..n).filter(|&i| reach(i)[i]).collect()
}

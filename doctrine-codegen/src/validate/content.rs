//! A layer's content key (`file`, `files`, `text`, `texts`, `dir`, `slot`) → [`Content`].

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use toml::Spanned;

use super::hint::hint;
use super::names::Names;
use crate::diag::Sink;
use crate::load::{Loader, Shape};
use crate::model::{ChoiceFile, Content, RoleGroup, RoleId, TextId};
use crate::names::{camel, is_type_name, screaming, stem_variant};
use crate::raw::{self, Name};

use super::kind::Kind;

/// Resolves a layer's content key, loading any files it names.
pub(super) fn resolve(
    raw: &raw::Layer,
    kind: Kind<'_>,
    names: &Names<'_>,
    in_scope: &[RoleId],
    shape: Shape,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Content> {
    let name = raw.name.get_ref().clone();
    let upper = screaming(&name);
    let content = match kind {
        Kind::File(path) if names.is_pattern(path.get_ref()) => Content::PerRole(pattern(
            raw, path, &name, &upper, names, in_scope, shape, loader, sink,
        )?),
        Kind::File(path) => {
            let canonical = loader.resolve(path, sink)?;
            let id = loader.load(&canonical, path.span(), shape, &upper, &name, sink)?;
            Content::PerRole(vec![RoleGroup {
                roles: in_scope.to_vec(),
                text: id,
            }])
        }
        Kind::Text(text) => {
            let id = inline(loader, &upper, &name, text.get_ref(), shape);
            Content::PerRole(vec![RoleGroup {
                roles: in_scope.to_vec(),
                text: id,
            }])
        }
        // `files` maps roles to paths, `texts` to inline text; both key constants by role.
        Kind::Files(map) => {
            // A `{role}` pattern (in `default`, say) becomes each role's own path.
            let (expanded, patterns) = expand_patterns(map.get_ref(), names, in_scope);
            // The roles' files a pattern named and that do not exist, and the empty texts
            // `missing = "empty"` gave them.
            let mut misses = Misses::default();
            let groups = per_role(
                &expanded,
                map.span(),
                &name,
                names,
                (in_scope, missing_ok(raw)),
                sink,
                |key, value, sink| {
                    let hint = format!("{upper}_{}", screaming(key));
                    if let Some(pattern) = patterns.get(key) {
                        if loader.is_missing(value.get_ref()) {
                            let at = Missing {
                                pattern,
                                path: value,
                                who: key,
                                hint: &hint,
                            };
                            let id = missing(raw, at, &name, shape, names.word, loader, sink);
                            misses.add(pattern, value, id);
                            return id;
                        }
                    }
                    let canonical = loader.resolve(value, sink)?;
                    loader.load(&canonical, value.span(), shape, &hint, &name, sink)
                },
            )?;
            misses.none_found(&groups, &name, names.word, sink)?;
            Content::PerRole(groups)
        }
        Kind::Texts(texts) => {
            // Roles given the same text share one constant: the same once normalised and
            // trimmed as the layer says, which is what the constant holds.
            let mut same: HashMap<String, TextId> = HashMap::new();
            let groups = per_role(
                &texts.get_ref().0,
                texts.span(),
                &name,
                names,
                (in_scope, missing_ok(raw)),
                sink,
                |key, value, _| {
                    let body = inline_body(value.get_ref(), shape);
                    let id = *same.entry(body.clone()).or_insert_with(|| {
                        let hint = format!("{upper}_{}", screaming(key));
                        loader.add(&hint, &name, body, None)
                    });
                    Some(id)
                },
            )?;
            Content::PerRole(groups)
        }
        Kind::Dir(dir) => choice_dir(raw, dir, &name, &upper, shape, loader, sink)?,
        Kind::Slot { required } => Content::Slot {
            required,
            trim: shape.trim,
        },
        Kind::Instructions => Content::Instructions,
    };
    Some(content)
}

/// `file = "lifecycle/{role}.md"`: one file per role in scope, named by the pattern.
#[allow(clippy::too_many_arguments)]
fn pattern(
    raw: &raw::Layer,
    path: &Spanned<String>,
    name: &str,
    upper: &str,
    names: &Names<'_>,
    in_scope: &[RoleId],
    shape: Shape,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Vec<RoleGroup>> {
    let word = names.word;
    if names.roles.is_empty() {
        sink.error(
            Some(path.span()),
            format!(
                "`{}` has a `{{{word}}}` pattern, and the manifest declares no {word}s",
                path.get_ref()
            ),
            Some(format!("declare `{word}s = [...]`, or name one file")),
        );
        return None;
    }
    let mut groups = Vec::new();
    let mut misses = Misses::default();
    let mut ok = true;
    for &r in in_scope {
        let who = &names.roles[r.0];
        let rel = Spanned::new(
            path.span(),
            path.get_ref().replace(&format!("{{{word}}}"), who),
        );
        let hint = format!("{upper}_{}", screaming(who));
        let id = if loader.is_missing(rel.get_ref()) {
            let at = Missing {
                pattern: path.get_ref(),
                path: &rel,
                who,
                hint: &hint,
            };
            let id = missing(raw, at, name, shape, word, loader, sink);
            misses.add(path.get_ref(), &rel, id);
            match id {
                Some(id) => id,
                None => {
                    ok = false;
                    continue;
                }
            }
        } else {
            let Some(canonical) = loader.resolve(&rel, sink) else {
                ok = false;
                continue;
            };
            match loader.load(&canonical, rel.span(), shape, &hint, name, sink) {
                Some(id) => id,
                None => {
                    ok = false;
                    continue;
                }
            }
        };
        // Roles that load the same text (one file, or none) share a group.
        match groups.iter_mut().find(|g: &&mut RoleGroup| g.text == id) {
            Some(g) => g.roles.push(r),
            None => groups.push(RoleGroup {
                roles: vec![r],
                text: id,
            }),
        }
    }
    if ok {
        misses.none_found(&groups, name, word, sink)?;
    }
    ok.then_some(groups)
}

/// The roles' files that `{role}` patterns named and that do not exist, each with its
/// pattern, and the empty texts `missing = "empty"` gave those roles.
#[derive(Default)]
struct Misses {
    files: Vec<(String, Spanned<String>)>,
    empty: Vec<TextId>,
}

impl Misses {
    fn add(&mut self, pattern: &str, path: &Spanned<String>, id: Option<TextId>) {
        self.files.push((pattern.to_string(), path.clone()));
        self.empty.extend(id);
    }

    /// An error when every role in scope got an empty text because its pattern found no
    /// file: the layer would compile, and always be empty.
    fn none_found(
        &self,
        groups: &[RoleGroup],
        layer: &str,
        word: &str,
        sink: &mut Sink<'_>,
    ) -> Option<()> {
        let all_missing = groups.iter().all(|g| self.empty.contains(&g.text));
        let Some((_, first)) = self.files.first().filter(|_| all_missing) else {
            return Some(());
        };
        let mut patterns: Vec<&str> = Vec::new();
        for (pattern, _) in &self.files {
            if !patterns.contains(&pattern.as_str()) {
                patterns.push(pattern);
            }
        }
        let patterns = match patterns.as_slice() {
            [one] => format!("pattern `{one}` finds"),
            more => format!("patterns `{}` find", more.join("`, `")),
        };
        let mut paths: Vec<String> = self
            .files
            .iter()
            .take(3)
            .map(|(_, p)| format!("`{}`", p.get_ref()))
            .collect();
        if self.files.len() > 3 {
            paths.push(format!("{} more", self.files.len() - 3));
        }
        sink.error(
            Some(first.span()),
            format!(
                "layer `{layer}` gives no {word} in its scope a text: {patterns} no file for \
                 any of them (looked for {})",
                paths.join(", ")
            ),
            Some(format!(
                "add the file of a {word} that takes the layer (`{}`), fix the pattern, or \
                 remove the layer",
                first.get_ref()
            )),
        );
        None
    }
}

/// Whether the layer says `missing = "empty"`.
fn missing_ok(raw: &raw::Layer) -> bool {
    raw.missing
        .as_ref()
        .is_some_and(|m| *m.get_ref() == raw::Missing::Empty)
}

/// A role's file that a `{role}` pattern names and that does not exist.
struct Missing<'a> {
    pattern: &'a str,
    path: &'a Spanned<String>,
    who: &'a str,
    /// The constant's name, for the empty text.
    hint: &'a str,
}

/// With `missing = "empty"` no text for the role (an empty one, skipped as empty); else an
/// error naming the file, the pattern and the role.
fn missing(
    raw: &raw::Layer,
    at: Missing<'_>,
    name: &str,
    shape: Shape,
    word: &str,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<TextId> {
    if missing_ok(raw) {
        return Some(inline(loader, at.hint, name, "", shape));
    }
    sink.error(
        Some(at.path.span()),
        format!(
            "missing file `{}`: pattern `{}` for {word} `{}`",
            at.path.get_ref(),
            at.pattern,
            at.who
        ),
        Some(format!(
            "add the file, or set `missing = \"empty\"` to give {word}s without one no text"
        )),
    );
    None
}

/// `files` with `{role}` patterns: each role in scope whose entry (its own, or `default`)
/// is a pattern gets its own path under its own name, and a pattern `default` goes (every
/// role it covered now has an entry). Entries that are not patterns, and pattern entries of
/// roles outside the scope (reported as such later), stay as written. Also returns each
/// expanded role with its pattern.
fn expand_patterns(
    map: &BTreeMap<Name, Spanned<String>>,
    names: &Names<'_>,
    in_scope: &[RoleId],
) -> (BTreeMap<Name, Spanned<String>>, HashMap<String, String>) {
    let mut patterns = HashMap::new();
    if names.roles.is_empty() || !map.values().any(|v| names.is_pattern(v.get_ref())) {
        return (map.clone(), patterns);
    }
    let entry = |key: &str| map.iter().find(|(k, _)| k.get_ref() == key).map(|(_, v)| v);
    let scoped: Vec<&str> = in_scope.iter().map(|r| names.roles[r.0].as_str()).collect();
    let mut out: BTreeMap<Name, Spanned<String>> = map
        .iter()
        .filter(|(k, v)| {
            let key = k.get_ref().as_str();
            let expanded = key == "default" || scoped.contains(&key);
            !(names.is_pattern(v.get_ref()) && expanded)
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let word = format!("{{{}}}", names.word);
    for who in scoped {
        let Some(v) = entry(who).or_else(|| entry("default")) else {
            continue;
        };
        if names.is_pattern(v.get_ref()) {
            let path = v.get_ref().replace(&word, who);
            out.insert(
                Spanned::new(v.span(), who.to_string()),
                Spanned::new(v.span(), path),
            );
            patterns.insert(who.to_string(), v.get_ref().clone());
        }
    }
    (out, patterns)
}

/// A directory layer: one enum variant per `*.md` file stem.
fn choice_dir(
    raw: &raw::Layer,
    dir: &Spanned<String>,
    name: &str,
    upper: &str,
    shape: Shape,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Content> {
    let files = md_files(dir, loader, sink)?;
    let renames = raw.rename.as_ref().map(|r| r.get_ref());
    for stem in renames.into_iter().flat_map(|r| r.keys()) {
        if !files.iter().any(|(s, _)| s == stem.get_ref()) {
            sink.error(
                Some(stem.span()),
                format!(
                    "`rename` names `{}.md`, which is not in `{}`",
                    stem.get_ref(),
                    dir.get_ref()
                ),
                Some(hint(
                    stem.get_ref(),
                    files.iter().map(|(s, _)| s.as_str()),
                    "stems",
                )),
            );
        }
    }
    let mut variants: Vec<ChoiceFile> = Vec::new();
    for (stem, file_name) in &files {
        let renamed = renames.and_then(|r| r.iter().find(|(k, _)| k.get_ref() == stem));
        let Some((variant, variant_upper)) = variant(dir, stem, renamed.map(|(_, v)| v), sink)
        else {
            continue;
        };
        if let Some(ChoiceFile { stem: other, .. }) = variants.iter().find(|c| c.variant == variant)
        {
            sink.error(
                Some(dir.span()),
                format!(
                    "files `{other}.md` and `{stem}.md` in `{}` both become variant `{variant}`",
                    dir.get_ref(),
                ),
                Some(format!("rename one file, or give it a variant of its own: `rename = {{ \"{stem}\" = \"{variant}2\" }}`")),
            );
            continue;
        }
        let rel = Spanned::new(
            dir.span(),
            format!("{}/{file_name}", dir.get_ref().trim_end_matches('/')),
        );
        let Some(file) = loader.resolve(&rel, sink) else {
            continue;
        };
        let const_name = format!("{upper}_{variant_upper}");
        if let Some(id) = loader.load(&file, rel.span(), shape, &const_name, name, sink) {
            variants.push(ChoiceFile {
                stem: stem.clone(),
                variant,
                text: id,
            });
        }
    }
    Some(Content::Choice {
        enum_name: enum_name(raw, name, sink),
        variants,
        optional: raw.optional.as_ref().is_some_and(|o| *o.get_ref()),
    })
}

/// The `*.md` files of a `dir` layer's directory, as (stem, file name); `None` when it
/// cannot be listed or holds none (reported).
fn md_files(
    dir: &Spanned<String>,
    loader: &mut Loader,
    sink: &mut Sink<'_>,
) -> Option<Vec<(String, String)>> {
    let canonical = loader.resolve_as(dir, "directory", sink)?;
    let files = match loader.list_dir(&canonical) {
        Ok((files, bad)) => {
            for name in bad {
                sink.error(
                    Some(dir.span()),
                    format!(
                        "file name `{name}` in `{}` is not UTF-8, so it cannot name a choice",
                        dir.get_ref()
                    ),
                    Some("rename the file".into()),
                );
            }
            files
        }
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
    Some(files)
}

/// The variant file `stem` becomes (its `rename`, or its own), and its SCREAMING form;
/// `None` when it cannot be one (reported).
fn variant(
    dir: &Spanned<String>,
    stem: &str,
    renamed: Option<&Spanned<String>>,
    sink: &mut Sink<'_>,
) -> Option<(String, String)> {
    let what = format!("file `{stem}.md` in `{}`", dir.get_ref());
    let (variant, upper) = match renamed {
        Some(v) if !is_type_name(v.get_ref()) => {
            sink.error(
                Some(v.span()),
                format!("`{}` is not a variant name", v.get_ref()),
                Some("use CamelCase, e.g. `BeDevOne`".into()),
            );
            return None;
        }
        Some(v) => (v.get_ref().clone(), screaming(v.get_ref())),
        None => match stem_variant(stem) {
            Ok(v) => v,
            Err(why) => {
                sink.error(
                    Some(dir.span()),
                    format!("{what} cannot name a choice: {why}"),
                    Some(format!("rename the file, or give it a variant: `rename = {{ \"{stem}\" = \"SomeName\" }}`")),
                );
                return None;
            }
        },
    };
    super::idents::check_variant(sink, dir.span(), &what, &variant).then_some((variant, upper))
}

/// `choice`: the enum's name (default: the layer's, in CamelCase).
fn enum_name(raw: &raw::Layer, name: &str, sink: &mut Sink<'_>) -> String {
    match &raw.choice {
        Some(c) if !is_type_name(c.get_ref()) => {
            sink.error(
                Some(c.span()),
                format!("`{}` is not a type name", c.get_ref()),
                Some("use CamelCase, e.g. `choice = \"Team\"`".into()),
            );
            camel(name)
        }
        Some(c) => c.get_ref().clone(),
        None => camel(name),
    }
}

/// Inline manifest text, normalised like a file's.
fn inline(loader: &mut Loader, const_name: &str, layer: &str, body: &str, shape: Shape) -> TextId {
    // (0, 0): inline text has no file position; messages point at the manifest entry.
    loader.add(const_name, layer, inline_body(body, shape), None)
}

/// What inline manifest text embeds as: normalised like a file's, trimmed where asked.
fn inline_body(body: &str, shape: Shape) -> String {
    let body = crate::text::normalise(body);
    shape.trim.apply(&body).to_string()
}

/// Resolves a per-role map (with optional `default`) into groups of roles sharing a text.
/// With `missing_ok` (`missing = "empty"`), a role with no entry and no `default` is left
/// out of the groups (the layer is then out of its scope) rather than an error.
pub(super) fn per_role<V>(
    map: &BTreeMap<Name, V>,
    span: Range<usize>,
    layer: &str,
    names: &Names<'_>,
    (in_scope, missing_ok): (&[RoleId], bool),
    sink: &mut Sink<'_>,
    mut load: impl FnMut(&str, &V, &mut Sink<'_>) -> Option<TextId>,
) -> Option<Vec<RoleGroup>> {
    let mut by_role: HashMap<RoleId, &V> = HashMap::new();
    let mut default = None;
    let mut ok = true;
    // Sets and maps, not searches per role: a text per role made them grow with the square.
    let scope: HashSet<RoleId> = in_scope.iter().copied().collect();
    for (key, value) in map {
        if key.get_ref() == "default" {
            default = Some((key.get_ref().as_str(), value));
            continue;
        }
        match names.role(key, sink) {
            Some(r) if !scope.contains(&r) => {
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
    if default.is_some() {
        // A `default` no role falls back to is a mistake waiting to be read as in use.
        if in_scope.iter().all(|r| by_role.contains_key(r)) && !names.roles.is_empty() {
            let key = map
                .keys()
                .find(|k| k.get_ref() == "default")
                .map(Spanned::span);
            sink.error(
                key,
                format!("`default` of layer `{layer}` is never used: every {} in scope has its own entry", names.word),
                Some("remove `default`, or remove the entries it should cover".into()),
            );
            ok = false;
        }
    }
    let mut groups: Vec<RoleGroup> = Vec::new();
    let mut group_of: HashMap<TextId, usize> = HashMap::new();
    // Each value is loaded once, and a failure is remembered too: a missing file that
    // `default` gives to five roles is one error, not five.
    let mut loaded: HashMap<*const V, Option<TextId>> = HashMap::new();
    for &role in in_scope {
        let (key, value) = match (by_role.get(&role), default) {
            (Some(v), _) => (
                names.roles.get(role.0).map_or("default", String::as_str),
                *v,
            ),
            (None, Some(d)) => d,
            (None, None) if missing_ok => continue,
            (None, None) => {
                let (message, help) = match names.roles.get(role.0) {
                    Some(who) => (
                        format!("{} `{who}` has no entry in layer `{layer}` and there is no `default`", names.word),
                        format!("add `{who} = ...` or `default = ...`, or leave it out with the layer's `{}s = [...]`", names.word),
                    ),
                    None => (
                        format!("layer `{layer}` has no `default` entry, and the manifest declares no {}s to key it by", names.word),
                        "write `default = ...` (or use `file`/`text` for one text)".to_string(),
                    ),
                };
                sink.error(Some(span.clone()), message, Some(help));
                ok = false;
                continue;
            }
        };
        let ptr = value as *const V;
        let found = *loaded.entry(ptr).or_insert_with(|| load(key, value, sink));
        let Some(id) = found else {
            ok = false;
            continue;
        };
        match group_of.get(&id) {
            Some(&g) => groups[g].roles.push(role),
            None => {
                group_of.insert(id, groups.len());
                groups.push(RoleGroup {
                    roles: vec![role],
                    text: id,
                });
            }
        }
    }
    if ok && groups.is_empty() {
        sink.error(
            Some(span),
            format!(
                "layer `{layer}` gives no {} in its scope a text",
                names.word
            ),
            Some(format!(
                "add an entry for a {} (or `default = ...`), or remove the layer",
                names.word
            )),
        );
        return None;
    }
    ok.then_some(groups)
}

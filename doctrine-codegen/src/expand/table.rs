//! The layer table a prompt reviewer reads in rustdoc: every layer in composition order
//! with its tier, scope, gate, lock or override, source and overlay file.

use crate::model::{Cond, Content, Doctrine, Layer, Override};
use crate::plan::alternatives;

/// A markdown table of every layer, for the docs of `compose` and `LAYERS`.
pub(super) fn layer_table(d: &Doctrine) -> String {
    let mut out = String::from(
        "| # | layer | tier | scope | gate | locked / override | source | overlay file | user-file text |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for (i, l) in d.layers.iter().enumerate() {
        let row = [
            (i + 1).to_string(),
            format!("`{}`", l.name),
            d.tiers.names[l.tier_index].clone(),
            scope(d, l),
            gate(l),
            lock(l),
            source(d, l),
            l.overlay
                .as_ref()
                .map_or("—".to_string(), |o| format!("`{}`", o.file)),
            user(d, i),
        ];
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}

/// Whether layer `i` can carry text from a user's file, how, and which locked layers come
/// after it (user text before them is the author's choice, never an invisible one).
fn user(d: &Doctrine, i: usize) -> String {
    let Some(via) = d.user_via(&d.layers[i]) else {
        return "—".to_string();
    };
    let later: Vec<String> = d.layers[i + 1..]
        .iter()
        .filter(|l| l.locked)
        .map(|l| format!("`{}`", l.name))
        .collect();
    match later.is_empty() {
        true => format!("yes ({})", via.describe()),
        false => format!(
            "yes ({}), before locked {}",
            via.describe(),
            later.join(", ")
        ),
    }
}

fn scope(d: &Doctrine, l: &Layer) -> String {
    match &l.scope {
        Some(roles) if !d.roles.is_empty() => roles
            .iter()
            .map(|&r| format!("`{}`", d.roles[r]))
            .collect::<Vec<_>>()
            .join(", "),
        _ if d.roles.is_empty() => "—".to_string(),
        _ => format!("every {}", d.role_word),
    }
}

fn gate(l: &Layer) -> String {
    let list = |conds: &[Cond]| {
        let written: Vec<String> = conds.iter().map(|c| format!("`{}`", c.written)).collect();
        written.join(", ")
    };
    let any = |groups: &[Vec<Cond>]| format!("one of `{}`", alternatives(groups));
    let mut parts = Vec::new();
    if !l.when.is_empty() {
        parts.push(format!("when {}", list(&l.when)));
    }
    if !l.when_any.is_empty() {
        parts.push(format!("when {}", any(&l.when_any)));
    }
    if !l.unless.is_empty() {
        parts.push(format!("unless {}", list(&l.unless)));
    }
    if !l.unless_any.is_empty() {
        parts.push(format!("unless {}", any(&l.unless_any)));
    }
    match parts.is_empty() {
        true => "—".to_string(),
        false => parts.join("; "),
    }
}

fn lock(l: &Layer) -> String {
    match (&l.overlay, l.locked) {
        (_, true) => "**locked**".to_string(),
        (_, false) if l.selector.is_some() => {
            let s = l.selector.as_ref().map_or("", |s| s.name.as_str());
            format!("selector (`Selectors::{s}`)")
        }
        (Some(o), _) => match o.mode {
            Override::Replace => format!("replace (`Overlay::{}`)", o.field),
            Override::Append => format!("append (`Overlay::{}`)", o.field),
        },
        (None, false) => "—".to_string(),
    }
}

fn source(d: &Doctrine, l: &Layer) -> String {
    let text = |id: crate::model::TextId| {
        let t = &d.texts[id];
        t.file
            .as_ref()
            .map_or("inline".to_string(), |f| format!("`{}`", f.display))
    };
    match &l.content {
        Content::PerRole(groups) if groups.len() == 1 || d.roles.is_empty() => text(groups[0].text),
        Content::PerRole(groups) if groups.iter().all(|g| d.texts[g.text].file.is_none()) => {
            "inline, per role".to_string()
        }
        Content::PerRole(groups) => groups
            .iter()
            .map(|g| {
                let who: Vec<&str> = g.roles.iter().map(|&r| d.roles[r].as_str()).collect();
                format!("{}: {}", who.join(", "), text(g.text))
            })
            .collect::<Vec<_>>()
            .join("; "),
        Content::Choice {
            enum_name,
            variants,
            optional,
        } => {
            let dir = variants
                .first()
                .and_then(|c| d.texts[c.text].file.as_ref())
                .map(|f| {
                    f.display
                        .rsplit_once('/')
                        .map_or("", |(dir, _)| dir)
                        .to_string()
                })
                .unwrap_or_default();
            let opt = if *optional { ", optional" } else { "" };
            format!("`{dir}/*.md` as `{enum_name}`{opt}")
        }
        Content::Slot { required: true, .. } => "slot (required)".to_string(),
        Content::Slot {
            required: false, ..
        } => "slot (optional)".to_string(),
        Content::Instructions => "instructions".to_string(),
    }
}

/// The locked layers, in a sentence for `Overlay`'s docs.
pub(super) fn locked_layers(d: &Doctrine) -> String {
    let locked: Vec<String> = d
        .layers
        .iter()
        .filter(|l| l.locked)
        .map(|l| format!("`{}`", l.name))
        .collect();
    if locked.is_empty() {
        "This manifest locks no layer.".to_string()
    } else {
        format!(
            "Locked, so no field and no file reaches them: {}.",
            locked.join(", ")
        )
    }
}

//! Whole-manifest order checks: tiers (each before the next, stable before volatile) and `[[order]]` constraints.

use std::collections::{HashMap, HashSet};

use toml::Spanned;

use super::hint::hint;
use crate::diag::Sink;
use crate::model::{Layer, Tiers};
use crate::raw::{self, Manifest};

/// Every layer of an earlier tier precedes every layer of a later one: a block is cached up
/// to its breakpoint, so a layer after a later tier's would move with that tier's bytes.
pub(super) fn check_tiers(layers: &[(Spanned<()>, Layer)], tiers: &Tiers, sink: &mut Sink<'_>) {
    // The layer of the latest tier so far (the first of that tier).
    let mut latest: Option<&Layer> = None;
    for (_, layer) in layers {
        match latest {
            Some(l) if l.tier_index > layer.tier_index => out_of_order(layer, l, tiers, sink),
            Some(l) if l.tier_index == layer.tier_index => {}
            _ => latest = Some(layer),
        }
    }
}

fn out_of_order(layer: &Layer, later: &Layer, tiers: &Tiers, sink: &mut Sink<'_>) {
    let (name, v) = (&layer.name, &later.name);
    if !tiers.declared {
        sink.error(
            Some(layer.at.name.clone()),
            format!("stable layer `{name}` comes after volatile layer `{v}`"),
            Some(format!(
                "every stable layer must precede every volatile one, or the cached prefix changes each turn: move `{name}` above `{v}`, or mark it `tier = \"volatile\"`"
            )),
        );
        return;
    }
    let (mine, theirs) = (
        &tiers.names[layer.tier_index],
        &tiers.names[later.tier_index],
    );
    sink.error(
        Some(layer.at.name.clone()),
        format!("layer `{name}` of tier `{mine}` comes after layer `{v}` of the later tier `{theirs}`"),
        Some(format!(
            "tiers are cached in the order `tiers` lists them, each block up to its breakpoint: every layer of an earlier tier must precede every layer of a later one. Move `{name}` above `{v}`, or mark it `tier = \"{theirs}\"`"
        )),
    );
}

pub(super) fn check_orders(raw: &Manifest, layers: &[(Spanned<()>, Layer)], sink: &mut Sink<'_>) {
    let index: HashMap<&str, usize> = layers
        .iter()
        .enumerate()
        .map(|(i, (_, l))| (l.name.as_str(), i))
        .collect();
    let broken = sink.reported().layers.clone();
    // Every layer name written, those that failed to read included; the hint lists them
    // once each in manifest order (a set's order differed from run to run), without the
    // empty name of a layer that has none.
    let mut all: HashSet<&str> = HashSet::new();
    let listed: Vec<&str> = raw
        .layers
        .iter()
        .map(|l| l.get_ref().name.get_ref().as_str())
        .chain(broken.iter().map(String::as_str))
        .filter(|name| all.insert(name) && !name.is_empty())
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
                    Some(hint(name.get_ref(), listed.iter().copied(), "layers")),
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
                    Some(order.get_ref().first.span()),
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
                Some(order.get_ref().first.span()),
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

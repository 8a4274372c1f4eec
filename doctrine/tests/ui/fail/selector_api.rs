// A selector layer has no `Overlay` field (its selector picks its source): a spine
// manifest, with no overridable layer, has no `Overlay` at all. And a `Selection` is the
// manifest's own type: one from another manifest does not fit.
mod spine {
    doctrine::doctrine!("spine.toml");
}

mod other {
    doctrine::doctrine!("selector_other.toml");
}

fn main() {
    let _ = spine::Overlay { spine: String::new() };
    let (selection, _) = other::Selectors::default().resolve("/nowhere");
    let _ = spine::compose(spine::Role::Leg).selection(&selection).finish();
}

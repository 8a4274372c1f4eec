// Misuse: a locked layer has no `Overlay` field, so setting it does not compile.
mod d {
    doctrine::doctrine!("overlay_locked.toml");
}

fn main() {
    let o = d::Overlay {
        safety: String::new(),
        ..Default::default()
    };
    let _ = d::compose().overlay(&o).finish();
}

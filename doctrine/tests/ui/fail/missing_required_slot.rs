// Misuse: required slot `a` is never filled, so `.finish()` is not available yet.
mod d {
    doctrine::doctrine!("slots.toml");
}

fn main() {
    let _ = d::compose().finish();
}

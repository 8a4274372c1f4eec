// Misuse: a slot filled twice. After `.a(..)` the builder has moved past `a`, and the
// message names the stage it is at.
mod d {
    doctrine::doctrine!("slots.toml");
}

fn main() {
    let _ = d::compose().a("first").a("again").finish();
}

// Misuse: the manifest lists slot `a` before `b`; filling `b` first does not compile.
mod d {
    doctrine::doctrine!("slots.toml");
}

fn main() {
    let _ = d::compose().b(Some("second")).a("first").finish();
}

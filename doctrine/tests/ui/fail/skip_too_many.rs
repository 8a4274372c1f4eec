// Misuse: skipping more optional slots in one call than the builder allows (16). The
// message says so; filling one in between (`.s1(None)`) is the way through.
mod d {
    doctrine::doctrine!("many_optional.toml");
}

fn main() {
    // Fifteen skipped: fine.
    let _ = d::compose().s15(None).finish();
    // Sixteen skipped: refused.
    let _ = d::compose().s16(None).finish();
}

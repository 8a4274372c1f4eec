// Misuse: `compose` takes the choices in manifest order (team, then identity).
mod d {
    doctrine::doctrine!("choices.toml");
}

fn main() {
    let _ = d::compose(d::Identity::BeDev1, d::Team::Backend).finish();
}

// Misuse: `files/teams/` holds backend.md and frontend.md, no mobile.md.
mod d {
    doctrine::doctrine!("choices.toml");
}

fn main() {
    let _ = d::compose(d::Team::Mobile, d::Identity::BeDev1).finish();
}

// Misuse: `Ghost` is not a declared role.
mod d {
    doctrine::doctrine!("roles.toml");
}

fn main() {
    let _ = d::compose(d::Role::Ghost).finish();
}

// A {role} pattern whose file is missing for one role.
mod d {
    doctrine::doctrine!("pattern_missing_file.toml");
}

fn main() {}

mod d {
    doctrine::doctrine!("reminder_in_prefix.toml");
}

fn main() {}

mod d {
    doctrine::doctrine!("reminders_kind_misuse.toml");
}

fn main() {}

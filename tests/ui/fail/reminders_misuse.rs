mod d {
    doctrine::doctrine!("reminders_misuse.toml");
}

fn main() {}

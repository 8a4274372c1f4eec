mod d {
    doctrine::doctrine!("reminders_no_kind.toml");
}

fn main() {}

mod d {
    doctrine::doctrine!("reminders_marker_misuse.toml");
}

fn main() {}

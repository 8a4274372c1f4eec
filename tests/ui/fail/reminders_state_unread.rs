mod d {
    doctrine::doctrine!("reminders_state_unread.toml");
}

fn main() {}

mod d {
    doctrine::doctrine!("reminders_state_word.toml");
}

fn main() {}

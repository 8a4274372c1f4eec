// The stable prefix of a mode is over its byte budget.
mod d {
    doctrine::doctrine!("budget_exceeded.toml");
}

fn main() {}

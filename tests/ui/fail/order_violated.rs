mod d {
    doctrine::doctrine!("order_violated.toml");
}

fn main() {}

mod d {
    doctrine::doctrine!("order_cycle.toml");
}

fn main() {}

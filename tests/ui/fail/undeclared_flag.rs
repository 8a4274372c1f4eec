mod d {
    doctrine::doctrine!("undeclared_flag.toml");
}

fn main() {}

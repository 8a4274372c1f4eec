mod d {
    doctrine::doctrine!("keyword_layer_name.toml");
}

fn main() {}

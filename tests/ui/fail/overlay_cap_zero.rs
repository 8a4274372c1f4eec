// An overlay cap of zero bytes.
mod d {
    doctrine::doctrine!("overlay_cap_zero.toml");
}

fn main() {}

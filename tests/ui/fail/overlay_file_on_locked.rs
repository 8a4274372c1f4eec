// A manifest that maps an overlay file to a locked layer.
mod d {
    doctrine::doctrine!("overlay_file_on_locked.toml");
}

fn main() {}

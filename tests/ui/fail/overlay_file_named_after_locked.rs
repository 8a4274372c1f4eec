// An overlay file named after a locked layer: a user would take it to override that layer.
mod d {
    doctrine::doctrine!("overlay_file_named_after_locked.toml");
}

fn main() {}

// Two file stems that become one variant: the error names both files and the rename.
mod d {
    doctrine::doctrine!("stems_collide.toml");
}

fn main() {}

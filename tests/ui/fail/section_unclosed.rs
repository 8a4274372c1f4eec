// A `{?name}` section that is never closed: reported at the markdown file's line and column.
mod d {
    doctrine::doctrine!("section_unclosed.toml");
}

fn main() {}

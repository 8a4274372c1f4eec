// A placeholder in a markdown file naming no declared fact: reported at the file's line and column.
mod d {
    doctrine::doctrine!("fact_undeclared_placeholder.toml");
}

fn main() {}

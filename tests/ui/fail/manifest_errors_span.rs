// The diagnostics of a bad manifest land on the macro's string literal, each as its own
// error, with the text `tests/errors/several_errors.diag` pins (there for every case,
// without rustc; here once, through the macro).
mod d {
    doctrine::doctrine!("../../errors/several_errors.toml");
}

fn main() {}

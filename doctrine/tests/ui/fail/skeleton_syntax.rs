// A TOML syntax error (the text of `style` is never closed): rustc reports that one
// error, and the code in `skeleton/uses.rs`, naming the generated API throughout,
// compiles against the module the macro emits beside it.
#![deny(warnings)]

mod d {
    doctrine::doctrine!("skeleton/syntax.toml");
}

include!("skeleton/uses.rs");

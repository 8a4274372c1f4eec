// A placeholder naming nothing in a markdown file (`{tody}` in `skeleton/typo.md`): rustc
// reports that one error, and the code in `skeleton/uses.rs`, naming the generated API
// throughout, compiles against the module the macro emits beside it.
#![deny(warnings)]

mod d {
    doctrine::doctrine!("skeleton/placeholder.toml");
}

include!("skeleton/uses.rs");

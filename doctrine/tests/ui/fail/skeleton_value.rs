// A value of the wrong type (`interpolate = "yes"`): rustc reports that one error, and
// the code in `skeleton/uses.rs`, naming the generated API throughout, compiles against
// the module the macro emits beside it.
#![deny(warnings)]

mod d {
    doctrine::doctrine!("skeleton/value.toml");
}

include!("skeleton/uses.rs");

// A layer scoped to a role the manifest does not declare: rustc reports that one error,
// and the code in `skeleton/uses.rs`, naming the generated API throughout, compiles
// against the module the macro emits beside it.
#![deny(warnings)]

mod d {
    doctrine::doctrine!("skeleton/scope.toml");
}

include!("skeleton/uses.rs");

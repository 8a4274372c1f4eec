// A declaration that does not hold (knob `pace` defaults to `slow`): rustc reports that
// one error, and the code in `skeleton/uses.rs` gets none. The module emitted beside it
// leaves out the knobs and what names them (`Combination`, the builder), which it could
// only give in another shape than the manifest's; code naming what is not there gets no
// error of its own beside the macro's.
#![deny(warnings)]

mod d {
    doctrine::doctrine!("skeleton/knob.toml");
}

include!("skeleton/uses.rs");

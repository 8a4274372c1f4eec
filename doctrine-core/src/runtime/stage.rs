//! The bound that generated builders put on `.finish()`.
//!
//! It lives here rather than in generated code so that the diagnostic attribute resolves in
//! a module with the prelude: under `#![no_implicit_prelude]` a generated
//! `#[diagnostic::on_unimplemented]` does not.

/// Implemented by a generated builder's stages from which no required slot is left:
/// `stage::Ready`, and any stage followed by optional slots only.
#[diagnostic::on_unimplemented(
    message = "`.finish()` called before every required slot is filled: the builder is at stage `{Self}`",
    label = "a required slot is still empty",
    note = "a stage `NeedX` names the next slot, `.x(...)`; fill the required slots in manifest order (optional ones may be skipped), then call `.finish()`"
)]
pub trait Filled {}

/// How many optional slots one call may skip: slot `j` can be filled from any of the `MAX_SKIPPED_SLOTS`
/// stages up to it (with no required slot between). A bound keeps the generated impls
/// linear in the number of slots; past it, fill an intermediate optional slot with `None`.
pub const MAX_SKIPPED_SLOTS: usize = 16;

/// Implemented by the stages from which slot `J` (counting from 0 in manifest order) may be
/// filled: its own, and earlier ones when only optional slots lie between.
#[diagnostic::on_unimplemented(
    message = "this slot cannot be filled at stage `{Self}`: slots are filled in manifest order",
    label = "out of order, filled twice, or a required slot before it is still empty",
    note = "the stage `NeedX` names the next slot, `.x(...)`; optional slots may be skipped (up to 16 in one step), required ones may not; each slot's documentation lists the manifest order"
)]
pub trait Slot<const J: usize> {}

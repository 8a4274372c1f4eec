//! The bound that generated builders put on `.finish()`.
//!
//! It lives here rather than in generated code so that the diagnostic attribute resolves in
//! a module with the prelude: under `#![no_implicit_prelude]` a generated
//! `#[diagnostic::on_unimplemented]` does not.

/// Implemented only by a generated builder's last stage, `stage::Ready`: `.finish()` needs
/// every slot filled.
#[diagnostic::on_unimplemented(
    message = "`.finish()` called before every slot is filled: the builder is at stage `{Self}`",
    label = "a slot is still empty",
    note = "a stage `NeedX` names the next call, `.x(...)`; fill the slots in manifest order, then call `.finish()`"
)]
pub trait Filled {}

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
/// stages up to it (with no required slot between). Past it, fill an intermediate optional
/// slot with `None`.
pub const MAX_SKIPPED_SLOTS: usize = 16;

/// A generated builder's stage: `Skip` is the stage after it when its slot is optional (so a
/// call may skip it), [`Blocked`] when it is required, or for `Ready`.
pub trait Stage {
    /// The stage reached by skipping this one's slot.
    type Skip: Stage;
}

/// What skipping a required slot (or going past the last) reaches: no slot's stage.
pub struct Blocked;

impl Stage for Blocked {
    type Skip = Blocked;
}

/// How many stages a call skips to reach its slot; inferred, never written.
pub struct Skipped<const N: usize>;

/// Implemented by the stages from which the slot of stage `T` may be filled, `D` being how
/// many optional slots are skipped: `T` itself, and each of the stages before it from which
/// only optional slots lead to it. The impls are generic over the stages' [`Stage::Skip`]
/// chain, one per number skipped, so a manifest's code adds one `Stage` impl per slot
/// instead of one impl per slot and stage it may be filled from (which cost rustc 140 KB a
/// slot).
#[diagnostic::on_unimplemented(
    message = "this slot cannot be filled at stage `{Self}`: slots are filled in manifest order",
    label = "out of order, filled twice, or a required slot before it is still empty",
    note = "the stage `NeedX` names the next slot, `.x(...)`; optional slots may be skipped (up to 16 in one step), required ones may not; each slot's documentation lists the manifest order"
)]
pub trait Slot<T, D> {}

/// The stage reached from `S` by skipping its slot.
type Next<S> = <S as Stage>::Skip;

impl<S> Slot<S, Skipped<0>> for S {}

/// `Slot` for `$n` stages skipped, the target being that many `Next`s from the stage.
macro_rules! skipping {
    ($($n:literal: $($next:ident)+;)*) => {$(
        impl<S: Stage> Slot<skipping!(@chain S; $($next)+), Skipped<$n>> for S {}
    )*};
    (@chain $s:ty; $next:ident $($rest:ident)*) => { skipping!(@chain $next<$s>; $($rest)*) };
    (@chain $s:ty;) => { $s };
}

skipping! {
    1: Next;
    2: Next Next;
    3: Next Next Next;
    4: Next Next Next Next;
    5: Next Next Next Next Next;
    6: Next Next Next Next Next Next;
    7: Next Next Next Next Next Next Next;
    8: Next Next Next Next Next Next Next Next;
    9: Next Next Next Next Next Next Next Next Next;
    10: Next Next Next Next Next Next Next Next Next Next;
    11: Next Next Next Next Next Next Next Next Next Next Next;
    12: Next Next Next Next Next Next Next Next Next Next Next Next;
    13: Next Next Next Next Next Next Next Next Next Next Next Next Next;
    14: Next Next Next Next Next Next Next Next Next Next Next Next Next Next;
    15: Next Next Next Next Next Next Next Next Next Next Next Next Next Next Next;
}

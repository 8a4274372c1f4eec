//! Plan values written back as the Rust expressions that rebuild them. The code generator
//! builds a manifest's plan with the runtime's own types, then prints it through [`Emit`],
//! whose impls `rebuilt!` derives where each type is declared: a field or a variant is
//! listed once, so a new one reaches generated code with no edit to the generator.
//!
//! The impls write into an [`Out`], a trait object, so the runtime carries a few small
//! non-generic functions and no dependency; the generator's `Out` turns the text into
//! tokens.

use std::any::TypeId;

/// A value generated code can rebuild.
pub trait Emit {
    /// Writes the expression that builds `self` (type names, `Some` and `None` bare:
    /// generated code imports them).
    fn emit(&self, out: &mut dyn Out);
}

/// Where an expression is written.
pub trait Out {
    /// Rust source, written as given.
    fn code(&mut self, code: &str);
    /// A string, as a literal.
    fn str(&mut self, s: &str);
    /// Writes the name of a constant holding this very value (`len` bytes of a `ty` at
    /// address `at`) and says `true`, or says `false` when the writer holds none. The plan
    /// interns its values, so one address is one value and a name never changes what is
    /// built.
    fn named(&mut self, ty: TypeId, at: usize, len: usize) -> bool;
}

/// Asks `out` for a constant holding `value`.
fn named<T: ?Sized + 'static>(out: &mut dyn Out, value: &'static T) -> bool {
    let at = value as *const T as *const () as usize;
    out.named(TypeId::of::<T>(), at, std::mem::size_of_val(value))
}

impl Emit for &'static str {
    fn emit(&self, out: &mut dyn Out) {
        if !named(out, *self) {
            out.str(self);
        }
    }
}

impl<T: Emit + 'static> Emit for &'static [T] {
    fn emit(&self, out: &mut dyn Out) {
        if named(out, *self) {
            return;
        }
        out.code("&[");
        for item in self.iter() {
            item.emit(out);
            out.code(",");
        }
        out.code("]");
    }
}

impl<T: Emit> Emit for Option<T> {
    fn emit(&self, out: &mut dyn Out) {
        // Bare: generated code imports both (its module may have no prelude).
        match self {
            Some(v) => {
                out.code("Some(");
                v.emit(out);
                out.code(")");
            }
            None => out.code("None"),
        }
    }
}

impl<A: Emit, B: Emit> Emit for (A, B) {
    fn emit(&self, out: &mut dyn Out) {
        out.code("(");
        self.0.emit(out);
        out.code(",");
        self.1.emit(out);
        out.code(")");
    }
}

/// Numbers and booleans, unsuffixed: the field's type gives theirs.
macro_rules! plain {
    ($($t:ty),*) => {$(
        impl Emit for $t {
            fn emit(&self, out: &mut dyn Out) {
                out.code(&self.to_string());
            }
        }
    )*};
}
plain!(bool, u8, u32, usize);

/// Declares a type of the plan and derives its [`Emit`] from the one declaration: a struct
/// is written as a literal; an `@new` struct (`#[non_exhaustive]`, which another crate
/// cannot write as a literal) through a hidden `rebuild` constructor taking every field
/// in order; an enum's tuple variants name their fields here, for the derived match (the
/// enum declared is the usual tuple variant). Each type also gets `Emit` for
/// `&'static Self`, which a constant of generated code may hold.
macro_rules! rebuilt {
    (
        $(@$how:ident)?
        $(#[$attr:meta])*
        pub struct $name:ident {
            $( $(#[$fattr:meta])* pub $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        pub struct $name { $( $(#[$fattr])* pub $field: $ty ),* }

        $crate::runtime::emit::rebuilt!(@emit $($how)? $name { $($field: $ty),* });
        $crate::runtime::emit::rebuilt!(@ref $name);
    };
    (@emit $name:ident { $($field:ident : $ty:ty),* }) => {
        impl $crate::runtime::emit::Emit for $name {
            fn emit(&self, out: &mut dyn $crate::runtime::emit::Out) {
                let $name { $($field),* } = self;
                out.code(concat!(stringify!($name), " {"));
                $(
                    out.code(concat!(stringify!($field), ": "));
                    $crate::runtime::emit::Emit::emit($field, out);
                    out.code(",");
                )*
                out.code("}");
            }
        }
    };
    (@emit new $name:ident { $($field:ident : $ty:ty),* }) => {
        impl $name {
            /// Every field, in declaration order: what generated code builds one with.
            #[doc(hidden)]
            #[allow(clippy::too_many_arguments)]
            pub const fn rebuild($($field: $ty),*) -> $name {
                $name { $($field),* }
            }
        }

        impl $crate::runtime::emit::Emit for $name {
            fn emit(&self, out: &mut dyn $crate::runtime::emit::Out) {
                let $name { $($field),* } = self;
                out.code(concat!(stringify!($name), "::rebuild("));
                $(
                    $crate::runtime::emit::Emit::emit($field, out);
                    out.code(",");
                )*
                out.code(")");
            }
        }
    };
    (
        $(#[$attr:meta])*
        pub enum $name:ident {
            $(
                $(#[$vattr:meta])*
                $variant:ident
                $( ( $($tf:ident : $tt:ty),* $(,)? ) )?
                $( { $( $(#[$sfattr:meta])* $sf:ident : $st:ty ),* $(,)? } )?
            ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        pub enum $name {
            $(
                $(#[$vattr])*
                $variant
                $( ( $($tt),* ) )?
                $( { $( $(#[$sfattr])* $sf: $st ),* } )?
            ),*
        }

        impl $crate::runtime::emit::Emit for $name {
            fn emit(&self, out: &mut dyn $crate::runtime::emit::Out) {
                match self {
                    $(
                        $name::$variant $( ( $($tf),* ) )? $( { $($sf),* } )? => {
                            out.code(concat!(stringify!($name), "::", stringify!($variant)));
                            $(
                                out.code("(");
                                $( $crate::runtime::emit::Emit::emit($tf, out); out.code(","); )*
                                out.code(")");
                            )?
                            $(
                                out.code(" {");
                                $(
                                    out.code(concat!(stringify!($sf), ": "));
                                    $crate::runtime::emit::Emit::emit($sf, out);
                                    out.code(",");
                                )*
                                out.code("}");
                            )?
                        }
                    )*
                }
            }
        }
        $crate::runtime::emit::rebuilt!(@ref $name);
    };
    (@ref $name:ident) => {
        impl $crate::runtime::emit::Emit for &'static $name {
            fn emit(&self, out: &mut dyn $crate::runtime::emit::Out) {
                let at = *self as *const $name as usize;
                let size = ::std::mem::size_of::<$name>();
                if !out.named(::std::any::TypeId::of::<$name>(), at, size) {
                    out.code("&");
                    $crate::runtime::emit::Emit::emit(&**self, out);
                }
            }
        }
    };
}
pub(crate) use rebuilt;

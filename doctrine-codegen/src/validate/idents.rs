//! Names that become Rust identifiers in the generated code: enum variants that must not
//! clash with the items every generated enum has, and field or method names.

use crate::diag::Sink;
use crate::names::snake_ident_problem;
use crate::reserved;

/// Reports a variant name that clashes with an associated item every generated enum has
/// (`ALL`, `NAMES`); true when it is free. `what` names it in the message, e.g.
/// "role `ALL`".
pub(super) fn check_variant(
    sink: &mut Sink<'_>,
    span: std::ops::Range<usize>,
    what: &str,
    variant: &str,
) -> bool {
    if !reserved::variant_clash(variant) {
        return true;
    }
    sink.error(
        Some(span),
        format!("{what} would become the enum variant `{variant}`, which clashes with the associated item `{variant}` that every generated enum has"),
        Some(format!("rename it; any other spelling works, e.g. `{}`", variant.to_lowercase())),
    );
    false
}

/// Reports a name that cannot become a Rust field or method; true when it can.
pub(super) fn check_ident(
    sink: &mut Sink<'_>,
    span: std::ops::Range<usize>,
    what: &str,
    name: &str,
    names: &str,
) -> bool {
    match snake_ident_problem(name) {
        None => true,
        Some(problem) => {
            sink.error(
                Some(span),
                format!("{what} `{name}` {problem}"),
                Some(format!("the name becomes {names} in the generated code")),
            );
            false
        }
    }
}

//! Selector values given by name, resolved with the runtime's own selector loader and the
//! manifest's specs, as generated `Selectors { .. }.resolve(user_dir)` resolves them: `on`
//! reads the user's copy from the user directory, a path that file, and what cannot be
//! used is a notice.

use std::path::Path;

use super::error::find;
use super::InputError;
use crate::model::Doctrine;
use crate::plan::selector_specs;
use doctrine_core::__private::Resolution;
use doctrine_core::introspect::Notice;
use doctrine_load::__private::resolve_selectors;

/// What `given` (`(selector, value)`) resolves to, with the loader's notices; `None` when
/// no selector is given, as for compiled code composed without `.selection()`. `user_dir`
/// is where `on` looks for the user's copy; without one, `on` takes the shipped text.
pub(super) fn selection(
    d: &Doctrine,
    given: &[(String, String)],
    user_dir: Option<&Path>,
) -> Result<(Option<Resolution>, Vec<Notice>), InputError> {
    if given.is_empty() {
        return Ok((None, Vec::new()));
    }
    let names: Vec<&str> = d.selectors().map(|(_, s)| s.name.as_str()).collect();
    let mut values: Vec<Option<&str>> = vec![None; names.len()];
    for (name, value) in given {
        let s = find("selector", name, names.iter().copied())?;
        if values[s].replace(value).is_some() {
            return Err(InputError::Repeated {
                kind: "selector",
                name: name.clone(),
            });
        }
    }
    // No directory: the empty path names none, so no user copy is found (and no notice
    // given), as for a directory that does not exist.
    let dir = user_dir.unwrap_or(Path::new(""));
    let (resolution, notices) = resolve_selectors(&values, selector_specs(d), dir);
    Ok((Some(resolution), notices))
}

//! A model name against the manifest's `[models]`, as generated `ModelRule::find` and
//! `.model()` match it.

use super::InputError;
use crate::model::{Doctrine, ModelRule};
use doctrine_core::__internals::model::best_match;
use doctrine_core::introspect::ModelMatch;

/// The rule `model` selects (the default when none matches) and the record of the match;
/// an error for a manifest without `[models]`, which compiled code has no `.model()` for.
pub(super) fn matched<'d>(
    d: &'d Doctrine,
    model: &str,
) -> Result<(&'d ModelRule, ModelMatch), InputError> {
    let Some(models) = &d.models else {
        return Err(InputError::Unsupported(
            "the manifest has no `[models]` table, so it takes no model name".into(),
        ));
    };
    let found = best_match(model, &models.rules, |r| r.key.as_str(), models.exact);
    let record = ModelMatch::new(model, found.map(|r| r.key.as_str()));
    Ok((found.unwrap_or(&models.default), record))
}

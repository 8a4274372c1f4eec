//! The skill index as a program gives it (`shipped_skills()`, then `load_user(dirs)`): the
//! manifest's shipped skills, then the user's from each directory given, in order, read by
//! the runtime's own loader and cleaned as the manifest's `sanitize` says, printed by the
//! runtime's index renderer.

use std::path::PathBuf;

use super::error::InputError;
use crate::model::{Doctrine, Need};
use crate::plan::list_style;
use doctrine_core::__private::Rendered;
use doctrine_core::introspect::Notice;
use doctrine_load::__private::{render_skill_index, SkillField};
use doctrine_load::{Skill, SkillOrigin, Skills};

/// The skill index's fact and what it prints (`None`: the role does not take it), and the
/// loader's notices.
pub(super) type Index = (Option<(usize, Rendered)>, Vec<Notice>);

/// The skill index fact of role `role` and what it prints, with the loader's notices;
/// `None` when the role does not take it. User directories for a manifest without
/// `[skills]` are refused: nothing would print them.
pub(super) fn index(d: &Doctrine, role: usize, dirs: &[PathBuf]) -> Result<Index, InputError> {
    let Some(shipped) = &d.skills else {
        return match dirs.first() {
            None => Ok((None, Vec::new())),
            Some(dir) => Err(InputError::Unsupported(format!(
                "the manifest has no `[skills]`, so it takes no skill directory (given {})",
                dir.display()
            ))),
        };
    };
    let Some((at, fact)) = d.facts.iter().enumerate().find(|(_, f)| f.skill_index) else {
        return Ok((None, Vec::new()));
    };
    if fact.need.get(role).is_none_or(|n| *n == Need::Absent) {
        return Ok((None, Vec::new()));
    }
    let (Some(list), Some(style)) = (&fact.list, list_style(fact)) else {
        return Ok((None, Vec::new()));
    };
    let mut skills = Skills::default().sanitizing(d.sanitize);
    for s in shipped {
        skills.insert(Skill {
            name: s.name.clone(),
            when: s.when.clone(),
            triggers: s.triggers.clone(),
            body: s.body.clone(),
            origin: SkillOrigin::Shipped,
        });
    }
    let notices = skills.load_user(dirs);
    let fields: Vec<SkillField> = list
        .fields
        .iter()
        .map(|f| match f.as_str() {
            "name" => SkillField::Name,
            _ => SkillField::When,
        })
        .collect();
    Ok((
        Some((at, render_skill_index(&skills, &fields, style))),
        notices,
    ))
}

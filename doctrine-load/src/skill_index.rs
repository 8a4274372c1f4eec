//! The skill index a manifest's `[skills]` declares: one line per skill of a session, by
//! name, printed through the index's item template. A user skill's line is user content:
//! the rendering says where each one landed, so a composed prompt can say which of its
//! bytes a user's file supplied.

use crate::skill::{Skill, SkillOrigin, Skills};
use doctrine_core::__internals::list::{write_item, write_more, ListStyle};
use doctrine_core::__internals::user_content::{Rendered, UserFile};

/// A field of the index's item template. Used by generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkillField {
    /// `{name}`.
    Name,
    /// `{when}`.
    When,
}

fn field(skill: &Skill, f: SkillField) -> &str {
    match f {
        SkillField::Name => &skill.name,
        SkillField::When => &skill.when,
    }
}

/// The index of `skills`, by name: each skill through `style`'s item template (`fields`
/// says which field each of its indices is), joined, at most `style.max` lines and then the
/// `more` line. A skill whose template fields are all empty is left out, as a list item
/// is. Each user skill's line is recorded as user content.
pub fn render_skill_index(skills: &Skills, fields: &[SkillField], style: &ListStyle) -> Rendered {
    let kept: Vec<&Skill> = skills
        .iter()
        .filter(|s| fields.iter().any(|&f| !field(s, f).is_empty()))
        .collect();
    let shown = style.max.map_or(kept.len(), |m| m.min(kept.len()));
    let mut out = Rendered::default();
    for (n, skill) in kept[..shown].iter().enumerate() {
        if n > 0 {
            out.text.push_str(style.join);
        }
        let start = out.text.len();
        write_item(style.item, |i| field(skill, fields[i]), &mut |p, _| {
            out.text.push_str(p)
        });
        if let SkillOrigin::User(file) = &skill.origin {
            let source = UserFile::UserSkill {
                name: skill.name.clone(),
                file: file.clone(),
            };
            out.user.push((start..out.text.len(), source));
        }
    }
    let ends_line = out.text.ends_with('\n');
    write_more(kept.len() - shown, style, ends_line, &mut |p| {
        out.text.push_str(p)
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::ShippedSkill;
    use doctrine_core::__internals::list::ItemPiece::{Field, Text};

    const STYLE: ListStyle = ListStyle {
        item: &[Text("- "), Field(0), Text(": "), Field(1)],
        join: "\n",
        sort: None,
        max: Some(2),
        more: "({n} more)",
        max_bytes: None,
        budget_items: false,
        join_ends_line: false,
        skip_blank: false,
        fact: "",
    };

    fn set() -> Skills {
        let mut skills = Skills::shipped(&[ShippedSkill {
            name: "bisect",
            when: "A test broke.",
            triggers: &[],
            body: "b",
        }]);
        for (name, when) in [("zeta", "Last."), ("alpha", "Mine.")] {
            let _ = skills.insert(Skill {
                name: name.into(),
                when: when.into(),
                triggers: Vec::new(),
                body: "x".into(),
                origin: SkillOrigin::User(format!("/u/{name}.md").into()),
            });
        }
        skills
    }

    #[test]
    fn user_lines_are_recorded_where_they_land() {
        let r = render_skill_index(&set(), &[SkillField::Name, SkillField::When], &STYLE);
        assert_eq!(r.text, "- alpha: Mine.\n- bisect: A test broke.\n(1 more)");
        // `zeta` is past `max`: not printed, so not recorded.
        assert_eq!(r.user.len(), 1);
        let (range, source) = &r.user[0];
        assert_eq!(&r.text[range.clone()], "- alpha: Mine.");
        assert_eq!(
            *source,
            UserFile::UserSkill {
                name: "alpha".into(),
                file: "/u/alpha.md".into()
            }
        );
    }

    #[test]
    fn fields_follow_the_template_order() {
        let style = ListStyle {
            item: &[Field(0), Text(" ("), Field(1), Text(")")],
            max: None,
            ..STYLE
        };
        let r = render_skill_index(&set(), &[SkillField::When, SkillField::Name], &style);
        assert_eq!(
            r.text,
            "Mine. (alpha)\nA test broke. (bisect)\nLast. (zeta)"
        );
        let lines: Vec<&str> = r.user.iter().map(|(x, _)| &r.text[x.clone()]).collect();
        assert_eq!(lines, ["Mine. (alpha)", "Last. (zeta)"]);
        assert_eq!(
            render_skill_index(Skills::EMPTY, &[SkillField::Name], &style),
            Rendered::default()
        );
    }
}

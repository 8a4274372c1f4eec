//! What a composition is given, by name and as strings: the run-time twin of generated
//! code's whole builder (`compose(facts, choices…)`, `.flag`, `.knobs`, slots,
//! `.overlay`, `.family`, then its hidden module's `State::with`), for a tool that loads a
//! manifest at run time (`cargo doctrine render`, `explain`, and what compares prompts).
//!
//! [`resolve`] checks every name against the manifest and refuses what compiled code would
//! refuse (or not compile): an unknown role, flag, knob, value, choice layer, variant,
//! fact, slot or family (each error lists the valid names), a fact the role does not
//! take, a required fact, choice or slot not given, a value outside a closed set. The
//! [`Resolved`] inputs it gives compose through the runtime's one routine with the
//! manifest's run-time plan, to the bytes compiled `finish()` gives.
//!
//! Instructions are given to their layer with a source word (`.<layer>(&instructions)`),
//! selectors their values (`Selectors { .. }.resolve(dir)` then `.selection()`, the
//! overlay directory the user's). The skill index prints the shipped skills, then the
//! user's from the directories given (`Named::skills`), loaded as `Skills::load_user` loads
//! them. Not given by name: a definition's opt-out (none).

mod error;
mod facts;
mod instructions;
mod models;
mod overlay;
mod selection;
mod skills;

use std::path::PathBuf;

pub use error::InputError;
pub use instructions::NamedInstruction;

use self::error::find;
use self::facts::{GivenFacts, Rows as ItemRows};
use self::overlay::GivenOverlay;
use super::inputs::{composed, printed, Combination};
use super::model::{Content, Doctrine, Layer, ModelRule};
use super::plan::{static_text, Plan};
use doctrine_core::__internals::fact::given as slot_given;
use doctrine_core::__internals::formulation::family_key;
use doctrine_core::__internals::list::{List, ListStyle, Rows};
use doctrine_core::__internals::part::Value;
use doctrine_core::__internals::plan::{Inputs, Overlay};
use doctrine_core::__internals::prompt::with_model;
use doctrine_core::__private::{
    cleaned, Cleaned, CleanedFrom, Escaping, Removed, Rendered, Resolution, UserValue,
};
use doctrine_core::input::Formulation;
use doctrine_core::instructions::Instruction;
use doctrine_core::introspect::Section;
use doctrine_core::introspect::{ModelMatch, Notice};
use doctrine_core::Prompt;
use doctrine_load::__internals::clean::sanitize_given;
use doctrine_load::__private::{overlay_template, TemplateSpec};
use std::borrow::Cow;

/// A composition's inputs by name, as a command line gives them. Everything not named is
/// as compiled code leaves it: flags and knobs at their defaults, optional choices, facts
/// and slots not given, no overlay, the manifest's default formulation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Named {
    /// The role (mode); required when the manifest declares roles.
    pub role: Option<String>,
    /// Flags set on (`true`) or off, by name.
    pub flags: Vec<(String, bool)>,
    /// `(knob, value)`.
    pub knobs: Vec<(String, String)>,
    /// `(choice layer, variant)`: a `dir` layer's variants are its files' stems.
    pub choices: Vec<(String, String)>,
    /// `(fact, value)`. A list fact takes one pair per item, in order; an item with named
    /// fields is written `field=value;field=value` (a field left out is empty).
    pub facts: Vec<(String, String)>,
    /// `(slot layer, text)`.
    pub slots: Vec<(String, SlotText)>,
    /// `(instructions layer, instruction)`, in the order given.
    pub instructions: Vec<(String, NamedInstruction)>,
    /// `(selector, value)`: a value as generated `Selectors` takes it (an off or on word,
    /// or a path). None given is no `.selection()`.
    pub selectors: Vec<(String, String)>,
    /// A user's overlay directory, read as generated `Overlay::load` reads it; also the
    /// directory a selector set `on` reads the user's copy from.
    pub overlay: Option<PathBuf>,
    /// A model family, looked up in the manifest's `[formulation] families` as generated
    /// `.family()` looks it up (but a family the table does not match is refused).
    pub family: Option<String>,
    /// A model name, matched against the manifest's `[models]` as generated `.model()`
    /// matches it, applied where compiled code calls `.model()` right after `compose`: its
    /// rule's variants replace the choices given, and the flags and family given win over
    /// its own.
    pub model: Option<String>,
    /// User skill directories, loaded in order over the shipped skills as
    /// `Skills::load_user` loads them, for the skill index (which prints the shipped skills
    /// alone without them).
    pub skills: Vec<PathBuf>,
    /// `(list fact, bytes)`: a list fact's byte budget lowered, as the builder's
    /// `.max_bytes_<fact>(n)` lowers it (only a fact with `max_bytes` has one; a budget
    /// above the manifest's leaves it, and given twice, the lower stands).
    pub max_bytes: Vec<(String, usize)>,
}

/// A slot's text, given or read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotText {
    Text(String),
    /// Read as a regular file (opened without blocking, capped at
    /// `MAX_FILE_BYTES`), UTF-8, passed as read.
    File(PathBuf),
}

impl Named {
    /// The names of `combination` of manifest `d`: its role, every flag and knob, and
    /// each choice given (nothing else).
    pub fn of(d: &Doctrine, combination: &Combination) -> Self {
        let c = combination;
        let choices = choice_layers(d).zip(&c.choices).filter_map(|(l, v)| {
            let Content::Choice { variants, .. } = &l.content else {
                return None;
            };
            v.map(|v| (l.name.clone(), variants[v].stem.clone()))
        });
        Named {
            role: d.roles.get(c.role).cloned(),
            flags: d
                .flags
                .iter()
                .map(|f| f.name.clone())
                .zip(c.flags.clone())
                .collect(),
            knobs: d
                .knobs
                .iter()
                .zip(&c.knobs)
                .map(|(k, &v)| (k.name.clone(), k.values[v].clone()))
                .collect(),
            choices: choices.collect(),
            ..Named::default()
        }
    }
}

/// Named inputs checked against a manifest: everything a composition is given, owned.
#[derive(Clone, Debug)]
pub struct Resolved {
    combination: Combination,
    facts: GivenFacts,
    /// What each placeholder prints (a given list's entry is replaced by the list).
    printed: Vec<String>,
    slots: Vec<Option<String>>,
    /// The facts and slots `sanitize` changed.
    cleaned: Vec<Cleaned>,
    overlay: Option<GivenOverlay>,
    formulation: Formulation,
    notices: Vec<Notice>,
    instructions: Vec<Vec<instructions::Owned>>,
    selection: Option<Resolution>,
    selectors: usize,
    /// Each fact's `escape`, when it prints escaped (a list's items escape in its style).
    escapes: Vec<Option<Escaping>>,
    /// Each fact's byte budget as lowered by name (`Named::max_bytes`), where it was.
    budgets: Vec<Option<usize>>,
    /// Each loop: the list fact it prints and its style; their values start at
    /// `loop_base`.
    loops: Vec<(usize, &'static ListStyle)>,
    loop_base: usize,
    model: Option<ModelMatch>,
    /// Each user's template (`overlay_interpolate`): the value it renders into, its
    /// overlay field, what it may use.
    templates: Vec<(usize, usize, TemplateSpec)>,
    /// The skill index's fact and what it prints, when the role takes it.
    skill_index: Option<(usize, Rendered)>,
}

/// Each user's template of manifest `d`: its value, its overlay field, what it may use.
fn templates(d: &Doctrine, ix: &crate::plan::Indices) -> Vec<(usize, usize, TemplateSpec)> {
    let base = d.template_base();
    let templated = d.layers.iter().enumerate().filter_map(|(i, l)| {
        let spec = crate::plan::template_spec(d, l)?;
        Some((ix.overlay[i]?, spec))
    });
    let each = templated.enumerate();
    each.map(|(k, (field, spec))| (base + k, field, spec))
        .collect()
}

/// Manifest `d`'s inputs (its plan `plan`) from `named`, or why compiled code would refuse
/// them.
pub fn resolve(d: &Doctrine, plan: &Plan, named: &Named) -> Result<Resolved, InputError> {
    let role = role(d, named.role.as_deref())?;
    let who = d.roles.get(role).map_or("the prompt", String::as_str);
    let model = named
        .model
        .as_deref()
        .map(|m| models::matched(d, m))
        .transpose()?;
    let rule = model.as_ref().map(|(rule, _)| *rule);
    let combination = Combination {
        role,
        flags: flags(d, &named.flags, rule)?,
        knobs: knobs(d, &named.knobs)?,
        choices: choices(d, &named.choices, rule)?,
    };
    let facts = facts::facts(d, role, who, &named.facts)?;
    let budgets = facts::budgets(d, &named.max_bytes)?;
    let given: Vec<Option<&str>> = facts.values.iter().map(Option::as_deref).collect();
    let printed = printed(d, &given, &combination)
        .into_iter()
        .map(str::to_string)
        .collect();
    let ix = &plan.indices;
    let fields = ix.overlay.iter().any(Option::is_some);
    let (overlay, mut notices) = match &named.overlay {
        Some(dir) if !fields && d.selectors().next().is_none() => {
            return Err(InputError::Unsupported(format!(
                "the manifest has no overridable layer, so it takes no overlay (given {})",
                dir.display()
            )))
        }
        // Only the selectors read it.
        Some(_) if !fields => (None, Vec::new()),
        Some(dir) => {
            let (overlay, notices) = overlay::load(d, dir);
            (Some(overlay), notices)
        }
        None => (None, Vec::new()),
    };
    let (selection, selected) =
        selection::selection(d, &named.selectors, named.overlay.as_deref())?;
    notices.extend(selected);
    let (skill_index, loaded) = skills::index(d, role, &named.skills)?;
    notices.extend(loaded);
    let (slots, slots_went) = slots(d, &named.slots)?;
    let went = facts.cleaned.iter().cloned().chain(slots_went);
    Ok(Resolved {
        combination,
        cleaned: cleaned(went),
        facts,
        printed,
        slots,
        overlay,
        formulation: formulation(d, named.family.as_deref(), rule)?,
        notices,
        instructions: instructions::instructions(d, &named.instructions)?,
        selection,
        loops: crate::plan::loop_styles(d),
        loop_base: d.loop_base(),
        templates: templates(d, ix),
        skill_index,
        selectors: ix.selector.iter().flatten().count(),
        model: model.map(|(_, m)| m),
        budgets,
        escapes: d
            .facts
            .iter()
            .map(|f| {
                f.escape
                    .first()
                    .copied()
                    .flatten()
                    .filter(|_| f.list.is_none())
            })
            .collect(),
    })
}

fn role(d: &Doctrine, given: Option<&str>) -> Result<usize, InputError> {
    let roles = d.roles.iter().map(String::as_str);
    match given {
        Some(name) => find(d.role_word, name, roles),
        None if d.roles.is_empty() => Ok(0),
        None => Err(InputError::Missing {
            kind: d.role_word.to_string(),
            valid: d.roles.clone(),
        }),
    }
}

fn flags(
    d: &Doctrine,
    given: &[(String, bool)],
    rule: Option<&ModelRule>,
) -> Result<Vec<bool>, InputError> {
    let mut flags: Vec<bool> = d.flags.iter().map(|f| f.default).collect();
    for &f in rule.iter().flat_map(|r| &r.flags) {
        flags[f] = true;
    }
    for (name, on) in given {
        flags[find("flag", name, d.flags.iter().map(|f| f.name.as_str()))?] = *on;
    }
    Ok(flags)
}

fn knobs(d: &Doctrine, given: &[(String, String)]) -> Result<Vec<usize>, InputError> {
    let mut knobs: Vec<usize> = d.knobs.iter().map(|k| k.default).collect();
    for (name, value) in given {
        let k = find("knob", name, d.knobs.iter().map(|k| k.name.as_str()))?;
        let values = d.knobs[k].values.iter().map(String::as_str);
        knobs[k] = find(format!("value of knob `{name}`"), value, values)?;
    }
    Ok(knobs)
}

/// The layers that choose among variants, in manifest order (the plan's choice indices).
fn choice_layers(d: &Doctrine) -> impl Iterator<Item = &Layer> + Clone {
    d.layers
        .iter()
        .filter(|l| matches!(l.content, Content::Choice { .. }))
}

fn choices(
    d: &Doctrine,
    given: &[(String, String)],
    rule: Option<&ModelRule>,
) -> Result<Vec<Option<usize>>, InputError> {
    let layers: Vec<&Layer> = choice_layers(d).collect();
    let mut chosen = vec![None; layers.len()];
    for (name, variant) in given {
        let c = find("choice layer", name, layers.iter().map(|l| l.name.as_str()))?;
        let kind = format!("variant of choice `{name}`");
        let v = find(kind, variant, stems(layers[c]))?;
        if chosen[c].replace(v).is_some() {
            return Err(InputError::Repeated {
                kind: "choice",
                name: name.clone(),
            });
        }
    }
    for &(c, v) in rule.iter().flat_map(|r| &r.choices) {
        chosen[c] = Some(v);
    }
    for (l, v) in layers.iter().zip(&chosen) {
        if let (
            None,
            Content::Choice {
                optional: false, ..
            },
        ) = (v, &l.content)
        {
            return Err(InputError::Missing {
                kind: format!("variant of choice `{}`", l.name),
                valid: stems(l).map(str::to_string).collect(),
            });
        }
    }
    Ok(chosen)
}

/// A choice layer's variants' names.
fn stems(l: &Layer) -> impl Iterator<Item = &str> + Clone {
    let variants = match &l.content {
        Content::Choice { variants, .. } => &variants[..],
        _ => &[],
    };
    variants.iter().map(|v| v.stem.as_str())
}

/// Each slot's text as generated setters store it: trimmed where the layer trims, and
/// not given when empty.
type Slots = (Vec<Option<String>>, Vec<(CleanedFrom, Removed)>);

/// Each slot's text as generated setters store it, then cleaned as the manifest's
/// `sanitize` says (nothing left: not given), and what went.
fn slots(d: &Doctrine, given: &[(String, SlotText)]) -> Result<Slots, InputError> {
    let slots = slot_texts(d, given)?;
    let names = d
        .layers
        .iter()
        .filter(|l| matches!(l.content, Content::Slot { .. }));
    let mut went = Vec::new();
    let slots = slots.into_iter().zip(names).map(|(slot, l)| {
        if d.sanitize.is_none() {
            return slot;
        }
        let (out, removed) = sanitize_given(slot.as_deref(), d.sanitize);
        went.push((CleanedFrom::Slot(static_text(&l.name)), removed));
        out.map(Cow::into_owned)
    });
    Ok((slots.collect(), went))
}

fn slot_texts(
    d: &Doctrine,
    given: &[(String, SlotText)],
) -> Result<Vec<Option<String>>, InputError> {
    let layers: Vec<(&Layer, bool, doctrine_core::__internals::part::Trim)> = d
        .layers
        .iter()
        .filter_map(|l| match l.content {
            Content::Slot { required, trim } => Some((l, required, trim)),
            _ => None,
        })
        .collect();
    let mut slots: Vec<Option<String>> = vec![None; layers.len()];
    let mut seen = vec![false; layers.len()];
    for (name, text) in given {
        let s = find("slot", name, layers.iter().map(|(l, ..)| l.name.as_str()))?;
        if std::mem::replace(&mut seen[s], true) {
            return Err(InputError::Repeated {
                kind: "slot",
                name: name.clone(),
            });
        }
        let text = read_text(&format!("slot `{name}`"), text)?;
        slots[s] = slot_given(Some(&text), layers[s].2).map(str::to_string);
    }
    for ((l, required, _), seen) in layers.iter().zip(&seen) {
        if *required && !seen {
            return Err(InputError::Missing {
                kind: format!("text for required slot `{}`", l.name),
                valid: Vec::new(),
            });
        }
    }
    Ok(slots)
}

/// A slot's or an instruction's text (`what` names it), given or read from its file.
fn read_text(what: &str, text: &SlotText) -> Result<String, InputError> {
    let path = match text {
        SlotText::Text(text) => return Ok(text.clone()),
        SlotText::File(path) => path,
    };
    let cannot = |message: String| InputError::Read {
        what: what.to_string(),
        path: path.clone(),
        message,
    };
    let bytes = super::read::read_file(path).map_err(|e| cannot(e.describe("the file").0))?;
    String::from_utf8(bytes).map_err(|e| cannot(format!("not UTF-8 ({e})")))
}

/// The formulation for `family` from the manifest's table, or its default.
fn formulation(
    d: &Doctrine,
    family: Option<&str>,
    rule: Option<&ModelRule>,
) -> Result<Formulation, InputError> {
    let f = &d.formulation;
    let Some(family) = family else {
        let from_rule = rule.and_then(|r| r.family.as_ref()).map(|(_, f)| *f);
        return Ok(from_rule.unwrap_or(f.default));
    };
    let table: Vec<(&str, Formulation)> =
        f.families.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    match family_key(family, &table, f.exact) {
        Some((_, formulation)) => Ok(formulation),
        None => Err(InputError::Unknown {
            kind: "model family".into(),
            name: family.to_string(),
            valid: table.iter().map(|(k, _)| k.to_string()).collect(),
        }),
    }
}

impl Resolved {
    /// The role, flags, knobs and choices, by index.
    pub fn combination(&self) -> &Combination {
        &self.combination
    }

    /// The formulation titled layers are delimited in.
    pub fn formulation(&self) -> Formulation {
        self.formulation
    }

    /// What the overlay loader said: every file of the overlay directory ignored, cut or
    /// refused (a locked layer's file among them). Report them, as a program would.
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }

    /// The runtime's `Inputs` for this composition, handed to `f`.
    pub fn with<R>(&self, f: impl FnOnce(&Inputs<'_>) -> R) -> R {
        let c = &self.combination;
        let lists = &self.facts.lists;
        // A plain list is given as `&[&str]`, as compiled code takes it.
        let plain: Vec<Vec<&str>> = lists
            .iter()
            .map(|l| match &l.rows {
                ItemRows::Plain(items) => items.iter().map(String::as_str).collect(),
                ItemRows::Fields(_) => Vec::new(),
            })
            .collect();
        // A list, and each loop over it, keeps to the budget given by name, as the
        // builder's `.max_bytes_<fact>(n)` caps the fact's list and its loops.
        let cap = |fact: usize| self.budgets[fact].unwrap_or(usize::MAX);
        let list = |at: usize, style: &'static ListStyle| -> Box<dyn Rows + '_> {
            let l = &lists[at];
            match &l.rows {
                ItemRows::Plain(_) => Box::new(List::new(&plain[at], style).capped(cap(l.fact))),
                ItemRows::Fields(items) => Box::new(List::new(items, style).capped(cap(l.fact))),
            }
        };
        let rows: Vec<Box<dyn Rows + '_>> = (0..lists.len())
            .map(|at| list(at, lists[at].style))
            .collect();
        // Each loop: the same items through the loop's own style.
        let loops: Vec<(usize, Box<dyn Rows + '_>)> = self
            .loops
            .iter()
            .enumerate()
            .filter_map(|(k, (fact, style))| {
                let at = lists.iter().position(|l| l.fact == *fact)?;
                Some((self.loop_base + k, list(at, style)))
            })
            .collect();
        let mut values: Vec<Value<'_>> = self.printed.iter().map(|v| Value::Text(v)).collect();
        for (v, f) in values.iter_mut().zip(&self.escapes) {
            if let (Value::Text(t), Some(e)) = (*v, f) {
                *v = Value::Escaped(t, *e);
            }
        }
        for (l, rows) in lists.iter().zip(&rows) {
            values[l.fact] = Value::List(&**rows);
        }
        for (v, rows) in &loops {
            values[*v] = Value::List(&**rows);
        }
        let rendered: Vec<(usize, Rendered, Option<Notice>)> = self
            .templates
            .iter()
            .map(|(v, field, spec)| {
                let text = self
                    .overlay
                    .as_ref()
                    .map_or("", |o| o.fields[*field].as_str());
                let (rendered, rejected) = overlay_template(text, spec, &values);
                (*v, rendered, rejected)
            })
            .collect();
        for (v, r, _) in &rendered {
            values[*v] = Value::Text(&r.text);
        }
        let mut user: Vec<UserValue<'_>> =
            rendered.iter().map(|(v, r, _)| (*v, &r.user[..])).collect();
        if let Some((fact, index)) = &self.skill_index {
            values[*fact] = Value::Text(&index.text);
            user.push((*fact, &index.user[..]));
        }
        let rejected: Vec<Notice> = rendered.iter().filter_map(|(.., n)| n.clone()).collect();
        let facts: Vec<Option<&str>> = self.facts.values.iter().map(Option::as_deref).collect();
        let slots: Vec<Option<&str>> = self.slots.iter().map(Option::as_deref).collect();
        let owned: Vec<Vec<Instruction<'_>>> = self
            .instructions
            .iter()
            .map(|layer| layer.iter().map(instructions::Owned::borrowed).collect())
            .collect();
        let instructions: Vec<&[Instruction<'_>]> = owned.iter().map(Vec::as_slice).collect();
        let opt_out = vec![false; self.selectors];
        let fields: Option<Vec<&str>> = self
            .overlay
            .as_ref()
            .map(|o| o.fields.iter().map(String::as_str).collect());
        let overlay = self.overlay.as_ref().zip(fields.as_deref());
        f(&Inputs {
            role: c.role,
            choices: &c.choices,
            slots: &slots,
            instructions: &instructions,
            // The manifest's budgets alone: nothing lowers them here.
            instruction_caps: &[],
            flags: &c.flags,
            knobs: &c.knobs,
            facts: &facts,
            values: &values,
            user: &user,
            cleaned: &self.cleaned,
            rejected: &rejected,
            overlay: overlay.map(|(o, fields)| Overlay {
                fields,
                off: &o.off,
            }),
            selection: self.selection.as_ref(),
            opt_out: &opt_out,
        })
    }

    /// The prompt, as compiled code's `finish()` composes it.
    pub fn compose(&self, d: &Doctrine, plan: &Plan) -> Prompt<Box<[Section]>> {
        let role = self.combination.role;
        let prompt = self.with(|inputs| composed(d, plan, role, self.formulation, inputs));
        with_model(prompt, self.model.clone())
    }
}

//! [`Doctrine`] → the items one `doctrine!` invocation defines.
//!
//! Generated code names the runtime through `::doctrine`, the facade crate users depend on.

mod ahead;
mod claims;
mod combinations;
mod facts;
mod facts_builder;
mod facts_struct;
mod finish;
mod items;
mod models;
mod overlay;
mod plan;
mod prefix;
mod reminders;
mod sanitize;
mod selectors;
mod skills;
mod stages;
mod state;
mod table;
mod texts;
mod types;
mod uses;

use std::path::Path;

use proc_macro2::{Group, Ident, Literal, TokenStream, TokenTree};
use quote::{format_ident, quote};

use super::model::{Doctrine, Layer};
use super::names::camel;
use super::Diagnostics;

use overlay::overlay;
use texts::{layer_infos, texts};
use types::{choices, flags, knobs, roles};

impl Doctrine {
    /// The runtime's path, for generated code: `::doctrine` or the caller's override.
    pub fn krate(&self) -> TokenStream {
        self.krate.clone()
    }

    /// The runtime's plumbing, `<krate>::__private`: what generated code calls and users do
    /// not.
    pub fn private(&self) -> TokenStream {
        let path = &self.krate;
        quote! { #path::__private }
    }
}

pub(super) fn expand(d: &Doctrine) -> TokenStream {
    expand_without(d, &[])
}

/// The module to commit and `include!` (`cargo doctrine expand --out`): the macro's, with
/// each file read checked by its path inside `crate_dir` (the canonical crate directory).
pub(super) fn expand_ahead(d: &Doctrine, crate_dir: &Path) -> Result<TokenStream, Diagnostics> {
    Ok(expand_tracked(d, &[], ahead::checks(d, crate_dir)?))
}

/// A part of the generated module that a skeleton may leave out (see `codegen::skeleton`):
/// code naming an item that is not there gets no error beside the manifest's, and code
/// naming one whose shape changed would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    Roles,
    Flags,
    Knobs,
    Choices,
    Combination,
    Facts,
    Overlay,
    Selectors,
    /// `LAYERS` and the plan behind it.
    Plan,
    /// `compose`, its stages and setters, `Prompt`.
    Builder,
    Prefix,
    Reminders,
    Skills,
}

impl Part {
    /// The parts that name this one, and so go with it.
    fn dependents(self) -> &'static [Part] {
        use Part::*;
        match self {
            Roles => &[Combination, Facts, Prefix, Builder],
            Flags | Knobs => &[Combination, Builder],
            // The plan's guard names `FACT_NAMES`.
            Facts => &[Plan, Builder],
            // The skill index is a fact.
            Skills => &[Facts],
            Choices | Overlay | Selectors | Plan => &[Builder],
            Combination | Builder | Prefix | Reminders => &[],
        }
    }

    /// `parts` and every part that names one of them.
    pub(super) fn with_dependents(parts: &[Part]) -> Vec<Part> {
        let mut all = parts.to_vec();
        let mut next = 0;
        while let Some(&p) = all.get(next) {
            for &d in p.dependents() {
                if !all.contains(&d) {
                    all.push(d);
                }
            }
            next += 1;
        }
        all
    }
}

/// The generated module less the parts in `omit`, which must hold every part that names
/// one of them ([`Part::with_dependents`]).
pub(super) fn expand_without(d: &Doctrine, omit: &[Part]) -> TokenStream {
    expand_tracked(d, omit, tracking(d))
}

/// [`expand_without`] with `tracking`, the items that make the build depend on every file
/// read.
fn expand_tracked(d: &Doctrine, omit: &[Part], tracking: TokenStream) -> TokenStream {
    let keep = |p: Part| !omit.contains(&p);
    let roles = keep(Part::Roles).then(|| roles(d));
    // Only what the manifest uses: no empty `Flag` enum, `Knobs {}` or `Overlay {}`.
    let flags = (!d.flags.is_empty() && keep(Part::Flags)).then(|| flags(d));
    let knobs = (!d.knobs.is_empty() && keep(Part::Knobs)).then(|| knobs(d));
    let choices = keep(Part::Choices).then(|| choices(d));
    let combination = keep(Part::Combination).then(|| combinations::combination(d));
    let facts = keep(Part::Facts).then(|| facts::facts(d));
    let overlay = (uses::Uses::new(d).overlay && keep(Part::Overlay)).then(|| overlay(d));
    let selectors = keep(Part::Selectors).then(|| selectors::selectors(d));
    let built = super::plan::build(d);
    let texts = texts(d, &built);
    let layers = layer_infos(d);
    let (compose, compose_hidden) = compose(d, &built.indices);
    let (plan, plan_hidden) = plan::plan(d, &built);
    let (compose, compose_hidden) = keep(Part::Builder)
        .then_some((compose, compose_hidden))
        .unzip();
    let (plan, plan_hidden) = keep(Part::Plan).then_some((plan, plan_hidden)).unzip();
    let hidden = hidden(d, quote! { #plan_hidden #compose_hidden });
    let prefix = keep(Part::Prefix).then(|| prefix::prefix(d));
    let claims = claims::safety_claims(d);
    let reminders = keep(Part::Reminders).then(|| reminders::reminders(d));
    let skills = keep(Part::Skills).then(|| skills::skills(d));
    let models = keep(Part::Builder).then(|| models::models(d));
    let items = quote! {
        #tracking
        #roles
        #flags
        #knobs
        #choices
        #combination
        #facts
        #overlay
        #selectors
        #texts
        #layers
        #plan
        #compose
        #prefix
        #claims
        #reminders
        #skills
        #models
        #hidden
    };
    unsuffixed(items)
}

/// `mod __doctrine`: the generator's helpers (the plan, the builder's state and what moves
/// it), in one module, so the invoking module holds only what users name and no manifest
/// name can meet a helper's.
fn hidden(d: &Doctrine, items: TokenStream) -> TokenStream {
    let imports = plan::imports(d);
    quote! {
        /// The generator's own helpers, kept out of the names this module gives its users.
        #[doc(hidden)]
        #[allow(unused_imports)]
        mod __doctrine {
            #imports
            #items
        }
    }
}

/// The typed builder over the plan: `compose(...)` and its stages, the setters, and
/// `.finish()`; and for the hidden module, the builder's state and what moves it.
fn compose(d: &Doctrine, ix: &super::plan::Indices) -> (TokenStream, TokenStream) {
    let uses = uses::Uses::new(d);
    let (state, params, init) = state::state(d, &uses);
    let (stages, slot_fns) = stages::stages(d, ix, (&params, init));
    let setters = state::setters(d, &uses);
    let (finish, state_fns) = finish::finish(d, &uses);
    (
        quote! { #stages #setters #finish },
        quote! { #state #slot_fns #state_fns },
    )
}

/// The tokens with every integer literal unsuffixed (`9usize` → `9`): quote writes a
/// `usize` as `9usize`, which rustdoc then shows (`Prompt<[Section; 9usize]>`). Every such
/// literal sits where its type is known (array lengths, indices, typed constants).
fn unsuffixed(tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), unsuffixed(g.stream()));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            TokenTree::Literal(l) => {
                let text = l.to_string();
                let digits = text
                    .strip_suffix("usize")
                    .or_else(|| text.strip_suffix("u64"))
                    .or_else(|| text.strip_suffix("u32"))
                    .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
                match digits.and_then(|d| d.parse::<u64>().ok()) {
                    Some(n) => {
                        let mut plain = Literal::u64_unsuffixed(n);
                        plain.set_span(l.span());
                        TokenTree::Literal(plain)
                    }
                    None => TokenTree::Literal(l),
                }
            }
            other => other,
        })
        .collect()
}

pub(super) fn lit(s: &str) -> Literal {
    Literal::string(s)
}

pub(super) fn variant(name: &str) -> Ident {
    format_ident!("{}", camel(name))
}

/// `include_bytes!` of every file read, in unused constants: cargo then rebuilds the
/// crate when one changes, and unused constants put no bytes in the binary.
fn tracking(d: &Doctrine) -> TokenStream {
    let paths = std::iter::once(&d.manifest)
        .chain(&d.tracked)
        .map(|p| lit(&p.to_string_lossy()));
    quote! { #(const _: &[u8] = ::core::include_bytes!(#paths);)* }
}

/// The most fields a generated struct derives `PartialEq` with. `derive(PartialEq)` writes
/// a single `&&` chain over every field, which rustc nests as deep as the chain is long:
/// about 6,000 fields (knobs, facts, overlay fields, selectors; 10,000 flags or reminder
/// states) overflowed its stack. Up to this many the derive is shallow enough, and reads
/// as one line.
const MAX_DERIVED_EQ_FIELDS: usize = 64;

/// `PartialEq` for struct `ty` (with `generics`), for a struct that derives the other
/// traits: what to add to its derive list before `Eq` (`PartialEq,`, for a struct of a
/// few fields) and an impl to put after it (one statement per field, for a wide one).
pub(super) fn field_eq(
    ty: &Ident,
    generics: &TokenStream,
    fields: &[Ident],
) -> (TokenStream, TokenStream) {
    if fields.len() <= MAX_DERIVED_EQ_FIELDS {
        return (quote! { PartialEq, }, TokenStream::new());
    }
    let imp = quote! {
        #[automatically_derived]
        impl #generics ::core::cmp::PartialEq for #ty #generics {
            fn eq(&self, other: &Self) -> bool {
                #(if self.#fields != other.#fields { return false; })*
                true
            }
        }
    };
    (TokenStream::new(), imp)
}

pub(super) fn choice_field(l: &Layer) -> Ident {
    format_ident!("choice_{}", l.name)
}

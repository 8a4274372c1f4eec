//! One role's facts struct (or the prompt's, without roles): its fields, their types and
//! docs, and the expressions that read it for composition (`__values`, `__lists`) and
//! build it from collected pairs (`from_pairs`). `Facts::builder` reuses the field types.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::{field_eq, lit};
use crate::model::{Doctrine, Fact, ItemPiece, ItemStep, ListSpec, Need};

/// The Rust type of a fact field for a role's need.
pub(super) fn field_type(krate: &TokenStream, f: &Fact, need: Need) -> TokenStream {
    if f.skill_index {
        // The session's skills; `Skills::EMPTY` when not given.
        return quote! { &'a #krate::skills::Skills };
    }
    if f.list.is_some() {
        // Empty is absent: an optional list is an empty slice when not given.
        return match f.item_type() {
            Some(t) => {
                let t = format_ident!("{}", t);
                quote! { &'a [#t<'a>] }
            }
            None => quote! { &'a [&'a str] },
        };
    }
    let base = match &f.values {
        Some((enum_name, _)) => {
            let t = format_ident!("{}", enum_name);
            quote! { #t }
        }
        None => quote! { &'a str },
    };
    match need {
        Need::Optional => quote! { ::core::option::Option<#base> },
        _ => base,
    }
}

/// `Option<&'a str>` of a field, for the values table. An optional free-text fact given
/// empty is absent; an absent optional fact with a `default` is its default.
fn field_value(pv: &TokenStream, f: &Fact, need: Need, access: TokenStream) -> TokenStream {
    if f.list.is_some() {
        // Printed from the rendered lists (see `__lists`).
        return quote! { ::core::option::Option::None };
    }
    let value = match (&f.values, need) {
        (None, Need::Required) => return quote! { ::core::option::Option::Some(#access) },
        (None, _) => quote! { #pv::present(#access) },
        (Some(_), Need::Required) => {
            return quote! { ::core::option::Option::Some(#access.as_str()) }
        }
        (Some((enum_name, _)), _) => {
            let t = format_ident!("{}", enum_name);
            quote! { #access.map(#t::as_str) }
        }
    };
    match &f.default {
        Some(d) => {
            quote! { ::core::option::Option::Some(::core::option::Option::unwrap_or(#value, #d)) }
        }
        None => value,
    }
}

/// A list fact not given: an empty slice, or for the skill index no skill.
pub(super) fn absent_list(d: &Doctrine, f: &Fact) -> TokenStream {
    let krate = d.krate();
    if f.skill_index {
        quote! { #krate::skills::Skills::EMPTY }
    } else {
        quote! { &[] }
    }
}

/// A field initialiser from the collected `slots`, for `from_pairs`.
fn field_from_slot(d: &Doctrine, f: &Fact, i: usize, need: Need, who: &str) -> TokenStream {
    let pv = d.private();
    if f.list.is_some() {
        // Pairs cannot give a list (`collect` refuses one by name): set it on the struct.
        return absent_list(d, f);
    }
    let name = lit(&f.name);
    let who = lit(who);
    match (&f.values, need) {
        (None, Need::Required) => quote! { #pv::required(#who, #name, slots[#i])? },
        (None, _) => quote! { slots[#i] },
        (Some(_), Need::Required) => {
            quote! { #pv::required_choice(#who, #name, slots[#i])? }
        }
        (Some(_), _) => quote! { #pv::choice(slots[#i])? },
    }
}

/// The struct for one role (or the whole prompt): its name, definition and whether it
/// borrows (has a `&'a str` field).
pub(super) struct Shape {
    pub(super) ty: Ident,
    pub(super) borrows: bool,
    pub(super) def: TokenStream,
    pub(super) values: TokenStream,
    /// `facts` binds the struct where `values` / `lists` read it (else it is `_`).
    pub(super) values_bind: TokenStream,
    /// `slots` binds the collected pairs where a field reads them (else `_`).
    pub(super) slots_bind: TokenStream,
    pub(super) lists_bind: TokenStream,
    pub(super) lists: TokenStream,
    pub(super) from_slots: TokenStream,
    /// Whether `from_slots` reads the collected pairs (a field other than a list).
    pub(super) reads_slots: bool,
    pub(super) takes: Vec<String>,
}

pub(super) fn shape(d: &Doctrine, r: usize, ty: Ident, who: &str) -> Shape {
    let pv = d.private();
    let taken: Vec<(usize, &Fact, Need)> = d
        .facts
        .iter()
        .enumerate()
        .filter(|(_, f)| f.need[r] != Need::Absent)
        .map(|(i, f)| (i, f, f.need[r]))
        .collect();
    let borrows = taken.iter().any(|(_, f, _)| f.values.is_none());
    let fields: Vec<Ident> = taken
        .iter()
        .map(|(_, f, _)| format_ident!("{}", f.name))
        .collect();
    let krate = d.krate();
    let types = taken.iter().map(|(_, f, n)| field_type(&krate, f, *n));
    let docs = taken.iter().map(|(_, f, n)| match (n, &f.default) {
        _ if f.skill_index => format!(
            "The skill index `{}` (optional, stable): the session's skills, one line each, by name; `Skills::EMPTY` prints none. A user skill's line is user-file text (`Prompt::user_content`).",
            f.name
        ),
        // A list is never required (validation refuses it).
        _ if f.list.is_some() => format!(
            "Fact `{}` (optional, {}; a list: an empty one is absent).",
            f.name, d.tiers.names[f.tier_index]
        ),
        (Need::Required, _) => format!("Fact `{}` (required, {}).", f.name, d.tiers.names[f.tier_index]),
        (_, None) if f.values.is_none() => format!(
            "Fact `{}` (optional, {}; `Some(\"\")` is the same as `None`).",
            f.name, d.tiers.names[f.tier_index]
        ),
        (_, None) => format!("Fact `{}` (optional, {}).", f.name, d.tiers.names[f.tier_index]),
        (_, Some(default)) => format!(
            "Fact `{}` (optional, {}; `{default:?}` when not given).",
            f.name, d.tiers.names[f.tier_index]
        ),
    });
    let required: Vec<_> = taken
        .iter()
        .filter(|(_, _, n)| *n == Need::Required)
        .map(|(_, f, _)| lit(&f.name))
        .collect();
    let optional: Vec<_> = taken
        .iter()
        .filter(|(_, _, n)| *n == Need::Optional)
        .map(|(_, f, _)| lit(&f.name))
        .collect();
    let generics = if borrows {
        quote! { <'a> }
    } else {
        TokenStream::new()
    };
    let doc =
        format!("The facts `{who}` takes: required ones are plain fields, optional ones `Option`.");
    let (derive_eq, eq) = field_eq(&ty, &generics, &fields);
    let def = quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, #derive_eq Eq)]
        pub struct #ty #generics { #(#[doc = #docs] pub #fields: #types,)* }

        #eq

        impl #generics #ty #generics {
            /// The facts this struct must be given.
            pub const REQUIRED: &'static [&'static str] = &[#(#required),*];
            /// The facts it may be given.
            pub const OPTIONAL: &'static [&'static str] = &[#(#optional),*];
        }
    };
    let mut values: Vec<TokenStream> = vec![quote! { ::core::option::Option::None }; d.facts.len()];
    for (i, f, n) in &taken {
        let field = format_ident!("{}", f.name);
        values[*i] = field_value(&pv, f, *n, quote! { facts.#field });
    }
    let values = quote! { [#(#values),*] };
    let inits = taken.iter().map(|(i, f, n)| {
        let field = format_ident!("{}", f.name);
        let v = field_from_slot(d, f, *i, *n, who);
        quote! { #field: #v }
    });
    let from_slots = quote! { #ty { #(#inits,)* } };
    // Every list fact of the manifest, as composition reads it from this struct (empty
    // when not taken).
    let is_taken = |f: &Fact| taken.iter().any(|(_, t, _)| t.name == f.name);
    let lists = d
        .facts
        .iter()
        .filter(|f| f.list.is_some())
        .map(|f| match is_taken(f) {
            true => list_value(d, f),
            false => quote! { ::core::default::Default::default() },
        });
    // Then each loop: the same items through the loop's own style.
    let loops = d.loops().into_iter().enumerate().map(|(k, (f, _))| {
        let f = &d.facts[f];
        match is_taken(f) {
            true => {
                let (field, style) = (format_ident!("{}", f.name), loop_style_name(k));
                quote! { #pv::List::new(facts.#field, #style) }
            }
            false => quote! { ::core::default::Default::default() },
        }
    });
    let lists = quote! { (#(#lists,)* #(#loops,)*) };
    let bind = |reads: bool| {
        if reads {
            quote! { facts }
        } else {
            quote! { _ }
        }
    };
    let reads_slots = taken.iter().any(|(_, f, _)| f.list.is_none());
    Shape {
        ty,
        borrows,
        def,
        values,
        values_bind: bind(taken.iter().any(|(_, f, _)| f.list.is_none())),
        lists_bind: bind(taken.iter().any(|(_, f, _)| f.list.is_some())),
        slots_bind: if reads_slots {
            quote! { slots }
        } else {
            quote! { _ }
        },
        lists,
        from_slots,
        reads_slots,
        takes: taken
            .iter()
            .filter(|(_, f, _)| f.list.is_none())
            .map(|(_, f, _)| f.name.clone())
            .collect(),
    }
}

/// List fact `f` of the facts struct `facts` as composition reads it: the items with
/// their style, printed where the placeholder stands; the skill index rendered (with its
/// user lines' stretches).
fn list_value(d: &Doctrine, f: &Fact) -> TokenStream {
    let pv = d.private();
    let field = format_ident!("{}", f.name);
    let style = style_name(f);
    let Some(l) = &f.list else {
        return TokenStream::new();
    };
    if f.skill_index {
        let fields = l.fields.iter().map(|n| match n.as_str() {
            "name" => quote! { #pv::SkillField::Name },
            _ => quote! { #pv::SkillField::When },
        });
        return quote! { #pv::render_skill_index(facts.#field, &[#(#fields),*], #style) };
    }
    quote! { #pv::List::new(facts.#field, #style) }
}

/// The type of what `Facts::__lists` gives: each list fact as composition reads it, in
/// manifest order; item structs named after `scope` (`super::` in the hidden module).
pub(super) fn lists_type(d: &Doctrine, scope: TokenStream) -> TokenStream {
    let pv = d.private();
    let types = d.facts.iter().filter(|f| f.list.is_some()).map(|f| {
        if f.skill_index {
            return quote! { #pv::Rendered };
        }
        list_type(d, f, &scope)
    });
    let loops = d
        .loops()
        .into_iter()
        .map(|(f, _)| list_type(d, &d.facts[f], &scope));
    quote! { (#(#types,)* #(#loops,)*) }
}

/// `List<'a, Item>` for list fact `f`, its item struct named after `scope`.
fn list_type(d: &Doctrine, f: &Fact, scope: &TokenStream) -> TokenStream {
    let pv = d.private();
    match f.item_type() {
        Some(t) => {
            let t = format_ident!("{}", t);
            quote! { #pv::List<'a, #scope #t<'a>> }
        }
        None => quote! { #pv::List<'a, &'a str> },
    }
}

/// The constant that holds loop `k`'s style in `Facts::__lists`.
fn loop_style_name(k: usize) -> Ident {
    format_ident!("LOOP_{}", k)
}

/// The constant that holds list fact `f`'s style in `Facts::__lists`.
fn style_name(f: &Fact) -> Ident {
    format_ident!("{}", crate::names::screaming(&f.name))
}

/// Each list fact's `ListStyle`, a constant named after the fact, once for every role that
/// takes it: what `Facts::__lists` starts with.
pub(super) fn list_styles(d: &Doctrine) -> TokenStream {
    let pv = d.private();
    // A fact no role takes is never read.
    let taken = |f: &&Fact| f.need.iter().any(|n| *n != Need::Absent);
    let styles = d.facts.iter().filter(taken).filter_map(|f| {
        let style = list_style(&pv, f.list.as_ref()?, f);
        let name = style_name(f);
        Some(quote! { const #name: &#pv::ListStyle = #style; })
    });
    let loops = d
        .loops()
        .into_iter()
        .enumerate()
        .filter(|(_, (f, _))| taken(&&d.facts[*f]));
    let loops = loops.map(|(k, (f, l))| {
        let style = list_style(&pv, l, &d.facts[f]);
        let name = loop_style_name(k);
        quote! { const #name: &#pv::ListStyle = #style; }
    });
    quote! { #(#styles)* #(#loops)* }
}

/// List fact `f`'s `ListStyle` (`l`: its own or a loop's), as a constant expression, each
/// field printed as its `escape` says.
fn list_style(pv: &TokenStream, l: &ListSpec, f: &Fact) -> TokenStream {
    let escape = &f.escape;
    let item = l.item.iter().map(|p| match p {
        ItemPiece::Text(t) => {
            let t = lit(t);
            quote! { #pv::ItemPiece::Text(#t) }
        }
        ItemPiece::Field(i) => match escape.get(*i).copied().flatten() {
            Some(e) => {
                let e = super::finish::escaping(pv, e);
                quote! { #pv::ItemPiece::Escaped(#i, #e) }
            }
            None => quote! { #pv::ItemPiece::Field(#i) },
        },
        ItemPiece::Html(i) => quote! { #pv::ItemPiece::Escaped(#i, #pv::Escaping::Html) },
        ItemPiece::Open(i, negated) => quote! { #pv::ItemPiece::Open(#i, #negated) },
        ItemPiece::When(steps) => {
            let checks = steps.iter().map(|s| match s {
                ItemStep::Given(i) => quote! { #pv::Check::Given(#i) },
                ItemStep::Is(i, t) => {
                    let t = lit(t);
                    quote! { #pv::Check::Is(#i, #t) }
                }
                ItemStep::Not => quote! { #pv::Check::Not },
                ItemStep::And => quote! { #pv::Check::And },
                ItemStep::Or => quote! { #pv::Check::Or },
            });
            quote! { #pv::ItemPiece::When(&[#(#checks),*]) }
        }
        ItemPiece::Close => quote! { #pv::ItemPiece::Close },
    });
    let (join, more) = (lit(&l.join), lit(&l.more));
    let option = |v: Option<usize>| match v {
        Some(m) => quote! { ::core::option::Option::Some(#m) },
        None => quote! { ::core::option::Option::None },
    };
    let (sort, max, max_bytes) = (option(l.sort), option(l.max), option(l.max_bytes));
    let (fact, budget_items, join_ends_line, skip_blank) =
        (&f.name, l.budget_items, l.join_ends_line, l.skip_blank);
    quote! {
        &#pv::ListStyle { item: &[#(#item),*], join: #join, sort: #sort, max: #max, more: #more, max_bytes: #max_bytes, budget_items: #budget_items, join_ends_line: #join_ends_line, skip_blank: #skip_blank, fact: #fact }
    }
}

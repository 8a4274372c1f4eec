//! Typed facts: one struct per role (mode) whose fields are exactly the facts it takes,
//! required ones plain and optional ones `Option`, and a `Facts` enum over them.
//! Omitting a required fact, or giving one the role does not take, does not compile.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::types::choice_enum;
use super::{field_eq, lit, variant};
use crate::codegen::model::{Doctrine, Fact, ItemPiece, Need};
use crate::codegen::names::camel;

pub(super) fn facts(d: &Doctrine) -> TokenStream {
    let krate = d.krate();
    if d.facts.is_empty() {
        return TokenStream::new();
    }
    let enums = d.facts.iter().filter_map(|f| {
        let (enum_name, values) = f.values.as_ref()?;
        let doc = format!(
            "The values of fact `{}` in `{}`.",
            f.name, d.manifest_display
        );
        Some(choice_enum(
            &krate,
            &format_ident!("{}", enum_name),
            &f.name,
            values,
            &doc,
            None,
        ))
    });
    let names = d.facts.iter().map(|f| lit(&f.name));
    let count = d.facts.len();
    let body = if d.roles.is_empty() {
        single(d)
    } else {
        per_role(d)
    };
    let items = item_structs(d);
    let builder = super::facts_builder::builder(d);
    quote! {
        #(#enums)*
        #items
        #body
        #builder
        /// Every declared fact's name, in manifest order.
        pub const FACT_NAMES: [&str; #count] = [#(#names),*];
    }
}

/// The Rust type of a fact field for a role's need.
pub(super) fn field_type(krate: &TokenStream, f: &Fact, need: Need) -> TokenStream {
    if f.skill_index {
        // The session's skills; `Skills::EMPTY` when not given.
        return quote! { &'a #krate::Skills };
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
        quote! { #krate::Skills::EMPTY }
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
struct Shape {
    ty: Ident,
    borrows: bool,
    def: TokenStream,
    values: TokenStream,
    /// `facts` binds the struct where `values` / `lists` read it (else it is `_`).
    values_bind: TokenStream,
    /// `slots` binds the collected pairs where a field reads them (else `_`).
    slots_bind: TokenStream,
    lists_bind: TokenStream,
    lists: TokenStream,
    from_slots: TokenStream,
    takes: Vec<String>,
}

fn shape(d: &Doctrine, r: usize, ty: Ident, who: &str) -> Shape {
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
            f.name, f.tier
        ),
        (Need::Required, _) => format!("Fact `{}` (required, {}).", f.name, f.tier),
        (_, None) if f.values.is_none() => format!(
            "Fact `{}` (optional, {}; `Some(\"\")` is the same as `None`).",
            f.name, f.tier
        ),
        (_, None) => format!("Fact `{}` (optional, {}).", f.name, f.tier),
        (_, Some(d)) => format!(
            "Fact `{}` (optional, {}; `{d:?}` when not given).",
            f.name, f.tier
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
    let eq = field_eq(&ty, &generics, &fields);
    let def = quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Eq)]
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
    // Every list fact of the manifest, rendered from this struct (empty when not taken).
    let lists = d.facts.iter().filter(|f| f.list.is_some()).map(|f| {
        match taken.iter().any(|(_, t, _)| t.name == f.name) {
            true => render_list(d, f),
            false => quote! { <#pv::Rendered as ::core::default::Default>::default() },
        }
    });
    let lists = quote! { [#(#lists),*] };
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
        takes: taken
            .iter()
            .filter(|(_, f, _)| f.list.is_none())
            .map(|(_, f, _)| f.name.clone())
            .collect(),
    }
}

/// No roles declared: one `Facts` struct for the prompt.
fn single(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let s = shape(d, 0, format_ident!("Facts"), "the prompt");
    let (def, values, from_slots, count) = (&s.def, &s.values, &s.from_slots, d.facts.len());
    let (values_bind, lists_bind, slots_bind) = (&s.values_bind, &s.lists_bind, &s.slots_bind);
    let (lists, list_count) = (&s.lists, d.list_count());
    let list_names = list_names(d);
    // Only for manifests with list facts: nothing else calls it.
    let lists_fn = (list_count > 0).then(|| {
        quote! {
            #[doc(hidden)]
            pub fn __lists(&self) -> [#pv::Rendered; #list_count] {
                let #lists_bind = self;
                #lists
            }
        }
    });
    let takes = s.takes.iter().map(|t| lit(t));
    let generics = if s.borrows {
        quote! { <'a> }
    } else {
        TokenStream::new()
    };
    quote! {
        #def
        impl<'a> Facts #generics {
            /// Builds the facts from `(name, value)` pairs, e.g. a command line.
            pub fn from_pairs(pairs: impl ::core::iter::IntoIterator<Item = (&'a str, &'a str)>) -> ::core::result::Result<Self, #krate::FactError> {
                let #slots_bind: [::core::option::Option<&'a str>; #count] = #pv::collect("the prompt", &FACT_NAMES, &[#(#takes),*], &[#(#list_names),*], pairs)?;
                ::core::result::Result::Ok(#from_slots)
            }

            #[doc(hidden)]
            pub fn __values(&self) -> [::core::option::Option<&'a str>; #count] {
                let #values_bind = self;
                #values
            }

            #lists_fn
        }
    }
}

/// Roles declared: a struct per role and `enum Facts` over them.
fn per_role(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let role_ty = d.role_type();
    let count = d.facts.len();
    let shapes: Vec<Shape> = d
        .roles
        .iter()
        .enumerate()
        .map(|(r, name)| shape(d, r, format_ident!("{}Facts", camel(name)), name))
        .collect();
    let defs = shapes.iter().map(|s| &s.def);
    let variants: Vec<Ident> = d.roles.iter().map(|r| variant(r)).collect();
    let tys: Vec<TokenStream> = shapes
        .iter()
        .map(|s| {
            let ty = &s.ty;
            if s.borrows {
                quote! { #ty<'a> }
            } else {
                quote! { #ty }
            }
        })
        .collect();
    // If no struct borrows, the enum still needs to use `'a`.
    let unused = (!shapes.iter().any(|s| s.borrows)).then(|| {
        quote! {
            #[doc(hidden)]
            __Never(::core::convert::Infallible, ::core::marker::PhantomData<&'a ()>),
        }
    });
    let never_arm = unused
        .as_ref()
        .map(|_| quote! { Facts::__Never(never, _) => match *never {}, });
    let values = shapes.iter().zip(&variants).map(|(s, v)| {
        let values = &s.values;
        let bind = &s.values_bind;
        quote! { Facts::#v(#bind) => #values, }
    });
    let list_names: Vec<proc_macro2::Literal> = list_names(d).collect();
    let lists = shapes.iter().zip(&variants).map(|(s, v)| {
        let lists = &s.lists;
        let bind = &s.lists_bind;
        quote! { Facts::#v(#bind) => #lists, }
    });
    let list_count = d.list_count();
    let lists_fn = (list_count > 0).then(|| {
        quote! {
            #[doc(hidden)]
            pub fn __lists(&self) -> [#pv::Rendered; #list_count] {
                match self {
                    #(#lists)*
                    #never_arm
                }
            }
        }
    });
    let from_slots = shapes.iter().zip(&variants).zip(&d.roles).map(|((s, v), who)| {
        let (build, who, slots_bind) = (&s.from_slots, lit(who), &s.slots_bind);
        quote! {
            #role_ty::#v => {
                let #slots_bind: [::core::option::Option<&'a str>; #count] = #pv::collect(#who, &FACT_NAMES, Facts::takes(role), &[#(#list_names),*], pairs)?;
                Facts::#v(#build)
            }
        }
    });
    let froms = shapes.iter().zip(&variants).zip(&tys).map(|((_, v), ty)| {
        quote! {
            #[automatically_derived]
            impl<'a> ::core::convert::From<#ty> for Facts<'a> {
                fn from(facts: #ty) -> Self { Facts::#v(facts) }
            }
        }
    });
    let takes_arms = shapes.iter().zip(&variants).map(|(s, v)| {
        let takes = s.takes.iter().map(|t| lit(t));
        quote! { #role_ty::#v => &[#(#takes),*], }
    });
    let word = d.role_word;
    // A list cannot come through `from_pairs`; one every role takes can be set on the
    // enum, whatever the role.
    let setters = d
        .facts
        .iter()
        .filter(|f| f.list.is_some() && f.need.iter().all(|n| *n != Need::Absent))
        .map(|f| {
            let (method, field) = (format_ident!("with_{}", f.name), format_ident!("{}", f.name));
            let ty = field_type(&krate, f, Need::Optional);
            let doc = format!(
                "Gives list fact `{}`, which every {word} takes, whatever the {word} (a list cannot come through `from_pairs`).",
                f.name
            );
            quote! {
                #[doc = #doc]
                #[must_use]
                pub fn #method(self, #field: #ty) -> Self {
                    match self {
                        #(Facts::#variants(mut facts) => {
                            facts.#field = #field;
                            Facts::#variants(facts)
                        })*
                    }
                }
            }
        });
    // With no required fact, a role alone is its facts (all absent).
    let from_role = d
        .facts
        .iter()
        .all(|f| !f.need.contains(&Need::Required))
        .then(|| {
            let empty = shapes.iter().zip(&variants).enumerate().map(|(r, (s, v))| {
                let ty = &s.ty;
                let inits = d
                    .facts
                    .iter()
                    .filter(|f| f.need[r] != Need::Absent)
                    .map(|f| {
                        let field = format_ident!("{}", f.name);
                        match &f.list {
                            Some(_) => {
                                let absent = absent_list(d, f);
                                quote! { #field: #absent }
                            }
                            None => quote! { #field: ::core::option::Option::None },
                        }
                    });
                quote! { #role_ty::#v => Facts::#v(#ty { #(#inits,)* }), }
            });
            let doc =
                format!("A {word} alone: no {word} requires a fact, so every fact is absent.");
            quote! {
                #[doc = #doc]
                #[automatically_derived]
                impl<'a> ::core::convert::From<#role_ty> for Facts<'a> {
                    fn from(role: #role_ty) -> Self {
                        match role { #(#empty)* }
                    }
                }
            }
        });
    let doc = format!("The facts of one {word}; the variant is the {word}.");
    let variant_docs = d
        .roles
        .iter()
        .map(|r| format!("The facts of {word} `{r}`."));
    quote! {
        #(#defs)*

        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Facts<'a> {
            #(#[doc = #variant_docs] #variants(#tys),)*
            #unused
        }

        #(#froms)*
        #from_role

        impl<'a> Facts<'a> {
            #(#setters)*

            /// The role (mode) these facts are for.
            pub fn role(&self) -> #role_ty {
                match self {
                    #(Facts::#variants(_) => #role_ty::#variants,)*
                    #never_arm
                }
            }

            /// The facts `role` takes from `from_pairs`, required and optional, in manifest order
            /// (a list fact is set on the struct instead).
            pub fn takes(role: #role_ty) -> &'static [&'static str] {
                match role { #(#takes_arms)* }
            }

            /// Builds the facts of `role` from `(name, value)` pairs, e.g. a command line:
            /// a missing required fact, a fact the role does not take, or a value outside
            /// a fact's closed set is an error naming it.
            pub fn from_pairs(role: #role_ty, pairs: impl ::core::iter::IntoIterator<Item = (&'a str, &'a str)>) -> ::core::result::Result<Self, #krate::FactError> {
                ::core::result::Result::Ok(match role { #(#from_slots)* })
            }

            #[doc(hidden)]
            pub fn __values(&self) -> [::core::option::Option<&'a str>; #count] {
                match self {
                    #(#values)*
                    #never_arm
                }
            }

            #lists_fn
        }
    }
}

/// How list fact `f` is rendered from the facts struct `facts`, as a `Rendered`.
fn render_list(d: &Doctrine, f: &Fact) -> TokenStream {
    let pv = d.private();
    let field = format_ident!("{}", f.name);
    let style = list_style(&pv, f);
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
    let text = match l.fields.is_empty() {
        false => {
            let fields = l.fields.iter().map(|n| format_ident!("{}", n));
            quote! {
                #pv::render_rows(&::core::iter::Iterator::collect::<::std::vec::Vec<_>>(::core::iter::Iterator::map(facts.#field.iter(), |r| [#(r.#fields),*])), #style)
            }
        }
        true => quote! { #pv::render_list(facts.#field, #style) },
    };
    quote! { #pv::Rendered::plain(#text) }
}

/// A list fact's `ListStyle`, as a constant expression (promoted to `'static`).
fn list_style(pv: &TokenStream, f: &Fact) -> TokenStream {
    let Some(l) = &f.list else {
        return TokenStream::new();
    };
    let item = l.item.iter().map(|p| match p {
        ItemPiece::Text(t) => {
            let t = lit(t);
            quote! { #pv::ItemPiece::Text(#t) }
        }
        ItemPiece::Field(i) => quote! { #pv::ItemPiece::Field(#i) },
        ItemPiece::Open(i, negated) => quote! { #pv::ItemPiece::Open(#i, #negated) },
        ItemPiece::Close => quote! { #pv::ItemPiece::Close },
    });
    let (join, more) = (lit(&l.join), lit(&l.more));
    let option = |v: Option<usize>| match v {
        Some(m) => quote! { ::core::option::Option::Some(#m) },
        None => quote! { ::core::option::Option::None },
    };
    let (sort, max) = (option(l.sort), option(l.max));
    quote! {
        &#pv::ListStyle { item: &[#(#item),*], join: #join, sort: #sort, max: #max, more: #more }
    }
}

/// The struct of one item of each list fact with named fields: `&str` fields in template
/// order.
fn item_structs(d: &Doctrine) -> TokenStream {
    let structs = d.facts.iter().filter_map(|f| {
        let l = f.list.as_ref()?;
        let ty = format_ident!("{}", f.item_type()?);
        let doc = format!(
            "One item of list fact `{}` in `{}`: each field fills its `{{name}}` in the item template; an item whose fields are all empty is left out.",
            f.name, d.manifest_display
        );
        let idents: Vec<Ident> = l.fields.iter().map(|n| format_ident!("{}", n)).collect();
        let fields = idents.iter().zip(&l.fields).map(|(field, n)| {
            let doc = format!("`{{{n}}}` in the item template.");
            quote! { #[doc = #doc] pub #field: &'a str }
        });
        let eq = field_eq(&ty, &quote! { <'a> }, &idents);
        Some(quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, Default, Eq, Hash)]
            pub struct #ty<'a> { #(#fields,)* }

            #eq
        })
    });
    quote! { #(#structs)* }
}

/// The names of the list facts, which pairs cannot give.
fn list_names(d: &Doctrine) -> impl Iterator<Item = proc_macro2::Literal> + Clone + '_ {
    d.facts
        .iter()
        .filter(|f| f.list.is_some())
        .map(|f| lit(&f.name))
}

//! The struct of one item of each list fact with named fields, and the struct of each of
//! its nested tables (`rules_file = { path = "text" }`), which the item holds as an
//! `Option`. The runtime reads an item's fields by index, nested ones flattened: the
//! struct's presence (as a bool reads) and then each of its fields (empty when `None`).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::field_eq;
use crate::model::{Doctrine, Fact, FieldKind, ListSpec};

/// Each list fact's item struct (and its nested structs), in the order of `fields` (or of
/// the item template): `&str`, `bool`, `Option<&str>` or an `Option` of a nested struct.
pub(super) fn item_structs(d: &Doctrine) -> TokenStream {
    let structs = d.facts.iter().filter_map(|f| {
        let l = f.list.as_ref()?;
        let ty = format_ident!("{}", f.item_type()?);
        let doc = format!(
            "One item of list fact `{}` in `{}`: each field fills its `{{name}}` in the item template and loops; an item whose fields are all empty (or false) is left out.",
            f.name, d.manifest_display
        );
        // The item's own fields: those without a `.` (a nested field is its struct's).
        let own: Vec<usize> = (0..l.fields.len())
            .filter(|&i| !l.fields[i].contains('.'))
            .collect();
        let idents: Vec<Ident> = own.iter().map(|&i| format_ident!("{}", l.fields[i])).collect();
        let fields = own.iter().zip(&idents).map(|(&i, field)| {
            let (ty, doc) = field_type(f, l, i);
            quote! { #[doc = #doc] pub #field: #ty }
        });
        let nested = own
            .iter()
            .filter(|&&i| l.kinds[i] == FieldKind::Struct)
            .map(|&i| nested_struct(d, f, l, i));
        let reads = (0..l.fields.len()).map(|i| read(l, i));
        let (derive_eq, eq) = field_eq(&ty, &quote! { <'a> }, &idents);
        let pv = d.private();
        let at = 0..l.fields.len();
        Some(quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, Default, #derive_eq Eq, Hash)]
            pub struct #ty<'a> { #(#fields,)* }

            #eq

            #[automatically_derived]
            impl<'a> #pv::Row for #ty<'a> {
                fn field(&self, i: usize) -> &str {
                    match i { #(#at => #reads,)* _ => "" }
                }
            }

            #(#nested)*
        })
    });
    quote! { #(#structs)* }
}

/// Field `i`'s type and doc; `name` is what a template writes for it.
fn field_type(f: &Fact, l: &ListSpec, i: usize) -> (TokenStream, String) {
    let n = &l.fields[i];
    match l.kinds[i] {
        FieldKind::Text => (quote! { &'a str }, format!("`{{{n}}}`: text.")),
        FieldKind::OptText => (
            quote! { ::core::option::Option<&'a str> },
            format!("`{{{n}}}`: text, or none (`None` and `Some(\"\")` are absent alike)."),
        ),
        FieldKind::Bool => (
            quote! { bool },
            format!("`{{?{n}}}…{{/{n}}}` prints when it is true; it is never printed."),
        ),
        FieldKind::Struct => {
            let ty = format_ident!("{}", f.nested_type(n));
            (
                quote! { ::core::option::Option<#ty<'a>> },
                format!("`{{?{n}}}…{{/{n}}}` prints when it is `Some`; its fields print as `{{{n}.field}}` (empty when `None`)."),
            )
        }
    }
}

/// The struct of nested table `outer` (an index into the item's fields).
fn nested_struct(d: &Doctrine, f: &Fact, l: &ListSpec, outer: usize) -> TokenStream {
    let ty = format_ident!("{}", f.nested_type(&l.fields[outer]));
    let doc = format!(
        "Nested field `{}` of an item of list fact `{}` in `{}`.",
        l.fields[outer], f.name, d.manifest_display
    );
    let inner: Vec<usize> = l.nested(outer).collect();
    let idents: Vec<Ident> = inner
        .iter()
        .map(|&i| format_ident!("{}", l.fields[i].split_once('.').map_or("", |(_, n)| n)))
        .collect();
    let fields = inner.iter().zip(&idents).map(|(&i, field)| {
        let (ty, doc) = field_type(f, l, i);
        quote! { #[doc = #doc] pub #field: #ty }
    });
    let (derive_eq, eq) = field_eq(&ty, &quote! { <'a> }, &idents);
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default, #derive_eq Eq, Hash)]
        pub struct #ty<'a> { #(#fields,)* }

        #eq
    }
}

/// What the runtime reads of field `i`: its text; a bool is `"true"` or empty, a nested
/// struct `"true"` when `Some`, and a nested field empty when its struct is `None`.
fn read(l: &ListSpec, i: usize) -> TokenStream {
    let (outer, field) = match l.fields[i].split_once('.') {
        Some((o, n)) => (format_ident!("{}", o), format_ident!("{}", n)),
        None => {
            let field = format_ident!("{}", l.fields[i]);
            return match l.kinds[i] {
                FieldKind::Text => quote! { self.#field },
                FieldKind::OptText => quote! { self.#field.unwrap_or("") },
                FieldKind::Bool => quote! { if self.#field { "true" } else { "" } },
                FieldKind::Struct => quote! { if self.#field.is_some() { "true" } else { "" } },
            };
        }
    };
    match l.kinds[i] {
        FieldKind::Text => quote! { self.#outer.map_or("", |s| s.#field) },
        FieldKind::OptText => quote! { self.#outer.and_then(|s| s.#field).unwrap_or("") },
        FieldKind::Bool => {
            quote! { if self.#outer.is_some_and(|s| s.#field) { "true" } else { "" } }
        }
        // One level: a nested table holds no table (refused where it is declared).
        FieldKind::Struct => quote! { "" },
    }
}

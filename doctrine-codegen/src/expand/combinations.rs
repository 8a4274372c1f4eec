//! `Combination`: one value of every closed set the builder takes as a setting (the role,
//! the flags, the knobs), and `Combination::all()`, for tests that go through every prompt
//! a manifest can make. Generated only when the manifest has a flag or a knob: with roles
//! alone, `Role::ALL` is every combination already (and a role's `Display` its name). The
//! loop and the name live in the runtime (`__private::combinations`, `combination_name`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::lit;
use crate::model::Doctrine;

pub(super) fn combination(d: &Doctrine) -> TokenStream {
    if d.flags.is_empty() && d.knobs.is_empty() {
        return TokenStream::new();
    }
    let private = d.private();
    let (role_ty, role) = (d.role_type(), format_ident!("{}", d.role_word));
    let has_roles = !d.roles.is_empty();
    let has_flags = !d.flags.is_empty();
    let knob_fields: Vec<_> = d
        .knobs
        .iter()
        .map(|k| format_ident!("{}", k.name))
        .collect();
    let knob_types: Vec<_> = d
        .knobs
        .iter()
        .map(|k| format_ident!("{}", k.enum_name))
        .collect();
    let knob_names = d.knobs.iter().map(|k| lit(&k.name));
    let knob_index = 0..d.knobs.len();

    let role_field = has_roles.then(|| {
        let doc = format!("The {}.", d.role_word);
        quote! { #[doc = #doc] pub #role: #role_ty, }
    });
    let flags_field = has_flags.then(|| {
        quote! { /// Which flags are on.
        pub flags: Flags, }
    });
    let knobs_field = (!d.knobs.is_empty()).then(|| {
        quote! { /// Every knob's value.
        pub knobs: Knobs, }
    });

    let role_count = if has_roles {
        quote! { #role_ty::ALL.len() }
    } else {
        quote! { 1 }
    };
    let flag_count = if has_flags {
        quote! { Flag::ALL.len() }
    } else {
        quote! { 0 }
    };
    let role_value = has_roles.then(|| quote! { #role: #role_ty::ALL[c.role], });
    let flags_value = has_flags.then(|| quote! { flags: c.flags(Flag::ALL, Flags::set), });
    let knobs_value = (!d.knobs.is_empty()).then(|| {
        quote! { knobs: Knobs { #(#knob_fields: #knob_types::ALL[c.knobs[#knob_index]],)* }, }
    });

    let role_name = if has_roles {
        quote! { ::core::option::Option::Some(self.#role.as_str()) }
    } else {
        quote! { ::core::option::Option::None }
    };
    let flag_names = if has_flags {
        quote! { (Flag::NAMES, &|i| self.flags.get(Flag::ALL[i])) }
    } else {
        quote! { (&[], &|_| false) }
    };

    let doc = format!(
        "One setting of each closed set `compose` takes: {}. [`Combination::all`] yields \
         every one; `Display` names it (`{}`: {}).",
        parts(d, ["a {}", "the flags", "the knobs"]),
        example(d),
        parts(
            d,
            [
                "the {}",
                "the flags that are on",
                "every knob as `name=value`"
            ]
        ),
    );
    let all_doc = format!(
        "Every combination: {}. {} in all.",
        parts(
            d,
            [
                "{} by {}",
                "each flag off then on",
                "each knob's values in manifest order"
            ]
        ),
        count(d)
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Combination { #role_field #flags_field #knobs_field }

        impl Combination {
            #[doc = #all_doc]
            pub fn all() -> impl ::core::iter::Iterator<Item = Combination> {
                #private::combinations(#role_count, #flag_count, &[#(#knob_types::ALL.len()),*], |c| {
                    Combination { #role_value #flags_value #knobs_value }
                })
            }
        }

        #[automatically_derived]
        impl ::core::fmt::Display for Combination {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                #private::combination_name(
                    f,
                    #role_name,
                    #flag_names,
                    &[#((#knob_names, self.knobs.#knob_fields.as_str())),*],
                )
            }
        }
    }
}

/// The closed sets the manifest has, in order, as `texts` word them (`{}` is the role word).
fn parts(d: &Doctrine, [role, flags, knobs]: [&str; 3]) -> String {
    let mut parts = Vec::new();
    if !d.roles.is_empty() {
        parts.push(role.replace("{}", d.role_word));
    }
    if !d.flags.is_empty() {
        parts.push(flags.to_string());
    }
    if !d.knobs.is_empty() {
        parts.push(knobs.to_string());
    }
    parts.join(", ")
}

/// A name `Display` gives, for the docs: the first role with the first flag on and the
/// first knob at its default (the first of each, so that the doc stays one line).
fn example(d: &Doctrine) -> String {
    let role = d.roles.first().cloned();
    let flag = d.flags.first().map(|f| f.name.clone());
    let knob = d
        .knobs
        .first()
        .map(|k| format!("{}={}", k.name, k.values[k.default]));
    let rest = if d.knobs.len() > 1 { "+…" } else { "" };
    let parts: Vec<String> = [role, flag, knob].into_iter().flatten().collect();
    format!("{}{rest}", parts.join("+"))
}

/// How many combinations there are, as a product (`8 × 2 × 3 = 48`), or the number alone.
fn count(d: &Doctrine) -> String {
    let mut factors: Vec<(Option<u128>, String)> = Vec::new();
    if !d.roles.is_empty() {
        factors.push((Some(d.roles.len() as u128), d.roles.len().to_string()));
    }
    match d.flags.len() {
        0 => {}
        1 => factors.push((Some(2), "2".to_string())),
        n => {
            let total = u32::try_from(n).ok().and_then(|n| 2u128.checked_pow(n));
            factors.push((total, format!("2^{n}")));
        }
    }
    for k in &d.knobs {
        factors.push((Some(k.values.len() as u128), k.values.len().to_string()));
    }
    let total = factors
        .iter()
        .try_fold(1u128, |t, (n, _)| n.and_then(|n| t.checked_mul(n)))
        .map_or("more than 2^128".to_string(), |t| t.to_string());
    match &factors[..] {
        [_] => total,
        _ => {
            let texts: Vec<&str> = factors.iter().map(|(_, t)| t.as_str()).collect();
            format!("{} = {total}", texts.join(" × "))
        }
    }
}

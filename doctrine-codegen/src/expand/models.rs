//! `[models]`: the `ModelRule` type, its rules as data (`ModelRule::ALL`, `DEFAULT`), the
//! matching (`ModelRule::find`, the runtime's routine `[formulation] families` shares)
//! and the builder's `.model()`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::choice_field;
use super::lit;
use super::uses::{choice_layers, Uses};
use crate::model::{Content, Doctrine, ModelRule};

/// `struct ModelRule` and its associated items, when the manifest has `[models]`.
pub(super) fn models(d: &Doctrine) -> TokenStream {
    let Some(models) = &d.models else {
        return TokenStream::new();
    };
    let (krate, pv) = (d.krate(), d.private());
    let choice_fields = choice_layers(d).map(|l| {
        let (field, doc) = (
            format_ident!("{}", l.name),
            format!("Layer `{}`'s variant, if the rule sets it.", l.name),
        );
        let Content::Choice { enum_name, .. } = &l.content else {
            return TokenStream::new();
        };
        let ty = format_ident!("{}", enum_name);
        quote! { #[doc = #doc] pub #field: ::core::option::Option<#ty>, }
    });
    let eq = super::field_eq(
        &format_ident!("ModelChoices"),
        &TokenStream::new(),
        &choice_layers(d)
            .map(|l| format_ident!("{}", l.name))
            .collect::<Vec<_>>(),
    );
    let (eq_derive, eq_impl) = eq;
    let flags = (!d.flags.is_empty()).then(|| {
        quote! {
            /// The flags the rule turns on.
            pub flags: &'static [Flag],
        }
    });
    let rules = models.rules.iter().map(|r| rule(d, r));
    let default = rule(d, &models.default);
    let exact = models.exact;
    let how = match exact {
        true => "the rule whose key is the whole name",
        false => "the rule with the longest key the name starts with",
    };
    let find_doc = format!(
        "The rule for `model` (trimmed, ASCII case ignored): {how}; `None` when no rule \
         matches, and [`ModelRule::DEFAULT`] applies."
    );
    quote! {
        /// A `[models]` rule: what the builder's `.model(name)` sets for the model names it
        /// matches. Setters called after `.model()` win over it; it replaces what `compose`
        /// and earlier setters were given.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct ModelRule {
            /// The model name (or prefix) the rule matches; `"default"` for [`ModelRule::DEFAULT`].
            pub key: &'static str,
            /// The choice layers' variants the rule sets.
            pub choices: ModelChoices,
            #flags
            /// The formulation family, and the formulation `[formulation]` gives it.
            pub family: ::core::option::Option<(&'static str, #krate::input::Formulation)>,
        }

        /// A `[models]` rule's variant for each choice layer (`None`: the rule leaves it).
        #[derive(Clone, Copy, Debug, #eq_derive Eq)]
        pub struct ModelChoices {
            #(#choice_fields)*
        }
        #eq_impl

        impl ModelRule {
            /// Every rule, by key.
            pub const ALL: &'static [ModelRule] = &[#(#rules),*];
            /// What a model name no rule matches gets.
            pub const DEFAULT: ModelRule = #default;

            #[doc = #find_doc]
            pub fn find(model: &str) -> ::core::option::Option<&'static ModelRule> {
                #pv::best_match(model, Self::ALL, |r| r.key, #exact)
            }
        }
    }
}

/// One rule as a `ModelRule` literal.
fn rule(d: &Doctrine, r: &ModelRule) -> TokenStream {
    let krate = d.krate();
    let key = lit(&r.key);
    let choices = choice_layers(d).enumerate().map(|(c, l)| {
        let field = format_ident!("{}", l.name);
        let Content::Choice {
            enum_name,
            variants,
            ..
        } = &l.content
        else {
            return TokenStream::new();
        };
        let ty = format_ident!("{}", enum_name);
        match r.choices.iter().find(|(at, _)| *at == c) {
            Some(&(_, v)) => {
                let variant = format_ident!("{}", variants[v].variant);
                quote! { #field: ::core::option::Option::Some(#ty::#variant), }
            }
            None => quote! { #field: ::core::option::Option::None, },
        }
    });
    let flags = (!d.flags.is_empty()).then(|| {
        let on = r.flags.iter().map(|&f| super::variant(&d.flags[f].name));
        quote! { flags: &[#(Flag::#on),*], }
    });
    let family = match &r.family {
        Some((name, f)) => {
            let f = super::texts::formulation(&krate, *f);
            quote! { ::core::option::Option::Some((#name, #f)) }
        }
        None => quote! { ::core::option::Option::None },
    };
    quote! { ModelRule { key: #key, choices: ModelChoices { #(#choices)* }, #flags family: #family } }
}

/// The builder's `.model()`, when the manifest has `[models]`.
pub(super) fn setter(d: &Doctrine, u: &Uses) -> TokenStream {
    if d.models.is_none() {
        return TokenStream::new();
    }
    let krate = d.krate();
    let choices = choice_layers(d).map(|l| {
        let (field, state) = (format_ident!("{}", l.name), choice_field(l));
        let set = match l.content {
            Content::Choice { optional: true, .. } => quote! { ::core::option::Option::Some(v) },
            _ => quote! { v },
        };
        quote! { if let ::core::option::Option::Some(v) = rule.choices.#field { self.state.#state = #set; } }
    });
    let flags = u.flags.then(|| {
        quote! {
            for &flag in rule.flags { self.state.flags.set(flag, true); }
        }
    });
    let family = u.titled.then(|| quote! {
        if let ::core::option::Option::Some((_, f)) = rule.family { self.state.formulation = f; }
    });
    quote! {
        /// Sets what the manifest's `[models]` rule for `model` names ([`ModelRule::find`],
        /// else [`ModelRule::DEFAULT`]): its choices' variants (replacing what `compose` was
        /// given), its flags on, its family's formulation. Setters called after this one win
        /// over it. `explain()` and `Prompt::model()` name the rule that matched.
        pub fn model(mut self, model: &str) -> Self {
            let found = ModelRule::find(model);
            let rule = found.unwrap_or(&ModelRule::DEFAULT);
            #(#choices)*
            #flags
            #family
            self.state.model = ::core::option::Option::Some(#krate::introspect::ModelMatch::new(model, found.map(|r| r.key)));
            self
        }
    }
}

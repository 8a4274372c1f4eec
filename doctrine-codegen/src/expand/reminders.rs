//! `[reminders]` → `ReminderKind`, `SessionState`, `Reminder`, `emit` and `marked`: notes
//! appended to a turn. `emit` is a function of the state alone (no clock, no file system),
//! so a replayed history is byte-identical to the live one.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::types::choice_enum;
use super::{field_eq, lit};
use crate::model::{Doctrine, ReminderBody, ReminderDef, ReminderPiece, Reminders, StateShape};

pub(super) fn reminders(d: &Doctrine) -> TokenStream {
    let Some(r) = &d.reminders else {
        return TokenStream::new();
    };
    let (krate, pv) = (d.krate(), d.private());
    let names: Vec<String> = r.kinds.iter().map(|k| k.name.clone()).collect();
    let doc = format!(
        "The kinds of reminder in `{}`, in emit order.",
        d.manifest_display
    );
    let kind_enum = choice_enum(
        &krate,
        &format_ident!("ReminderKind"),
        "reminder kind",
        &names,
        &doc,
        None,
    );
    let (state, state_ty) = session_state(&krate, r);
    let (before, after) = (lit(&r.marker.0), lit(&r.marker.1));
    let marked_doc = marked_doc(r.marker.1.trim());
    let arms = r.kinds.iter().map(|k| arm(d, r, k));
    quote! {
        #kind_enum

        #state

        /// One reminder: appended to a turn, never part of the prefix.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct Reminder {
            /// Which kind it is.
            pub kind: ReminderKind,
            /// Its text, without the marker.
            pub text: ::std::string::String,
        }

        impl Reminder {
            /// The text wrapped in the marker, as the model reads it; the marker's closing
            /// text inside it (from a list item, say) is escaped, as [`marked`] does.
            pub fn render(&self) -> ::std::string::String {
                marked(&self.text)
            }

            /// [`Reminder::render`], and a notice when the text held the marker's closing
            /// text, which was escaped.
            pub fn render_checked(&self) -> (::std::string::String, ::core::option::Option<#krate::introspect::Notice>) {
                #pv::marked_checked(&::std::format!("reminder `{}`", self.kind), #before, &self.text, #after)
            }
        }

        /// As [`Reminder::render`].
        impl ::core::fmt::Display for Reminder {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&self.render())
            }
        }

        #[doc = #marked_doc]
        pub fn marked(text: &str) -> ::std::string::String {
            #pv::marked(#before, text, #after).0
        }

        /// [`marked`], and a notice about `subject` (whose text it is: a skill's name, its
        /// file) when the text held the marker's closing text, which was escaped.
        pub fn marked_checked(subject: &str, text: &str) -> (::std::string::String, ::core::option::Option<#krate::introspect::Notice>) {
            #pv::marked_checked(subject, #before, text, #after)
        }

        /// The reminders `state` calls for, in manifest order. Pure: the same state always
        /// gives the same reminders, byte for byte.
        pub fn emit(state: &#state_ty) -> ::std::vec::Vec<Reminder> {
            let mut out = ::std::vec::Vec::new();
            #(#arms)*
            out
        }
    }
}

/// What `emit` does for reminder kind `k`: push it when its state says so.
fn arm(d: &Doctrine, r: &Reminders, k: &ReminderDef) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let variant = super::variant(&k.name);
    let (field, shape) = (&r.state[k.when].0, r.state[k.when].1);
    let field = format_ident!("{}", field);
    let push = |text: TokenStream| {
        quote! {
            out.push(Reminder { kind: ReminderKind::#variant, #text });
        }
    };
    match &k.body {
        ReminderBody::Bands(texts) => {
            let [a, b, c] = [0, 1, 2].map(|i| {
                let t = &texts[i];
                push(quote! { text: ::core::convert::From::from(#t) })
            });
            quote! {
                // `None`, and any band a later release adds, announce nothing.
                match state.#field {
                    #krate::input::ContextBand::Percent60 => { #a }
                    #krate::input::ContextBand::Percent80 => { #b }
                    #krate::input::ContextBand::Percent92 => { #c }
                    _ => {}
                }
            }
        }
        ReminderBody::Text(pieces) => {
            let fires = match shape {
                StateShape::List => {
                    quote! { ::core::iter::Iterator::any(&mut state.#field.iter(), |item| !item.is_empty()) }
                }
                _ => quote! { state.#field },
            };
            let build = match pieces.as_slice() {
                [ReminderPiece::Text(t)] => quote! { let text = ::core::convert::From::from(#t); },
                _ => {
                    let parts = pieces.iter().map(|p| match p {
                        ReminderPiece::Text(t) => quote! { text.push_str(#t); },
                        ReminderPiece::List(i) => {
                            let list = format_ident!("{}", r.state[*i].0);
                            quote! { text.push_str(&#pv::render_list(state.#list, &#pv::ListStyle { item: &[#pv::ItemPiece::Field(0)], join: ", ", sort: ::core::option::Option::None, max: ::core::option::Option::None, more: "", max_bytes: ::core::option::Option::None, budget_items: false, join_ends_line: false, skip_blank: false, fact: "" })); }
                        }
                    });
                    quote! { let mut text = ::std::string::String::new(); #(#parts)* }
                }
            };
            let push = push(quote! { text });
            quote! {
                if #fires {
                    #build
                    #push
                }
            }
        }
    }
}

/// `SessionState`, everything `emit` reads, with its `PartialEq`; and how `emit` names its
/// type.
fn session_state(krate: &TokenStream, r: &Reminders) -> (TokenStream, TokenStream) {
    let borrows = r.state.iter().any(|(_, s)| *s == StateShape::List);
    let lifetime = borrows.then(|| quote! { <'a> });
    let state_ty = match borrows {
        true => quote! { SessionState<'_> },
        false => quote! { SessionState },
    };
    let names: Vec<proc_macro2::Ident> = r
        .state
        .iter()
        .map(|(n, _)| format_ident!("{}", n))
        .collect();
    let (derive_eq, eq) = field_eq(
        &format_ident!("SessionState"),
        &lifetime.clone().unwrap_or_default(),
        &names,
    );
    let fields = r.state.iter().map(|(name, shape)| {
        let field = format_ident!("{}", name);
        let (ty, doc) = match shape {
            StateShape::Flag => (quote! { bool }, format!("`{name}`: fires its reminder when on.")),
            StateShape::List => (
                quote! { &'a [&'a str] },
                format!("`{name}`: fires its reminder when it has a non-empty item; its items reach the text only where the text says `{{{name}}}`."),
            ),
            StateShape::Budget => (
                quote! { #krate::input::ContextBand },
                format!("`{name}`: the band to announce this turn (`ContextBand::crossed`), or `ContextBand::None`."),
            ),
        };
        quote! { #[doc = #doc] pub #field: #ty }
    });
    let def = quote! {
        /// Everything [`emit`] reads: nothing else (no clock, no file system, no globals).
        #[derive(Clone, Copy, Debug, Default, #derive_eq Eq)]
        pub struct SessionState #lifetime { #(#fields,)* }

        #eq
    };
    (def, state_ty)
}

/// The doc of `marked`, naming the manifest's closing text and its escaped form.
fn marked_doc(closer: &str) -> String {
    let mut doc = " `text` wrapped in the reminder marker, so the model does not read it as the \
                   user speaking."
        .to_string();
    if let Some(first) = closer.chars().next().filter(|_| closer.chars().count() > 1) {
        let (head, tail) = closer.split_at(first.len_utf8());
        let escape = doctrine_core::__internals::marker::escape_for(closer);
        doc.push_str(&format!(
            " The text cannot end the marker early: wherever it holds the closing text \
             `{closer}` (in any ASCII case), `{escape}` is written after its first character \
             (`{head}{escape}{tail}`); [`marked_checked`] also says so."
        ));
    }
    doc
}

//! [`Doctrine`] → the items one `doctrine!` invocation defines.
//!
//! Generated code names the runtime through `::doctrine`, the facade crate users depend on.

mod builder;
mod claims;
mod facts;
mod layer;
mod prefix;
mod texts;
mod types;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::model::{Content, Doctrine, Layer};
use super::names::camel;

use builder::compose;
use texts::{layer_infos, texts};
use types::{choices, flags, knobs, overlay, roles};

pub fn expand(d: &Doctrine) -> TokenStream {
    let tracking = tracking(d);
    let roles = roles(d);
    let flags = flags(d);
    let knobs = knobs(d);
    let choices = choices(d);
    let facts = facts::facts(d);
    let overlay = overlay(d);
    let texts = texts(d);
    let layers = layer_infos(d);
    let compose = compose(d);
    let prefix = prefix::prefix(d);
    let claims = claims::safety_claims(d);
    quote! {
        #tracking
        #roles
        #flags
        #knobs
        #choices
        #facts
        #overlay
        #texts
        #layers
        #compose
        #prefix
        #claims
    }
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

/// Where a slot layer's value sits in the builder's state: `slots[i]` for text slots,
/// `instructions[j]` for instructions layers (arrays, so that filling one is O(1) code
/// whatever the number of slots).
pub(super) fn slot_place(d: &Doctrine, l: &Layer) -> TokenStream {
    let instructions = matches!(l.content, Content::Instructions);
    let index = d
        .layers
        .iter()
        .filter(|o| match o.content {
            Content::Instructions => instructions,
            Content::Slot { .. } => !instructions,
            _ => false,
        })
        .position(|o| o.name == l.name)
        .unwrap_or_default();
    if instructions {
        quote! { instructions[#index] }
    } else {
        quote! { slots[#index] }
    }
}

pub(super) fn choice_field(l: &Layer) -> Ident {
    format_ident!("choice_{}", l.name)
}

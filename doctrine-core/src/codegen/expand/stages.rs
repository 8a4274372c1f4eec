//! The staged builder: `compose(...)`, one stage per slot, a method per slot that moves to
//! the next stage, and `.finish()` callable once every required slot is filled.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::codegen::model::{Content, Doctrine, Layer};
use crate::codegen::names::camel;
use crate::codegen::plan::Indices;

/// The slot and instructions layers, in manifest order, with their place in the state.
fn slots<'d>(d: &'d Doctrine, ix: &Indices) -> Vec<(&'d Layer, TokenStream)> {
    d.layers
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match (ix.slot[i], ix.instructions[i]) {
            (Some(k), _) => Some((l, quote! { slots[#k] })),
            (_, Some(k)) => Some((l, quote! { instructions[#k] })),
            _ => None,
        })
        .collect()
}

fn required(l: &Layer) -> bool {
    matches!(l.content, Content::Slot { required: true, .. })
}

/// `mod stage`, `Compose`, `compose(...)` and the slot methods.
pub(super) fn stages(
    d: &Doctrine,
    ix: &Indices,
    (params, (pre, init)): (&[TokenStream], (TokenStream, TokenStream)),
) -> TokenStream {
    let pv = d.private();
    let slots = slots(d, ix);
    let names: Vec<Ident> = slots
        .iter()
        .map(|(l, _)| format_ident!("Need{}", camel(&l.name)))
        .chain(std::iter::once(format_ident!("Ready")))
        .collect();
    let req: Vec<bool> = slots.iter().map(|(l, _)| required(l)).collect();
    let docs = slots
        .iter()
        .map(|(l, _)| {
            let kind = match required(l) {
                true => "required",
                false => "optional: it and the optional slots after it may be skipped",
            };
            format!("The next slot is `.{}(...)` ({kind}).", l.name)
        })
        .chain(std::iter::once(
            "Every slot is filled: call `.finish()`.".to_string(),
        ));
    let first = &names[0];
    // `.finish()` may follow any stage with no required slot after it.
    let finishable = (0..=slots.len())
        .filter(|&k| !req[k..].contains(&true))
        .map(|k| &names[k]);
    let methods = slots
        .iter()
        .enumerate()
        .map(|(j, (l, place))| slot_method(d, j, l, place, &names, &req));
    let doc = compose_doc(d, &slots);
    quote! {
        /// The stages of [`Compose`]: each names the call that must come next, so a
        /// missing slot, or slots filled in an order the manifest no longer has, does
        /// not compile.
        pub mod stage {
            #(#[doc = #docs] pub struct #names;)*

            #(#[automatically_derived] impl #pv::Filled for #finishable {})*
        }

        /// A prompt being composed; see [`compose`].
        #[must_use = "call `.finish()` to compose the prompt"]
        pub struct Compose<'a, Stage> {
            state: __ComposeState<'a>,
            _stage: ::core::marker::PhantomData<Stage>,
        }

        #[doc = #doc]
        pub fn compose<'a>(#(#params),*) -> Compose<'a, stage::#first> {
            #pre
            Compose { state: #init, _stage: ::core::marker::PhantomData }
        }

        #(#methods)*
    }
}

fn compose_doc(d: &Doctrine, slots: &[(&Layer, TokenStream)]) -> String {
    let order = if slots.is_empty() {
        "This manifest has no slots.".to_string()
    } else {
        let list: Vec<String> = slots
            .iter()
            .map(|(l, _)| match l.content {
                Content::Slot { required: true, .. } => format!("`.{}(text)`", l.name),
                Content::Instructions => format!("`.{}(&[Instruction])`", l.name),
                _ => format!("`.{}(Option)`", l.name),
            })
            .collect();
        format!("Slots, in manifest order: {}.", list.join(", "))
    };
    format!(
        "Starts composing a prompt from `{}`: fill the slots in manifest order (optional ones may be skipped) and call `.finish()`; the other setters may come at any point. {order} [`LAYERS`] lists the layers.",
        d.manifest_display
    )
}

/// Slot `j`'s method: it may be called from stage `k` when only optional slots lie
/// between (at most `MAX_SKIPPED_SLOTS` stages back, so the impls stay linear in the number of
/// slots). Each method moves the whole state and sets one element, so the code grows
/// linearly too.
fn slot_method(
    d: &Doctrine,
    j: usize,
    l: &Layer,
    place: &TokenStream,
    names: &[Ident],
    req: &[bool],
) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let next = &names[j + 1];
    let from = (0..=j)
        .rev()
        .take(crate::__private::MAX_SKIPPED_SLOTS)
        .take_while(|&k| k == j || !req[k])
        .map(|k| &names[k]);
    let method = format_ident!("{}", l.name);
    // A value that is empty (after trimming, where the layer trims) is not given.
    let trim = matches!(l.content, Content::Slot { trim: true, .. });
    let (param, value, what) = if matches!(l.content, Content::Instructions) {
        (
            quote! { value: &'a [#krate::Instruction<'a>] },
            quote! { value },
            format!("Fills instructions layer `{}`: rendered in ascending authority, each after a line naming its source and scope; an empty slice (or skipping it) leaves the layer out.", l.name),
        )
    } else if req[j] {
        (
            quote! { value: &'a str },
            quote! { #pv::given(::core::option::Option::Some(value), #trim) },
            format!("Fills required slot `{}`.", l.name),
        )
    } else {
        (
            quote! { value: impl ::core::convert::Into<::core::option::Option<&'a str>> },
            quote! { #pv::given(::core::convert::Into::into(value), #trim) },
            format!("Fills optional slot `{}`; `None`, `Some(\"\")` or skipping it leaves the layer out.", l.name),
        )
    };
    // The order is listed once, in `compose`'s docs: listed in every slot's, it made the
    // generated code grow with the square of the slot count.
    let doc = format!(
        "{what} Slot {} of {}: slots are filled in manifest order, optional ones may be skipped; [`compose`] lists them.",
        j + 1,
        req.len()
    );
    quote! {
        #(impl #pv::Slot<#j> for stage::#from {})*

        // The bound sits on the method, not the impl, so that calling it at the wrong
        // stage reports the bound's own message rather than a missing method.
        impl<'a, Stage> Compose<'a, Stage> {
            #[doc = #doc]
            pub fn #method(self, #param) -> Compose<'a, stage::#next>
            where
                Stage: #pv::Slot<#j>,
            {
                let mut state = self.state;
                state.#place = #value;
                Compose { state, _stage: ::core::marker::PhantomData }
            }
        }
    }
}

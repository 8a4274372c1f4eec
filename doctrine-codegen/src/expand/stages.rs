//! The staged builder: `compose(...)`, one stage per slot, a method per slot that moves to
//! the next stage, and `.finish()` callable once every required slot is filled.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::model::{Content, Doctrine, Layer};
use crate::names::camel;
use crate::plan::Indices;

/// The slot and instructions layers, in manifest order, with their index among their kind.
fn slots<'d>(d: &'d Doctrine, ix: &Indices) -> Vec<(&'d Layer, usize)> {
    d.layers
        .iter()
        .enumerate()
        .filter_map(|(i, l)| ix.slot[i].or(ix.instructions[i]).map(|k| (l, k)))
        .collect()
}

fn required(l: &Layer) -> bool {
    matches!(l.content, Content::Slot { required: true, .. })
}

/// `mod stage`, `Compose`, `compose(...)` and the slot methods; and for the hidden module,
/// what every slot method calls.
pub(super) fn stages(
    d: &Doctrine,
    ix: &Indices,
    (params, (pre, init)): (&[TokenStream], (TokenStream, TokenStream)),
) -> (TokenStream, TokenStream) {
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
    let methods = (!slots.is_empty()).then(|| {
        let methods = slots
            .iter()
            .enumerate()
            .map(|(j, (l, k))| slot_method(d, j, l, *k, &names, &req));
        quote! {
            // One block for every slot: the bound of each sits on its method.
            impl<'a, Stage> Compose<'a, Stage> {
                #(#methods)*
            }
        }
    });
    let skips = skips(d, &names, &req);
    let doc = compose_doc(d, &slots);
    let public = quote! {
        /// The stages of [`Compose`]: each names the call that must come next, so a
        /// missing slot, or slots filled in an order the manifest no longer has, does
        /// not compile.
        pub mod stage {
            #(#[doc = #docs] pub struct #names;)*

            #(#[automatically_derived] impl #pv::Filled for #finishable {})*
            #skips
        }

        /// A prompt being composed; see [`compose`].
        #[must_use = "call `.finish()` to compose the prompt"]
        pub struct Compose<'a, Stage> {
            state: __doctrine::State<'a>,
            _stage: ::core::marker::PhantomData<Stage>,
        }

        #[doc = #doc]
        pub fn compose<'a>(#(#params),*) -> Compose<'a, stage::#first> {
            #pre
            Compose { state: #init, _stage: ::core::marker::PhantomData }
        }

        #methods
    };
    (public, setters(d))
}

/// What skipping each stage's slot reaches, for the runtime's `Slot` impls: the next stage
/// if the slot is optional, else none. Without slots, nothing.
fn skips(d: &Doctrine, names: &[Ident], req: &[bool]) -> TokenStream {
    if req.is_empty() {
        return TokenStream::new();
    }
    let pv = d.private();
    let skips = (0..names.len()).map(|j| match req.get(j) {
        Some(false) => {
            let next = &names[j + 1];
            quote! { #next }
        }
        _ => quote! { #pv::Blocked },
    });
    quote! { #(#[automatically_derived] impl #pv::Stage for #names { type Skip = #skips; })* }
}

fn compose_doc(d: &Doctrine, slots: &[(&Layer, usize)]) -> String {
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

/// Slot `j`'s method, `k`th of its kind: it may be called from any stage from which only
/// optional slots lead to it (at most `MAX_SKIPPED_SLOTS` back), which the runtime's `Slot`
/// impls decide from the stages' `Stage::Skip` chain. Its body is one call, so the code grows
/// linearly with the slots, and by little.
fn slot_method(
    d: &Doctrine,
    j: usize,
    l: &Layer,
    k: usize,
    names: &[Ident],
    req: &[bool],
) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let (this, next) = (&names[j], &names[j + 1]);
    let method = format_ident!("{}", l.name);
    // A value that is empty (after trimming, where the layer trims) is not given.
    let trim = match l.content {
        Content::Slot { trim, .. } => format_ident!("{trim:?}"),
        _ => format_ident!("No"),
    };
    let trim = quote! { #pv::Trim::#trim };
    let (param, body, what) = if matches!(l.content, Content::Instructions) {
        (
            quote! { value: &'a [#krate::instructions::Instruction<'a>] },
            quote! { __doctrine::instructions(self, #k, value) },
            format!("Fills instructions layer `{}`: rendered in ascending authority, each after a line naming its source and scope; an empty slice (or skipping it) leaves the layer out.", l.name),
        )
    } else if req[j] {
        (
            quote! { value: &'a str },
            quote! { __doctrine::slot(self, #k, ::core::option::Option::Some(value), #trim) },
            format!("Fills required slot `{}`.", l.name),
        )
    } else {
        (
            quote! { value: impl ::core::convert::Into<::core::option::Option<&'a str>> },
            quote! { __doctrine::slot(self, #k, ::core::convert::Into::into(value), #trim) },
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
    // The bound sits on the method, not the impl, so that calling it at the wrong stage
    // reports the bound's own message rather than a missing method. `__Skipped` (how many
    // optional slots the call skips) is inferred.
    quote! {
        #[doc = #doc]
        pub fn #method<__Skipped>(self, #param) -> Compose<'a, stage::#next>
        where
            Stage: #pv::Slot<stage::#this, __Skipped>,
        {
            #body
        }
    }
}

/// What every slot method calls, in the hidden module: the value stored, and the builder
/// moved to stage `N`.
fn setters(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let uses = super::uses::Uses::new(d);
    let slot = (uses.slots > 0).then(|| {
        quote! {
            pub(super) fn slot<'a, S, N>(c: super::Compose<'a, S>, k: usize, value: ::core::option::Option<&'a str>, trim: #pv::Trim) -> super::Compose<'a, N> {
                let mut state = c.state;
                state.slots[k] = #pv::given(value, trim);
                super::Compose { state, _stage: ::core::marker::PhantomData }
            }
        }
    });
    let instructions = (uses.instructions > 0).then(|| {
        quote! {
            pub(super) fn instructions<'a, S, N>(c: super::Compose<'a, S>, k: usize, value: &'a [#krate::instructions::Instruction<'a>]) -> super::Compose<'a, N> {
                let mut state = c.state;
                state.instructions[k] = value;
                super::Compose { state, _stage: ::core::marker::PhantomData }
            }
        }
    });
    quote! { #slot #instructions }
}

//! `PLAN`: the manifest's composition as data, one `LayerPlan` per layer, which the
//! runtime's `resolve` interprets for each composition. The values are built once, from
//! the model, by `codegen::plan::build`, and printed through the runtime's `Emit`, which
//! each plan type derives where it is declared: nothing here mirrors a field. What this
//! file adds is the names: a shipped text and its file are written as the constants of
//! `text` and `sources` that hold them.

use std::any::TypeId;
use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::Doctrine;
use crate::plan::Plan;
use doctrine_core::__internals::emit::{Emit, Out};
use doctrine_core::__internals::part::{Seg, Trim};
use doctrine_core::introspect::EmbeddedFile;

/// `static PLAN` and `GUARD`, for the hidden module (which imports the runtime's plan types,
/// so each layer reads as what it is rather than as paths), and `LAYERS`, the public table
/// of the layers' descriptions.
pub(super) fn plan(d: &Doctrine, plan: &Plan) -> (TokenStream, TokenStream) {
    let (krate, pv) = (d.krate(), d.private());
    let n = plan.layers.len();
    let names = names(d, plan);
    let layers = plan.layers.iter().map(|l| expression(l, &names));
    let infos = (0..n).map(|i| quote! { &__doctrine::PLAN[#i].info });
    let tags = plan.guard.tags;
    // The facts' names, as the generated `FACT_NAMES` holds them.
    let facts = match plan.guard.facts.is_empty() {
        true => quote! { &[] },
        false => quote! { &super::FACT_NAMES },
    };
    let unguarded = (!plan.guard.is_on()).then(|| quote! { .unguarded() });
    let joined = d.joins_per_layer().then(|| quote! { .joined() });
    let loops = d.loops();
    let looping = (!loops.is_empty()).then(|| {
        let (from, names) = (d.loop_base(), loops.iter().map(|(f, _)| &d.facts[*f].name));
        quote! { .looping(#from, &[#(#names),*]) }
    });
    let files: Vec<&str> = d
        .overlay_templates()
        .map(|(_, o)| o.file.as_str())
        .collect();
    let lines = d.join_lines();
    let guarding = (!lines.is_empty()).then(|| quote! { .guarding_lines(&[#(#lines),*]) });
    let templating = (!files.is_empty()).then(|| {
        let from = d.template_base();
        quote! { .templating(#from, &[#(#files),*]) }
    });
    let doc = format!(
        "Every layer of `{}`, in composition order:\n\n{}",
        d.manifest_display,
        super::table::layer_table(d)
    );
    let templates = super::overlay::template_specs(d);
    let hidden = quote! {
        #templates
        /// The manifest's composition, as data.
        pub(super) static PLAN: [LayerPlan; #n] = [#(#layers),*];

        /// What run-time text may not write: the section tags, folded; the facts.
        pub(super) static GUARD: Guard = Guard::new(&[#(#tags),*], #facts).folding(#pv::fold) #joined #guarding #looping #templating #unguarded;
    };
    let public = quote! {
        #[doc = #doc]
        pub static LAYERS: [&#krate::introspect::LayerInfo; #n] = [#(#infos),*];
    };
    (public, hidden)
}

/// The hidden module's own imports: every type `Emit` writes by name, `None` and `Some`,
/// and the modules of texts.
pub(super) fn imports(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    // Only where layers name one, so other manifests' code is as it was.
    let messages = d
        .has_messages()
        .then(|| quote! { use #krate::cache::MessageInfo; });
    let wraps = d.layers.iter().any(|l| l.info.wrap.is_some());
    let wrap = wraps.then(|| quote! { use #krate::introspect::Wrap; });
    let container =
        (wraps || d.has_messages()).then(|| quote! { use #krate::introspect::Container; });
    let header = d
        .layers
        .iter()
        .any(|l| l.header.is_some())
        .then(|| quote! { use #krate::introspect::Header; });
    let trim = d
        .layers
        .iter()
        .any(|l| d.is_template(l) && d.trims_rendered(l) != Trim::No)
        .then(|| quote! { use #pv::Trim; });
    quote! {
        use ::core::option::Option::{None, Some};
        use super::{sources, text};
        use #pv::{
            ContentPlan, Cond, Gate, Guard, LayerPlan, OverlayPlan, Seg, Shipped, ShippedText,
            SuffixPlan, Test,
        };
        use #krate::introspect::{LayerInfo, Origin, Provenance, EmbeddedFile, Skip, Stability, Title};
        use #krate::instructions::{LinePiece, Style};
        #messages
        #wrap
        #container
        #header
        #trim
    }
}

/// What a value is written as when a constant of generated code holds it, by its type,
/// address and size (the plan interns by value: see `Out::named`).
type Names = HashMap<(TypeId, usize, usize), String>;

/// Each model text's constant (`text::X`: a `&str`, or a template's segments) and its
/// file's (`sources::X`).
fn names(d: &Doctrine, plan: &Plan) -> Names {
    let mut names = Names::new();
    let mut name = |ty, at, size, code: String| {
        // No bytes, no address of its own: every empty value would meet this name.
        if size > 0 {
            names.entry((ty, at, size)).or_insert(code);
        }
    };
    for (i, t) in d.texts.iter().enumerate() {
        let c = &t.const_name;
        match plan.segments[i] {
            Some(segs) => {
                let at = segs.as_ptr() as usize;
                let ty = TypeId::of::<[Seg]>();
                name(ty, at, std::mem::size_of_val(segs), format!("&text::{c}"));
            }
            None => {
                let body = crate::plan::interned(&t.body);
                let at = body.as_ptr() as usize;
                name(TypeId::of::<str>(), at, body.len(), format!("text::{c}"));
            }
        }
        if let Some(src) = plan.sources[i] {
            let (at, size) = (
                src as *const EmbeddedFile as usize,
                size_of::<EmbeddedFile>(),
            );
            name(
                TypeId::of::<EmbeddedFile>(),
                at,
                size,
                format!("&sources::{c}"),
            );
        }
    }
    names
}

/// `value` as the expression that builds it.
fn expression(value: &dyn Emit, names: &Names) -> TokenStream {
    let mut out = Writer {
        code: String::new(),
        names,
    };
    value.emit(&mut out);
    // `Emit` writes balanced Rust; should a type's impl not, the user sees one error.
    out.code.parse().unwrap_or_else(|_| {
        quote! { ::core::compile_error!("doctrine: the plan did not print as Rust (a bug)") }
    })
}

/// Rust source for the tokens of one expression.
struct Writer<'a> {
    code: String,
    names: &'a Names,
}

impl Out for Writer<'_> {
    fn code(&mut self, code: &str) {
        self.code.push_str(code);
    }

    fn str(&mut self, s: &str) {
        self.code.push_str(&super::lit(s).to_string());
    }

    fn named(&mut self, ty: TypeId, at: usize, len: usize) -> bool {
        let Some(name) = self.names.get(&(ty, at, len)) else {
            return false;
        };
        self.code.push_str(name);
        true
    }
}

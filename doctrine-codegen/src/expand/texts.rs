//! The embedded texts (`text::*`), their sources (`sources::*`) and the layer table. A
//! template's segments and a file's provenance are the plan's (`codegen::plan`), printed.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::lit;
use crate::model::Doctrine;
use crate::plan::Plan;
use doctrine_core::__internals::part::{Check, Seg};

pub(super) fn texts(d: &Doctrine, plan: &Plan) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let consts = d.texts.iter().zip(&plan.segments).map(|(t, segments)| {
        let name = format_ident!("{}", t.const_name);
        let doc = match &t.file {
            Some(f) => format!("Layer `{}`, from `{}`.", t.layer, f.display),
            None => format!("Layer `{}`, inline in `{}`.", t.layer, d.manifest_display),
        };
        match segments {
            None => {
                let body = lit(&t.body);
                quote! { #[doc = #doc] pub const #name: &str = #body; }
            }
            Some(segments) => {
                let n = segments.len();
                let segs = segments.iter().map(|seg| match *seg {
                    Seg::Lit(s) => {
                        let s = lit(s);
                        quote! { #pv::Seg::Lit(#s) }
                    }
                    Seg::Value(i) => quote! { #pv::Seg::Value(#i) },
                    Seg::Escaped(i, e) => {
                        let e = super::finish::escaping(&pv, e);
                        quote! { #pv::Seg::Escaped(#i, #e) }
                    }
                    Seg::If(i, negated, len) => quote! { #pv::Seg::If(#i, #negated, #len) },
                    Seg::Count(i, many, negated, len) => {
                        quote! { #pv::Seg::Count(#i, #many, #negated, #len) }
                    }
                    Seg::When(checks, len) => {
                        let checks = checks.iter().map(|c| match *c {
                            Check::Given(i) => quote! { #pv::Check::Given(#i) },
                            Check::Count(i, many) => quote! { #pv::Check::Count(#i, #many) },
                            Check::Is(i, t) => {
                                let t = lit(t);
                                quote! { #pv::Check::Is(#i, #t) }
                            }
                            Check::Has(i, t) => {
                                let t = lit(t);
                                quote! { #pv::Check::Has(#i, #t) }
                            }
                            Check::Not => quote! { #pv::Check::Not },
                            Check::And => quote! { #pv::Check::And },
                            Check::Or => quote! { #pv::Check::Or },
                        });
                        quote! { #pv::Seg::When(&[#(#checks),*], #len) }
                    }
                });
                let doc =
                    format!("{doc} With placeholders: literal text and the values they name.");
                quote! { #[doc = #doc] pub static #name: [#pv::Seg; #n] = [#(#segs),*]; }
            }
        }
    });
    let sources = d.texts.iter().zip(&plan.sources).filter_map(|(t, source)| {
        let source = source.as_ref()?;
        let name = format_ident!("{}", t.const_name);
        let path = lit(source.path);
        // Only the provenance the file's frontmatter gives.
        let p = &source.provenance;
        let provenance = [
            (p.source, "with_source"),
            (p.version, "with_version"),
            (p.licence, "with_licence"),
        ];
        let provenance = provenance.into_iter().filter_map(|(value, method)| {
            let (value, method) = (lit(value?), format_ident!("{}", method));
            Some(quote! { .#method(#value) })
        });
        let doc = format!(
            "Where `text::{}` comes from, with its frontmatter provenance.",
            t.const_name
        );
        Some(quote! {
            #[doc = #doc]
            pub static #name: EmbeddedFile = EmbeddedFile::at(#path) #(#provenance)*;
        })
    });
    let sources: Vec<TokenStream> = sources.collect();
    let import = (!sources.is_empty()).then(|| quote! { use #krate::introspect::EmbeddedFile; });
    quote! {
        /// Every embedded text, normalised at compile time. Each file appears once.
        pub mod text { #(#consts)* }
        /// The file behind each embedded text, with its frontmatter provenance.
        pub mod sources {
            #import
            #(#sources)*
        }
    }
}

/// `SEPARATOR`, `LAYER_COUNT` and, where a layer is titled, the formulations.
pub(super) fn layer_infos(d: &Doctrine) -> TokenStream {
    let (krate, pv) = (d.krate(), d.private());
    let n = d.layers.len();
    let sep = lit(&d.separator);
    let consts = quote! {
        /// The separator written between non-empty layers.
        pub const SEPARATOR: &str = #sep;
        /// How many layers the manifest declares.
        pub const LAYER_COUNT: usize = #n;
    };
    // Formulations delimit titled layers, and nothing else: without one, the table is
    // there only when the manifest declares it.
    let table = &d.formulation;
    let declared =
        !table.families.is_empty() || table.default != doctrine_core::input::Formulation::Markdown;
    if !d.layers.iter().any(|l| l.title.is_some()) && !declared {
        return consts;
    }
    let default = formulation(&krate, table.default);
    let prefixes = table.families.iter().map(|(p, _)| lit(p));
    let forms = table.families.iter().map(|(_, f)| formulation(&krate, *f));
    let exact = table.exact;
    let how = if exact {
        "the manifest's family of that exact name"
    } else {
        "the manifest's longest family that is a prefix of it"
    };
    let doc = format!(
        "The formulation for a model family (trimmed, ASCII case ignored): {how} in `[formulation] families`, else `DEFAULT_FORMULATION`."
    );
    quote! {
        #consts
        /// The formulation for families the manifest does not name.
        pub const DEFAULT_FORMULATION: #krate::input::Formulation = #default;

        #[doc = #doc]
        pub fn formulation_for(family: &str) -> #krate::input::Formulation {
            #pv::for_family(family, &[#((#prefixes, #forms)),*], DEFAULT_FORMULATION, #exact)
        }
    }
}

/// `Formulation::<variant>`: a unit variant's `Debug` is its name.
pub(super) fn formulation(
    krate: &TokenStream,
    f: doctrine_core::input::Formulation,
) -> TokenStream {
    let variant = quote::format_ident!("{f:?}");
    quote! { #krate::input::Formulation::#variant }
}

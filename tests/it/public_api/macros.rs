//! The crates' own item macros, expanded as far as the listing needs: `rebuilt!` (doctrine-
//! core's types that generated code rebuilds) and `index!` (the generator's id types). Any
//! other item macro in a public module stops the listing (`listing.rs`), so a new one is
//! taught here rather than left out.

use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};

/// The items an item macro invocation defines, when it is one of the crates' own.
pub fn expand(mac: &syn::ItemMacro) -> Option<Vec<syn::Item>> {
    let name = mac.mac.path.get_ident()?.to_string();
    match name.as_str() {
        "rebuilt" => {
            let mut tokens: Vec<TokenTree> = mac.mac.tokens.clone().into_iter().collect();
            // `@new` says how the type is rebuilt; it is no part of the type.
            if matches!(tokens.first(), Some(TokenTree::Punct(p)) if p.as_char() == '@') {
                tokens.drain(..2);
            }
            let body: TokenStream = tokens.into_iter().map(unname_tuple_fields).collect();
            Some(vec![
                syn::parse2(body).unwrap_or_else(|e| panic!("`rebuilt!` body: {e}"))
            ])
        }
        "index" => {
            // `/// doc  Name => Item;` per id: a `pub struct Name(pub usize)`.
            let mut items = Vec::new();
            let tokens: Vec<TokenTree> = mac.mac.tokens.clone().into_iter().collect();
            for (at, token) in tokens.iter().enumerate() {
                let is_arrow = matches!(token, TokenTree::Punct(p) if p.as_char() == '=' && p.spacing() == Spacing::Joint);
                if let (true, Some(TokenTree::Ident(id))) =
                    (is_arrow, at.checked_sub(1).map(|b| &tokens[b]))
                {
                    items.push(syn::parse_quote! {
                        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
                        pub struct #id(pub usize);
                    });
                }
            }
            Some(items)
        }
        _ => None,
    }
}

/// `Variant(text: &'static str)`, `rebuilt!`'s named tuple fields, as Rust writes them.
fn unname_tuple_fields(token: TokenTree) -> TokenTree {
    let TokenTree::Group(group) = token else {
        return token;
    };
    let inner: Vec<TokenTree> = group
        .stream()
        .into_iter()
        .map(unname_tuple_fields)
        .collect();
    let mut kept = Vec::new();
    let mut at = 0;
    while at < inner.len() {
        let starts_part =
            at == 0 || matches!(&inner[at - 1], TokenTree::Punct(p) if p.as_char() == ',');
        let named = group.delimiter() == Delimiter::Parenthesis
            && starts_part
            && matches!(inner.get(at), Some(TokenTree::Ident(_)))
            && matches!(inner.get(at + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Alone);
        if named {
            at += 2;
            continue;
        }
        kept.push(inner[at].clone());
        at += 1;
    }
    let mut rebuilt = Group::new(group.delimiter(), kept.into_iter().collect());
    rebuilt.set_span(group.span());
    TokenTree::Group(rebuilt)
}

//! The `doctrine!` macro. Thin by design: it finds the invoking file's directory and the
//! crate directory, then hands over to `doctrine_codegen`, where everything can be
//! unit-tested and benchmarked without a compiler in the loop.

use std::path::{Component, Path, PathBuf};

use proc_macro::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::{parse_macro_input, LitStr, Token};

/// Compiles a layer manifest, and the markdown it names, into a module of typed Rust.
///
/// `doctrine!("doctrine.toml")` takes a path relative to the file that invokes it, like
/// `include_str!`; paths inside the manifest are relative to the manifest, and every file
/// must stay inside the crate. Invoke it inside a module of its own:
/// `mod prompt { doctrine::doctrine!("doctrine.toml"); }`.
///
/// `doctrine!("doctrine.toml", crate = "::my_runtime")` makes the generated code name the
/// runtime by another absolute path (`::x` or `crate::x`), for a crate that re-exports
/// `doctrine` under its own name.
#[proc_macro]
pub fn doctrine(input: TokenStream) -> TokenStream {
    let Input {
        manifest: lit,
        krate,
    } = parse_macro_input!(input as Input);
    let (base_dir, crate_dir) = dirs(&lit);
    let mut request = doctrine_codegen::Request::new(lit.value(), base_dir, crate_dir);
    if let Some(krate) = krate {
        request.krate = krate;
    }
    match doctrine_codegen::generate(&request) {
        Ok(tokens) => tokens.into(),
        Err(diagnostics) => {
            // Beside the errors, the module as far as the manifest could be read: code that
            // names it still resolves, so each mistake is one error and an editor keeps
            // completing.
            let mut out = errors(&lit, &diagnostics);
            out.extend([TokenStream::from(doctrine_codegen::skeleton(&request))]);
            out
        }
    }
}

/// One `compile_error!` per diagnostic, on the manifest's string literal.
fn errors(lit: &LitStr, diagnostics: &doctrine_codegen::Diagnostics) -> TokenStream {
    let mut errors = diagnostics
        .located()
        .map(|d| syn::Error::new(lit.span(), d.to_string()));
    let Some(mut all) = errors.next() else {
        let msg = format!(
            "doctrine: `{}` failed without a diagnostic; please report this",
            lit.value()
        );
        return syn::Error::new(lit.span(), msg).to_compile_error().into();
    };
    all.extend(errors);
    all.to_compile_error().into()
}

/// `"path"` or `"path", crate = "::path::to::doctrine"`.
struct Input {
    manifest: LitStr,
    /// Checked to be a path; kept as written.
    krate: Option<String>,
}

impl Parse for Input {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let manifest: LitStr = input.parse()?;
        let mut krate = None;
        if input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            input.parse::<Token![crate]>()?;
            input.parse::<Token![=]>()?;
            let path: LitStr = input.parse()?;
            doctrine_codegen::crate_path(&path.value()).map_err(|e| {
                syn::Error::new(
                    path.span(),
                    format!(
                        "`crate = \"{}\"` is not a path ({e}); write e.g. `crate = \"::doctrine\"`",
                        path.value()
                    ),
                )
            })?;
            krate = Some(path.value());
            input.parse::<Option<Token![,]>>()?;
        }
        if !input.is_empty() {
            return Err(input.error(
                "expected `doctrine!(\"path/to/doctrine.toml\")` or `doctrine!(\"path\", crate = \"::doctrine\")`",
            ));
        }
        Ok(Input { manifest, krate })
    }
}

/// The invoking file's directory and the crate directory: the nearest directory above
/// the invoking file that holds a `Cargo.toml` (under trybuild this is the real crate,
/// not trybuild's scratch project), else `CARGO_MANIFEST_DIR`.
fn dirs(lit: &LitStr) -> (PathBuf, PathBuf) {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let file = lit.span().unwrap().local_file().map(|f| {
        if f.is_absolute() {
            without_dot_dot(&f)
        } else {
            without_dot_dot(&std::env::current_dir().unwrap_or_default().join(f))
        }
    });
    let Some(base) = file.as_deref().and_then(Path::parent) else {
        return (manifest_dir.clone(), manifest_dir);
    };
    let crate_dir = base
        .ancestors()
        .find(|d| d.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
        .unwrap_or(manifest_dir);
    (base.to_path_buf(), crate_dir)
}

/// `a/b/../c` as `a/c`. Cargo names a target's file as its manifest does: the examples'
/// package (`examples/package/Cargo.toml`) has `path = "../crew/main.rs"`, and searching
/// upward from `examples/package/../crew` would pass through `examples/package` and take
/// it for the crate directory, though the file is not under it.
fn without_dot_dot(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match (c, out.components().next_back()) {
            (Component::CurDir, _) => {}
            (Component::ParentDir, Some(Component::Normal(_))) => {
                out.pop();
            }
            // `/..` is `/`.
            (Component::ParentDir, Some(Component::RootDir)) => {}
            (c, _) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::without_dot_dot;
    use std::path::Path;

    #[test]
    fn a_dot_dot_takes_off_the_directory_before_it() {
        let cases = [
            (
                "/r/examples/package/../crew/main.rs",
                "/r/examples/crew/main.rs",
            ),
            ("/r/./a/b/../../c.rs", "/r/c.rs"),
            ("/r/a.rs", "/r/a.rs"),
            ("/../a.rs", "/a.rs"),
        ];
        for (path, plain) in cases {
            assert_eq!(without_dot_dot(Path::new(path)), Path::new(plain), "{path}");
        }
    }
}

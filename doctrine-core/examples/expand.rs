//! Prints the code `doctrine!` would generate for a manifest, pretty-printed:
//! `cargo run -p doctrine-core --example expand -- path/to/doctrine.toml`. The manifest may
//! be anywhere: its crate directory is the nearest directory above it that holds a
//! `Cargo.toml`, as for the macro. Exits 1 with the diagnostics when the manifest has
//! errors, 2 on a usage error.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(arg) = std::env::args().nth(1) else {
        eprintln!("usage: expand path/to/doctrine.toml");
        return ExitCode::from(2);
    };
    let manifest = match Path::new(&arg).canonicalize() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{arg}: {e}");
            return ExitCode::from(2);
        }
    };
    let dir = manifest.parent().unwrap_or(Path::new("/"));
    let crate_dir = dir
        .ancestors()
        .find(|d| d.join("Cargo.toml").is_file())
        .unwrap_or(dir);
    let name = manifest.file_name().unwrap_or_default().to_string_lossy();
    let req = doctrine_core::codegen::Request::new(name, dir, crate_dir);
    match doctrine_core::codegen::generate(&req) {
        Ok(tokens) => match syn::parse2(tokens) {
            Ok(file) => {
                // A closed pipe (`| head`) ends the output, not the program with a panic.
                let _ = writeln!(std::io::stdout(), "{}", prettyplease::unparse(&file));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("the generated code does not parse (a bug): {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

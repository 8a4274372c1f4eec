//! Prints the code `doctrine!` would generate for a manifest, pretty-printed:
//! `cargo run -p doctrine-core --example expand -- path/to/doctrine.toml` (paths relative to
//! the current directory, which is taken as the crate directory).

fn main() {
    let req = doctrine_core::codegen::Request::new(
        std::env::args().nth(1).unwrap(),
        std::env::current_dir().unwrap(),
        std::env::current_dir().unwrap(),
    );
    match doctrine_core::codegen::generate(&req) {
        Ok(t) => println!("{}", prettyplease::unparse(&syn::parse2(t).unwrap())),
        Err(e) => eprintln!("{e}"),
    }
}

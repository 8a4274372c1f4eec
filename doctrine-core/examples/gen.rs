fn main() {
    let req = doctrine_core::codegen::Request {
        manifest: std::env::args().nth(1).unwrap(),
        base_dir: std::env::current_dir().unwrap(),
        crate_dir: std::env::current_dir().unwrap(),
    };
    match doctrine_core::codegen::generate(&req) {
        Ok(t) => println!("{}", prettyplease::unparse(&syn::parse2(t).unwrap())),
        Err(e) => eprintln!("{e}"),
    }
}

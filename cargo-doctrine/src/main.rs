//! `cargo doctrine`: the tool is the library's `main` (`lib.rs` says why it is a library).

fn main() -> std::process::ExitCode {
    cargo_doctrine::main()
}

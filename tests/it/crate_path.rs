//! `doctrine!("…", crate = "…")`: generated code names the runtime by the given path, so a
//! crate that re-exports doctrine under its own name can use the macro without a
//! `doctrine` dependency of its own in scope.

/// A re-export under another name, as a wrapper crate would provide.
mod runtime {
    pub use doctrine::*;
}

mod renamed {
    doctrine::doctrine!(
        "../../examples/quickstart/doctrine.toml",
        crate = "crate::crate_path::runtime"
    );
}

mod plain {
    doctrine::doctrine!("../../examples/quickstart/doctrine.toml");
}

#[test]
fn a_renamed_runtime_composes_the_same_prompt() {
    let renamed = renamed::compose(renamed::Role::Developer).finish();
    let plain = plain::compose(plain::Role::Developer).finish();
    assert_eq!(renamed.as_str(), plain.as_str());
    assert!(!renamed.as_str().is_empty());
}

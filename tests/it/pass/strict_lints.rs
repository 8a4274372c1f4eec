#![deny(warnings, missing_docs, unreachable_pub)]
//! The code generated for every example manifest passes a user's strictest lints: no
//! warning, every item documented, nothing `pub` that cannot be reached; under
//! `#[no_implicit_prelude]`; and beside items that shadow the prelude's names.

/// Crew.
pub mod crew {
    doctrine::doctrine!("../../../examples/crew/doctrine.toml");
}
/// Modes.
pub mod modes {
    doctrine::doctrine!("../../../examples/modes/doctrine.toml");
}
/// Overlay.
pub mod overlay {
    doctrine::doctrine!("../../../examples/overlay/doctrine.toml");
}
/// Spine.
pub mod spine {
    doctrine::doctrine!("../../../examples/spine/doctrine.toml");
}
/// Quickstart.
pub mod quickstart {
    doctrine::doctrine!("../../../examples/quickstart/doctrine.toml");
}
/// Agent: skills and reminders.
pub mod agent {
    doctrine::doctrine!("../../../examples/agent/doctrine.toml");
}
/// Extensions: a loop over typed items, escaped and sanitized values.
pub mod extensions {
    doctrine::doctrine!("../../../examples/extensions/doctrine.toml");
}
/// No prelude.
#[no_implicit_prelude]
pub mod bare {
    /// Crew.
    pub mod crew {
        ::doctrine::doctrine!("../../../examples/crew/doctrine.toml");
    }
    /// Modes.
    pub mod modes {
        ::doctrine::doctrine!("../../../examples/modes/doctrine.toml");
    }
    /// Overlay.
    pub mod overlay {
        ::doctrine::doctrine!("../../../examples/overlay/doctrine.toml");
    }
    /// Spine.
    pub mod spine {
        ::doctrine::doctrine!("../../../examples/spine/doctrine.toml");
    }
    /// Quickstart.
    pub mod quickstart {
        ::doctrine::doctrine!("../../../examples/quickstart/doctrine.toml");
    }
    /// Agent: skills and reminders.
    pub mod agent {
        ::doctrine::doctrine!("../../../examples/agent/doctrine.toml");
    }
    /// Extensions: a loop over typed items, escaped and sanitized values.
    pub mod extensions {
        ::doctrine::doctrine!("../../../examples/extensions/doctrine.toml");
    }
}
/// Shadowed prelude names (as in serde's generated-code tests).
pub mod shadowed {
    #![allow(dead_code, non_camel_case_types, unreachable_pub, missing_docs)]
    struct Option;
    struct Some;
    struct None;
    struct Ok;
    struct Err;
    struct Result;
    struct String;
    struct Vec;
    struct Box;
    mod core {}
    mod std {}
    /// Crew.
    pub mod crew {
        doctrine::doctrine!("../../../examples/crew/doctrine.toml");
    }
}

#[test]
fn composes() {
    let p = crew::compose(crew::Role::Qa, crew::Team::Backend, crew::Identity::Qa1)
        .ambient(None)
        .finish();
    let q = bare::crew::compose(
        bare::crew::Role::Qa,
        bare::crew::Team::Backend,
        bare::crew::Identity::Qa1,
    )
    .ambient(None)
    .finish();
    let r = shadowed::crew::compose(
        shadowed::crew::Role::Qa,
        shadowed::crew::Team::Backend,
        shadowed::crew::Identity::Qa1,
    )
    .ambient(None)
    .finish();
    assert_eq!(p.as_str(), q.as_str());
    assert_eq!(p.as_str(), r.as_str());
}

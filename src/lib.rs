//! Examples and cross-crate tests for `doctrine` live in this package (`examples/`,
//! `tests/`, `benches/`), so that the paths in their manifests stay inside one crate
//! directory.
//!
//! The runtime half can be used without the macro, e.g. to check how layers join:
//!
//! ```
//! use doctrine::{compose, Body, Formulation, LayerInfo, Origin, Part, Skip, Tier, NO_JOIN};
//!
//! static BASE: LayerInfo = LayerInfo { name: "base", tier: Tier::Stable, locked: false, title: None };
//! static ROLE: LayerInfo = LayerInfo { name: "role", tier: Tier::Stable, locked: false, title: None };
//! static NOW: LayerInfo = LayerInfo { name: "now", tier: Tier::Volatile, locked: false, title: None };
//!
//! let prompt = compose(
//!     "\n\n",
//!     Formulation::Markdown,
//!     &[],
//!     [
//!         Part { info: &BASE, origin: Origin::Inline, body: Body::Text("Be brief.", [NO_JOIN; 2]) },
//!         Part { info: &ROLE, origin: Origin::Unresolved, body: Body::Skip(Skip::NotInRole) },
//!         Part { info: &NOW, origin: Origin::Slot, body: Body::Text("Today is Monday.", [NO_JOIN; 2]) },
//!     ],
//! );
//! assert_eq!(prompt.as_str(), "Be brief.\n\nToday is Monday.");
//! assert_eq!(prompt.stable(), "Be brief.");
//! assert_eq!(prompt.volatile(), "Today is Monday.");
//! ```
//!
//! And the generated code, for the quickstart manifest:
//!
//! ```
//! mod prompt {
//!     doctrine::doctrine!("../examples/quickstart/doctrine.toml");
//! }
//! let p = prompt::compose(prompt::Role::Reviewer).finish();
//! assert!(p.as_str().starts_with("You are a careful engineer"));
//! assert_eq!(p.layer("role"), Some(prompt::text::ROLE_DEFAULT));
//! ```

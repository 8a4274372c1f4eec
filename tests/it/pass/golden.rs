// The golden files of tests/expand (what the macro generates for each example manifest)
// compile as they are, and compose what the macro's own output composes. Most of each
// file goes unused here, and rustc and clippy, which do not lint a macro's output, lint an
// included file's: the point here is that it builds. (`double_must_use`: the facts
// builders' `with_*` methods are `#[must_use]` and return a `#[must_use]` type.)
#![allow(dead_code, clippy::double_must_use)]

mod crew {
    include!("../../expand/crew.rs");
}
mod modes {
    include!("../../expand/modes.rs");
}
mod overlay {
    include!("../../expand/overlay.rs");
}
mod spine {
    include!("../../expand/spine.rs");
}
mod quickstart {
    include!("../../expand/quickstart.rs");
}
mod small {
    include!("../../expand/small.rs");
}
mod facts {
    include!("../../expand/facts.rs");
}
mod gates {
    include!("../../expand/gates.rs");
}
mod sections {
    include!("../../expand/sections.rs");
}
mod lists {
    include!("../../expand/lists.rs");
}
mod reminders {
    include!("../../expand/reminders.rs");
}
mod skills {
    include!("../../expand/skills.rs");
}
mod live {
    doctrine::doctrine!("../../../examples/crew/doctrine.toml");
}

#[test]
fn composes() {
    let golden = crew::compose(
        crew::Role::Developer,
        crew::Team::Backend,
        crew::Identity::BeDev1,
    )
    .flag(crew::Flag::Fable, true)
    .finish();
    let live = live::compose(
        live::Role::Developer,
        live::Team::Backend,
        live::Identity::BeDev1,
    )
    .flag(live::Flag::Fable, true)
    .finish();
    assert_eq!(golden.as_str(), live.as_str());
    assert!(
        quickstart::compose(quickstart::Role::Reviewer)
            .finish()
            .as_str()
            .len()
            > 10
    );
    let _ = (modes::LAYER_COUNT, overlay::LAYER_COUNT, spine::LAYER_COUNT);
    let _ = (small::LAYER_COUNT, facts::LAYER_COUNT);
}

//! Loops in the markdown (`{#list}…{/list}`): items with typed fields printed through a
//! layer's own item template, the standalone-tag rule inside the body, sort and cap kept,
//! wording by count, and every field still run-time text for the boundary guard.

mod l {
    doctrine::doctrine!("../fixtures/loops/doctrine.toml");
}

use l::{AgentFacts, ExtensionsItem, PlainFacts};

fn ext(
    name: &'static str,
    has_resources: bool,
    instructions: Option<&'static str>,
) -> ExtensionsItem<'static> {
    ExtensionsItem {
        name,
        has_resources,
        instructions,
    }
}

#[test]
fn a_loop_prints_each_item_through_its_body_sorted_with_no_blank_lines_from_tags() {
    let items = [
        ext("web", true, Some("Fetch pages.\nCite them.")),
        ext("db", false, None),
        ext("", false, None),
        ext("cal", false, Some("")),
    ];
    let p = l::compose(AgentFacts {
        extensions: &items,
        roots: &[],
    })
    .finish();
    assert_eq!(
        p.as_str(),
        "# Extensions\n\n## cal\n\n## db\n\n## web\nThis extension has resources.\nFetch pages.\nCite them.\
         \n---\nLoaded: cal db web"
    );
}

#[test]
fn a_capped_loop_says_what_it_left_out_where_the_next_item_would_be() {
    let items = [
        ext("zed", false, None),
        ext("web", true, None),
        ext("db", false, None),
        ext("cal", false, None),
    ];
    let p = l::compose(AgentFacts {
        extensions: &items,
        roots: &[],
    })
    .finish();
    assert_eq!(
        p.as_str(),
        "# Extensions\n\n## cal\n\n## db\n\n## web\nThis extension has resources.\n\n(and 1 more extensions)\
         \n---\nLoaded: cal db web (and 1 more extensions)"
    );
}

#[test]
fn a_plain_list_loops_with_its_item_and_words_by_its_count() {
    let one = l::compose(PlainFacts { roots: &["", "/a"] }).finish();
    assert_eq!(one.as_str(), "The writable root is:\n- `/a`\nAlso: /a.");
    let two = l::compose(PlainFacts {
        roots: &["/a", "/b"],
    })
    .finish();
    assert_eq!(
        two.as_str(),
        "The writable roots are:\n- `/a`\n- `/b`\nAlso: /a, /b."
    );
    let none = l::compose(PlainFacts { roots: &[""] }).finish();
    assert_eq!(none.as_str(), "");
}

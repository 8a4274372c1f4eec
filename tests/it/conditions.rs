//! Sections on conditions (`{?a or b}`, `{?a and not b}`, `{?mode = plan}`,
//! `{?tools has grep}`, grouped with parentheses), in braces and in mustache's double braces:
//! each prints exactly where its condition holds, over every combination of the inputs.

mod c {
    doctrine::doctrine!("../../doctrine/docs/examples/conditions/doctrine.toml");
}

use c::{Facts, Flag, Phase as Mode};

/// Every combination of the flags, the mode, the branch and the tools.
fn each_input(
    mut check: impl FnMut(bool, bool, Option<Mode>, Option<&'static str>, &[&'static str]),
) {
    let tools: [&[&str]; 4] = [&[], &["grep"], &["web search", "grep"], &["read"]];
    for rules in [false, true] {
        for user_rules in [false, true] {
            for mode in [None, Some(Mode::Plan), Some(Mode::Build)] {
                for branch in [None, Some("main")] {
                    for t in tools {
                        check(rules, user_rules, mode, branch, t);
                    }
                }
            }
        }
    }
}

#[test]
fn each_section_prints_exactly_where_its_condition_holds() {
    let mut seen = 0;
    each_input(|rules, user_rules, mode, branch, tools| {
        let p = c::compose(Facts {
            phase: mode,
            branch,
            tools,
            files: &[],
        })
        .flag(Flag::HasRules, rules)
        .flag(Flag::HasUserRules, user_rules)
        .finish();
        // The same conditions, said in Rust.
        let mut want = String::new();
        if rules || user_rules {
            want += "Read the rules files before you edit.\n";
        }
        if rules && !user_rules {
            want += "Only the project's rules apply.\n";
        }
        if mode == Some(Mode::Plan) {
            want += "Plan before you write code.\n";
        }
        if tools.contains(&"grep") {
            want += "Search with grep first.\n";
        }
        if let Some(b) = branch.filter(|_| mode == Some(Mode::Build) || tools.len() > 1) {
            want += &format!("Work on branch {b}.\n");
        }
        // `!branch or tools`: neither given.
        if branch.is_none() && tools.is_empty() {
            want += "No branch, no tools: answer from what you know.\n";
        }
        let rules_layer = want.trim_end_matches('\n').to_string();
        let mut want = String::new();
        if user_rules || tools.contains(&"web search") {
            want += "Cite where each rule or page came from.\n";
        }
        if !(mode == Some(Mode::Plan) || tools.is_empty()) {
            want += &format!("Tools: {}.\n", tools.join(", "));
        }
        let mustache_layer = want.trim_end_matches('\n').to_string();
        let case = format!("{rules} {user_rules} {mode:?} {branch:?} {tools:?}");
        assert_eq!(p.layer("rules").unwrap_or(""), rules_layer, "{case}");
        assert_eq!(p.layer("mustache").unwrap_or(""), mustache_layer, "{case}");
        seen += 1;
    });
    assert_eq!(seen, 2 * 2 * 3 * 2 * 4);
}

#[test]
fn a_condition_over_an_items_fields_prints_each_item_where_it_holds() {
    use c::FilesItem;
    let file = |path, lang, generated| FilesItem {
        path,
        lang,
        generated,
    };
    let files = [
        file("src/lib.rs", Some("Rust"), false),
        file("src/gen.rs", Some("Rust"), true),
        file("README.md", Some("Markdown"), false),
        file("build.rs", None, false),
        file("main.rs", Some("Rust"), false),
    ];
    let p = c::compose(Facts {
        phase: None,
        branch: None,
        tools: &[],
        files: &files,
    })
    .finish();
    // `lang = Rust and not generated`, said in Rust.
    let mut want = String::from("Review these files:\n");
    for f in &files {
        if f.lang == Some("Rust") && !f.generated {
            want += &format!("- {}\n", f.path);
        }
    }
    assert_eq!(p.layer("files").unwrap(), want.trim_end());
}

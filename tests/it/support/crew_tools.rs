//! The tools a harness would load for each role of the crew example (its `tools` list
//! fact), shared by the crew's tests.

/// The tool list for `role` (a crew role's name).
pub fn loaded_tools(role: &str) -> &'static [&'static str] {
    match role {
        "developer" => &["the repository", "the test runner", "the task board"],
        "architect" => &["the repository (read-only)", "the design-notes board"],
        "pm" => &["the task board", "the roadmap"],
        _ => &["the repository (read-only)", "the task board"],
    }
}

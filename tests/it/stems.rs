//! A `dir` layer's files become enum variants whatever their names; `FromStr` and
//! `Display` keep the file stem.

mod s {
    doctrine::doctrine!("../fixtures/stems/doctrine.toml");
}

use s::Person;

#[test]
fn every_stem_is_a_variant_and_parses_back() {
    let pairs = [
        (Person::Self_, "self", "Speak as yourself."),
        (Person::José, "josé", "Speak as José."),
        (Person::DevLead, "dev.lead", "Lead the developers."),
        (Person::V2ndDev, "2nd-dev", "Second developer."),
        (Person::BeDevOne, "be_dev_1", "One."),
        (Person::BeDev1, "be-dev-1", "Other one."),
    ];
    for (person, stem, text) in pairs {
        assert_eq!(person.to_string(), stem);
        assert_eq!(stem.parse::<Person>(), Ok(person));
        assert_eq!(s::compose(person).finish().as_str(), text);
    }
    assert_eq!(Person::ALL.len(), pairs.len());
}

mod pattern {
    doctrine::doctrine!("../fixtures/pattern/doctrine.toml");
}

#[test]
fn a_role_pattern_names_each_roles_file() {
    use pattern::{compose, Role};
    let text = |r| compose(r).finish().into_string();
    assert_eq!(text(Role::Developer), "Base.|Ship small changes.");
    assert_eq!(text(Role::Reviewer), "Base.|Check every claim.");
    assert_eq!(text(Role::Qa), "Base.|Check every claim.");
    // `missing = "empty"`: no file, no layer.
    assert_eq!(text(Role::Writer), "Base.");
}

//! `values` as a table: a fact or knob prints the text of its value, and with
//! `other = "verbatim"` free text passes through.

mod v {
    doctrine::doctrine!("../fixtures/value_texts.toml");
}

use v::{Facts, Mood, Pace};

fn voice(mood: Option<Mood>, personality: Option<&str>, pace: Pace) -> String {
    let knobs = v::Knobs { pace };
    v::compose(Facts { mood, personality })
        .knobs(knobs)
        .finish()
        .into_string()
}

#[test]
fn values_print_their_text() {
    assert_eq!(
        voice(Some(Mood::Terse), None, Pace::Calm),
        "Keep answers short. Take your time. / Pace: Take your time."
    );
    assert_eq!(
        voice(Some(Mood::Warm), Some("pirate"), Pace::Brisk),
        "Be friendly. Talk like a pirate. Move quickly. / Pace: Move quickly."
    );
    // Free text that is not a key passes through unchanged.
    assert_eq!(
        voice(None, Some("Answer in haiku."), Pace::Calm),
        " Answer in haiku. Take your time. / Pace: Take your time."
    );
    // The enum and `FromStr` still use the keys.
    assert_eq!(Mood::Warm.as_str(), "warm");
    assert_eq!("brisk".parse::<Pace>(), Ok(Pace::Brisk));
}

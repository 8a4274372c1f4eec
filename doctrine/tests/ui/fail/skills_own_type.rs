// Misuse: a type of the user's own named `Skills` given for the skill index. The error
// names the index's type by its public path, `doctrine::skills::Skills`.
mod d {
    doctrine::doctrine!("skills.toml");
}

struct Skills;

fn main() {
    let _ = d::compose(d::Facts { skills: &Skills }).finish();
}

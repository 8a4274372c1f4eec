// `when = [["cwd", "local"], ["cwd", "remote"]]` on a layer that prints the optional fact
// `{cwd}`: every alternative requires it, so the manifest compiles, and the layer prints
// only when the fact is given and one alternative holds.
mod d {
    doctrine::doctrine!("fact_alternatives.toml");
}

fn compose(cwd: Option<&str>, local: bool, remote: bool) -> String {
    d::compose(d::Facts { cwd })
        .flag(d::Flag::Local, local)
        .flag(d::Flag::Remote, remote)
        .finish()
        .into_string()
}

#[test]
fn composes() {
    let with = "You are a coding agent.\nWork in /work/app.";
    assert_eq!(compose(Some("/work/app"), true, false), with);
    assert_eq!(compose(Some("/work/app"), false, true), with);
    assert_eq!(
        compose(Some("/work/app"), false, false),
        "You are a coding agent."
    );
    assert_eq!(compose(None, true, true), "You are a coding agent.");
}

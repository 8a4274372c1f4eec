mod prompt {
    doctrine::doctrine!("doctrine.toml");
}

fn main() {
    let p = prompt::compose(prompt::Role::Developer).finish();
    println!("{p}");
}

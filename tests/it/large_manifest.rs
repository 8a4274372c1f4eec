//! A 2,000-layer manifest (20 slots): the generated code compiles in time linear in its
//! size, and `finish()` keeps its per-layer arrays off the stack, so a prompt composes on a
//! 256 KiB thread stack in a debug build (the arrays alone would take over 300 KB), from
//! its plan or a prepared one.
//! The fixture is written by `python3 benches/scale.py 2000 100 tests/fixtures/large.toml`.

mod big {
    doctrine::doctrine!("../fixtures/large.toml");
}

/// The builder with its 20 slots filled (all empty).
fn filled() -> big::Compose<'static, big::stage::Ready> {
    big::compose()
        .s99(None)
        .s199(None)
        .s299(None)
        .s399(None)
        .s499(None)
        .s599(None)
        .s699(None)
        .s799(None)
        .s899(None)
        .s999(None)
        .s1099(None)
        .s1199(None)
        .s1299(None)
        .s1399(None)
        .s1499(None)
        .s1599(None)
        .s1699(None)
        .s1799(None)
        .s1899(None)
        .s1999(None)
}

#[test]
fn a_large_prompt_composes_on_a_small_stack() {
    let composed = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let p = filled().finish();
            let stable = filled().finish_stable();
            // Prepared: the 1,980 text layers in 20 runs, the slots live between them.
            let prepared = filled().prepare();
            assert_eq!(filled().finish_prepared(&prepared), p);
            (p, stable)
        })
        .unwrap()
        .join()
        .expect("composing on a 256 KiB stack");
    let (p, stable) = composed;
    assert_eq!(p.sections().len(), 2000);
    let expected: Vec<String> = (0..2000)
        .filter(|i| i % 100 != 99)
        .map(|i| i.to_string())
        .collect();
    assert_eq!(p.as_str(), expected.join("\n"));
    assert_eq!(stable, p.stable());
    assert_eq!(p.layer("l1998"), Some("1998"));
    assert_eq!(p.layer("s99"), None);
}

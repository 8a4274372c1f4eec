//! A user's template (`overlay_interpolate`) against a plain overlay of the same printed
//! bytes: what checking and rendering the user's file per composition costs.
//!
//! cargo bench --features bench --bench overlay_template

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

mod t {
    doctrine::doctrine!("../tests/fixtures/overlay_template.toml");
}

use t::{Facts, Overlay};

/// A user's greeting of about 1 KB: a line with two values and a section, repeated.
fn template() -> String {
    "Greet {user} by name.{?terse} Keep it short.{/terse} Mention {user}'s roots.\n".repeat(14)
}

fn bench(c: &mut Criterion) {
    let facts = || Facts {
        user: Some("Ada Lovelace"),
        roots: &[],
        note: None,
        today: None,
    };
    let templated = Overlay {
        greeting: template(),
        ..Overlay::default()
    };
    let printed = t::compose(facts()).overlay(&templated).finish();
    let plain = Overlay {
        plain: printed.layer("greeting").unwrap().to_string(),
        ..Overlay::default()
    };
    let as_plain = t::compose(facts()).overlay(&plain).finish();
    // The same bytes either way, in another layer.
    assert_eq!(as_plain.layer("plain"), printed.layer("greeting"));
    let mut g = c.benchmark_group("overlay_template");
    g.bench_function("template", |b| {
        b.iter(|| {
            t::compose(black_box(facts()))
                .overlay(black_box(&templated))
                .finish()
        })
    });
    g.bench_function("plain", |b| {
        b.iter(|| {
            t::compose(black_box(facts()))
                .overlay(black_box(&plain))
                .finish()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

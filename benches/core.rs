//! Criterion benches of the pure core (`cargo bench --bench core`).
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

use hupai_core::{Shapes, decompose, parse_tiles, to_counts};

fn bench_decompose(c: &mut Criterion) {
    let hand = to_counts(&parse_tiles("111222333m456pEE").unwrap()).unwrap();
    c.bench_function("decompose/standard-ambiguous", |b| {
        b.iter(|| decompose(black_box(&hand), &[], Shapes::ALL).unwrap())
    });
}

criterion_group!(benches, bench_decompose);
criterion_main!(benches);

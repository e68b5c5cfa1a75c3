//! Random-access `Mapping::offset` against a hand-written formula for the same layout, in the
//! same run: the generic, monomorphized code must cost what the hand-written code costs.
//!
//! `cargo bench --bench offset`; `python3 benches/table.py offset` prints the ratio table.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tensor_layout::prelude::*;

mod support;
use support::hand_written::{Strides, conv_weight_by_hand, crouton_by_hand, crouton2x2_by_hand};

const LOOKUPS: usize = 4096;

/// Deterministic pseudo-random indices below `dims` (xorshift; no dependency needed).
fn random_indices(dims: [usize; 4]) -> Vec<[usize; 4]> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    (0..LOOKUPS).map(|_| dims.map(&mut next)).collect()
}

/// Sums the offsets of all indices, so no lookup can be skipped. Kept out of line so each
/// variant is one loop of its own (easy to find with objdump).
#[inline(never)]
fn sum_offsets(indices: &[[usize; 4]], offset: impl Fn([usize; 4]) -> usize) -> usize {
    indices
        .iter()
        .fold(0usize, |acc, &index| acc.wrapping_add(offset(index)))
}

/// Benchmarks one layout: the library's offset, then the hand-written one, on the same indices.
fn compare<L: Layout<Index = [usize; 4]> + Default>(
    c: &mut Criterion,
    name: &str,
    dims: [usize; 4],
    strides: Strides,
    by_hand: impl Fn(&Strides, [usize; 4]) -> usize,
) {
    let mapping = Mapping::<L>::new(dims).unwrap();
    let indices = random_indices(dims);
    assert_eq!(
        sum_offsets(&indices, |i| mapping.offset(i)),
        sum_offsets(&indices, |i| by_hand(&strides, i)),
        "{name}: the hand-written formula must agree with the library"
    );
    let mut group = c.benchmark_group(format!("offset/{name}"));
    group.throughput(Throughput::Elements(LOOKUPS as u64));
    group.bench_function("tensor-layout", |b| {
        let m = black_box(mapping);
        b.iter(|| sum_offsets(black_box(&indices), |i| m.offset(i)))
    });
    group.bench_function("hand-written", |b| {
        let s = black_box(&strides);
        b.iter(|| sum_offsets(black_box(&indices), |i| by_hand(s, i)))
    });
    group.finish();
}

fn offsets(c: &mut Criterion) {
    // NHWC 1x56x56x256 activations: 7x7 height/width blocks, 8 channel blocks of 32.
    let act = [1, 56, 56, 256];
    let chunk = 2048;
    let (cb, wb, hb) = (256 / 32, 56 / 8, 56 / 8);
    let act_strides = || Strides {
        outer: [hb * wb * cb * chunk, wb * cb * chunk, cb * chunk, chunk],
    };
    compare::<htp::R4CroutonLayout>(c, "R4CroutonLayout", act, act_strides(), crouton_by_hand);
    compare::<htp::R4Crouton2x2Layout>(
        c,
        "R4Crouton2x2Layout",
        act,
        act_strides(),
        crouton2x2_by_hand,
    );
    // 3x3 filters, 256 input and 256 output channels: outer order o-block, i-block, fh, fw.
    let weights = [3, 3, 256, 256];
    let chunk = 1024;
    let fw = chunk;
    let fh = 3 * fw;
    let ib = 3 * fh;
    let ob = 8 * ib;
    let w_strides = Strides {
        outer: [fh, fw, ib, ob],
    };
    compare::<htp::R4ConvWeightLayout>(
        c,
        "R4ConvWeightLayout",
        weights,
        w_strides,
        conv_weight_by_hand,
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(100)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = offsets
}
criterion_main!(benches);

//! Relayout throughput against memcpy of the same bytes, measured in the same run.
//!
//! Every pair reports bytes per second counting the bytes read and written (source plus
//! destination storage, as oneDNN's peer benchmark counts them); `memcpy` copies a buffer the
//! size of the source, counted twice. `python3 benches/table.py relayout memcpy` prints the
//! ratios. With `--features parallel`, each pair (and its memcpy) is also measured on a
//! 2-thread pool.
//!
//! `cargo bench --bench relayout [--features parallel]`

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use std::hint::black_box;
use std::time::Duration;
use tensor_layout::prelude::*;
use tensor_layout::{axes::RelayoutFrom, mappings::RowMajorIndices};

mod support;
use support::alternating::memcpy_buffers;
use support::relayout_pairs::{Element, Measure, copy_halves, each_pair, on_one_thread, pool};

fn group<'a>(c: &'a mut Criterion, name: &str, bytes: u64) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(format!("relayout/{name}"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Bytes(bytes));
    group
}

/// memcpy of `bytes` bytes: the baseline of every pair (throughput counts read + write). With
/// `parallel`, also the two halves copied on two threads at once: how far memcpy itself scales
/// on this machine, the yardstick for the library's 2-thread figure.
fn memcpy(c: &mut Criterion, name: &str, bytes: usize) {
    let (src, mut dst) = memcpy_buffers(bytes);
    let mut g = group(c, name, 2 * bytes as u64);
    g.bench_function("memcpy", |b| {
        b.iter(|| dst.copy_from_slice(black_box(&src[..])))
    });
    if cfg!(feature = "parallel") {
        let two = pool(2);
        g.bench_function("memcpy-2-threads", |b| {
            two.install(|| b.iter(|| copy_halves(&src, &mut dst)))
        });
    }
    g.finish();
}

/// Benchmarks `A -> B` on `dims`: the library on 1 thread (and 2 with `parallel`), the naive
/// per-element loop when asked, and memcpy of the source's bytes.
fn pair<T: Element, A, B>(c: &mut Criterion, name: &str, dims: [usize; 4], naive: bool)
where
    A: Layout<Index = [usize; 4]> + Default,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    let src = Tensor::<T, A>::from_fn(dims, |[n, c, h, w]| T::of(n ^ c ^ h ^ w));
    // The destination's dims are the source's in `B`'s axis order.
    let mut dst = src.relayout::<B>();
    let bytes = size_of_val(src.as_raw()) + size_of_val(dst.as_raw());
    memcpy(c, name, size_of_val(src.as_raw()));
    let mut g = group(c, name, bytes as u64);
    let one = pool(1);
    g.bench_function("tensor-layout", |b| {
        on_one_thread(&one, || {
            b.iter(|| black_box(&src).relayout_into(&mut dst).unwrap())
        })
    });
    if cfg!(feature = "parallel") {
        let two = pool(2);
        g.bench_function("tensor-layout-2-threads", |b| {
            two.install(|| b.iter(|| black_box(&src).relayout_into(&mut dst).unwrap()))
        });
    }
    if naive {
        let (from, to) = (*src.mapping(), *dst.mapping());
        g.bench_function("naive", |b| {
            b.iter(|| {
                let (s, d) = (black_box(src.as_raw()), dst.as_raw_mut());
                for index in RowMajorIndices::new(dims) {
                    d[to.offset(index)] = s[from.offset(index)];
                }
                to.for_each_padding(|range| d[range].fill(T::default()));
            })
        });
    }
    g.finish();
}

/// The criterion measurement of each pair.
struct WithCriterion<'a>(&'a mut Criterion);

impl Measure for WithCriterion<'_> {
    fn pair<T: Element, A, B>(&mut self, name: &str, dims: [usize; 4], naive: bool)
    where
        A: Layout<Index = [usize; 4]> + Default,
        B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
    {
        pair::<T, A, B>(self.0, name, dims, naive);
    }
}

fn relayouts(c: &mut Criterion) {
    each_pair(&mut WithCriterion(c));
}

criterion_group!(benches, relayouts);
criterion_main!(benches);

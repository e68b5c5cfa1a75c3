//! Relayout throughput against memcpy of the same bytes, measured in the same run.
//!
//! Every pair reports bytes per second counting the bytes read and written (source plus
//! destination storage, as oneDNN's peer benchmark counts them); `memcpy` copies a buffer the
//! size of the source, counted twice. `python3 benches/table.py relayout memcpy` prints the
//! ratios. With `--features parallel`, each large pair is also measured on a 2-thread pool.
//!
//! `cargo bench --bench relayout [--features parallel]`

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use half::f16;
use std::hint::black_box;
use std::time::Duration;
use tensor_layout::RowMajorIndices;
use tensor_layout::prelude::*;

/// One thread, or several, for the library's relayout.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// A value per element that is not a constant (so no copy can be folded away).
trait Element: Copy + Default + Send + Sync + 'static {
    fn of(i: usize) -> Self;
}
impl Element for f32 {
    fn of(i: usize) -> Self {
        i as f32
    }
}
impl Element for f16 {
    fn of(i: usize) -> Self {
        f16::from_f32((i % 2048) as f32)
    }
}
impl Element for u8 {
    fn of(i: usize) -> Self {
        i as u8
    }
}

fn group<'a>(c: &'a mut Criterion, name: &str, bytes: u64) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(format!("relayout/{name}"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Bytes(bytes));
    group
}

/// memcpy of `bytes` bytes: the baseline of every pair (throughput counts read + write).
fn memcpy(c: &mut Criterion, name: &str, bytes: usize) {
    let src = vec![1u8; bytes];
    let mut dst = vec![0u8; bytes];
    let mut g = group(c, name, 2 * bytes as u64);
    g.bench_function("memcpy", |b| {
        b.iter(|| dst.copy_from_slice(black_box(&src)))
    });
    g.finish();
}

/// Benchmarks `A -> B` on `dims`: the library on 1 thread (and 2 with `parallel`), the naive
/// per-element loop when asked, and memcpy of the source's bytes.
fn pair<T: Element, A, B>(c: &mut Criterion, name: &str, dims: [usize; 4], naive: bool)
where
    A: Layout<Index = [usize; 4]> + Default,
    B: Layout<Index = [usize; 4]> + Default,
{
    let src = Tensor::<T, A>::from_fn(dims, |[n, c, h, w]| T::of(n ^ c ^ h ^ w));
    let mut dst = Tensor::<T, B>::zeros(dims);
    let bytes = size_of_val(src.as_raw()) + size_of_val(dst.as_raw());
    memcpy(c, name, size_of_val(src.as_raw()));
    let mut g = group(c, name, bytes as u64);
    let one = pool(1);
    g.bench_function("tensor-layout", |b| {
        one.install(|| b.iter(|| black_box(&src).relayout_into(&mut dst).unwrap()))
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

fn relayouts(c: &mut Criterion) {
    let act = [8, 256, 56, 56];
    pair::<f32, onednn::nchw, onednn::nhwc>(c, "f32 8x256x56x56 nchw->nhwc", act, true);
    pair::<f32, onednn::nhwc, onednn::nchw>(c, "f32 8x256x56x56 nhwc->nchw", act, false);
    pair::<f32, onednn::nchw, onednn::nChw16c>(c, "f32 8x256x56x56 nchw->nChw16c", act, false);
    pair::<f32, onednn::nChw16c, onednn::nchw>(c, "f32 8x256x56x56 nChw16c->nchw", act, false);
    pair::<f32, onednn::nhwc, onednn::nChw16c>(c, "f32 8x256x56x56 nhwc->nChw16c", act, false);
    pair::<f32, onednn::nChw8c, onednn::nChw16c>(c, "f32 8x256x56x56 nChw8c->nChw16c", act, false);
    pair::<f32, onednn::oihw, onednn::OIhw16i16o>(
        c,
        "f32 512x512x3x3 oihw->OIhw16i16o",
        [512, 512, 3, 3],
        false,
    );
    pair::<f16, onednn::nchw, onednn::nChw16c>(c, "f16 8x256x56x56 nchw->nChw16c", act, false);
    pair::<u8, onednn::nchw, onednn::nhwc>(c, "u8 8x256x56x56 nchw->nhwc", act, false);
    let nhwc = [1, 64, 64, 256];
    pair::<u8, htp::R4FlatMemoryLayout, htp::R4CroutonLayout>(
        c,
        "u8 1x64x64x256 flat->crouton",
        nhwc,
        true,
    );
    pair::<u8, htp::R4CroutonLayout, htp::R4FlatMemoryLayout>(
        c,
        "u8 1x64x64x256 crouton->flat",
        nhwc,
        false,
    );
    pair::<u8, htp::R4FlatMemoryLayout, htp::R4Crouton2x2Layout>(
        c,
        "u8 1x64x64x256 flat->crouton2x2",
        nhwc,
        false,
    );
    pair::<u8, htp::R4FlatMemoryLayout, htp::R4CroutonLayout>(
        c,
        "u8 1x3x5x30 flat->crouton (tiny)",
        [1, 3, 5, 30],
        true,
    );
}

criterion_group!(benches, relayouts);
criterion_main!(benches);

//! Relayout throughput against memcpy of the same bytes, the two calls alternating.
//!
//! This machine's memory speed drifts by up to 2x over minutes (docs/performance.md), so a
//! ratio between two figures measured one after the other moves with it. Here each sample is
//! one relayout call followed at once by one memcpy of the source's bytes (from and into
//! buffers of their own), and the table gives the median of each over many such pairs: both
//! medians come from the same minutes. Bytes are counted as in `benches/relayout.rs` (source
//! plus destination storage; memcpy's twice). One thread; with `--features parallel` each
//! round also runs the library and memcpy (each half on its own thread) on two threads, and
//! the table adds how much faster each is on two threads than on one.
//!
//! `cargo bench --bench relayout_interleaved [--features parallel] [-- FILTER]`

use std::hint::black_box;
use std::time::Duration;
use tensor_layout::prelude::*;

mod support;
use support::alternating::{calls_for, median, timed};
use support::relayout_pairs::{Element, Measure, copy_halves, each_pair, on_one_thread, pool};

/// Measures each pair whose name contains `filter`, printing a Markdown row.
struct Interleaved {
    filter: String,
}

impl Measure for Interleaved {
    fn pair<T: Element, A, B>(&mut self, name: &str, dims: [usize; 4], _naive: bool)
    where
        A: Layout<Index = [usize; 4]> + Default,
        B: Layout<Index = [usize; 4]> + Default,
    {
        if !name.contains(&self.filter) {
            return;
        }
        let src = Tensor::<T, A>::from_fn(dims, |[n, c, h, w]| T::of(n ^ c ^ h ^ w));
        // The destination's dims are the source's in `B`'s axis order.
        let mut dst = src.relayout::<B>();
        let copy_from = vec![1u8; size_of_val(src.as_raw())];
        let mut copy_into = vec![0u8; copy_from.len()];
        let bytes = size_of_val(src.as_raw()) + size_of_val(dst.as_raw());
        let calls = calls_for(bytes);
        let mut times = Times::with_capacity(calls);
        let (one, two) = (pool(1), pool(2));
        // Each call is timed on its thread (handing work to a pool costs microseconds).
        for _ in 0..calls {
            times.library.push(on_one_thread(&one, || {
                timed(|| black_box(&src).relayout_into(black_box(&mut dst)).unwrap())
            }));
            times.memcpy.push(timed(|| {
                black_box(&mut copy_into[..]).copy_from_slice(black_box(&copy_from[..]))
            }));
            if cfg!(feature = "parallel") {
                times.library_2.push(two.install(|| {
                    timed(|| black_box(&src).relayout_into(black_box(&mut dst)).unwrap())
                }));
                times
                    .memcpy_2
                    .push(two.install(|| timed(|| copy_halves(&copy_from, &mut copy_into))));
            }
        }
        let (library, memcpy) = (median(times.library), median(times.memcpy));
        let library_gbps = bytes as f64 / library.as_secs_f64() / 1e9;
        let memcpy_gbps = 2.0 * copy_from.len() as f64 / memcpy.as_secs_f64() / 1e9;
        let size = if bytes >= 1_000_000 {
            format!("{:.1} M", bytes as f64 / 1e6)
        } else {
            format!("{bytes} B")
        };
        let mut row = format!(
            "| {name} | {size} | {calls} | {:.2} | {library_gbps:.2} | {memcpy_gbps:.2} | {:.2} |",
            library.as_secs_f64() * 1e6,
            library_gbps / memcpy_gbps
        );
        if cfg!(feature = "parallel") {
            let library_2 = median(times.library_2);
            let memcpy_2 = median(times.memcpy_2);
            let scale = |one: Duration, two: Duration| one.as_secs_f64() / two.as_secs_f64();
            row += &format!(
                " {:.2} | {:.2} |",
                scale(library, library_2),
                scale(memcpy, memcpy_2)
            );
        }
        println!("{row}");
    }
}

/// Call times of one pair: the library and memcpy on one thread, and (with `parallel`) on
/// two.
struct Times {
    library: Vec<Duration>,
    memcpy: Vec<Duration>,
    library_2: Vec<Duration>,
    memcpy_2: Vec<Duration>,
}

impl Times {
    fn with_capacity(calls: usize) -> Self {
        let list = || Vec::with_capacity(calls);
        Times {
            library: list(),
            memcpy: list(),
            library_2: list(),
            memcpy_2: list(),
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; the first other argument filters the pairs by name.
    let filter = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .unwrap_or_default();
    let (head, rule) = if cfg!(feature = "parallel") {
        (
            " library 2 threads ÷ 1 | memcpy 2 threads ÷ 1 |",
            " ---: | ---: |",
        )
    } else {
        ("", "")
    };
    println!(
        "| pair | bytes | calls | library µs per call | library GB/s | memcpy GB/s | ÷ memcpy |{head}"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |{rule}");
    each_pair(&mut Interleaved { filter });
}

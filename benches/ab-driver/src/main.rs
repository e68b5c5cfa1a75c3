//! One round of `benches/ab.sh` for one build of the library: every pair of
//! `benches/support/relayout_pairs.rs` (or those whose name contains the filter), each timed
//! against memcpy of the same bytes and checked element by element.
//!
//! ```sh
//! ab-driver LABEL ROUND [FILTER]
//! ```
//!
//! For each pair: the source (`from_fn`, a different value at nearly every index) and the
//! destination (`zeros`) are built once; one call of each contender warms caches and pages;
//! then `k` calls of `relayout_into` alternate with `k` memcpys of the source's byte count
//! between two buffers of their own (`benches/support/alternating.rs` says why alternating),
//! `k` odd, at least 5, sized so each contender moves about `AB_MIB` MiB (512 unless set).
//! The best (shortest) call of each is kept: across builds run in turn, the best call is the
//! figure least moved by whatever else the machine is doing.
//!
//! The output is one tab-separated line per pair: label, round, pair, relayout GB/s, memcpy
//! GB/s, calls, bytes moved per relayout (source plus destination storage), the destination's
//! dims, and the check (`ok`, or what was wrong). The relayout's GB/s counts those bytes; the
//! memcpy's twice the bytes it copies (read and write).
//!
//! The driver uses only calls every compared commit has: `Tensor::from_fn`, `Tensor::zeros`,
//! `relayout` and `relayout_into`, `dims`, `as_raw` and `t[index]`.

use std::hint::black_box;
use std::time::Duration;
#[cfg(all(library_has_relayout_from, not(library_has_modules)))]
use tensor_layout::RelayoutFrom;
#[cfg(all(library_has_relayout_from, library_has_modules))]
use tensor_layout::axes::RelayoutFrom;
use tensor_layout::prelude::*;

/// Stands for the library's bound on conversions by name when the commit under test has none
/// (its relayouts then check axis names when they are compiled): every pair converts.
#[cfg(not(library_has_relayout_from))]
trait RelayoutFrom<A> {}
#[cfg(not(library_has_relayout_from))]
impl<A, B> RelayoutFrom<A> for B {}

/// The library's bound on what a tensor stores one per slot, or a stand-in where the commit
/// under test has none (its tensors then take any `Copy` type).
#[cfg(all(library_has_element, not(library_has_modules)))]
use tensor_layout::Element as TensorElement;
#[cfg(all(library_has_element, library_has_modules))]
use tensor_layout::tensors::Element as TensorElement;
#[cfg(not(library_has_element))]
trait TensorElement {}
#[cfg(not(library_has_element))]
impl<T> TensorElement for T {}

#[allow(dead_code)] // the pools and the 2-thread memcpy serve the benches, not this program
#[path = "../../support/relayout_pairs.rs"]
mod relayout_pairs;
use relayout_pairs::{Element, Measure, each_pair};

#[allow(dead_code)] // the medians and ratios serve the benches, not this program
#[path = "../../support/alternating.rs"]
mod alternating;
#[cfg(not(library_has_modules))]
use tensor_layout::AlignedBuffer;
#[cfg(library_has_modules)]
use tensor_layout::storage::AlignedBuffer;
use alternating::timed;

/// Logical elements checked per pair: every one up to this count, an evenly strided sample of
/// about this many above it.
const CHECKED: usize = 1 << 22;

/// One run: the build's label, the round's number, the filter, the bytes each contender moves
/// per pair.
struct Round {
    label: String,
    round: String,
    filter: String,
    budget: usize,
}

impl Round {
    /// Calls per pair for a relayout moving `bytes`: about `budget` in all, odd, 5 to 2001.
    fn calls(&self, bytes: usize) -> usize {
        (self.budget / bytes.max(1)).clamp(5, 2001) | 1
    }
}

/// A value per row-major number that differs in its low byte along every axis (`u8` and `f16`
/// keep only low bits): the number's bytes folded into each other, one to one on numbers below
/// 2^24 (exact in `f32`).
fn value(number: usize) -> usize {
    let folded = number ^ (number >> 8);
    folded ^ (folded >> 16)
}

/// Where each destination axis comes from: `[j] = i` when destination axis `j` is source axis
/// `i`. A relayout by axis name permutes the dims (HTP's NHWC croutons into oneDNN's NCHW
/// blocks); one by position (older commits) keeps them. Read off a relayout of a small tensor
/// whose dims all differ.
fn axis_sources<A, B>() -> [usize; 4]
where
    A: Layout<Index = [usize; 4]> + Default,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    let probe = [2, 3, 5, 7];
    let out = Tensor::<u8, A>::zeros(probe).relayout::<B>().dims();
    out.map(|d| {
        probe
            .iter()
            .position(|&p| p == d)
            .expect("a relayout keeps the dims")
    })
}

/// Every `step`-th logical index of `dims` in row-major order.
fn indices(dims: [usize; 4], step: usize) -> impl Iterator<Item = [usize; 4]> {
    let count = dims.iter().product::<usize>();
    (0..count).step_by(step).map(move |mut number| {
        let mut index = [0; 4];
        for axis in (0..4).rev() {
            index[axis] = number % dims[axis];
            number /= dims[axis];
        }
        index
    })
}

impl Measure for Round {
    fn pair<T: Element, A, B>(&mut self, name: &str, dims: [usize; 4], _naive: bool)
    where
        A: Layout<Index = [usize; 4]> + Default,
        B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
    {
        if !name.contains(self.filter.as_str()) {
            return;
        }
        let number = |[n, c, h, w]: [usize; 4]| ((n * dims[1] + c) * dims[2] + h) * dims[3] + w;
        let src = Tensor::<T, A>::from_fn(dims, |index| T::of(value(number(index))));
        let from = axis_sources::<A, B>();
        let dst_dims = from.map(|i| dims[i]);
        let mut dst = Tensor::<T, B>::zeros(dst_dims);
        let src_bytes = size_of_val(src.as_raw());
        let bytes = src_bytes + size_of_val(dst.as_raw());
        let copy_from = vec![1u8; src_bytes];
        let mut copy_into = vec![0u8; src_bytes];
        let mut copy = || black_box(&mut copy_into[..]).copy_from_slice(black_box(&copy_from[..]));
        let calls = self.calls(bytes);
        let shown = format!("{dst_dims:?}").replace(' ', "");
        let report = |relayout: f64, memcpy: f64, check: &str| {
            println!(
                "{}\t{}\t{name}\t{relayout:.3}\t{memcpy:.3}\t{calls}\t{bytes}\t{shown}\t{check}",
                self.label, self.round
            );
        };
        if let Err(e) = src.relayout_into(&mut dst) {
            return report(0.0, 0.0, &format!("error: {e}"));
        }
        copy();
        let (mut relayout, mut memcpy) = (Duration::MAX, Duration::MAX);
        for _ in 0..calls {
            let time = timed(|| {
                black_box(&src)
                    .relayout_into(black_box(&mut dst))
                    .expect("it succeeded before")
            });
            relayout = relayout.min(time);
            memcpy = memcpy.min(timed(&mut copy));
        }
        // The reference, element by element: the source's value at each index, read through
        // the source's layout, against the destination's at that index renamed.
        let count = dims.iter().product::<usize>();
        let step = count.div_ceil(CHECKED) | 1;
        let wrong = indices(dims, step)
            .filter(|&index| src[index].bits() != dst[from.map(|i| index[i])].bits())
            .count();
        let check = if wrong == 0 {
            "ok".to_string()
        } else {
            format!("WRONG at {wrong} of {} indices", count.div_ceil(step))
        };
        let gbps = |bytes: usize, time: Duration| bytes as f64 / time.as_secs_f64() / 1e9;
        report(gbps(bytes, relayout), gbps(2 * src_bytes, memcpy), &check);
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(label), Some(round)) = (args.next(), args.next()) else {
        eprintln!("usage: ab-driver LABEL ROUND [FILTER]");
        std::process::exit(2);
    };
    let filter = args.next().unwrap_or_default();
    let mib = std::env::var("AB_MIB").map_or(Ok(512), |v| v.parse::<usize>());
    let Ok(mib @ 1..) = mib else {
        eprintln!("AB_MIB must be a positive number of MiB");
        std::process::exit(2);
    };
    let mut round = Round {
        label,
        round,
        filter,
        budget: mib << 20,
    };
    each_pair(&mut round);
}

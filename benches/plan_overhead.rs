//! What a small relayout costs beyond moving its bytes: for HTP's flat -> crouton of a 2 KiB
//! tensor (u8 1x8x8x32, no padding) and of the Qualcomm HTP documentation's 1x3x5x30 example
//! (2 KiB with its padding), the time per call of `RelayoutPlan::new`, of `plan.run`, of
//! `relayout_into` (which keeps the thread's last plan) and of a memcpy of the destination's
//! bytes, each timed in turn over the same batch of calls, round after round. A call this small
//! takes tens of nanoseconds, under the clock's resolution, so each sample is a batch of calls
//! and the table gives the median and best per call.
//!
//! `cargo bench --bench plan_overhead` (rounds: `PLAN_ROUNDS`, default 31).

use std::hint::black_box;
use std::time::Instant;
use tensor_layout::axes::RelayoutFrom;
use tensor_layout::prelude::*;

/// Calls per sample: long enough (tens of microseconds) for the clock to resolve.
const BATCH: u32 = 1000;

/// The contenders, in the order they are timed within each round.
const CONTENDERS: [&str; 4] = ["RelayoutPlan::new", "plan.run", "relayout_into", "memcpy"];

/// Times each contender on `dims` of `u8`, `A` into `B`, and prints one line per contender.
fn pair<A, B>(name: &str, dims: [usize; 4], rounds: usize)
where
    A: Layout<Index = [usize; 4]> + Default + PartialEq,
    B: Layout<Index = [usize; 4]> + Default + PartialEq + RelayoutFrom<A>,
{
    let src = Tensor::<u8, A>::from_fn(dims, |[n, c, h, w]| (n + 3 * c + 5 * h + 7 * w) as u8);
    let mut dst = Tensor::<u8, B>::zeros(dims);
    let plan = RelayoutPlan::new(&src, &dst).expect("a plan of the pair");
    let bytes = dst.as_raw().len();
    let from = vec![1u8; bytes];
    let mut into = vec![0u8; bytes];
    let mut times: [Vec<f64>; 4] = Default::default();
    for _ in 0..rounds {
        for (k, times) in times.iter_mut().enumerate() {
            let start = Instant::now();
            for _ in 0..BATCH {
                match k {
                    0 => drop(black_box(RelayoutPlan::new(black_box(&src), &dst).unwrap())),
                    1 => plan.run(black_box(&src), &mut dst).unwrap(),
                    2 => black_box(&src).relayout_into(&mut dst).unwrap(),
                    _ => black_box(&mut into[..]).copy_from_slice(black_box(&from)),
                }
            }
            times.push(start.elapsed().as_secs_f64() * 1e9 / f64::from(BATCH));
        }
    }
    let mut want = Tensor::<u8, B>::zeros(dims);
    src.relayout_into(&mut want).unwrap();
    assert!(
        dst.as_raw() == want.as_raw(),
        "{name}: the plan moved other values"
    );
    println!("{name} ({bytes} bytes), ns per call, median (best) of {rounds} rounds:");
    for (label, mut times) in CONTENDERS.into_iter().zip(times) {
        times.sort_unstable_by(f64::total_cmp);
        println!("  {label:18} {:7.1} ({:.1})", times[rounds / 2], times[0]);
    }
}

fn main() {
    let rounds = std::env::var("PLAN_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(31usize)
        .max(1);
    type Flat = htp::R4FlatMemoryLayout;
    type Crouton = htp::R4CroutonLayout;
    pair::<Flat, Crouton>("u8 1x8x8x32 flat->crouton", [1, 8, 8, 32], rounds);
    pair::<Flat, Crouton>("u8 1x3x5x30 flat->crouton", [1, 3, 5, 30], rounds);
}

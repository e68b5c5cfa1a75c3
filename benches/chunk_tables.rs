//! Relayouts out of and into chunk tables (`IndirectTensor`, each chunk its own allocation,
//! scattered in memory) against memcpy of the same bytes, the two calls alternating as in
//! `benches/relayout_interleaved.rs`: each sample one relayout call followed at once by one
//! memcpy of the contiguous side's bytes (from and into buffers of their own). The table gives
//! the best and median GB/s of each, bytes counted as source plus destination (memcpy's twice),
//! and the ratio of the medians (above 1: the relayout is faster than memcpy).
//!
//! Pairs: u8 HTP croutons (`R4CroutonLayout`, 2 KiB chunks) with flat NHWC at 4x128x128x256
//! and 1x64x64x256, and a table of small chunks (`R4Depth32MemoryLayout`, 128 bytes) with flat
//! NHWC at 1x128x128x256; each in both directions (`table->flat` out of the table into a
//! tensor, `flat->table` into the table's chunks written over). Only public API, so the same
//! bench runs against any version of the engine.
//!
//! `cargo bench --bench chunk_tables [--features parallel] [-- FILTER... [rounds=N]]`: with
//! filters, only the pairs whose name contains one of them (`crouton`, `depth32`, `->flat`);
//! `rounds=N` (or `CHUNK_TABLE_ROUNDS=N`) times N pairs of calls per pair instead of enough for
//! about 2 GiB moved (`rounds=1` is a smoke run).

use std::hint::black_box;
use std::time::Duration;
use tensor_layout::axes::RelayoutFrom;
use tensor_layout::htp;
use tensor_layout::prelude::*;
use tensor_layout::tensors::IndirectTensor;

#[path = "../tests/common/scattered.rs"]
mod scattered;
mod support;
use scattered::scattered_chunks;
use support::alternating::{calls_for, median, memcpy_buffers, with_memcpy};

/// What the command line asks for: parts of pair names, and the rounds per pair.
struct Args {
    filters: Vec<String>,
    rounds: Option<usize>,
}

impl Args {
    fn parse() -> Self {
        let mut args = Args {
            filters: Vec::new(),
            rounds: std::env::var("CHUNK_TABLE_ROUNDS")
                .ok()
                .and_then(|r| r.parse().ok()),
        };
        // `cargo bench` passes `--bench`.
        for arg in std::env::args().skip(1).filter(|a| !a.starts_with("--")) {
            match arg.strip_prefix("rounds=") {
                Some(rounds) => args.rounds = Some(rounds.parse().expect("rounds=N, a number")),
                None => args.filters.push(arg),
            }
        }
        args
    }

    fn wants(&self, name: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|part| name.contains(part.as_str()))
    }

    /// Pairs of calls for a relayout moving `bytes` (source plus destination).
    fn calls(&self, bytes: usize) -> usize {
        self.rounds.unwrap_or_else(|| calls_for(bytes)).max(1)
    }
}

/// One row of the table: the relayout's and memcpy's best and median GB/s, and the ratio.
fn report(
    name: &str,
    bytes: usize,
    copied: usize,
    (times, copies): (Vec<Duration>, Vec<Duration>),
) {
    let gbps = |bytes: usize, time: Duration| bytes as f64 / time.as_secs_f64() / 1e9;
    let best = *times.iter().min().expect("timed calls");
    let best_copy = *copies.iter().min().expect("timed copies");
    let (mid, mid_copy) = (median(times), median(copies));
    println!(
        "| {name:34} | {:6.2} | {:6.2} | {:6.2} | {:6.2} | {:5.2} |",
        gbps(bytes, best),
        gbps(bytes, mid),
        gbps(2 * copied, best_copy),
        gbps(2 * copied, mid_copy),
        mid_copy.as_secs_f64() / mid.as_secs_f64(),
    );
}

/// Times both directions between a table of `A` and flat NHWC `B` of `dims`, as `label`.
fn pair<A, B>(args: &Args, label: &str, dims: [usize; 4])
where
    A: Layout<Index = [usize; 4]> + RelayoutFrom<B> + Default,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    let [n, h, w, c] = dims;
    let shape = format!("{n}x{h}x{w}x{c}");
    let (out_name, in_name) = (
        format!("u8 {shape} {label}->flat"),
        format!("u8 {shape} flat->{label}"),
    );
    if !args.wants(&out_name) && !args.wants(&in_name) {
        return;
    }
    let contiguous = Tensor::<u8, A>::from_fn(dims, |[n, h, w, c]: [usize; 4]| {
        (n * 101 + h * 31 + w * 7 + c) as u8
    });
    let want = contiguous.relayout::<B>();
    let table = IndirectTensor::<u8, A>::from_chunks(dims, scattered_chunks(&contiguous))
        .expect("the tensor's chunks");
    let table_bytes = size_of_val(contiguous.as_raw());
    let flat_bytes = size_of_val(want.as_raw());
    let bytes = table_bytes + flat_bytes;

    if args.wants(&out_name) {
        let mut flat = Tensor::<u8, B>::zeros(dims);
        table
            .relayout_into(&mut flat)
            .expect("a relayout out of the table");
        assert_eq!(
            flat.as_raw(),
            want.as_raw(),
            "{out_name}: another destination"
        );
        let (from, mut into) = memcpy_buffers(table_bytes);
        let timed = with_memcpy(args.calls(bytes), &from, &mut into, || {
            black_box(&table).relayout_into(&mut flat).unwrap();
        });
        report(&out_name, bytes, table_bytes, timed);
    }
    if args.wants(&in_name) {
        let mut back = IndirectTensor::<u8, A>::from_chunks(dims, scattered_chunks(&contiguous))
            .expect("the tensor's chunks");
        back.chunk_slices_mut().for_each(|chunk| chunk.fill(0xEE));
        back.relayout_from(&want)
            .expect("a relayout into the table");
        assert_eq!(
            back.to_contiguous().as_raw(),
            contiguous.as_raw(),
            "{in_name}: other chunks"
        );
        let (from, mut into) = memcpy_buffers(flat_bytes);
        let timed = with_memcpy(args.calls(bytes), &from, &mut into, || {
            back.relayout_from(black_box(&want)).unwrap();
        });
        report(&in_name, bytes, flat_bytes, timed);
    }
}

fn main() {
    let args = Args::parse();
    println!(
        "| {:34} | {:>6} | {:>6} | {:>6} | {:>6} | {:>5} |",
        "pair (GB/s: best, median)", "best", "median", "memcpy", "median", "ratio"
    );
    println!(
        "|{:-<36}|{:-<8}|{:-<8}|{:-<8}|{:-<8}|{:-<7}|",
        "", "", "", "", "", ""
    );
    pair::<htp::R4CroutonLayout, htp::R4FlatMemoryLayout>(&args, "crouton", [4, 128, 128, 256]);
    pair::<htp::R4CroutonLayout, htp::R4FlatMemoryLayout>(&args, "crouton", [1, 64, 64, 256]);
    pair::<htp::R4Depth32MemoryLayout, htp::R4FlatMemoryLayout>(
        &args,
        "depth32",
        [1, 128, 128, 256],
    );
}

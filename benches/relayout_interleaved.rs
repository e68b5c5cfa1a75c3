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
//! On the plain transposes (`nchw->nhwc`, `nhwc->nchw`) the Rust peers follow, in rounds of
//! their own, one call each and then memcpy: strided-perm's `copy_into`, ndarray's
//! `as_standard_layout` of a permuted view and its `assign` into a preallocated array
//! (`support/peers.rs`), each checked against the library's destination first and given as a
//! ratio to the memcpy of its rounds (`support/alternating.rs` says why not in the library's).
//!
//! `cargo bench --bench relayout_interleaved [--features parallel] [-- FILTER...]`: with
//! filters, only the pairs whose name contains one of them (quote them in a shell:
//! `-- 'nchw->nhwc' 'nhwc->nchw'` runs the plain transposes).

use std::hint::black_box;
use std::time::Duration;
use tensor_layout::axes::RelayoutFrom;
use tensor_layout::prelude::*;
use tensor_layout::storage::AlignedBuffer;

mod support;
use support::alternating::{calls_for, median, memcpy_buffers, timed, with_memcpy};
use support::peers::{PeerTimes, Peers, Permutation};
use support::relayout_pairs::{
    Element, Measure, copy_halves, each_pair, on_one_thread, on_two_threads, pool,
};

/// The pairs asked for: each argument other than cargo's flags is part of a pair's name; no
/// argument asks for every pair.
struct Filter(Vec<String>);

impl Filter {
    fn from_args() -> Self {
        // `cargo bench` passes `--bench`.
        Filter(
            std::env::args()
                .skip(1)
                .filter(|a| !a.starts_with("--"))
                .collect(),
        )
    }

    fn wants(&self, name: &str) -> bool {
        self.0.is_empty() || self.0.iter().any(|part| name.contains(part.as_str()))
    }
}

/// Measures each pair the filter wants, printing a Markdown row.
struct Interleaved {
    filter: Filter,
}

impl Measure for Interleaved {
    fn pair<T: Element, A, B>(&mut self, name: &str, dims: [usize; 4], _naive: bool)
    where
        A: Layout<Index = [usize; 4]> + Default,
        B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
    {
        if !self.filter.wants(name) {
            return;
        }
        // Each element's row-major number: values that differ along every axis, so the peers'
        // check below sees a swapped axis.
        let number = |[n, c, h, w]: [usize; 4]| ((n * dims[1] + c) * dims[2] + h) * dims[3] + w;
        let src = Tensor::<T, A>::from_fn(dims, |index| T::of(number(index)));
        // The destination's dims are the source's in `B`'s axis order.
        let mut dst = src.relayout::<B>();
        let permutation = Permutation::of(&src, &dst);
        let mut peers = permutation.map(|p| Peers::new(p, src.as_raw()));
        if let Some(peers) = &mut peers {
            peers.check(name, dst.as_raw());
        }
        let (copy_from, mut copy_into) = memcpy_buffers(size_of_val(src.as_raw()));
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
                times.library_2.push(on_two_threads(&two, || {
                    timed(|| black_box(&src).relayout_into(black_box(&mut dst)).unwrap())
                }));
                times.memcpy_2.push(on_two_threads(&two, || {
                    timed(|| copy_halves(&copy_from, &mut copy_into))
                }));
            }
        }
        // The peers in rounds of their own (`alternating` says why).
        let peer_copies = peers.as_mut().map(|peers| {
            with_memcpy(calls, &copy_from, &mut copy_into, || {
                peers.time_round(&mut times.peers)
            })
            .1
        });
        let (library, memcpy) = (median(times.library), median(times.memcpy));
        let library_gbps = bytes as f64 / library.as_secs_f64() / 1e9;
        let gbps = |copy: Duration| 2.0 * copy_from.len() as f64 / copy.as_secs_f64() / 1e9;
        let memcpy_gbps = gbps(memcpy);
        let peer_memcpy_gbps = peer_copies.map_or(memcpy_gbps, |copies| gbps(median(copies)));
        let size = if bytes >= 1_000_000 {
            format!("{:.1} M", bytes as f64 / 1e6)
        } else {
            format!("{bytes} B")
        };
        let mut row = format!(
            "| {name} | {size} | {calls} | {:.2} | {library_gbps:.2} | {memcpy_gbps:.2} | {:.2} |{}",
            library.as_secs_f64() * 1e6,
            library_gbps / memcpy_gbps,
            times.peers.cells(bytes, peer_memcpy_gbps),
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

/// Call times of one pair: the library, its peers and memcpy on one thread, and (with
/// `parallel`) the library and memcpy on two.
struct Times {
    library: Vec<Duration>,
    memcpy: Vec<Duration>,
    library_2: Vec<Duration>,
    memcpy_2: Vec<Duration>,
    peers: PeerTimes,
}

impl Times {
    fn with_capacity(calls: usize) -> Self {
        let list = || Vec::with_capacity(calls);
        Times {
            library: list(),
            memcpy: list(),
            library_2: list(),
            memcpy_2: list(),
            peers: PeerTimes::default(),
        }
    }
}

fn main() {
    let filter = Filter::from_args();
    let (head, rule) = if cfg!(feature = "parallel") {
        (
            " library 2 threads ÷ 1 | memcpy 2 threads ÷ 1 |",
            " ---: | ---: |",
        )
    } else {
        ("", "")
    };
    println!(
        "| pair | bytes | calls | library µs per call | library GB/s | memcpy GB/s | ÷ memcpy |{}{head}",
        PeerTimes::HEADER
    );
    println!(
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |{}{rule}",
        PeerTimes::RULE
    );
    let mut interleaved = Interleaved { filter };
    each_pair(&mut interleaved);
    chunk_table_rows(&interleaved.filter);
    nibble_rows(&interleaved.filter);
}

/// 4-bit elements (MegEngine's int4 `NCHW64`): packed tensors moved between plain and blocked
/// layouts, against memcpy of the same bytes.
fn nibble_rows(filter: &Filter) {
    use tensor_layout::{quantized::PackedTensor, quantized::u4};
    let dims = [8, 256, 56, 56];
    let name = "u4 8x256x56x56 nchw->NCHW64";
    if !filter.wants(name) {
        return;
    }
    let src = PackedTensor::<u4, megengine::NCHW>::from_fn(dims, |[n, c, h, w]| {
        u4::new(((n ^ c ^ h ^ w) % 16) as u8)
    });
    let mut dst = PackedTensor::<u4, megengine::NCHW64>::zeros(dims);
    let bytes = src.as_bytes().len() + dst.as_bytes().len();
    let (copy_from, mut copy_into) = memcpy_buffers(src.as_bytes().len());
    let calls = calls_for(bytes);
    let (mut library, mut copies) = (Vec::new(), Vec::new());
    for _ in 0..calls {
        library.push(timed(|| black_box(&src).relayout_into(&mut dst).unwrap()));
        copies.push(timed(|| {
            black_box(&mut copy_into[..]).copy_from_slice(black_box(&copy_from[..]))
        }));
    }
    print_table_row(
        name,
        bytes,
        calls,
        library,
        copies,
        &copy_from,
        String::new(),
    );
}

/// HTP's indirect tensors: crouton chunks (2 KiB) and depth-32 chunks (128 bytes) behind a
/// table, relayout into and out of flat NHWC, each call alternating with the same relayout
/// between contiguous tensors and with memcpy, on one thread and (with `parallel`) on two. The
/// last cells are the chunk table's time over the contiguous one's, on one thread and on two.
/// "chunk table" rows take the chunks from the tensor's own pool (`to_indirect`); "boxed
/// chunks" rows from the caller, each chunk a `Box` of its own wherever malloc put it.
fn chunk_table_rows(filter: &Filter) {
    for dims in [[1, 64, 64, 256], [1, 256, 256, 256]] {
        chunk_table_pair::<htp::R4CroutonLayout>(filter, dims, "crouton", false);
    }
    chunk_table_pair::<htp::R4CroutonLayout>(filter, [1, 256, 256, 256], "crouton", true);
    chunk_table_pair::<htp::R4Depth32MemoryLayout>(filter, [1, 256, 256, 256], "d32", false);
    chunk_table_pair::<htp::R4Depth32MemoryLayout>(filter, [1, 256, 256, 256], "d32", true);
}

/// The two rows of `L`'s chunk tables of `dims`, `L` named `layout`, the chunks boxed one by
/// one (`boxed`) or in the tensor's pool.
fn chunk_table_pair<L>(filter: &Filter, dims: [usize; 4], layout: &str, boxed: bool)
where
    L: tensor_layout::Layout<Index = [usize; 4]> + Default + Copy,
    L: RelayoutFrom<htp::R4FlatMemoryLayout>,
    htp::R4FlatMemoryLayout: RelayoutFrom<L>,
{
    use tensor_layout::tensors::IndirectTensor;
    let name = format!("u8 {}x{}x{}x{}", dims[0], dims[1], dims[2], dims[3]);
    let table_kind = if boxed { "boxed chunks" } else { "chunk table" };
    let (out, into) = (
        format!("{name} {layout} ({table_kind})->flat"),
        format!("{name} flat->{layout} ({table_kind})"),
    );
    if !filter.wants(&out) && !filter.wants(&into) {
        return;
    }
    let flat =
        Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn(dims, |[n, h, w, c]| u8::of(n ^ h ^ w ^ c));
    let chunked = flat.relayout::<L>();
    let mut table: IndirectTensor<u8, L> = chunked.to_indirect();
    if boxed {
        table = IndirectTensor::from_chunks(dims, table.into_chunks()).unwrap();
    }
    let (mut flat_dst, mut chunked_dst) = (flat.clone(), chunked.clone());
    let bytes = size_of_val(flat.as_raw()) + size_of_val(chunked.as_raw());
    let rounds = TableRounds::new(bytes, size_of_val(chunked.as_raw()));
    rounds.row(
        &out,
        (&table, &mut flat_dst),
        |(table, flat)| black_box(&**table).relayout_into(flat).unwrap(),
        |(_, flat)| black_box(&chunked).relayout_into(flat).unwrap(),
    );
    rounds.row(
        &into,
        (&mut table, &mut chunked_dst),
        |(table, _)| table.relayout_from(black_box(&flat)).unwrap(),
        |(_, chunked)| black_box(&flat).relayout_into(chunked).unwrap(),
    );
}

/// Alternating rounds of a chunk table's relayout, the same relayout between contiguous
/// tensors, and memcpy of the same bytes.
struct TableRounds {
    bytes: usize,
    calls: usize,
    copy_from: AlignedBuffer<u8>,
    one: rayon::ThreadPool,
    two: rayon::ThreadPool,
}

impl TableRounds {
    /// Rounds for relayouts that move `bytes` (both sides), memcpy copying `copy_bytes`.
    fn new(bytes: usize, copy_bytes: usize) -> Self {
        TableRounds {
            bytes,
            calls: calls_for(bytes),
            copy_from: memcpy_buffers(copy_bytes).0,
            one: pool(1),
            two: pool(2),
        }
    }

    /// Times `table` (the chunk table's relayout), `contiguous` and memcpy in turn, each on one
    /// thread and (with `parallel`) on two, and prints the row named `name`. The two relayouts
    /// write into `tensors`, which they share.
    fn row<D: Send>(
        &self,
        name: &str,
        mut tensors: D,
        table: impl Fn(&mut D) + Sync,
        contiguous: impl Fn(&mut D) + Sync,
    ) {
        let mut copy_into = memcpy_buffers(self.copy_from.len()).1;
        let copy_from = &self.copy_from[..];
        let mut one_thread = [Vec::new(), Vec::new(), Vec::new()];
        let mut two_threads = [Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..self.calls {
            let [library, contiguous_1, copies] = &mut one_thread;
            library.push(on_one_thread(&self.one, || timed(|| table(&mut tensors))));
            contiguous_1.push(on_one_thread(&self.one, || {
                timed(|| contiguous(&mut tensors))
            }));
            copies.push(timed(|| {
                black_box(&mut copy_into[..]).copy_from_slice(black_box(copy_from))
            }));
            if cfg!(feature = "parallel") {
                let [library, contiguous_2, copies] = &mut two_threads;
                library.push(on_two_threads(&self.two, || timed(|| table(&mut tensors))));
                contiguous_2.push(on_two_threads(&self.two, || {
                    timed(|| contiguous(&mut tensors))
                }));
                copies.push(on_two_threads(&self.two, || {
                    timed(|| copy_halves(copy_from, &mut copy_into))
                }));
            }
        }
        let [library, contiguous_1, copies] = one_thread;
        let mut extra = ratio_to(&contiguous_1, &library, "");
        if cfg!(feature = "parallel") {
            let [library_2, contiguous_2, copies_2] = two_threads;
            extra += &ratio_to(&contiguous_2, &library_2, " 2 threads");
            let scale = |one: &[Duration], two: Vec<Duration>| {
                median(one.to_vec()).as_secs_f64() / median(two).as_secs_f64()
            };
            extra = format!(
                " {:.2} | {:.2} |{extra}",
                scale(&library, library_2),
                scale(&copies, copies_2)
            );
        }
        print_table_row(
            name, self.bytes, self.calls, library, copies, copy_from, extra,
        );
    }
}

/// The cell that compares the chunk table's median time with the contiguous relayout's
/// (`threads` says on how many, if not one).
fn ratio_to(contiguous: &[Duration], table: &[Duration], threads: &str) -> String {
    let (c, t) = (median(contiguous.to_vec()), median(table.to_vec()));
    format!(
        " contiguous ÷ table{threads} {:.2} |",
        c.as_secs_f64() / t.as_secs_f64()
    )
}

/// One row of the extra benches: the call's time as a ratio to memcpy of the same bytes, no
/// peers, then `extra` cells.
fn print_table_row(
    name: &str,
    bytes: usize,
    calls: usize,
    library: Vec<Duration>,
    copies: Vec<Duration>,
    copy_from: &[u8],
    extra: String,
) {
    let (library, memcpy) = (median(library), median(copies));
    let library_gbps = bytes as f64 / library.as_secs_f64() / 1e9;
    let memcpy_gbps = 2.0 * copy_from.len() as f64 / memcpy.as_secs_f64() / 1e9;
    println!(
        "| {name} | {:.1} M | {calls} | {:.2} | {library_gbps:.2} | {memcpy_gbps:.2} | {:.2} |{}{extra}",
        bytes as f64 / 1e6,
        library.as_secs_f64() * 1e6,
        library_gbps / memcpy_gbps,
        PeerTimes::NONE,
    );
}

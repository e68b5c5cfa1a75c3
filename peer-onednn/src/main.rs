//! The library's relayout beside oneDNN's reorder, in one process.
//!
//! `../shared/peers/run-onednn.sh` times oneDNN in a program of its own, minutes away from the
//! library's benches; on this machine memory speed drifts by up to 2x over minutes, so the two
//! ratios to memcpy come from different minutes. Here, one pair after another, the library's
//! `relayout_into` alternates with memcpy of the source's bytes, then oneDNN's reorder with
//! memcpy, each on buffers of its own, and each contender's median is divided by the median of
//! its own memcpy calls ("library ÷ oneDNN" divides those two ratios). The pairs are the
//! benches' (`benches/support/relayout_pairs.rs`) that oneDNN has tags for, on one thread. On
//! the plain transposes (`nchw->nhwc`, `nhwc->nchw`) the Rust peers follow in rounds of their
//! own with memcpy (`benches/support/peers.rs`: strided-perm's `copy_into`, ndarray's
//! `as_standard_layout` of a permuted view and its `assign`), checked against the library's
//! destination before timing. Why not all in one round: `benches/support/alternating.rs`.
//!
//! Before timing, oneDNN's source is filled with the library's source bytes, and after it the
//! two destinations must be equal byte for byte (padding included): the catalog's `onednn`
//! layouts are oneDNN's formats. `check` runs that comparison alone on odd shapes (channels
//! not a multiple of the block).
//!
//! Needs Debian's libdnnl-dev (`../shared/peers/run-onednn.sh` installs it):
//!
//! ```sh
//! cargo run --release --manifest-path peer-onednn/Cargo.toml [-- FILTER...]
//! cargo run --release --manifest-path peer-onednn/Cargo.toml -- 'nchw->nhwc' 'nhwc->nchw'
//! cargo run --release --manifest-path peer-onednn/Cargo.toml -- check
//! ```

mod reorder;

use reorder::Reorder;
use std::hint::black_box;
use std::time::Duration;
use tensor_layout::storage::AlignedBuffer;
use tensor_layout::axes::RelayoutFrom;
// What the library stores one per slot, as `relayout_pairs` names it (`super::TensorElement`).
use tensor_layout::tensors::Element as TensorElement;
use tensor_layout::prelude::*;

#[allow(dead_code)] // the pools and the 2-thread memcpy serve the benches, not this program
#[path = "../../benches/support/relayout_pairs.rs"]
mod relayout_pairs;
use relayout_pairs::{Element, Measure, each_pair};

#[path = "../../benches/support/alternating.rs"]
mod alternating;
use alternating::{calls_for, median, memcpy_buffers, with_memcpy};

#[path = "../../benches/support/peers.rs"]
mod peers;
use peers::{PeerTimes, Peers, Permutation};

/// The element type, the source's tag and the destination's, from a pair's name
/// (`"f32 8x256x56x56 nchw->nhwc"`).
fn onednn_names(name: &str) -> Option<(&str, &str, &str)> {
    let mut words = name.split_whitespace();
    let ty = words.next()?;
    let (src, dst) = words.nth(1)?.split_once("->")?;
    Some((ty, src, dst))
}

/// `slots` as bytes.
fn bytes_of<T: Element>(slots: &[T]) -> &[u8] {
    // SAFETY: the benches' element types (f32, f16, u8) have no padding bytes, so every byte
    // of the slice is initialised; the length is the slice's size in bytes.
    unsafe { std::slice::from_raw_parts(slots.as_ptr().cast(), size_of_val(slots)) }
}

/// The library's tensors and oneDNN's reorder of one pair, on the same source values.
struct Both<T: Element, A: Layout, B: Layout> {
    src: Tensor<T, A>,
    dst: Tensor<T, B>,
    peer: Reorder,
}

impl<T, A, B> Both<T, A, B>
where
    T: Element,
    A: Layout<Index = [usize; 4]> + Default,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    /// Both sides of `name` on `dims`, or `None` where oneDNN has no such reorder.
    fn new(name: &str, dims: [usize; 4]) -> Option<Self> {
        let (ty, from, to) = onednn_names(name)?;
        let mut peer = Reorder::new(from, to, dims, ty)?;
        // Each element's row-major number: values that differ along every axis, so that a
        // destination with two axes swapped differs from the library's.
        let number = |[n, c, h, w]: [usize; 4]| ((n * dims[1] + c) * dims[2] + h) * dims[3] + w;
        let src = Tensor::<T, A>::from_fn(dims, |index| T::of(number(index)));
        let source = bytes_of(src.as_raw());
        let peer_source = peer.src_mut();
        assert_eq!(
            peer_source.len(),
            source.len(),
            "{name}: source sizes differ"
        );
        peer_source.copy_from_slice(source);
        // The destination's dims are the source's in `B`'s axis order.
        let dst = src.relayout::<B>();
        Some(Both { src, dst, peer })
    }

    fn relayout(&mut self) {
        black_box(&self.src)
            .relayout_into(black_box(&mut self.dst))
            .unwrap();
    }

    /// Panics unless both destinations hold the same bytes.
    fn assert_equal(&self, name: &str, dims: [usize; 4]) {
        let (ours, theirs) = (bytes_of(self.dst.as_raw()), self.peer.dst());
        assert_eq!(ours.len(), theirs.len(), "{name} {dims:?}: sizes differ");
        if let Some(at) = ours.iter().zip(theirs).position(|(a, b)| a != b) {
            panic!("{name} {dims:?}: destinations differ first at byte {at}");
        }
    }
}

/// Times each pair whose name contains one of `filters` (every pair without one), printing a
/// Markdown row.
struct SideBySide {
    filters: Vec<String>,
}

impl Measure for SideBySide {
    fn pair<T: Element, A, B>(&mut self, name: &str, dims: [usize; 4], _naive: bool)
    where
        A: Layout<Index = [usize; 4]> + Default,
        B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
    {
        if !self.filters.is_empty() && !self.filters.iter().any(|f| name.contains(f.as_str())) {
            return;
        }
        let Some(mut both) = Both::<T, A, B>::new(name, dims) else {
            return;
        };
        let src = both.src.as_raw();
        let permutation = Permutation::of(&both.src, &both.dst);
        let mut rust_peers = permutation.map(|p| Peers::new(p, src));
        if let Some(rust_peers) = &mut rust_peers {
            rust_peers.check(name, both.dst.as_raw());
        }
        let (copy_from, mut copy_into) = memcpy_buffers(size_of_val(both.src.as_raw()));
        let bytes = size_of_val(both.src.as_raw()) + size_of_val(both.dst.as_raw());
        let calls = calls_for(bytes);
        // Each contender in rounds of its own with memcpy (`alternating` says why).
        let (library, memcpy) = with_memcpy(calls, &copy_from, &mut copy_into, || {
            black_box(&both.src)
                .relayout_into(black_box(&mut both.dst))
                .unwrap()
        });
        let (onednn, onednn_memcpy) =
            with_memcpy(calls, &copy_from, &mut copy_into, || both.peer.run());
        let mut rust = PeerTimes::default();
        let rust_memcpy = rust_peers.as_mut().map(|rust_peers| {
            with_memcpy(calls, &copy_from, &mut copy_into, || {
                rust_peers.time_round(&mut rust)
            })
            .1
        });
        both.assert_equal(name, dims);
        let gbps = |t: Duration, bytes: usize| bytes as f64 / t.as_secs_f64() / 1e9;
        let copied = |copies: Vec<Duration>| gbps(median(copies), 2 * copy_from.len());
        let library = gbps(median(library), bytes);
        let onednn = gbps(median(onednn), bytes);
        let (memcpy, onednn_memcpy) = (copied(memcpy), copied(onednn_memcpy));
        let rust_memcpy = rust_memcpy.map_or(memcpy, copied);
        let (library_ratio, onednn_ratio) = (library / memcpy, onednn / onednn_memcpy);
        println!(
            "| {name} | {:.1} M | {calls} | {library:.2} | {onednn:.2} | {memcpy:.2} | {library_ratio:.2} | {onednn_ratio:.2} | {:.2}x |{}",
            bytes as f64 / 1e6,
            library_ratio / onednn_ratio,
            rust.cells(bytes, rust_memcpy),
        );
    }
}

/// Compares the two destinations on odd shapes of every pair oneDNN has, and the Rust peers'
/// on the plain transposes.
struct Check {
    pairs: usize,
    rust_pairs: usize,
}

impl Measure for Check {
    fn pair<T: Element, A, B>(&mut self, name: &str, dims: [usize; 4], _naive: bool)
    where
        A: Layout<Index = [usize; 4]> + Default,
        B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
    {
        let odd = if dims[2] == 3 {
            [[35, 19, 3, 3], [16, 33, 1, 5]] // weights: o and i not multiples of 16
        } else {
            [[3, 19, 5, 7], [1, 40, 3, 1]] // activations: c not a multiple of 16 (or of 8)
        };
        for dims in odd {
            if let Some(mut both) = Both::<T, A, B>::new(name, dims) {
                both.relayout();
                both.peer.run();
                both.assert_equal(name, dims);
                self.pairs += 1;
                if let Some(permutation) = Permutation::of(&both.src, &both.dst) {
                    Peers::new(permutation, both.src.as_raw()).check(name, both.dst.as_raw());
                    self.rust_pairs += 1;
                }
            }
        }
    }
}

/// Compares the library's blocking descriptor of run-time layouts (`DynMapping::blocking_desc`)
/// with the memory descriptor oneDNN makes of the same tag, on dims that pad and dims that do
/// not; returns how many layout-dims pairs agreed.
fn check_descriptors() -> usize {
    let catalog = tensor_layout::registry::all()
        .iter()
        .filter(|e| e.system.module() == "onednn")
        .map(|e| e.name);
    let positional = [
        "aBcd16b",
        "aBcd8b",
        "ABcd16b16a",
        "aBCd16b16c",
        "ABcd4b16a4b",
        "abcd",
        "acdb",
    ];
    let mut agreed = 0;
    for tag in catalog.chain(positional) {
        let layout = tensor_layout::DynLayout::parse(tag).expect("the tag reads");
        for sizes in [[3, 19, 5, 7, 2], [32, 48, 1, 3, 4], [1, 1, 1, 1, 1]] {
            let dims = &sizes[..layout.rank()];
            let ours = layout.bind(dims).expect("small dims").blocking_desc();
            let theirs =
                reorder::blocking(tag, dims).unwrap_or_else(|| panic!("oneDNN describes no {tag}"));
            let what = format!("{tag} on {dims:?}");
            assert_eq!(ours.padded_dims, theirs.padded_dims, "{what}: padded_dims");
            assert_eq!(ours.strides, theirs.strides, "{what}: strides");
            assert_eq!(ours.inner_blks, theirs.inner_blks, "{what}: inner_blks");
            assert_eq!(ours.inner_idxs, theirs.inner_idxs, "{what}: inner_idxs");
            assert_eq!(
                (theirs.offset0, theirs.padded_offsets_zero),
                (0, true),
                "{what}"
            );
            agreed += 1;
        }
    }
    agreed
}

fn main() {
    reorder::set_threads(1);
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("check") {
        let described = check_descriptors();
        println!(
            "{described} layout-dims pairs: the library's blocking descriptor equals oneDNN's"
        );
        let mut check = Check {
            pairs: 0,
            rust_pairs: 0,
        };
        each_pair(&mut check);
        assert!(check.pairs > 0, "oneDNN made no reorder");
        assert!(check.rust_pairs > 0, "no plain transpose");
        println!(
            "{} pair-shapes: the library's destination equals oneDNN's",
            check.pairs
        );
        println!(
            "{} plain-transpose shapes: the library's destination equals strided-perm's and ndarray's",
            check.rust_pairs
        );
        return;
    }
    let filters = args.into_iter().filter(|a| !a.starts_with("--")).collect();
    println!(
        "| pair | bytes | calls | library GB/s | oneDNN GB/s | memcpy GB/s | library ÷ memcpy | oneDNN ÷ memcpy | library ÷ oneDNN |{}",
        PeerTimes::HEADER
    );
    println!(
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |{}",
        PeerTimes::RULE
    );
    each_pair(&mut SideBySide { filters });
}

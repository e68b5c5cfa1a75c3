//! Rust peers of the library on the plain transposes (pairs whose layouts are both plain, one
//! stride per axis: oneDNN's `nchw` and `nhwc`), each reading the library's source bytes into a
//! destination of its own, one thread each:
//!
//! - `strided-perm`: `copy_into` (HPTT's blocked transpose) from a `StridedView` of the source
//!   into a `StridedViewMut` of a preallocated buffer with the destination's strides, on the
//!   calling thread (`Exec::serial()`);
//! - `ndarray`, as a Rust user writes it: `ArrayView4::from_shape(dims.strides(..), src)`,
//!   `.permuted_axes(..)` into the destination's memory order, then `.as_standard_layout()`,
//!   which copies into a new row-major array each call (`.to_owned()` would not: a permuted
//!   view of contiguous data is copied as it lies, strides kept, a memcpy);
//! - `ndarray`'s `assign` of that permuted view into a preallocated standard-layout array (a
//!   careful user's hot loop).
//!
//! `Peers::check` compares each destination with the library's, bit for bit, before timing.

use ndarray::{Array4, ArrayView4, Ix4, ShapeBuilder};
use std::hint::black_box;
use std::time::Duration;
use strided_view::{StridedView, StridedViewMut};
use tensor_layout::axes::AxisNames;
use tensor_layout::prelude::*;
use threadteam::Exec;

use super::alternating::{median, timed};
use super::relayout_pairs::Element;

/// A plain pair's geometry, in the source's logical axis order.
#[derive(Clone, Copy, Debug)]
pub struct Permutation {
    /// The dims.
    dims: [usize; 4],
    /// Each axis's element stride in the source.
    src_strides: [usize; 4],
    /// Each axis's element stride in the destination (the destination's axis of the same
    /// name, as the library's relayout pairs them).
    dst_strides: [usize; 4],
}

impl Permutation {
    /// The geometry of `src -> dst`; `None` unless both are plain (no blocks, no padding, one
    /// stride per axis, storage exactly the elements) and their memory orders differ.
    pub fn of<T: Element, A, B>(src: &Tensor<T, A>, dst: &Tensor<T, B>) -> Option<Self>
    where
        A: Layout<Index = [usize; 4]>,
        B: Layout<Index = [usize; 4]>,
    {
        let (from, to) = (src.mapping(), dst.mapping());
        if from.storage_len() != from.len() || to.storage_len() != to.len() {
            return None;
        }
        let (src_strides, to_strides) = (from.strides()?, to.strides()?);
        let to_names = B::Names::NAMING.word(4)?;
        let at = A::Names::NAMING.word(4)?.positions_in(&to_names)?;
        let dst_strides = std::array::from_fn(|axis| to_strides[at[axis]]);
        let dims = from.dims();
        (src_strides != dst_strides).then_some(Permutation {
            dims,
            src_strides,
            dst_strides,
        })
    }

    /// The axes in the destination's memory order, most major first: the order in which a view
    /// of the source is row-major exactly where the destination's storage is.
    fn memory_order(&self) -> [usize; 4] {
        let mut order = [0, 1, 2, 3];
        order.sort_by_key(|&axis| std::cmp::Reverse(self.dst_strides[axis]));
        order
    }
}

/// Element strides as strided-view takes them.
fn signed(strides: [usize; 4]) -> [isize; 4] {
    strides.map(|s| isize::try_from(s).expect("a stride of a benchmarked tensor"))
}

/// The peers' destinations for one plain pair, and the source in the views they read.
pub struct Peers<'a, T> {
    permutation: Permutation,
    src: &'a [T],
    /// strided-perm's destination: the library's storage order.
    strided: Vec<T>,
    /// The source viewed in the destination's memory order (standard layout is that order).
    permuted: ArrayView4<'a, T>,
    /// `assign`'s destination, standard layout.
    assigned: Array4<T>,
}

impl<'a, T: Element> Peers<'a, T> {
    /// The peers of `permutation` reading `src` (the library's source storage).
    pub fn new(permutation: Permutation, src: &'a [T]) -> Self {
        let Permutation {
            dims, src_strides, ..
        } = permutation;
        let view = ArrayView4::from_shape(dims.strides(src_strides), src)
            .expect("the library's source storage holds its dims at its strides");
        let permuted = view.permuted_axes(permutation.memory_order());
        Peers {
            permutation,
            src,
            strided: vec![T::default(); src.len()],
            assigned: Array4::default(permuted.raw_dim()),
            permuted,
        }
    }

    /// strided-perm's `copy_into` on this thread, into its preallocated destination.
    pub fn strided_perm(&mut self) {
        let Permutation {
            dims,
            src_strides,
            dst_strides,
        } = self.permutation;
        let from = StridedView::<T>::new(black_box(self.src), &dims, &signed(src_strides), 0)
            .expect("the source storage holds its dims");
        let into = &mut self.strided[..];
        let mut into = StridedViewMut::<T>::new(black_box(into), &dims, &signed(dst_strides), 0)
            .expect("the destination storage holds its dims");
        strided_perm::copy_into(&mut into, &from, Exec::serial()).expect("strided-perm's copy");
    }

    /// ndarray's `as_standard_layout` of the permuted view: a new array of the destination's
    /// bytes. The caller drops it (outside its timing: the free is not the copy).
    pub fn standard_layout(&self) -> ndarray::CowArray<'_, T, Ix4> {
        black_box(&self.permuted).as_standard_layout()
    }

    /// ndarray's `assign` of the permuted view into the preallocated standard-layout array.
    pub fn assign(&mut self) {
        black_box(&mut self.assigned).assign(black_box(&self.permuted));
    }

    /// Runs each peer once; panics unless each destination equals `expected` (the library's
    /// destination storage) bit for bit.
    pub fn check(&mut self, name: &str, expected: &[T]) {
        self.strided_perm();
        same_bits(name, "strided-perm copy_into", &self.strided, expected);
        {
            let fresh = self.standard_layout();
            let fresh = fresh.as_slice().expect("a standard-layout array");
            same_bits(name, "ndarray as_standard_layout", fresh, expected);
        }
        self.assign();
        let assigned = self.assigned.as_slice().expect("a standard-layout array");
        same_bits(name, "ndarray assign", assigned, expected);
    }

    /// Times one call of each peer, in turn.
    pub fn time_round(&mut self, times: &mut PeerTimes) {
        times.strided_perm.push(timed(|| self.strided_perm()));
        let mut fresh = None;
        times
            .standard_layout
            .push(timed(|| fresh = Some(self.standard_layout())));
        drop(fresh);
        times.assign.push(timed(|| self.assign()));
    }
}

/// Panics unless `ours` (the peer's destination) and `expected` hold the same bits.
fn same_bits<T: Element>(pair: &str, peer: &str, ours: &[T], expected: &[T]) {
    assert_eq!(ours.len(), expected.len(), "{pair}: {peer}'s size differs");
    if let Some(at) = (ours.iter().zip(expected)).position(|(a, b)| a.bits() != b.bits()) {
        panic!("{pair}: {peer}'s destination differs from the library's first at element {at}");
    }
}

/// Call times of the peers on one pair.
#[derive(Default)]
pub struct PeerTimes {
    strided_perm: Vec<Duration>,
    standard_layout: Vec<Duration>,
    assign: Vec<Duration>,
}

impl PeerTimes {
    /// The table's header cells for the peers.
    pub const HEADER: &str =
        " strided-perm ÷ memcpy | ndarray as_standard_layout ÷ memcpy | ndarray assign ÷ memcpy |";
    /// Their alignment row.
    pub const RULE: &str = " ---: | ---: | ---: |";
    /// The cells of a row without peers.
    pub const NONE: &str = " - | - | - |";

    /// Each peer's throughput (`bytes` per median call) over `memcpy_gbps`, as table cells;
    /// [`Self::NONE`] when no peer ran.
    pub fn cells(self, bytes: usize, memcpy_gbps: f64) -> String {
        if self.strided_perm.is_empty() {
            return Self::NONE.to_string();
        }
        let ratio = |times: Vec<Duration>| {
            let gbps = bytes as f64 / median(times).as_secs_f64() / 1e9;
            gbps / memcpy_gbps
        };
        format!(
            " {:.2} | {:.2} | {:.2} |",
            ratio(self.strided_perm),
            ratio(self.standard_layout),
            ratio(self.assign)
        )
    }
}

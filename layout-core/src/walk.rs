//! Memory-order visits: the logical elements of a mapping as runs along its innermost axis,
//! skipping padding with one comparison per run, never a division per element.

use crate::odometer::{Odometer, logical};
use crate::{Layout, Mapping, mappings::Coords};
use core::ops::Range;

/// Logical elements that lie one after another along the innermost axis.
///
/// Element `j` of the run (for `j < len`) has the logical index `index` with `index[dim]`
/// increased by `j * step`, and lives at `offset + j * stride` (stride 1 for every dense layout).
///
/// ```
/// use tensor_layout::prelude::*;
/// let m = Mapping::<htp::R4NCHWMemoryLayout>::new([1, 2, 3, 4]).unwrap();
/// let mut first = None;
/// m.for_each_run(|run| { first.get_or_insert(*run); });
/// let run = first.unwrap();
/// assert_eq!((run.dim, run.len, run.stride), (1, 2, 1)); // height moves fastest
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run<I> {
    /// Logical index of the first element.
    pub index: I,
    /// Storage offset of the first element.
    pub offset: usize,
    /// Number of elements (at least 1).
    pub len: usize,
    /// The logical dimension that advances along the run.
    pub dim: usize,
    /// How much that coordinate advances per element.
    pub step: usize,
    /// How much the offset advances per element.
    pub stride: usize,
}

impl<I: Coords> Run<I> {
    /// Where the run lies in a space with the given element `strides` per logical dimension
    /// (row-major data, a strided view): the position of its first element and the distance
    /// between consecutive elements.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::mappings::row_major_strides;
    /// let m = Mapping::<htp::R4NCHWMemoryLayout>::new([1, 2, 3, 4]).unwrap();
    /// let mut runs = Vec::new();
    /// m.for_each_run(|run| runs.push(run.in_strided(&row_major_strides(&m.dims()))));
    /// assert_eq!(runs[0], (0, 12)); // height runs step over one row-major row of 3 x 4
    /// assert_eq!(runs[1], (4, 12)); // then width 1
    /// ```
    pub fn in_strided(&self, strides: &I) -> (usize, usize) {
        let start = (0..I::RANK).map(|d| self.index[d] * strides[d]).sum();
        (start, strides[self.dim] * self.step)
    }
}

impl<L: Layout> Mapping<L> {
    /// Calls `visit` for every run of logical elements, in memory order.
    ///
    /// The walk counts the layout's axes like an odometer, keeping the logical index and the
    /// offset up to date by additions; a subtree whose partial index is already past a dim is
    /// padding and skipped whole.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// let mut runs = Vec::new();
    /// m.for_each_run(|run| runs.push((run.index, run.offset, run.len)));
    /// assert_eq!(runs.len(), 15); // 3 rows x 5 columns, each a run of 30 channels
    /// assert_eq!(runs[0], ([0, 0, 0, 0], 0, 30));
    /// assert_eq!(runs[5], ([0, 1, 0, 0], 256, 30));
    /// ```
    pub fn for_each_run(&self, mut visit: impl FnMut(&Run<L::Index>)) {
        let dims = self.dims();
        let origin = self.origin();
        let axes = self.axes();
        let Some(inner) = axes.last() else { return };
        let levels = axes.len() - 1;
        for (at, offset) in Odometer::new(axes, levels, dims, origin, self.base_offset()) {
            // Digits of the inner axis that land on elements: at or past the origin, before
            // the end of the dims.
            let (start, end) = (origin[inner.dim], origin[inner.dim] + dims[inner.dim]);
            let digits = |limit: usize| limit.saturating_sub(at[inner.dim]).div_ceil(inner.step);
            let (first, last) = (digits(start), digits(end).min(inner.extent));
            let mut index = at;
            index[inner.dim] += first * inner.step;
            let Some(index) = logical(index, &origin) else {
                continue;
            };
            if first >= last {
                continue;
            }
            visit(&Run {
                index,
                offset: offset + first * inner.stride,
                len: last - first,
                dim: inner.dim,
                step: inner.step,
                stride: inner.stride,
            });
        }
    }

    /// Calls `visit(index, offset)` for every logical element, in memory order: each run of
    /// [`Mapping::for_each_run`] element by element, its index kept up to date by additions.
    pub(crate) fn for_each_element(&self, mut visit: impl FnMut(&L::Index, usize)) {
        self.for_each_run(|run| {
            let mut index = run.index;
            for j in 0..run.len {
                visit(&index, run.offset + j * run.stride);
                index[run.dim] += run.step;
            }
        });
    }

    /// Calls `visit` for every maximal range of padding slots, in increasing order.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, 30]).unwrap();
    /// let mut padding = Vec::new();
    /// m.for_each_padding(|range| padding.push(range));
    /// assert_eq!(padding, [30..2048]);
    /// ```
    ///
    /// A view of whole blocks of a chunked tensor (`slice_blocks`) has gaps between its chunks,
    /// the tensor's chunks outside the view: its padding lies inside its chunks, and only there.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, onednn::nChw16c>::zeros([1, 40, 1, 1]); // chunks of 16 channels
    /// let last = t.slice_blocks(1, 32..40).unwrap();
    /// let mut padding = Vec::new();
    /// last.mapping().for_each_padding(|range| padding.push(range));
    /// assert_eq!(padding, [8..16]);
    /// ```
    pub fn for_each_padding(&self, mut visit: impl FnMut(Range<usize>)) {
        if !self.layout().gaps_are_padding() {
            return;
        }
        if self.chunks_leave_gaps() {
            self.for_each_padding_in_chunks(visit);
            return;
        }
        let mut next = 0;
        self.for_each_run(|run| {
            debug_assert!(run.stride == 1 && run.offset >= next, "layout is not dense");
            if run.offset > next {
                visit(next..run.offset);
            }
            next = run.offset + run.len;
        });
        let end = self.storage_len();
        if end > next {
            visit(next..end);
        }
    }

    /// Whether the slots the axes address leave gaps in the storage (a view of whole blocks).
    fn chunks_leave_gaps(&self) -> bool {
        let addressed = self
            .axes()
            .iter()
            .try_fold(1usize, |slots, axis| slots.checked_mul(axis.extent));
        addressed.is_some_and(|slots| slots < self.storage_len().saturating_sub(self.base_offset()))
    }

    /// [`Mapping::for_each_padding`] chunk by chunk: in each chunk that holds a run, the slots
    /// no run covers (every chunk of a chunked layout holds an element).
    fn for_each_padding_in_chunks(&self, mut visit: impl FnMut(Range<usize>)) {
        let (volume, base) = (self.chunk_volume(), self.base_offset());
        // The current chunk's slots not yet visited.
        let (mut next, mut end) = (0, 0);
        self.for_each_run(|run| {
            debug_assert!(run.stride == 1, "chunks are dense");
            if run.offset >= end {
                if next < end {
                    visit(next..end);
                }
                next = run.offset - (run.offset - base) % volume;
                end = next + volume;
            }
            if run.offset > next {
                visit(next..run.offset);
            }
            next = run.offset + run.len;
        });
        if next < end {
            visit(next..end);
        }
    }
}

//! A chunk table's grid: its chunks by number as boxes of logical coordinates, one at a time
//! ([`Grid::each_chunk`]) or in bands of consecutive numbers ([`Grid::bands`]).
//!
//! A chunked layout numbers its chunks by the digits of its outer (rest) axes, row-major. When
//! each outer axis is the coarsest of its dimension, chunk `n` is the box that starts at each
//! outer digit times its step, and consecutive numbers with the outermost digits fixed and a run
//! of digits of the next axis are one box too (for HTP's crouton, 8-row bands of one image).

use super::axes::exact_chain;
use super::pair::Side;
use super::part::Part;
use crate::{layouts::Axes, layouts::Axis, layouts::MAX_AXES, mappings::MAX_RANK};
use alloc::vec::Vec;
use core::{cmp::Ordering, ops::Range};

/// The chunks of a chunk table as boxes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grid {
    /// The outer axes, outermost first.
    outer: Axes,
    /// The table's dims, in its own numbering (zero past its rank).
    dims: [usize; MAX_RANK],
}

/// Where a chunk lies: the corner of its box, and which outer axes are at their last digit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Corner {
    pub origin: [usize; MAX_RANK],
    /// Bit `i` set when outer axis `i` is at its last digit (chunks with the same bits have
    /// boxes of the same shape).
    pub last: u32,
}

impl Corner {
    /// Puts outer axis `i`, `axis`, at `digit`: its coordinate and its last-digit bit.
    #[inline]
    fn set(&mut self, i: usize, axis: &Axis, digit: usize) {
        self.origin[axis.dim] = digit * axis.step;
        self.last = (self.last & !(1 << i)) | (u32::from(digit + 1 == axis.extent) << i);
    }
}

impl Grid {
    /// The grid of `side` whose innermost `chunk_axes` axes are one chunk; `None` unless its
    /// chunks are numbered densely by outer axes, each the coarsest of its dimension.
    pub(crate) fn of(side: &Side, dims: &[usize], chunk_axes: usize) -> Option<Grid> {
        let axes = &side.axes;
        let len = axes.len().checked_sub(chunk_axes)?;
        let plain = side.base == 0 && side.origin.iter().all(|&o| o == 0);
        if len == 0 || len > 32 || !plain {
            return None;
        }
        let volume: usize = axes[len..].iter().map(|a| a.extent).product();
        let mut chunks = 1usize;
        for (i, axis) in axes[..len].iter().enumerate().rev() {
            // The only outer axis of its dimension, and its coarsest.
            let alone = axes
                .iter()
                .enumerate()
                .all(|(k, a)| k == i || a.dim != axis.dim || (k >= len && a.step <= axis.step));
            let dense = axis.stride == chunks.checked_mul(volume)?;
            if axis.extent == 0 || !alone || !dense || !exact_chain(axes, axis.dim) {
                return None;
            }
            chunks = chunks.checked_mul(axis.extent)?;
        }
        let mut all_dims = [0; MAX_RANK];
        all_dims[..dims.len()].copy_from_slice(dims);
        Some(Grid {
            outer: Axes::from_slice(&axes[..len]),
            dims: all_dims,
        })
    }

    /// Number of chunks.
    pub(crate) fn count(&self) -> usize {
        self.outer.iter().map(|a| a.extent).product()
    }

    /// Calls `visit` with the number and corner of each chunk of `chunks`, in order of number.
    #[inline]
    pub(crate) fn each_chunk(&self, chunks: Range<usize>, mut visit: impl FnMut(usize, &Corner)) {
        if chunks.is_empty() {
            return;
        }
        let (outer, inner) = self.outer.split_at(self.outer.len() - 1);
        let (inner, inner_index) = (inner[0], outer.len());
        let mut corner = Corner::default();
        // A row: the chunks of one combination of the outer digits, the innermost aside.
        let rows = chunks.start / inner.extent..(chunks.end - 1) / inner.extent + 1;
        let mut digits = [0usize; MAX_AXES];
        let mut rest = rows.start;
        for (i, axis) in outer.iter().enumerate().rev() {
            digits[i] = rest % axis.extent;
            rest /= axis.extent;
            corner.set(i, axis, digits[i]);
        }
        for row in rows {
            let first = row * inner.extent;
            let digits_here =
                chunks.start.max(first) - first..chunks.end.min(first + inner.extent) - first;
            for digit in digits_here {
                corner.set(inner_index, &inner, digit);
                visit(first + digit, &corner);
            }
            // The next row: the outer digits counted up by one.
            for (i, axis) in outer.iter().enumerate().rev() {
                digits[i] = (digits[i] + 1) % axis.extent;
                corner.set(i, axis, digits[i]);
                if digits[i] > 0 {
                    break;
                }
            }
        }
    }

    /// One chunk of each pattern of last digits that occurs, as a band of its own, and its
    /// corner: the outer axes of the pattern at their last digit, the others at their first.
    /// `None` past `most`.
    pub(crate) fn each_pattern(
        &self,
        most: usize,
    ) -> Option<impl Iterator<Item = (Band, Corner)> + '_> {
        let outer = &self.outer;
        let free = outer.iter().filter(|a| a.extent > 1).count();
        if free >= usize::BITS as usize || 1usize << free > most {
            return None;
        }
        Some((0..1usize << free).map(move |pattern| {
            let mut corner = Corner::default();
            let (mut number, mut bit) = (0, 0);
            for (i, axis) in outer.iter().enumerate() {
                let at_last = axis.extent == 1 || {
                    bit += 1;
                    pattern >> (bit - 1) & 1 == 1
                };
                let digit = if at_last { axis.extent - 1 } else { 0 };
                corner.set(i, axis, digit);
                number = number * axis.extent + digit;
            }
            let (chunks, part) = (number..number + 1, self.part(&corner));
            (Band { chunks, part }, corner)
        }))
    }

    /// The box of the chunk at `corner`.
    pub(crate) fn part(&self, corner: &Corner) -> Part {
        self.span(|_, axis| {
            let digit = corner.origin[axis.dim] / axis.step;
            digit..digit + 1
        })
    }

    /// The box of the chunks whose digit of each outer axis `i` lies in `digits(i, axis)`.
    fn span(&self, digits: impl Fn(usize, &Axis) -> Range<usize>) -> Part {
        let mut part = Part {
            start: [0; MAX_RANK],
            end: self.dims,
        };
        for (i, axis) in self.outer.iter().enumerate() {
            let digits = digits(i, axis);
            part.start[axis.dim] = digits.start * axis.step;
            part.end[axis.dim] = (digits.end * axis.step).min(self.dims[axis.dim]);
        }
        part
    }

    /// Bands of at most `bytes` of chunks of `chunk_bytes` (at least one chunk each), in order
    /// of their chunk numbers: together every chunk once. Each runs over digits of one outer
    /// axis, the level, at one digit of each axis outside it.
    pub(crate) fn bands(&self, chunk_bytes: usize, bytes: usize) -> Vec<Band> {
        let outer = &self.outer;
        // The outermost axis one of whose digits fits in `bytes`, the innermost if none does.
        let (mut per_digit, mut level) = (self.count() / outer[0].extent, 0);
        while per_digit.saturating_mul(chunk_bytes) > bytes && level + 1 < outer.len() {
            level += 1;
            per_digit /= outer[level].extent;
        }
        let extent = outer[level].extent;
        let fit = (bytes / per_digit.saturating_mul(chunk_bytes).max(1)).clamp(1, extent);
        // Digits of the level per band (the last band of each run may have fewer).
        let digits = extent.div_ceil(extent.div_ceil(fit));
        // A run: one combination of the digits outside the level, as one number.
        let runs: usize = outer[..level].iter().map(|a| a.extent).product();
        let band = |run: usize, first: usize| {
            let last = (first + digits).min(extent);
            let part = self.span(|i, axis| match i.cmp(&level) {
                Ordering::Less => {
                    // `run`'s digit of the axis, the last axis fastest.
                    let below: usize = outer[i + 1..level].iter().map(|a| a.extent).product();
                    let digit = run / below % axis.extent;
                    digit..digit + 1
                }
                Ordering::Equal => first..last,
                Ordering::Greater => 0..axis.extent,
            });
            let at = run * extent;
            let chunks = (at + first) * per_digit..(at + last) * per_digit;
            Band { chunks, part }
        };
        let firsts = (0..extent).step_by(digits);
        (0..runs)
            .flat_map(|run| firsts.clone().map(move |first| band(run, first)))
            .collect()
    }
}

/// One band: its chunk numbers and its box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Band {
    pub chunks: Range<usize>,
    pub part: Part,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mapping;
    use crate::relayout::test_layouts::{Crouton, FourDims};

    /// Croutons with their channel blocks outermost.
    type ChannelsFirst = crate::chunked_layout![NHWC; 3,0, 0,0, 1,0, 2,0, 1,8, 2,8, 3,32];

    /// The grid of a table of 3-axis chunks; `None` where [`Grid::of`] finds none.
    fn grid_of<L: FourDims>(m: &Mapping<L>) -> Option<Grid> {
        Grid::of(&Side::of(m), &m.dims(), 3)
    }

    /// The box of chunk `n` by the mapping's own chunk numbering.
    fn chunk_box(m: &Mapping<Crouton>, n: usize) -> ([usize; 4], [usize; 4]) {
        let (_, origin) = m.chunk_start(n).unwrap();
        let dims = m.chunk_dims(origin);
        (origin, core::array::from_fn(|d| origin[d] + dims[d]))
    }

    /// Corners come in the mapping's chunk order with each chunk's box and last digits, any run.
    #[test]
    fn corners_are_the_chunks_in_order() {
        let m = Mapping::<Crouton>::new([2, 19, 17, 70]).unwrap();
        let grid = grid_of(&m).unwrap();
        assert_eq!(grid.count(), m.chunk_count());
        let mut corners: Vec<Corner> = Vec::new();
        grid.each_chunk(0..grid.count(), |n, corner| {
            assert_eq!(n, corners.len());
            corners.push(*corner);
        });
        assert_eq!(corners.len(), m.chunk_count());
        for (n, corner) in corners.iter().enumerate() {
            let part = grid.part(corner);
            let (start, end) = chunk_box(&m, n);
            assert_eq!([&part.start[..4], &part.end[..4]], [start, end], "{n}");
            let last = [start[0] == 1, end[1] == 19, end[2] == 17, end[3] == 70];
            for (i, is_last) in last.into_iter().enumerate() {
                assert_eq!(corner.last >> i & 1 == 1, is_last, "{n} axis {i}");
            }
        }
        // Any run: the same chunks, ending inside rows (of 3 chunks) or on their edges.
        for chunks in [0..1, 2..3, 1..8, 3..9, 5..40, 50..corners.len(), 7..7] {
            let mut visited = Vec::new();
            grid.each_chunk(chunks.clone(), |n, corner| visited.push((n, *corner)));
            let want: Vec<(usize, Corner)> = chunks.clone().map(|n| (n, corners[n])).collect();
            assert_eq!(visited, want, "{chunks:?}");
        }
    }

    /// Every chunk in exactly one band, in order, and each band's box the union of its chunks'.
    #[test]
    fn bands_are_runs_of_chunks_and_their_boxes() {
        let m = Mapping::<Crouton>::new([2, 19, 17, 70]).unwrap();
        let grid = grid_of(&m).unwrap();
        for bytes in [1, 2048, 3 * 2048, 9 * 2048, 20 * 2048, 1 << 20] {
            let bands = grid.bands(2048, bytes);
            let mut next = 0;
            for band in &bands {
                assert_eq!(band.chunks.start, next, "{bytes}");
                next = band.chunks.end;
                assert!(band.chunks.len() * 2048 <= bytes.max(2048));
                let (start, end) = (band.part.start, band.part.end);
                let mut held = 0;
                for n in band.chunks.clone() {
                    let (from, to) = chunk_box(&m, n);
                    assert!((0..4).all(|d| start[d] <= from[d] && to[d] <= end[d]));
                    held += (0..4).map(|d| to[d] - from[d]).product::<usize>();
                }
                let covered: usize = (0..4).map(|d| end[d] - start[d]).product();
                assert_eq!(covered, held, "{bytes} {band:?}");
            }
            assert_eq!(next, m.chunk_count());
        }
        assert_eq!(grid.bands(2048, 1 << 20).len(), 1);
        let images = grid.bands(2048, 27 * 2048);
        assert_eq!(images.len(), 2);
        assert_eq!(
            (images[1].chunks.clone(), images[1].part.start[0]),
            (27..54, 1)
        );
    }

    /// No grid for an empty table; channel blocks outermost still make whole-block bands.
    #[test]
    fn grids_of_other_tables() {
        assert!(grid_of(&Mapping::<Crouton>::new([1, 0, 8, 32]).unwrap()).is_none());
        let m = Mapping::<ChannelsFirst>::new([1, 9, 9, 40]).unwrap();
        let grid = grid_of(&m).unwrap();
        let first = &grid.bands(2048, 2048)[0];
        assert_eq!((first.part.start[3], first.part.end[3]), (0, 32));
        let mut origins = Vec::new();
        grid.each_chunk(0..grid.count(), |_, corner| origins.push(corner.origin));
        assert_eq!(origins[4][..4], [0, 0, 0, 32]);
    }
}

//! Counting through the outer axes of a layout, keeping index and offset current by additions.

use crate::{layout::MAX_AXES, layouts::Axes, mappings::Coords};

/// Yields the partial index and offset of every digit combination of a layout's `levels`
/// outermost axes, in memory order, skipping each combination whose partial index is already
/// past the dims (its whole subtree is padding).
///
/// Indices are virtual: they count from the axes' starting point, so a layout with an origin
/// ([`crate::Layout::origin`]) yields its logical index plus the origin, and combinations below
/// the origin are for the caller to drop (see [`logical`]).
pub(crate) struct Odometer<I: Coords> {
    axes: Axes,
    levels: usize,
    dims: I,
    digits: [usize; MAX_AXES],
    index: I,
    offset: usize,
    done: bool,
}

impl<I: Coords> Odometer<I> {
    /// Starts at all digits zero, at offset `base`; yields nothing when some dim is zero.
    pub(crate) fn new(axes: Axes, levels: usize, dims: I, origin: I, base: usize) -> Self {
        let done = dims.as_ref().contains(&0);
        let mut limit = dims;
        for d in 0..I::RANK {
            limit[d] += origin[d];
        }
        Self {
            axes,
            levels,
            dims: limit,
            digits: [0; MAX_AXES],
            index: I::splat(0),
            offset: base,
            done,
        }
    }

    /// Moves to the next combination that is not wholly padding.
    fn advance(&mut self) {
        let mut level = self.levels;
        while level > 0 {
            level -= 1;
            let axis = &self.axes[level];
            self.digits[level] += 1;
            self.index[axis.dim] += axis.step;
            self.offset += axis.stride;
            if self.digits[level] < axis.extent && self.index[axis.dim] < self.dims[axis.dim] {
                return;
            }
            self.index[axis.dim] -= self.digits[level] * axis.step;
            self.offset -= self.digits[level] * axis.stride;
            self.digits[level] = 0;
        }
        self.done = true;
    }
}

/// The logical index of virtual index `virtual_index` (see [`Odometer`]), `None` when some
/// coordinate lies before the origin.
pub(crate) fn logical<I: Coords>(mut virtual_index: I, origin: &I) -> Option<I> {
    for d in 0..I::RANK {
        virtual_index[d] = virtual_index[d].checked_sub(origin[d])?;
    }
    Some(virtual_index)
}

impl<I: Coords> Iterator for Odometer<I> {
    type Item = (I, usize);

    #[inline]
    fn next(&mut self) -> Option<(I, usize)> {
        if self.done {
            return None;
        }
        let current = (self.index, self.offset);
        self.advance();
        Some(current)
    }
}

//! Counting through the outer axes of a layout, keeping index and offset current by additions.

use crate::{Axes, Coords, layout::MAX_AXES};

/// Yields the partial logical index and offset of every digit combination of a layout's
/// `levels` outermost axes, in memory order, skipping each combination whose partial index is
/// already past the dims (its whole subtree is padding).
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
    pub(crate) fn new(axes: Axes, levels: usize, dims: I, base: usize) -> Self {
        let done = dims.as_ref().contains(&0);
        Self {
            axes,
            levels,
            dims,
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

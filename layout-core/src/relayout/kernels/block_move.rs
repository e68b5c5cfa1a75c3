//! The micro-kernels' interface, which each ISA's blocks implement and the macro-kernels drive.

use super::prefetch::prefetch;
use crate::relayout::lines::{DST, Lines, SRC};
use crate::relayout::tuning::{CACHE_LINE, ROWS};

/// Whether a block of `ROWS` rows of `cols` one-byte elements is exactly one 64-byte line.
pub(crate) const fn block_is_line(cols: usize) -> bool {
    ROWS * cols == CACHE_LINE
}

/// How one full block of `ROWS` rows by `COLS` columns moves between its [`BlockLines`].
pub(crate) trait BlockMove<T: Copy> {
    /// Whether blocks whose destination lines are whole cache lines bypass the caches.
    const STREAMS: bool = false;

    /// The same blocks written through the caches, for the few-rows stage (which streamed
    /// stores would send to memory).
    type Cached: BlockMove<T>;

    /// Whether blocks of `COLS` columns bypass the caches: `STREAMS`, and rows of whole lines.
    fn streams<const COLS: usize>() -> bool {
        Self::STREAMS && COLS * size_of::<T>() == CACHE_LINE
    }

    /// Whether blocks of `COLS` columns bypass the caches two rows to a line (rows of half a
    /// line, whole where the next row follows): `STREAMS`, and rows of 32 bytes.
    fn streams_pairs<const COLS: usize>() -> bool {
        Self::STREAMS && COLS * size_of::<T>() == 32
    }

    /// Whether blocks of `COLS` columns bypass the caches as one line each: `STREAMS`, and
    /// `ROWS` adjacent rows of `COLS` bytes make a line (u8 flat->crouton2x2).
    fn streams_block_lines<const COLS: usize>() -> bool {
        Self::STREAMS && size_of::<T>() == 1 && block_is_line(COLS)
    }

    /// Prefetches the cache line holding `slots[at]`: [`prefetch`] by default.
    #[inline(always)]
    fn prefetch(slots: &[T], at: usize) {
        prefetch(slots, at);
    }

    /// Moves the block into `dst`.
    ///
    /// # Safety
    ///
    /// Every line lies inside its slice (checked once per call by the planes, not per line):
    /// `b.s + b.cols.at(j) + ROWS <= b.src.len()` and `b.d + b.rows.at(k) + COLS <= dst.len()`.
    unsafe fn block<const COLS: usize, L: Lines<DST>, C: Lines<SRC>>(
        dst: &mut [T],
        b: BlockLines<'_, T, L, C, COLS>,
    );
}

/// Where one block's lines lie: `COLS` source lines, each `ROWS` long, at `s + cols.at(j)`;
/// `ROWS` destination lines, each `COLS` long, at `d + rows.at(k)`. The destination is a separate
/// argument, so the compiler knows stores leave `src` and `cols` alone, kept in registers.
pub(crate) struct BlockLines<'a, T, L, C, const COLS: usize> {
    pub d: usize,
    pub rows: L,
    pub src: &'a [T],
    pub s: usize,
    pub cols: C,
}

impl<'a, T, L: Lines<DST>, const COLS: usize>
    BlockLines<'a, T, L, &'a [(usize, usize); COLS], COLS>
{
    /// The block whose source lines start at `s + cols[j].0`.
    #[inline(always)]
    pub(crate) fn new(
        d: usize,
        rows: L,
        src: &'a [T],
        s: usize,
        cols: &'a [(usize, usize); COLS],
    ) -> Self {
        BlockLines {
            d,
            rows,
            src,
            s,
            cols,
        }
    }
}

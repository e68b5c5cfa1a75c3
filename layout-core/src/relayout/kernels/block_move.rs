//! The interface of the micro-kernels, which each ISA's blocks implement and the macro-kernels
//! drive: how one block of [`ROWS`] rows by `COLS` columns moves.

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

    /// The same blocks written through the caches: tiles of a few rows move through a local
    /// stage (`few_rows.rs`), which streamed stores would send to memory.
    type Cached: BlockMove<T>;

    /// Whether blocks of `COLS` columns bypass the caches: `STREAMS`, and rows of whole lines.
    fn streams<const COLS: usize>() -> bool {
        Self::STREAMS && COLS * size_of::<T>() == CACHE_LINE
    }

    /// Whether blocks of `COLS` columns bypass the caches two rows to a line: their destination
    /// lines are half cache lines (whole where the next row follows) and `STREAMS` holds.
    fn streams_pairs<const COLS: usize>() -> bool {
        Self::STREAMS && COLS * size_of::<T>() == 32
    }

    /// Whether blocks of `COLS` columns bypass the caches as one line each: `ROWS` adjacent
    /// rows of `COLS` bytes make one 64-byte line (u8 flat->crouton2x2), and `STREAMS` holds.
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
    /// Every line lies inside its slice: `b.s + b.cols.at(j) + ROWS <= b.src.len()` for each
    /// `j < COLS` and `b.d + b.rows.at(k) + COLS <= dst.len()` for each `k < ROWS` (checked
    /// once per call by the planes, so blocks skip per-line bounds checks).
    unsafe fn block<const COLS: usize, L: Lines<DST>, C: Lines<SRC>>(
        dst: &mut [T],
        b: BlockLines<'_, T, L, C, COLS>,
    );
}

/// Where one block's lines lie: `COLS` source lines, each `ROWS` long, at `s + cols.at(j)`;
/// `ROWS` destination lines, each `COLS` long, at `d + rows.at(k)`. The destination stays a
/// separate argument, so the compiler knows the stores leave `src` and `cols` alone and keeps
/// what it read of them in registers.
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

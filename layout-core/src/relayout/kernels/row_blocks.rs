//! What a row-copy call takes: one listed block of rows' slots, and what its rows prefetch.

/// One row block: its destination and source slots and starts, and how far on its rows
/// prefetch their source ([`Ahead::src`]; 0: not at all).
pub(crate) struct RowBlock<'a, T> {
    pub dst: &'a mut [T],
    pub d: usize,
    pub src: &'a [T],
    pub s: usize,
    pub source_ahead: usize,
}

impl<T> RowBlock<'_, T> {
    /// This block, borrowed again for a shorter while.
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> RowBlock<'_, T> {
        RowBlock {
            dst: &mut *self.dst,
            ..*self
        }
    }
}

/// What a row copy prefetches ahead of its rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ahead {
    /// Prefetches the destination line [`PREFETCH_ROWS`](crate::relayout::tuning::PREFETCH_ROWS)
    /// rows on, in each row (a destination past the caches).
    pub dst_rows: bool,
    /// Each row prefetches its source this many elements on (0: none), its counterpart in the
    /// next row block: rows gathered from far apart (u8 flat->crouton reads each chunk from
    /// eight image rows) come from more places than the hardware prefetchers follow.
    pub src: usize,
}

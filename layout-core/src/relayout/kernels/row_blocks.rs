//! The slots a row-copy call moves one listed block of rows between.

/// One row block: its destination and source slots and starts, and how far on its rows
/// prefetch their source ([`Ahead::src`](super::ahead::Ahead); 0: not at all).
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
            d: self.d,
            src: self.src,
            s: self.s,
            source_ahead: self.source_ahead,
        }
    }
}

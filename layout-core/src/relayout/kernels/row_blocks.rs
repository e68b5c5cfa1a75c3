//! Row blocks that one row-copy call moves with one listing, each between slots of its own (a
//! chunk table's chunks and their boxes in the other tensor): one call per batch keeps the
//! kernel's set-up off the per-chunk path.

/// The row blocks of one row-copy call ([`copy_listed_blocks`](super::rows::copy_listed_blocks)):
/// the same listed rows from and to other slots, block by block.
pub(crate) trait RowBlocks<T> {
    /// How many blocks.
    fn count(&self) -> usize;

    /// Block `k` (below [`count`](Self::count)).
    fn block(&mut self, k: usize) -> RowBlock<'_, T>;
}

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

/// A single row block as [`RowBlocks`]: a relayout's row block of the walk.
pub(crate) struct OneBlock<'a, T>(pub RowBlock<'a, T>);

impl<T> RowBlocks<T> for OneBlock<'_, T> {
    #[inline(always)]
    fn count(&self) -> usize {
        1
    }

    #[inline(always)]
    fn block(&mut self, _: usize) -> RowBlock<'_, T> {
        self.0.reborrow()
    }
}

//! What a row copy asks the caches for ahead of its rows.

/// What a row copy asks the caches for ahead of the rows it copies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ahead {
    /// Each row asks for the destination line
    /// [`PREFETCH_ROWS`](crate::relayout::tuning::PREFETCH_ROWS) rows on (a destination larger
    /// than the caches).
    pub dst_rows: bool,
    /// Each row asks for its source this many elements on (0: none), where its counterpart in
    /// the next row block of a walk (in a chunk table, a period of chunks on) lies: rows
    /// gathered from far apart (u8 flat->crouton reads each chunk from eight image rows) come
    /// from more places than the hardware prefetchers follow.
    pub src: usize,
}

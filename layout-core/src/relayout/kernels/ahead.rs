//! What a row copy asks the caches for ahead of its rows.

/// What a row copy prefetches ahead of its rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ahead {
    /// Each row prefetches the destination line
    /// [`PREFETCH_ROWS`](crate::relayout::tuning::PREFETCH_ROWS) rows on (destination past the
    /// caches).
    pub dst_rows: bool,
    /// Each row prefetches its source this many elements on (0: none), its counterpart in the
    /// next row block: rows gathered from far apart (u8 flat->crouton reads each chunk from
    /// eight image rows) come from more places than the hardware prefetchers follow.
    pub src: usize,
}

//! The engine's fixed numbers: facts of the vector blocks and sizes that do not depend on the
//! caches (those that do: [`choices`](super::choices)). Each only picks between kernels that
//! are correct either way (docs/engine-measurements.md, "The fixed numbers").

/// Bytes of a cache line, the unit of every streamed store and prefetch.
pub(crate) const CACHE_LINE: usize = 64;

/// Rows of a transpose block, the source lines read together: a 128-bit register's 16 bytes.
pub(crate) const ROWS: usize = 16;

/// Most rows a listed row block (or a transpose's rows or columns) may have: bounds the
/// listings' memory (16 bytes a row).
pub(crate) const MAX_LISTED: usize = 1 << 14;

/// Rows after which a listed row block stops growing, keeping its listing in L1 beside its rows.
pub(crate) const ROW_BLOCK_ENOUGH: usize = 1 << 9;

/// How many times its rows' bytes a row block's source must span for each row to prefetch its
/// counterpart in the next block (into a far destination): such rows outrun the prefetchers.
pub(crate) const ROW_SOURCE_SPREAD: usize = 4;

/// Least distance to the next row block's rows for them to be asked for ahead: nearer, the
/// hardware prefetchers are already there.
pub(crate) const ROW_SOURCE_AHEAD_BYTES: usize = 1 << 10;

/// Destination bytes after which a batch of transpose tiles stops growing: enough to spread a
/// call over many tiles, few enough to leave outer loops for the parallel split.
pub(crate) const TILE_BATCH_ENOUGH: usize = 64 << 10;

/// How far ahead of a transpose block its source lines are prefetched: four lines.
pub(crate) const PREFETCH_BYTES: usize = 4 * CACHE_LINE;

/// The most source lines a staged transpose's row group leaves to the hardware prefetcher,
/// which follows few streams; past it each block prefetches [`PREFETCH_BYTES`] ahead.
#[cfg(x86_kernels)]
pub(crate) const PREFETCHED_STREAMS: usize = 16;

/// How far ahead a source read as one run is prefetched to cover memory's latency: where the L1d
/// has room ([`Choices::run_prefetch_bytes`](super::choices::Choices::run_prefetch_bytes)), and
/// always in the AVX-512 realigned runs.
pub(crate) const RUN_PREFETCH_BYTES: usize = 8 << 10;

/// Farthest apart two columns' source lines may start for the source to be read as one run
/// ([`RUN_PREFETCH_BYTES`]): two lines, so every source line is at least half used.
pub(crate) const NEAR_RUN_BYTES: usize = 2 * CACHE_LINE;

/// The farthest apart a streamed transpose's source columns lie for its row blocks to sweep
/// every column ([`Choices::sweep_four_byte`](super::choices::Choices::sweep_four_byte)): a
/// stride the hardware prefetcher follows. Farther, the general blocks prefetch each column.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const SWEPT_COLUMNS_APART_BYTES: usize = 1024;

/// Source columns of a 1- or 2-byte transpose a multiple of this many bytes apart crowd one or
/// two L1 sets, and a page each: such transposes stage each row group's column lines first,
/// [`CROWDED_VISIT_LINES`] per column at a time. At 1 KiB the stage costs more than it saves.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const CROWDED_SOURCE_PITCH_BYTES: usize = 2048;

/// Lines of each column a transpose with crowded source columns ([`CROWDED_SOURCE_PITCH_BYTES`])
/// reads per visit, so that the pages of the columns stay in the TLB.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const CROWDED_VISIT_LINES: usize = 8;

/// Destination rows of a cached 1- or 2-byte transpose a multiple of this many bytes apart put
/// a row group's lines into one or two L1 sets; its row blocks then go one at a time through
/// every column, each row written in one pass. At 1 KiB this costs more than it saves.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const CROWDED_ROW_PITCH_BYTES: usize = 2048;

/// Most source bytes a group of column blocks written in one visit may span: one compact region.
pub(crate) const GROUP_SOURCE_BYTES: usize = 64 << 10;

/// Longest destination row of a transpose written whole in one visit (every column block in
/// turn, where [`Choices::whole_rows_fit`](super::choices::Choices::whole_rows_fit) allows).
pub(crate) const WHOLE_ROW_BYTES: usize = 4 << 10;

/// Destination bytes per row that a visit writes where the rows' pitch crowds the L1 sets
/// (`kernels::tile_shape::crowds_sets`): four lines, not sixteen.
pub(crate) const ALIASED_VISIT_BYTES: usize = 4 * CACHE_LINE;

/// Destination bytes one band of a cached transpose covers: a few times L1, well inside L2.
pub(crate) const BAND_BYTES: usize = 64 << 10;

/// Least source bytes per column a band reads in one run, so the hardware prefetchers follow it.
pub(crate) const BAND_SOURCE_RUN_BYTES: usize = 8 * CACHE_LINE;

/// Rows spanning at most this many source bytes go in one band, their source read in order.
pub(crate) const WHOLE_BAND_SOURCE_BYTES: usize = 2 << 10;

/// Least bytes of a chunk that a chunk table's relayout moves straight between the chunk and
/// the other tensor; smaller chunks go in bands through a buffer.
pub(crate) const CHUNK_ALONE_BYTES: usize = 512;

/// Most bytes of one band of a chunk table's relayout, moved straight where each row of the
/// band's plan lies in one chunk, else through a buffer that stays in L2 beside the kernels'
/// other lines; smaller bands cost more than they save.
pub(crate) const CHUNK_BAND_BYTES: usize = 256 << 10;

/// Column blocks ahead whose source lines (both, where a column's 64 bytes straddle two) a
/// streamed 4-byte sweep prefetches; through the caches the prefetches cost more than they save.
#[cfg(x86_kernels)]
pub(crate) const SWEEP_SOURCE_AHEAD_BLOCKS: usize = 4;

/// Rows ahead whose destination line a row copy into a far destination asks for; through the
/// cache the prefetch slows row copies, hence far destinations only.
pub(crate) const PREFETCH_ROWS: usize = 8;

/// Least destination size that streams, whatever the cache: past a core's L2, writing through
/// the cache first reads each line it overwrites.
pub(crate) const STREAM_FLOOR_BYTES: usize = 4 << 20;

/// Transposes (and row copies that pair half-line rows, and the destination prefetch of other
/// far row copies) stream from this fraction of the last-level cache (`schedule::streaming`).
pub(crate) const STREAM_BLOCKS_FROM_CACHE_SHARE: usize = 32;

/// Row copies whose every row is one whole cache line stream from this fraction of the
/// last-level cache: below it a plain cached memcpy is faster.
pub(crate) const STREAM_LINE_ROWS_FROM_CACHE_SHARE: usize = 16;

/// Pieces per thread in a parallel relayout, so that uneven pieces (padding) still balance.
#[cfg(feature = "parallel")]
pub(crate) const PIECES_PER_THREAD: usize = 4;

//! The engine's fixed numbers: facts of the vector blocks (a block's rows, a cache line) and
//! sizes that do not depend on the machine's caches, each with why it has its value. What
//! depends on the caches is derived from their geometry ([`choices`](super::choices)); the
//! evidence for each number is in docs/engine-measurements.md, "The fixed numbers". Every
//! number here only picks between kernels that are correct either way, so a wrong guess costs
//! speed, never results.

/// Bytes of a cache line, the unit of every streamed store and prefetch.
pub(crate) const CACHE_LINE: usize = 64;

/// Rows of a transpose block, the source lines read together: the 16 byte lanes of a 128-bit
/// register (a fact of the vector blocks, not a measurement).
pub(crate) const ROWS: usize = 16;

/// The most rows a listed row block (or a transpose's rows, or its columns) may have: bounds
/// the listings' memory (16 bytes a row), not measured.
pub(crate) const MAX_LISTED: usize = 1 << 14;

/// Rows after which a listed row block stops growing, so that its listing stays in L1 beside
/// the rows it moves (u8 flat<->crouton: longer blocks are slower).
pub(crate) const ROW_BLOCK_ENOUGH: usize = 1 << 9;

/// How many times the bytes of its rows a row block's source region must span for each row
/// to ask for its counterpart in the next block ahead (into a destination past the caches):
/// rows gathered from that far apart (u8 flat->crouton: eight image rows 32 KiB apart per
/// 2 KiB chunk) run much faster so; into a destination in the caches the prefetches cost more
/// than they gain.
pub(crate) const ROW_SOURCE_SPREAD: usize = 4;

/// Least distance to the next row block's rows for them to be asked for ahead: crouton->flat's
/// lie 256 bytes on, where the hardware prefetchers already are, and the prefetches there
/// only cost.
pub(crate) const ROW_SOURCE_AHEAD_BYTES: usize = 1 << 10;

/// Destination bytes after which a batch of transpose tiles stops growing: enough to spread a
/// call over many 1 KiB tiles (u8 flat->crouton2x2), few enough to leave outer loops for the
/// parallel split.
pub(crate) const TILE_BATCH_ENOUGH: usize = 64 << 10;

/// How far ahead of a transpose block its source lines are prefetched: four lines, the best of
/// the distances tried from one line to eight (u8 and f32 NCHW -> NHWC).
pub(crate) const PREFETCH_BYTES: usize = 4 * CACHE_LINE;

/// The most source lines a staged transpose's group of rows reads that it leaves to the
/// hardware prefetcher; more, and each block prefetches its lines [`PREFETCH_BYTES`] ahead
/// (f32 NCHW -> NHWC of 17 and 255 channels: the hardware keeps up only with few streams).
#[cfg(x86_kernels)]
pub(crate) const PREFETCHED_STREAMS: usize = 16;

/// How far ahead the realigned sweeps of AVX-512 (`kernels::x86::pitched::realigned`) prefetch
/// their source run; the general transposes take theirs from the cache model
/// ([`Choices::run_prefetch_bytes`](super::choices::Choices::run_prefetch_bytes)).
#[cfg(x86_kernels)]
pub(crate) const RUN_PREFETCH_BYTES: usize = 8 << 10;

/// Farthest apart two columns' source lines may start for a transpose to read its source as
/// one run and prefetch it so ([`RUN_PREFETCH_BYTES`]): two lines, so that every source line is
/// at least half used (f32 NHWC -> NCHW of 17 to 32 channels; farther gains nothing).
pub(crate) const NEAR_RUN_BYTES: usize = 2 * CACHE_LINE;

/// The farthest apart a streamed transpose's source columns lie for its row blocks to sweep
/// every column ([`Choices::sweep_streamed`](super::choices::Choices::sweep_streamed)): one
/// column's line to the next is then a stride the hardware prefetcher follows. Farther, the
/// general blocks, which prefetch each column's line themselves, are faster; nearer than
/// [`NEAR_RUN_BYTES`], a column block at a time through all the tile's rows is
/// (`pitched::realigned::run_realigned`).
#[cfg_attr(not(x86_kernels), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const SWEPT_COLUMNS_APART_BYTES: usize = 1024;

/// Source columns of a 1- or 2-byte transpose that lie a multiple of this many bytes apart
/// (NCHW -> NHWC of 32 x 64 or 64 x 64 positions: channel planes of 2 or 4 KiB) put the 64
/// column lines a row group reads into two of the 64 sets of an L1 cache or one: they evict
/// each other between the four row blocks that read each of them, and each plane is a page
/// of its own. Such transposes copy each group's column lines into a local stage first and
/// visit [`CROWDED_VISIT_LINES`] lines of each column at a time (`kernels::x86::pitched`).
/// The stage pays at pitches of 2, 4 and 8 KiB, not at 1 KiB or less.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const CROWDED_SOURCE_PITCH_BYTES: usize = 2048;

/// Lines of each column a transpose with crowded source columns ([`CROWDED_SOURCE_PITCH_BYTES`])
/// reads per visit, so that the pages of the columns stay in the TLB: fewer are slower, more
/// gain nothing.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const CROWDED_VISIT_LINES: usize = 8;

/// Destination rows of a 1- or 2-byte transpose through the caches that lie a multiple of
/// this many bytes apart (NHWC -> NCHW into planes of 32 x 64 or 64 x 64 bytes) put a row
/// group's lines into one or two L1 sets; its row blocks then go one at a time through every
/// column, each row written in one pass (`kernels::x86::pitched`), faster there than bands of
/// column blocks; at 1 KiB (32 x 32) they cost, so 2 KiB and its multiples only.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const CROWDED_ROW_PITCH_BYTES: usize = 2048;

/// Most source bytes a group of column blocks written in one visit may span, so that the group
/// reads one compact region (f32 NHWC -> NCHW through the cache: two lines per visit within it
/// beat one).
pub(crate) const GROUP_SOURCE_BYTES: usize = 64 << 10;

/// Longest destination row of a transpose written whole in one visit (every column block in
/// turn, where `Choices::whole_rows_fit` finds their source lines fit in L1): f32 NCHW ->
/// NHWC's 1 KiB rows and u8's 256-byte rows run far faster so than one line per row and
/// visit.
pub(crate) const WHOLE_ROW_BYTES: usize = 4 << 10;

/// Destination bytes per row that a visit writes where the rows' pitch crowds the L1 sets
/// (`kernels::tile_shape::crowds_sets`): four lines, not sixteen (f32 and u8 rows 1 to 4 KiB
/// apart).
pub(crate) const ALIASED_VISIT_BYTES: usize = 4 * CACHE_LINE;

/// Destination bytes one band of a transpose written through the cache covers: a few times L1,
/// well inside L2; bands of 1 MiB are much slower (f32 NCHW -> NHWC).
pub(crate) const BAND_BYTES: usize = 64 << 10;

/// Least source bytes per column a band of a transpose reads in one run, so that the hardware
/// prefetchers follow it: eight cache lines; without it f32 NHWC -> NCHW through the cache
/// runs at a fraction of its speed.
pub(crate) const BAND_SOURCE_RUN_BYTES: usize = 8 * CACHE_LINE;

/// Rows spanning at most this many source bytes go in one band: f32 nhwc->nchw's 256 channels
/// (1 KiB) read in order; at 4 KiB u8 NCHW -> NHWC is slower.
pub(crate) const WHOLE_BAND_SOURCE_BYTES: usize = 2 << 10;

/// Least bytes of a chunk that a chunk table's relayout moves on its own, straight between the
/// chunk and the other tensor (a batch of chunks per kernel call); smaller chunks go in bands
/// through a buffer: 512-byte chunks (`R4Crouton4Layout`) move faster chunk by chunk than in
/// bands, 128-byte ones (`R4Depth32MemoryLayout`) faster in bands (out of and into flat NHWC).
pub(crate) const CHUNK_ALONE_BYTES: usize = 512;

/// Most bytes of one band of a chunk table's relayout: the chunks moved at a time, straight
/// where each row of the band's plan lies in one chunk, else gathered (or scattered) through a
/// buffer that stays in L2 beside the kernels' other lines while the band moves; smaller
/// bands cost more than they save (u8 depth-32 chunks out of and into flat NHWC).
pub(crate) const CHUNK_BAND_BYTES: usize = 256 << 10;

/// Column blocks ahead whose source lines a streamed 4-byte sweep asks for
/// (`kernels::x86::pitched`), both lines of each column's 64 bytes where they straddle two:
/// the best of none to eight (f32 NHWC -> NCHW of 240 to 256 channels). Through the caches
/// the same prefetches cost: streamed sweeps only.
#[cfg(x86_kernels)]
pub(crate) const SWEEP_SOURCE_AHEAD_BLOCKS: usize = 4;

/// Rows ahead whose destination line a row copy into a far destination asks for: 256 bytes of
/// 32-byte rows (f32 nChw8c->nChw16c); through the cache the prefetch slows row copies (u8
/// crouton->flat), hence far destinations only.
pub(crate) const PREFETCH_ROWS: usize = 8;

/// Least destination size that streams, whatever the cache: past a core's L2 (1-4 MiB on the
/// machines measured), writing through the cache first reads each line it overwrites.
pub(crate) const STREAM_FLOOR_BYTES: usize = 4 << 20;

/// Transposes (and row copies that pair half-line rows, and the destination prefetch of other
/// far row copies) stream from this fraction of the last-level cache: the machines measured
/// each fall on the side they ran faster (`schedule::streaming`).
pub(crate) const STREAM_BLOCKS_FROM_CACHE_SHARE: usize = 32;

/// Row copies whose every row is one whole cache line stream from this fraction of the
/// last-level cache: through the cache they are a plain memcpy, faster than streamed where the
/// last-level cache holds them (f32 nhwc->nChw16c of 50 MB on a 480 MiB L3).
pub(crate) const STREAM_LINE_ROWS_FROM_CACHE_SHARE: usize = 16;

/// Pieces per thread in a parallel relayout, so that uneven pieces (padding) still balance.
#[cfg(feature = "parallel")]
pub(crate) const PIECES_PER_THREAD: usize = 4;

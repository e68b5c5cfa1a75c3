//! The engine's fixed numbers: facts of the vector blocks (a block's rows, a cache line) and
//! sizes that do not depend on the machine's caches, each with how it was found. What depends
//! on the caches is derived from their geometry ([`choices`](super::choices)); the evidence
//! for each number is in docs/engine-measurements.md. Every number here only picks between
//! kernels that are correct either way, so a wrong guess costs speed, never results.

/// Bytes of a cache line, the unit of every streamed store and prefetch.
pub(crate) const CACHE_LINE: usize = 64;

/// Rows of a transpose block, the source lines read together: the 16 byte lanes of a 128-bit
/// register (a fact of the vector blocks, not a measurement).
pub(crate) const ROWS: usize = 16;

/// The most rows a listed row block (or a transpose's rows, or its columns) may have: bounds
/// the listings' memory (16 bytes a row), not measured.
pub(crate) const MAX_LISTED: usize = 1 << 14;

/// Rows after which a listed row block stops growing, so that its listing stays in L1 beside
/// the rows it moves: u8 flat<->crouton 84 us with 4096-row blocks, 66-79 us with 512 (Intel,
/// 105 MiB L3).
pub(crate) const ROW_BLOCK_ENOUGH: usize = 1 << 9;

/// How many times the bytes of its rows a row block's source region must span for each row
/// to ask for its counterpart in the next block ahead (into a destination past the caches):
/// u8 4x128x128x256 flat->crouton (eight image rows 32 KiB apart per 2 KiB chunk) 0.82-0.91x
/// memcpy so, 0.68-0.70x not; through the cache (1x64x64x256) the prefetches cost a third
/// of its speed (AMD EPYC, 32 MiB L3).
pub(crate) const ROW_SOURCE_SPREAD: usize = 4;

/// Least distance to the next row block's rows for them to be asked for ahead: crouton->flat's
/// lie 256 bytes on, where the hardware prefetchers already are, and lost half its speed to
/// the prefetches at 1x64x64x256 (AMD EPYC, 32 MiB L3).
pub(crate) const ROW_SOURCE_AHEAD_BYTES: usize = 1 << 10;

/// Destination bytes after which a batch of transpose tiles stops growing: enough to spread a
/// call over many 1 KiB tiles (u8 flat->crouton2x2), few enough to leave outer loops for the
/// parallel split (Intel, 105 MiB L3).
pub(crate) const TILE_BATCH_ENOUGH: usize = 64 << 10;

/// How far ahead of a transpose block its source lines are prefetched: the best of 64, 128,
/// 256 and 512 bytes, u8 nchw->nhwc 1.27-1.31x, f32 nchw->nhwc 1.12x (Intel, 105 MiB L3).
pub(crate) const PREFETCH_BYTES: usize = 4 * CACHE_LINE;

/// The most source lines a staged transpose's group of rows reads that it leaves to the
/// hardware prefetcher; more, and each block prefetches its lines [`PREFETCH_BYTES`] ahead.
/// f32 NCHW -> NHWC of 255 channels: 37-39 -> 43-45 GB/s with the prefetches (one relayout in
/// a loop, AMD EPYC, 32 MiB L3). Of 17 channels the hardware keeps up only where the planes
/// lie a multiple of 4 KiB apart: alternating with memcpy (AMD EPYC, `cpu family` 26),
/// 8x17x224x224 ran at 0.82-0.90x of memcpy without the prefetches and 0.80 with them, but
/// 8x17x224x225 at 0.57-0.65 against 0.77-0.79, 8x17x230x230 at 0.40-0.49 against 0.76-0.78.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "sse2",
    not(feature = "portable-kernels")
))]
pub(crate) const PREFETCHED_STREAMS: usize = 16;

/// How far ahead a transpose whose source is one run (each column's source line right after
/// the previous column's, as nChw16c's 16 channels per position) prefetches it: the best of 1,
/// 2, 4, 8 and 16 KiB, f32 8x256x56x56 nChw16c->nchw 0.97-1.02x memcpy, 0.58-0.64x with no
/// prefetch (AMD EPYC, 32 MiB L3).
pub(crate) const RUN_PREFETCH_BYTES: usize = 8 << 10;

/// Farthest apart two columns' source lines may start for a transpose to read its source as
/// one run and prefetch it so ([`RUN_PREFETCH_BYTES`]): two lines, so that every source line is
/// at least half used. f32 NHWC -> NCHW of 17 channels (source lines 68 bytes apart) ran at
/// 0.47-0.53x of memcpy at 8x17x230x230 and 8x17x224x225 without the prefetch, 0.73-0.81 with
/// it; 8x17x224x224 0.79-0.81 -> 0.88-0.93, 8x24x230x230 0.44 -> 0.60, u8 8x32x230x230 0.35
/// -> 0.60-0.64 (one relayout in a loop alternating with memcpy, AMD EPYC, `cpu family` 26).
/// Four lines gained nothing further (f32 8x32x230x230 0.63-0.65 at two, four and eight).
pub(crate) const NEAR_RUN_BYTES: usize = 2 * CACHE_LINE;

/// The farthest apart a streamed transpose's source columns lie for its row blocks to sweep
/// every column ([`Choices::sweep_streamed`](super::choices::Choices::sweep_streamed)): one column's line to the next is then a stride the
/// hardware prefetcher follows. Farther (NCHW -> NHWC: channel planes 3 to 12.5 KiB apart) the
/// sweep lost to the general blocks, which prefetch each column's line themselves (f32
/// 8x256x55x55 nchw->nhwc 0.81-0.84x memcpy -> 0.54-0.63, u8 8x256x56x56 0.51-0.57 ->
/// 0.41-0.50); nearer than [`NEAR_RUN_BYTES`] the sweep, a row block at a time, lost to the
/// general blocks' prefetch of the source as one run (f32 8x17x230x230 nhwc->nchw 0.89-0.90 ->
/// 0.61-0.63), and those columns go a column block at a time through all the tile's rows
/// instead (`pitched::realigned::run_realigned`).
#[cfg_attr(
    any(not(target_arch = "x86_64"), feature = "portable-kernels"),
    allow(dead_code)
)] // the x86-64 kernels' choice
pub(crate) const SWEPT_COLUMNS_APART_BYTES: usize = 1024;

/// Source columns of a 1- or 2-byte transpose that lie a multiple of this many bytes apart
/// (NCHW -> NHWC of 32 x 64 or 64 x 64 positions: channel planes of 2 or 4 KiB) put the 64
/// column lines a row group reads into two of the 64 sets of an L1 cache or one: they evict
/// each other between the four row blocks that read each of them, and each plane is a page
/// of its own. Such transposes copy each group's column lines into a local stage first and
/// visit [`CROWDED_VISIT_LINES`] lines of each column at a time (`kernels::x86::pitched`).
/// Measured through the caches (one relayout alternating with memcpy in a loop, AMD EPYC,
/// Zen 5), u8 NCHW -> NHWC: 2x256x64x64 0.15-0.18x memcpy -> 0.43, 1x256x64x128 (8 KiB)
/// 0.18 -> 0.42, 2x256x32x64 (2 KiB) 0.33 -> 0.52; at 1 KiB (32 x 32) no gain (0.41 against
/// 0.36-0.48), at 512 B a loss (0.51 -> 0.38-0.46), at 3136 B a loss (0.69 -> 0.58-0.61).
#[cfg_attr(
    any(not(target_arch = "x86_64"), feature = "portable-kernels"),
    allow(dead_code)
)] // the x86-64 kernels' choice
pub(crate) const CROWDED_SOURCE_PITCH_BYTES: usize = 2048;

/// Lines of each column a transpose with crowded source columns ([`CROWDED_SOURCE_PITCH_BYTES`])
/// reads per visit, so that the pages of the columns stay in the TLB: u8 2x256x64x64 NCHW ->
/// NHWC 0.27x memcpy at one line, 0.40-0.42 at four, 0.43 at eight to thirty-two; 2x256x32x64
/// 0.41 at four, 0.52 at eight (as for [`CROWDED_SOURCE_PITCH_BYTES`]).
#[cfg_attr(
    any(not(target_arch = "x86_64"), feature = "portable-kernels"),
    allow(dead_code)
)] // the x86-64 kernels' choice
pub(crate) const CROWDED_VISIT_LINES: usize = 8;

/// Destination rows of a 1- or 2-byte transpose through the caches that lie a multiple of
/// this many bytes apart (NHWC -> NCHW into planes of 32 x 64 or 64 x 64 bytes) put a row
/// group's lines into one or two L1 sets; its row blocks then go one at a time through every
/// column, each row written in one pass (`kernels::x86::pitched`). Measured as for
/// [`CROWDED_SOURCE_PITCH_BYTES`], u8 NHWC -> NCHW: 2x256x64x64 0.16-0.19x memcpy -> 0.31,
/// 2x64x64x64 0.16 -> 0.28, 1x256x32x64 0.23-0.24 -> 0.34; a band of two to eight column
/// blocks per row block ran 0.22-0.29 (64 x 64) and 0.34-0.40 (32 x 64). At 1 KiB (32 x 32)
/// it lost (0.41-0.43 -> 0.28).
#[cfg_attr(
    any(not(target_arch = "x86_64"), feature = "portable-kernels"),
    allow(dead_code)
)] // the x86-64 kernels' choice
pub(crate) const CROWDED_ROW_PITCH_BYTES: usize = 2048;

/// Most source bytes a group of column blocks written in one visit may span, so that the group
/// reads one compact region: f32 1x256x56x56 nhwc->nchw 0.67x memcpy with two lines per visit
/// within it, 0.60x with one (Intel, 480 MiB L3).
pub(crate) const GROUP_SOURCE_BYTES: usize = 64 << 10;

/// Longest destination row of a transpose written whole in one visit (every column block in
/// turn, where `Choices::whole_rows_fit` finds their source lines fit in L1): f32 8x256x56x56 nchw->nhwc (1 KiB rows)
/// 1.0-1.1x memcpy so, 0.58x one line per row and visit; u8 (256-byte rows) 0.77-0.86x,
/// 0.60x (AMD EPYC, 32 MiB L3).
pub(crate) const WHOLE_ROW_BYTES: usize = 4 << 10;

/// Destination bytes per row that a visit writes where the rows' pitch crowds the L1 sets
/// (`kernels::tile_shape::crowds_sets`): four lines, against sixteen (f32 8x1024x32x32 nchw->nhwc 43
/// against 36 GB/s; u8 8x256x32x32 nhwc->nchw 35 against 50 at two lines, u8 8x256x64x64 57
/// against 49).
pub(crate) const ALIASED_VISIT_BYTES: usize = 4 * CACHE_LINE;

/// Destination bytes one band of a transpose written through the cache covers: a few times L1,
/// well inside L2; f32 1x256x56x56 nchw->nhwc 0.83x memcpy, 0.64x with 1 MiB bands (Intel,
/// 480 MiB L3).
pub(crate) const BAND_BYTES: usize = 64 << 10;

/// Least source bytes per column a band of a transpose reads in one run, so that the hardware
/// prefetchers follow it: eight cache lines; without it f32 1x256x56x56 nhwc->nchw runs at
/// 0.29x memcpy (Intel, 480 MiB L3).
pub(crate) const BAND_SOURCE_RUN_BYTES: usize = 8 * CACHE_LINE;

/// Rows spanning at most this many source bytes go in one band: f32 nhwc->nchw's 256 channels
/// (1 KiB) read in order; u8 nchw->nhwc 0.68x memcpy, 0.63x with 4 KiB (Intel, 480 MiB L3).
pub(crate) const WHOLE_BAND_SOURCE_BYTES: usize = 2 << 10;

/// Least bytes of a chunk that a chunk table's relayout moves on its own, straight between the
/// chunk and the other tensor (a batch of chunks per kernel call); smaller chunks go in bands
/// through a buffer. u8 1x64x64x256 out of and into flat NHWC, repeated with warm caches, as a
/// share of the contiguous relayout's speed, chunk by chunk against bands of 256 KiB: 512-byte
/// chunks (`R4Crouton4Layout`) 0.68 / 0.94 against 0.49 / 0.42; 128-byte ones
/// (`R4Depth32MemoryLayout`) 0.36 / 0.34 against 0.49 / 0.48 (AMD EPYC Zen 4, 32 MiB L3).
pub(crate) const CHUNK_ALONE_BYTES: usize = 512;

/// Most bytes of one band of a chunk table's relayout: the chunks moved at a time, straight
/// where each row of the band's plan lies in one chunk, else gathered (or scattered) through a
/// buffer that stays in L2 beside the kernels' other lines while the band moves. Bands of one
/// shape share a plan, yet smaller bands still cost more than they save: u8 depth-32
/// (128-byte chunks) 1x64x64x256 and 1x256x256x256 out of and into flat NHWC through the buffer,
/// repeated with warm caches, ran 10-70% longer with bands of 8 to 64 KiB than with 256 KiB
/// (AMD EPYC, 48 KiB L1, 1 MiB L2, 32 MiB L3).
pub(crate) const CHUNK_BAND_BYTES: usize = 256 << 10;

/// Column blocks ahead whose source lines a streamed 4-byte sweep asks for
/// (`kernels::x86::pitched`), both lines of each column's 64 bytes where they straddle two.
/// f32 8xCx56x56 NHWC -> NCHW, one relayout alternating with memcpy in a loop, without / 2 /
/// 4 / 8 blocks ahead (AMD EPYC, Zen 5): C = 255 0.77-0.79x memcpy / 0.80 / 0.97-1.02 /
/// 1.02, C = 241 0.67-0.71 / 0.76-0.77 / 0.87-0.88 / 0.73-0.76, C = 240 0.83-0.93 / - /
/// 1.03-1.06, C = 256 0.97-0.98 / - / 0.97-1.01. Through the caches (1x256x56x56) the same
/// prefetches cost 0.71 -> 0.64: streamed sweeps only.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "sse2",
    not(feature = "portable-kernels")
))]
pub(crate) const SWEEP_SOURCE_AHEAD_BLOCKS: usize = 4;

/// Rows ahead whose destination line a row copy into a far destination asks for: 256 bytes of
/// 32-byte rows, f32 nChw8c->nChw16c 1.07-1.16x; through the cache u8 crouton->flat lost up to
/// 0.74x, hence far destinations only (Intel, 105 MiB L3).
pub(crate) const PREFETCH_ROWS: usize = 8;

/// Least destination size that streams, whatever the cache: past a core's L2 (1-4 MiB on the
/// machines measured), writing through the cache first reads each line it overwrites.
pub(crate) const STREAM_FLOOR_BYTES: usize = 4 << 20;

/// Transposes (and row copies that pair half-line rows, and the destination prefetch of other
/// far row copies) stream from this fraction of the last-level cache: the three machines each
/// fall on the side they measured faster (f32 nhwc->nchw at 25.7 MB on the 480 MiB L3: 0.81x
/// memcpy streamed, 0.45x through the cache).
pub(crate) const STREAM_BLOCKS_FROM_CACHE_SHARE: usize = 32;

/// Row copies whose every row is one whole cache line stream from this fraction of the
/// last-level cache: through the cache they are a plain memcpy (f32 nhwc->nChw16c on the 480
/// MiB L3: 0.96x memcpy through the cache, 0.72x streamed at 50 MB).
pub(crate) const STREAM_LINE_ROWS_FROM_CACHE_SHARE: usize = 16;

/// Pieces per thread in a parallel relayout, so that uneven pieces (padding) still balance.
#[cfg(feature = "parallel")]
pub(crate) const PIECES_PER_THREAD: usize = 4;

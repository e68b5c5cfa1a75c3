//! Every number the relayout engine is tuned by, each with how it was found and on which
//! machine, and the choices whose best answer differs between processor families.
//!
//! The machines: an Intel Xeon of the Sapphire Rapids class with a 105 MiB L3 shared with other
//! tenants (2026-11-21/22), an AMD EPYC Zen 4 with a 32 MiB L3 (2026-11-23), and an Intel Xeon
//! with a 480 MiB L3 (2026-11-24); docs/performance.md has the AMD machine's current table and
//! a summary of the 480 MiB one's. Every choice here only picks between kernels that are
//! correct either way, so a wrong guess costs speed, never results.
//!
//! Five choices measured differently on the Intel and AMD cores, so they are made per vendor
//! ([`Tuning`]): on the Intel core, writing two destination lines per row on each visit of a
//! streamed transpose was 1.08-1.10x faster than one, streaming tiles of exactly one 16-row
//! block (f32 nChw16c->nchw) 0.81-0.95x of writing them through the cache, and streamed blocks
//! whose source lines are under 2 KiB apart 1.09-1.19x faster without a source prefetch. On
//! the AMD core, one line per visit was 1.24-1.36x faster than two (f32 nhwc->nchw), streaming
//! those tiles 1.38-1.76x faster (f32 nChw16c->nchw), and prefetching the source of blocks
//! whose lines are 1 KiB apart 1.11x faster (f32 nhwc->nchw). Row copies of half-line rows
//! into a destination past the caches ran faster streamed on the Intel core (the streaming
//! thresholds' measurements); on the AMD core through the cache, at every size measured up to
//! twice its L3: u8 flat->crouton 0.70-0.78x memcpy against 0.52-0.57x streamed, crouton->flat
//! 0.68-0.76x against 0.48-0.52x (8x and 16x128x128x256, 32 and 64 MiB each side). Blocks
//! written through the cache gained by prefetching their separate source lines on the Intel
//! core (u8 nchw->nhwc 1.27-1.31x, [`PREFETCH_BYTES`]); on the AMD core, whose transposes
//! through the cache are the ones whose data fits its L3, those whose source lines lie 1 KiB
//! or more apart ran faster without: f32 1x256x56x56 nchw->nhwc (channel planes 12.5 KiB
//! apart) 0.56-0.58 -> 0.65-0.69x memcpy, u8 32x2048x7x7 nhwc->nchw (2 KiB) 0.26-0.28 ->
//! 0.29-0.30x; with no prefetch at all, also u8 8x256x32x32 nhwc->nchw (256 bytes) 0.31 ->
//! 0.33-0.34x, but the u8 1x64x64x256 crouton pairs lost 0.03-0.06x (the same bench binary with
//! and without, in turn, three times, 2026-11-26).
//!
//! On the AMD core (`cpu family` 26), streamed transposes whose source columns lie a few
//! hundred bytes apart ran faster with each row block swept across every column, sixteen
//! destination rows at a time (`Tuning::sweep_streamed`), than with each few columns taken
//! through every row block, a line into each of 256 destination rows: f32 8x256x56x56
//! nhwc->nchw 0.77-0.82x memcpy -> 0.98-1.02, 8x256x3136x1 0.70-0.78 -> 0.96-1.14, 8x256x55x55
//! 0.66-0.73 -> 0.75-0.84; a transpose written by hand in that order ran 0.94-0.99 (`cargo
//! bench --bench transpose_by_hand`). Not measured on an Intel core, which keeps the other.

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
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
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
/// every column ([`Tuning::sweep_streamed`]): one column's line to the next is then a stride the
/// hardware prefetcher follows. Farther (NCHW -> NHWC: channel planes 3 to 12.5 KiB apart) the
/// sweep lost to the general blocks, which prefetch each column's line themselves (f32
/// 8x256x55x55 nchw->nhwc 0.81-0.84x memcpy -> 0.54-0.63, u8 8x256x56x56 0.51-0.57 ->
/// 0.41-0.50); nearer than [`NEAR_RUN_BYTES`] the sweep, a row block at a time, lost to the
/// general blocks' prefetch of the source as one run (f32 8x17x230x230 nhwc->nchw 0.89-0.90 ->
/// 0.61-0.63), and those columns go a column block at a time through all the tile's rows
/// instead (`pitched::realigned::run_realigned`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // the x86-64 kernels' choice
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
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const CROWDED_SOURCE_PITCH_BYTES: usize = 2048;

/// Lines of each column a transpose with crowded source columns ([`CROWDED_SOURCE_PITCH_BYTES`])
/// reads per visit, so that the pages of the columns stay in the TLB: u8 2x256x64x64 NCHW ->
/// NHWC 0.27x memcpy at one line, 0.40-0.42 at four, 0.43 at eight to thirty-two; 2x256x32x64
/// 0.41 at four, 0.52 at eight (as for [`CROWDED_SOURCE_PITCH_BYTES`]).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const CROWDED_VISIT_LINES: usize = 8;

/// Destination rows of a 1- or 2-byte transpose through the caches that lie a multiple of
/// this many bytes apart (NHWC -> NCHW into planes of 32 x 64 or 64 x 64 bytes) put a row
/// group's lines into one or two L1 sets; its row blocks then go one at a time through every
/// column, each row written in one pass (`kernels::x86::pitched`). Measured as for
/// [`CROWDED_SOURCE_PITCH_BYTES`], u8 NHWC -> NCHW: 2x256x64x64 0.16-0.19x memcpy -> 0.31,
/// 2x64x64x64 0.16 -> 0.28, 1x256x32x64 0.23-0.24 -> 0.34; a band of two to eight column
/// blocks per row block ran 0.22-0.29 (64 x 64) and 0.34-0.40 (32 x 64). At 1 KiB (32 x 32)
/// it lost (0.41-0.43 -> 0.28).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // the x86-64 kernels' choice
pub(crate) const CROWDED_ROW_PITCH_BYTES: usize = 2048;

/// Most source bytes a group of column blocks written in one visit may span, so that the group
/// reads one compact region: f32 1x256x56x56 nhwc->nchw 0.67x memcpy with two lines per visit
/// within it, 0.60x with one (Intel, 480 MiB L3).
pub(crate) const GROUP_SOURCE_BYTES: usize = 64 << 10;

/// Longest destination row of a transpose written whole in one visit (every column block in
/// turn, [`WHOLE_ROW_SOURCE_LINES`] permitting): f32 8x256x56x56 nchw->nhwc (1 KiB rows)
/// 1.0-1.1x memcpy so, 0.58x one line per row and visit; u8 (256-byte rows) 0.77-0.86x,
/// 0.60x (AMD EPYC, 32 MiB L3).
pub(crate) const WHOLE_ROW_BYTES: usize = 4 << 10;

/// Most columns of a row written whole in one visit: each visit reads a line of each column's
/// source, 16 KiB of lines at 256 columns, which stay in L1 for the next rows of those lines
/// (u8 nhwc->nchw's 3136-byte rows of 3136 columns: 0.94x memcpy one line per visit, 0.71x
/// sixteen; AMD EPYC, 32 MiB L3).
pub(crate) const WHOLE_ROW_SOURCE_LINES: usize = 256;

/// Destination row pitches that are a multiple of this many bytes put a block's 16 rows into at
/// most 8 of the 64 line slots of a 4 KiB L1 way (every x86 L1 data cache measured has 64
/// sets): the rows' lines crowd a few sets. Their visits write [`ALIASED_VISIT_BYTES`] per row
/// instead of one line. Measured one visit of 256 bytes per row against one line (AMD EPYC,
/// 32 MiB L3, GB/s of each call alone): f32 8x256x32x32 nhwc->nchw (4 KiB pitch) 29 -> 82, f32
/// 8x1024x32x32 nchw->nhwc 26 -> 43, f32 1x512x12x12 nchw->nhwc (2 KiB) 24 -> 66, u8
/// 8x1024x28x28 nchw->nhwc (1 KiB) 26 -> 63, u8 8x512x28x28 (512 B) 42 -> 48; pitches off
/// these multiples gain nothing or lose (f32 8x512x28x28 nhwc->nchw, 3136 B: 85 -> 78).
pub(crate) const ALIASED_PITCH_BYTES: usize = 512;

/// Destination bytes per row that a visit writes where the rows' pitch crowds the L1 sets
/// ([`ALIASED_PITCH_BYTES`]): four lines, against sixteen (f32 8x1024x32x32 nchw->nhwc 43
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
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
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

use core::sync::atomic::{AtomicU8, Ordering};

/// How the transposes run on this processor family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tuning {
    /// Most destination lines a transpose writes per row on one visit (the `most` of
    /// `kernels::tile_shape::lines_per_visit`).
    pub lines_per_visit: usize,
    /// Whether tiles of exactly one 16-row block stream their destination lines too (tiles of
    /// more rows always do, once the destination is past the caches).
    pub stream_one_block_tiles: bool,
    /// Least distance in bytes between a streamed block's source lines for the block to
    /// prefetch them (the `apart_at_least` of `kernels::tile_shape::source_prefetch`).
    pub prefetch_apart: usize,
    /// How many elements ahead a streamed block prefetches its separate source lines, where
    /// not [`PREFETCH_BYTES`]: at most an eighth of the lines' spacing (392 elements for
    /// planes of 56 x 56) and never nearer than [`PREFETCH_BYTES`], and not where the lines lie
    /// a multiple of 2 KiB apart, whose far lines would share the L1 sets of those in use (4
    /// KiB planes and 3x3 weights of 512 inputs lost 0.03-0.07x memcpy without that rule;
    /// `kernels::tile_shape::source_prefetch`). On the AMD core (`cpu family` 26) NCHW -> NHWC 8x256x56x56 (one
    /// relayout alternating with memcpy in a loop, four times each) ran f32 0.77-0.86x memcpy
    /// at 256 bytes, 0.83-0.88 at 1 KiB, 0.84-0.90 at 2 KiB; u8 0.48-0.53 at 256 bytes,
    /// 0.52-0.53 at 512, 0.50-0.54 at 1 KiB, 0.46-0.50 at 2 KiB: 512 elements suit both.
    pub streamed_prefetch_elements: Option<usize>,
    /// Blocks written through the cache prefetch their separate source lines where these lie
    /// less than this many bytes apart (a source that is one run is prefetched in any case;
    /// `kernels::tile_shape::source_prefetch`).
    pub cached_prefetch_below: usize,
    /// Whether row copies of rows shorter than a line, into a destination past the caches,
    /// stream their paired rows and prefetch their other destination lines
    /// ([`Streaming::short_rows`](crate::relayout::schedule::Streaming::short_rows)).
    pub stream_short_rows: bool,
    /// Whether streamed transposes of 4-byte elements whose source columns lie more than
    /// [`NEAR_RUN_BYTES`] and at most [`SWEPT_COLUMNS_APART_BYTES`] apart sweep each row
    /// block across every column, and those whose columns lie nearer go a column block at a
    /// time through tiles of 16 to 32 rows (`kernels::x86::pitched`; measured on AMD only).
    pub sweep_streamed: bool,
    /// Below this many destination bytes a relayout stays on one thread (the `parallel`
    /// feature): the split costs more than it saves. 4 MiB on the Intel core (105 MiB L3). On
    /// the AMD core (`cpu family` 26, 32 MiB L3) relayouts of 1 to 3.2 MiB split from 512 KiB
    /// ran 1.26-1.86x faster on two threads than on one, against 0.97-1.07x unsplit under 4
    /// MiB (u8 4x256x56x56 nchw->nhwc and nhwc->nchw, 8x256x32x32 and 32x2048x7x7 nhwc->nchw,
    /// the 1x64x64x256 crouton pairs; `cargo bench --bench relayout_interleaved --features
    /// parallel`, the two thresholds in turn, twice).
    pub min_parallel_bytes: usize,
}

impl Tuning {
    /// Intel cores (Sapphire Rapids class measured), and the choice for every vendor not
    /// measured.
    pub(crate) const INTEL: Tuning = Tuning {
        lines_per_visit: 2,
        stream_one_block_tiles: false,
        prefetch_apart: 2048,
        streamed_prefetch_elements: None,
        cached_prefetch_below: usize::MAX,
        stream_short_rows: true,
        sweep_streamed: false,
        min_parallel_bytes: 4 << 20,
    };

    /// AMD cores (Zen 4 measured).
    pub(crate) const AMD: Tuning = Tuning {
        lines_per_visit: 1,
        stream_one_block_tiles: true,
        prefetch_apart: 512,
        streamed_prefetch_elements: Some(512),
        cached_prefetch_below: 1024,
        stream_short_rows: false,
        sweep_streamed: true,
        min_parallel_bytes: 512 << 10,
    };

    /// The tuning of the CPU this runs on: found with `cpuid` on the first call, then cached.
    pub(crate) fn current() -> Tuning {
        static FOUND: AtomicU8 = AtomicU8::new(UNKNOWN);
        let mut found = FOUND.load(Ordering::Relaxed);
        if found == UNKNOWN {
            found = if vendor_is_amd() { AMD } else { INTEL };
            FOUND.store(found, Ordering::Relaxed);
        }
        if found == AMD {
            Tuning::AMD
        } else {
            Tuning::INTEL
        }
    }
}

const UNKNOWN: u8 = 0;
const INTEL: u8 = 1;
const AMD: u8 = 2;

/// Whether `cpuid` names AMD (or Hygon, whose cores are AMD's Zen) as the vendor.
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(super) fn vendor_is_amd() -> bool {
    let id = core::arch::x86_64::__cpuid(0);
    // The vendor string is EBX, EDX, ECX: "AuthenticAMD", "HygonGenuine".
    let vendor = [id.ebx, id.edx, id.ecx];
    vendor == words(b"AuthenticAMD") || vendor == words(b"HygonGenuine")
}

/// Miri has no `cpuid`, and other architectures have neither vendor: the default tuning.
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
pub(super) fn vendor_is_amd() -> bool {
    false
}

/// A 12-byte vendor string as `cpuid` returns it: three little-endian 32-bit words.
#[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
fn words(vendor: &[u8; 12]) -> [u32; 3] {
    let word =
        |i: usize| u32::from_le_bytes([vendor[i], vendor[i + 1], vendor[i + 2], vendor[i + 3]]);
    [word(0), word(4), word(8)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_strings_are_read_as_cpuid_returns_them() {
        // cpuid(0) on an AMD EPYC: EBX "Auth", EDX "enti", ECX "cAMD".
        assert_eq!(
            words(b"AuthenticAMD"),
            [0x6874_7541, 0x6974_6e65, 0x444d_4163]
        );
    }

    #[test]
    fn the_tuning_found_is_one_of_the_measured_ones_and_stays() {
        let first = Tuning::current();
        assert!(first == Tuning::INTEL || first == Tuning::AMD);
        assert_eq!(Tuning::current(), first);
        if cfg!(miri) || !cfg!(target_arch = "x86_64") {
            assert_eq!(first, Tuning::INTEL);
        }
    }
}

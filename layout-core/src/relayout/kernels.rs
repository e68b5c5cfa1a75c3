//! The innermost copies of a relayout: cache-blocked transposes and strided elements (row
//! copies are in `row_copies`), with the bounds and prefetch helpers both use.
//!
//! Each kernel takes both sides as (slots, start) plus what places its lines: a stride, or the
//! per-call listing of `(source, destination)` line offsets the plan made. Plain scalars and
//! slices that stay in registers across the hot loops, hence the long argument lists.
#![allow(clippy::too_many_arguments)]

use super::tuning::Tuning;
use core::ops::Range;

/// Whether a block of `ROWS` rows of `cols` one-byte elements is exactly one 64-byte line.
pub(crate) const fn block_is_line(cols: usize) -> bool {
    ROWS * cols == 64
}

/// Asks the CPU to bring the cache line holding `slots[at]` into its caches, if `at` is inside
/// `slots` (a hint: nothing is read, nothing can fault): the SSE prefetch instruction on
/// x86-64 (part of every x86-64 CPU), nothing elsewhere or under Miri, which cannot run it.
#[inline(always)]
pub(crate) fn prefetch<T>(slots: &[T], at: usize) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse", not(miri)))]
    if at < slots.len() {
        // SAFETY: `at` is inside `slots`, so the pointer stays inside its allocation; a
        // prefetch reads nothing, and SSE is enabled (`target_feature = "sse"`).
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                slots.as_ptr().add(at).cast(),
            )
        };
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse", not(miri))))]
    let _ = (slots, at);
}

/// Rows of a transpose block: the source lines read together.
pub(crate) const ROWS: usize = 16;

/// The transposes of one call: the same tile of listed rows by listed columns at each listed
/// origin, `dst[d + at.1 + row.1 + col.1] = src[s + at.0 + row.0 + col.0]` for every `at` of
/// `origins`, `row` of `rows` and `col` of `cols`. The rows' source offsets count up by one, as
/// do the columns' destination offsets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TileBatch<'a> {
    /// Where each tile starts, relative to the call's `s` and `d`, in destination order.
    pub origins: &'a [(usize, usize)],
    /// The tile's rows, in source order.
    pub rows: &'a [(usize, usize)],
    /// The tile's columns, in destination order.
    pub cols: &'a [(usize, usize)],
    /// `Some(p)` when, in every block of [`ROWS`] rows (counted from the first of `rows`),
    /// destination lines follow `p` apart: the rows come in runs of a multiple of `ROWS` rows
    /// (or one run) with destination offsets `p` apart (`Plan::listings` finds it from the
    /// loops).
    pub row_pitch: Option<usize>,
}

/// A type the engine moves elements as: the unsigned integers of 1, 2, 4 and 8 bytes (plain
/// element types, moved as the integer of their size, with the vector kernels of their CPU),
/// `MaybeUninit` of those (any other type of those sizes, bytes copied as they are), and
/// [`Opaque`] (any other size). The hooks are the vector kernels a type has; by default it
/// has none and the portable kernels move it.
pub(crate) trait Element: Copy + Send + Sync + 'static {
    /// Transposes every tile of `batch` as [`transpose`] does, with vector blocks; `false`
    /// (nothing written) where this type has none.
    fn vector_transpose(
        dst: &mut [Self],
        d: usize,
        src: &[Self],
        s: usize,
        batch: TileBatch<'_>,
        reach: Reach,
        stream: bool,
    ) -> bool {
        let _ = (dst, d, src, s, batch, reach, stream);
        false
    }

    /// Copies elements `cols` of each listed row as `row_copies::copy_listed_rows` does, each
    /// destination line written past the caches; `false` (nothing written) where this type
    /// has no such kernel or the rows do not fill whole lines.
    fn stream_rows(
        dst: &mut [Self],
        d: usize,
        src: &[Self],
        s: usize,
        rows: &[(usize, usize)],
        cols: Range<usize>,
        reach: Reach,
    ) -> bool {
        let _ = (dst, d, src, s, rows, cols, reach);
        false
    }
}

/// An element of any other size, moved by the portable kernels.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Opaque<T>(pub T);

impl<T: Copy + Send + Sync + 'static> Element for Opaque<T> {}

impl Element for core::mem::MaybeUninit<u8> {}
impl Element for core::mem::MaybeUninit<u16> {}
impl Element for core::mem::MaybeUninit<u32> {}
impl Element for core::mem::MaybeUninit<u64> {}

// Without x86-64's vector kernels, the plain integers move by the portable kernels too.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
impl Element for u8 {}
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
impl Element for u16 {}
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
impl Element for u32 {}
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
impl Element for u64 {}

/// Transposes every tile of `batch` from `src` (at `s`) into `dst` (at `d`). Blocks of `ROWS`
/// rows by up to a cache line of columns go through registers ([`Element::vector_transpose`])
/// or a local tile. `reach` bounds the offsets one tile's rows and columns reach; `stream`
/// asks for non-temporal stores of whole destination lines (a destination much larger than
/// the caches).
pub(crate) fn transpose<T: Element>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
    stream: bool,
) {
    if T::vector_transpose(dst, d, src, s, batch, reach, stream) {
        return;
    }
    portable_planes(dst, d, src, s, batch, reach);
}

/// How one full block of `ROWS` rows by `COLS` columns is moved: `COLS` source lines (each
/// `ROWS` long, at `s + col.0`) in, `ROWS` destination lines (each `COLS` long, at
/// `d + row.1`) out.
pub(crate) trait BlockMove<T: Copy> {
    /// Whether blocks whose destination lines are whole cache lines bypass the caches.
    const STREAMS: bool = false;

    /// Whether blocks of `COLS` columns bypass the caches: their destination lines are whole
    /// cache lines and `STREAMS` holds.
    fn streams<const COLS: usize>() -> bool {
        Self::STREAMS && COLS * size_of::<T>() == 64
    }

    /// Whether blocks of `COLS` columns bypass the caches two rows to a line: their
    /// destination lines are half cache lines (written whole where the next row follows) and
    /// `STREAMS` holds.
    fn streams_pairs<const COLS: usize>() -> bool {
        Self::STREAMS && COLS * size_of::<T>() == 32
    }

    /// Whether blocks of `COLS` columns bypass the caches as one line each: `ROWS` rows of
    /// `COLS` bytes, adjacent, make one 64-byte line (u8 flat->crouton2x2's packed blocks of
    /// 16 channels x 4 pixels), and `STREAMS` holds.
    fn streams_block_lines<const COLS: usize>() -> bool {
        Self::STREAMS && size_of::<T>() == 1 && block_is_line(COLS)
    }

    /// Asks the CPU to bring the cache line holding `slots[at]` (of the source or the
    /// destination) into its caches, if `at` is inside `slots` (a hint: nothing is read,
    /// nothing can fault): [`prefetch`] by default.
    #[inline(always)]
    fn prefetch(slots: &[T], at: usize) {
        prefetch(slots, at);
    }

    /// Runs one width's transposes ([`plane_body`] with `COLS` columns per block), as a
    /// function of its own compiled with the CPU features the blocks use: [`plane`] by default,
    /// a `#[target_feature]` function for the AVX2 and AVX-512 blocks. One function per width,
    /// not all widths inlined into one: that cost the smallest blocks ~10% (u8
    /// flat->crouton2x2, 0.87-0.89x in interleaved runs), and in debug builds made one frame of
    /// every width's locals (1.4 MB for the AVX-512 blocks, most of a test thread's stack).
    ///
    /// # Safety
    ///
    /// The CPU runs the blocks' instructions (nothing for the portable and SSE2 blocks).
    unsafe fn plane<const COLS: usize>(
        dst: &mut [T],
        d: usize,
        src: &[T],
        s: usize,
        batch: TileBatch<'_>,
        reach: Reach,
    ) where
        Self: Sized,
    {
        plane::<T, Self, COLS>(dst, d, src, s, batch, reach);
    }

    /// Moves the block.
    ///
    /// # Safety
    ///
    /// Every line lies inside its slice: `s + col.0 + ROWS <= src.len()` for each of `cols`
    /// and `d + rows.at(k) + COLS <= dst.len()` for each `k < ROWS` ([`plane`] checks this
    /// once per call, so that implementations may skip the per-line bounds checks).
    unsafe fn block<const COLS: usize, L: Lines>(
        dst: &mut [T],
        d: usize,
        rows: L,
        src: &[T],
        s: usize,
        cols: &[(usize, usize); COLS],
    );
}

/// Where a block's `ROWS` destination lines start, relative to its `d`: listed, or a pitch
/// apart.
pub(crate) trait Lines: Copy {
    /// Where line `k` starts.
    fn at(self, k: usize) -> usize;

    /// The distance from each line to the next, where it is one for all of them (read by the
    /// x86-64 vector blocks only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn pitch(self) -> Option<usize>;
}

/// Rows of a block as the plan listed them: line `k` at `rows[k].1`.
impl Lines for &[(usize, usize); ROWS] {
    #[inline(always)]
    fn at(self, k: usize) -> usize {
        self[k].1
    }

    #[inline(always)]
    fn pitch(self) -> Option<usize> {
        None
    }
}

/// Rows of a block whose destination lines follow one another a pitch apart: line `k` at
/// `k * pitch`, computed, not read from a listing. Streamed stores wait on their addresses:
/// hand loops of f32 nhwc->nchw AVX-512 blocks ran 0.79-0.82x of memcpy with the destination
/// lines read from a listing, 0.91-0.94x with them computed (the source lines read from a
/// listing either way); the library 1.03-1.05x (A/B, with `stores::store_lines`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pitch(pub usize);

impl Lines for Pitch {
    #[inline(always)]
    fn at(self, k: usize) -> usize {
        k * self.0
    }

    #[inline(always)]
    fn pitch(self) -> Option<usize> {
        Some(self.0)
    }
}

/// Runs a batch of transposes in blocks moved by `B`, with as many columns per block as fill a
/// cache line of `T` (fewer when there are fewer columns), each width through
/// [`BlockMove::plane`]. Within each tile, column blocks go outermost within a band of rows, so
/// the source is read as a few sequential streams and every destination line is written
/// whole; partial blocks at the edges move element by element.
///
/// # Safety
///
/// As [`BlockMove::plane`]: the CPU runs `B`'s instructions.
pub(crate) unsafe fn planes<T: Copy, B: BlockMove<T>>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
) {
    let line = 64 / size_of::<T>().max(1);
    let columns = match batch.cols.len() {
        // A whole line of bytes per block only where lines bypass the cache (64 columns of
        // registers in flight cost more than they save in cache).
        n if n >= 64 && B::streams::<64>() => 64,
        n if n >= 32 && line >= 32 => 32,
        n if n >= 16 && line >= 16 => 16,
        n if n >= 8 => 8,
        _ => 4,
    };
    // SAFETY (each arm): passed on from the caller.
    unsafe {
        match columns {
            64 => B::plane::<64>(dst, d, src, s, batch, reach),
            32 => B::plane::<32>(dst, d, src, s, batch, reach),
            16 => B::plane::<16>(dst, d, src, s, batch, reach),
            8 => B::plane::<8>(dst, d, src, s, batch, reach),
            _ => B::plane::<4>(dst, d, src, s, batch, reach),
        }
    }
}

/// [`planes`] with the portable tile, which runs on any CPU.
pub(crate) fn portable_planes<T: Copy>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
) {
    // SAFETY: the portable tile's instructions run on any CPU.
    unsafe { planes::<T, Portable>(dst, d, src, s, batch, reach) }
}

/// One width's [`plane_body`], as a function of its own (the default [`BlockMove::plane`]).
#[inline(never)]
pub(crate) fn plane<T: Copy, B: BlockMove<T>, const COLS: usize>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
) {
    plane_body::<T, B, COLS>(dst, d, src, s, batch, reach);
}

/// The batch's transposes in blocks of `COLS` columns. Always inlined, so that a function
/// compiled for more CPU features (`avx2::plane`) compiles the whole loop nest with them.
#[inline(always)]
pub(crate) fn plane_body<T: Copy, B: BlockMove<T>, const COLS: usize>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
) {
    let TileBatch {
        origins,
        rows,
        cols,
        ..
    } = batch;
    if packed_tiles::<T, B, COLS>(dst, d, src, s, batch, reach) {
        return;
    }
    let band = band_rows::<T, B, COLS>(rows.len(), cols.len());
    let tuning = Tuning::current();
    let group = COLS * lines_per_visit::<T, COLS>(cols, tuning.lines_per_visit);
    let prefetch_source = prefetches_source::<T, B, COLS>(cols, tuning.prefetch_apart);
    let pitch = pitched(rows, batch.row_pitch);
    for &(tile_s, tile_d) in origins {
        let (s, d) = (s + tile_s, d + tile_d);
        let fits = reach.fits(dst.len(), d, src.len(), s);
        for band in rows.chunks(band) {
            for (g, col_group) in cols.chunks(group).enumerate() {
                // Where the next column group's destination lines start in each row.
                let next_group = cols.get((g + 1) * group).map(|col| col.1);
                for row_block in band.chunks(ROWS) {
                    if let Some(next) = next_group.filter(|_| !B::streams::<COLS>()) {
                        // Lines written through the cache are read first (their other bytes
                        // must be kept): ask for the lines these rows write next, so that
                        // those reads overlap this block's work (f32 nChw16c->nchw 1.07x,
                        // cached nchw->nhwc 1.24-1.30x).
                        for row in row_block {
                            B::prefetch(dst, d + row.1 + next);
                        }
                    }
                    let row = row_block[0].0;
                    if prefetch_source && (row * size_of::<T>()).is_multiple_of(64) {
                        // A block reads more source lines at once than the hardware prefetcher
                        // follows (16 to 64: channel planes of u8 nchw->nhwc, positions of
                        // nChw16c->nchw): as the blocks enter a new cache line of them, ask for
                        // the lines further on.
                        for col in col_group {
                            B::prefetch(src, s + row + col.0 + PREFETCH_BYTES / size_of::<T>());
                        }
                    }
                    if group == COLS {
                        // One block per visit (all but grouped streaming; known at compile
                        // time there): no inner loop, which costs the smallest blocks ~15% (u8
                        // flat->crouton2x2, 0.83x in interleaved runs).
                        move_block::<T, B, COLS>(dst, d, row_block, src, s, col_group, fits, pitch);
                    } else {
                        for col_block in col_group.chunks(COLS) {
                            move_block::<T, B, COLS>(
                                dst, d, row_block, src, s, col_block, fits, pitch,
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Whether a tile one block wide has packed blocks: `COLS` columns whose destination offsets
/// follow one another, and rows whose destination lines are `COLS` apart within each block of
/// `ROWS` ([`TileBatch::row_pitch`], from the plan), so that each block's destination is one
/// run of `ROWS * COLS` elements (u8 flat->crouton2x2, f32 nchw->nChw16c); and, checked here,
/// every whole block's last row `ROWS - 1` past its first on the source side and
/// `(ROWS - 1) * COLS` on the destination side. Once per call: the rows are the same for every
/// tile of a batch.
fn packed<const COLS: usize>(
    rows: &[(usize, usize)],
    cols: &[(usize, usize)],
    row_pitch: Option<usize>,
) -> Option<[(usize, usize); COLS]> {
    let cols: &[(usize, usize); COLS] = cols.try_into().ok()?;
    let columns_follow = cols.iter().zip(0..).all(|(c, i)| c.1 == cols[0].1 + i);
    let ends_match = rows.chunks_exact(ROWS).all(|block| {
        let ((first_s, first_d), (last_s, last_d)) = (block[0], block[ROWS - 1]);
        last_s == first_s + (ROWS - 1) && last_d == first_d + (ROWS - 1) * COLS
    });
    (row_pitch == Some(COLS) && columns_follow && ends_match).then_some(*cols)
}

/// The tiles of [`plane_body`] when their blocks are [`packed`] (`false`, nothing written,
/// when they are not): each whole block moves with the same constant row offsets,
/// `(r, r * COLS)` from its first row, so that LLVM folds them into the block's stores and no
/// row of the listing is read but each block's first (u8 flat->crouton2x2: 0.4x -> 0.75x of a
/// hand-written loop in the same order with the ends checked per block, about 0.8x with them
/// checked per call). Rows past the last whole block, and tiles whose reach does not fit, move
/// as [`move_block`] moves them.
#[inline(always)]
fn packed_tiles<T: Copy, B: BlockMove<T>, const COLS: usize>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
) -> bool {
    let TileBatch { origins, rows, .. } = batch;
    let Some(cols) = packed::<COLS>(rows, batch.cols, batch.row_pitch) else {
        return false;
    };
    let cols = &cols;
    // The rows `(r, r * COLS)` of every block: `Pitch(COLS)` for blocks that stream (f16
    // nchw->nChw16c 1.08-1.18x over the listing below; blocks that are one whole line, as u8
    // flat->crouton2x2's into a large destination), a constant listing for the others
    // (with `Pitch`, LLVM compiled the loop of u8 flat->crouton2x2 worse: 0.76-0.79x), made
    // at compile time.
    let streams =
        B::streams::<COLS>() || B::streams_pairs::<COLS>() || B::streams_block_lines::<COLS>();
    let block_rows = const { packed_rows::<COLS>() };
    let whole = rows.len() / ROWS * ROWS;
    for &(tile_s, tile_d) in origins {
        let (s, d) = (s + tile_s, d + tile_d);
        if !reach.fits(dst.len(), d, src.len(), s) {
            for row_block in rows.chunks(ROWS) {
                move_block::<T, B, COLS>(dst, d, row_block, src, s, cols, false, None);
            }
            continue;
        }
        for block in rows[..whole].chunks_exact(ROWS) {
            let (first_s, first_d) = block[0];
            let (block_s, block_d) = (s + first_s, d + first_d + cols[0].1);
            // SAFETY: row `r` of the block is taken as `(first_s + r, first_d + r * COLS)`
            // (the plan's rows are `COLS` apart within a block). `packed` checked that the
            // block's last row is `(first_s + ROWS - 1, first_d + (ROWS - 1) * COLS)`, and
            // that the columns' destination offsets follow one another. So the source lines
            // start at `block_s + col.0` and end at `s + last.0 + col.0 + 1`, at most
            // `s + reach.src + 1 <= src.len()` (`Reach::fits` above); the destination lines
            // start at `block_d + r * COLS` and the last ends at
            // `d + last.1 + cols[0].1 + COLS = d + last.1 + cols[COLS - 1].1 + 1`, at most
            // `d + reach.dst + 1 <= dst.len()`.
            unsafe {
                if streams {
                    B::block::<COLS, _>(dst, block_d, Pitch(COLS), src, block_s, cols);
                } else {
                    B::block::<COLS, _>(dst, block_d, &block_rows, src, block_s, cols);
                }
            }
        }
        if whole < rows.len() {
            move_block::<T, B, COLS>(dst, d, &rows[whole..], src, s, cols, false, None);
        }
    }
    true
}

/// The rows of a packed block ([`packed`]): row `r` at `(r, r * COLS)` from the block's first.
const fn packed_rows<const COLS: usize>() -> [(usize, usize); ROWS] {
    let mut rows = [(0, 0); ROWS];
    let mut r = 0;
    while r < ROWS {
        rows[r] = (r, r * COLS);
        r += 1;
    }
    rows
}

/// One block of a plane: through `B` when it is whole and `fits` (the call's `Reach::fits`),
/// else element by element. With `pitch` (from [`pitched`]: every whole
/// block's destination lines that far apart), `B` finds the lines by [`Pitch`], not from the
/// listing. A function, not a closure: a closure would be compiled on its own, without the CPU
/// features of the AVX2 build that inlines this.
#[inline(always)]
fn move_block<T: Copy, B: BlockMove<T>, const COLS: usize>(
    dst: &mut [T],
    d: usize,
    row_block: &[(usize, usize)],
    src: &[T],
    s: usize,
    col_block: &[(usize, usize)],
    fits: bool,
    pitch: Option<usize>,
) {
    let (block_s, block_d) = (s + row_block[0].0, d + col_block[0].1);
    match (
        <&[_; ROWS]>::try_from(row_block),
        <&[_; COLS]>::try_from(col_block),
    ) {
        (Ok(row_block), Ok(col_block))
            if fits
                && row_block[ROWS - 1].0.checked_sub(row_block[0].0) == Some(ROWS - 1)
                && col_block[COLS - 1].1.checked_sub(col_block[0].1) == Some(COLS - 1) =>
        {
            // SAFETY: the block's source lines start at `block_s + col.0`
            // (`block_s` is `s` plus the first row's source offset), `ROWS` long;
            // the last row's offset is the first's plus `ROWS - 1` (checked just
            // above), so each line ends at `s + (last row).0 + col.0 + 1`, at most
            // `s + reach.src + 1 <= src.len()` (`Reach::fits`). Likewise each
            // destination line ends at `d + row.1 + (last column).1 + 1`, at most
            // `d + reach.dst + 1 <= dst.len()`. With a pitch, line `k` is taken at
            // `row_block[0].1 + k * pitch`, between the first row's and the last row's
            // offsets (`pitched` checked that the last is the first plus `(ROWS - 1) * pitch`),
            // so inside the same bounds.
            unsafe {
                match pitch {
                    Some(pitch) => {
                        let block_d = block_d + row_block[0].1;
                        B::block::<COLS, _>(dst, block_d, Pitch(pitch), src, block_s, col_block)
                    }
                    None => B::block::<COLS, _>(dst, block_d, row_block, src, block_s, col_block),
                }
            }
        }
        _ => {
            // Partial blocks at the edges (and any block the checks above refuse):
            // element by element, each index checked.
            for &(row_src, row_dst) in row_block {
                for &(col_src, col_dst) in col_block {
                    dst[d + row_dst + col_dst] = src[s + row_src + col_src];
                }
            }
        }
    }
}

/// The destination pitch of every whole block of [`ROWS`] rows (counted from the first), where
/// the plan found one ([`TileBatch::row_pitch`]) and each such block's last row is indeed its
/// first plus `(ROWS - 1) * pitch` (what keeps the computed lines inside the listed bounds).
/// Once per call.
fn pitched(rows: &[(usize, usize)], row_pitch: Option<usize>) -> Option<usize> {
    let pitch = row_pitch?;
    let span = pitch.checked_mul(ROWS - 1)?;
    rows.chunks_exact(ROWS)
        .all(|block| block[0].1.checked_add(span) == Some(block[ROWS - 1].1))
        .then_some(pitch)
}

/// How many column blocks go together through each row block: destination lines written per
/// row on each visit. Blocks whose rows are whole destination lines go up to `most` at a time
/// (longer runs per destination row; the processor family's [`Tuning::lines_per_visit`]) as
/// long as the group's source lines stay within `GROUP_SOURCE_BYTES` (one compact region of
/// the source, not more separate streams); narrower blocks one at a time. Streamed or
/// written through the cache alike: f32 1x256x56x56 nhwc->nchw, whose 256 channel planes each
/// take a line per visit through the cache, ran 0.60 -> 0.67x memcpy with two lines per visit
/// (six alternating runs on the 480 MiB-L3 Intel core; other pairs unchanged).
fn lines_per_visit<T, const COLS: usize>(cols: &[(usize, usize)], most: usize) -> usize {
    match cols.get(..COLS) {
        Some([first, .., last]) if COLS * size_of::<T>() == 64 => {
            let span = (last.0.abs_diff(first.0) + ROWS) * size_of::<T>();
            (GROUP_SOURCE_BYTES / span).clamp(1, most.max(1))
        }
        _ => 1,
    }
}

/// Whether blocks prefetch their source lines ([`PREFETCH_BYTES`] ahead): blocks written
/// through the cache always; streamed blocks only where their source lines lie at least
/// `apart_at_least` bytes apart (the processor family's [`Tuning::prefetch_apart`]): more
/// separate streams than the hardware prefetcher follows (u8 nchw->nhwc: planes 3136 bytes
/// apart). Where they are closer (f32 nhwc->nchw: positions 1 KiB apart) the prefetches took
/// fill buffers from the streaming stores on the Intel core (1.09-1.19x without them) and
/// helped on the AMD one (1.11x with them).
fn prefetches_source<T: Copy, B: BlockMove<T>, const COLS: usize>(
    cols: &[(usize, usize)],
    apart_at_least: usize,
) -> bool {
    let apart = match cols {
        [first, next, ..] => next.0.abs_diff(first.0) * size_of::<T>(),
        _ => 0,
    };
    !B::streams::<COLS>() || apart >= apart_at_least
}

/// How far ahead of a transpose block its source lines are prefetched: four cache lines, the
/// best of 64 to 512 bytes in A/B runs (u8 nchw->nhwc 1.27-1.31x, f32 nchw->nhwc 1.12x, f32
/// oihw->OIhw16i16o 1.10-1.16x; for blocks that stay in cache too, nChw16c->nchw 1.03-1.05x,
/// cached nhwc->nchw 1.05-1.08x).
const PREFETCH_BYTES: usize = 256;

/// Most source bytes a group of column blocks may span (`lines_per_visit`).
const GROUP_SOURCE_BYTES: usize = 64 << 10;

/// Bounds of the offsets a transpose of listed rows by listed columns touches, relative to its
/// `s` and `d`: the largest `row.0 + col.0` and `row.1 + col.1`. Found once per relayout from
/// the whole listings (which bound any part of them a call gets), so each call checks its
/// bounds in constant time and its blocks need no check per line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reach {
    /// The largest source offset past `s`.
    pub src: usize,
    /// The largest destination offset past `d`.
    pub dst: usize,
}

impl Reach {
    /// The reach of every row of `rows` with every column of `cols`.
    pub(crate) fn of(rows: &[(usize, usize)], cols: &[(usize, usize)]) -> Self {
        let largest = |listing: &[(usize, usize)]| {
            listing
                .iter()
                .fold((0, 0), |(a, b), &(x, y)| (a.max(x), b.max(y)))
        };
        let (row, col) = (largest(rows), largest(cols));
        Reach {
            src: row.0.saturating_add(col.0),
            dst: row.1.saturating_add(col.1),
        }
    }

    /// Whether every offset reached from `s` and `d` lies inside slices of these lengths.
    pub(crate) fn fits(self, dst_len: usize, d: usize, src_len: usize, s: usize) -> bool {
        let inside = |start: usize, past: usize, len: usize| {
            start.checked_add(past).is_some_and(|last| last < len)
        };
        inside(s, self.src, src_len) && inside(d, self.dst, dst_len)
    }
}

/// How many of a tile's `rows` (of `cols` columns) [`plane_body`] takes per band: the column
/// blocks sweep across one band before the next. Lines that bypass the cache need no band: one
/// band reads each source line in one sequential sweep. Through the cache, rows that span at
/// most [`WHOLE_BAND_SOURCE_BYTES`] of source go in one band too (f32 nhwc->nchw: each
/// position's 256 channels, 1 KiB, read in order while the 256 channel planes take a line
/// each). Longer rows go in bands whose destination rows cover about [`BAND_BYTES`], so that
/// the lines the column blocks fill in turn stay in the nearest caches, but of at least
/// [`BAND_SOURCE_RUN_BYTES`] of source per column, so that each source line is read on in a
/// run the prefetchers follow. Measured on the 480 MiB-L3 Intel core against the 1 MiB bands
/// before (ratio to memcpy, medians of three interleaved runs): f32 1x256x56x56 nchw->nhwc
/// 0.64 -> 0.83, nhwc->nchw 0.43 -> 0.61, u8 8x256x56x56 nchw->nhwc 0.61 -> 0.68, f16
/// 1x256x56x56 nchw->nhwc 0.68 -> 0.77, large pairs unchanged. 64 KiB bands without the
/// source minimum lost f32 1x256x56x56 nhwc->nchw (0.29); runs of 1 or 2 KiB lost its
/// nchw->nhwc (0.67-0.69); whole bands up to 4 KiB of source lost u8 nchw->nhwc (0.63).
fn band_rows<T: Copy, B: BlockMove<T>, const COLS: usize>(rows: usize, cols: usize) -> usize {
    let element = size_of::<T>().max(1);
    if B::streams::<COLS>() || rows * element <= WHOLE_BAND_SOURCE_BYTES {
        return rows.max(1);
    }
    let covering = BAND_BYTES / (cols * element).max(1);
    let run = BAND_SOURCE_RUN_BYTES / element;
    covering.max(run).clamp(ROWS, 1 << 14) / ROWS * ROWS
}

/// Destination bytes one band of a transpose written through the cache covers, about
/// ([`band_rows`]): a few times L1, well inside L2.
const BAND_BYTES: usize = 64 << 10;

/// Least source bytes per column a band of a transpose reads in one run ([`band_rows`]):
/// eight cache lines.
const BAND_SOURCE_RUN_BYTES: usize = 512;

/// Rows spanning at most this many source bytes go in one band ([`band_rows`]).
const WHOLE_BAND_SOURCE_BYTES: usize = 2 << 10;

/// Blocks through a local tile, for any `T: Copy`.
pub(crate) struct Portable;

impl<T: Copy> BlockMove<T> for Portable {
    /// No prefetch: the portable tile's speed was never measured with one.
    #[inline(always)]
    fn prefetch(_: &[T], _: usize) {}

    /// `COLS` source lines into a local tile, then `ROWS` destination lines out of it. Fixed
    /// sizes let LLVM unroll the block; each line costs one bounds check (kept: the portable
    /// tile is the fallback for any `T`, not the measured fast path).
    #[inline(always)]
    unsafe fn block<const COLS: usize, L: Lines>(
        dst: &mut [T],
        d: usize,
        rows: L,
        src: &[T],
        s: usize,
        cols: &[(usize, usize); COLS],
    ) {
        let mut tile = [[src[s + cols[0].0]; ROWS]; COLS];
        for (column, &(col, _)) in tile.iter_mut().zip(cols) {
            *column = src[s + col..s + col + ROWS]
                .try_into()
                .expect("a line of ROWS elements");
        }
        for r in 0..ROWS {
            let row = rows.at(r);
            let line: &mut [T; COLS] = (&mut dst[d + row..d + row + COLS])
                .try_into()
                .expect("a line of COLS elements");
            for (out, column) in line.iter_mut().zip(&tile) {
                *out = column[r];
            }
        }
    }
}

/// `dst[d + i * d_col] = src[s + i * s_col]` for `i` in `cols`: any strides.
pub(crate) fn copy_strided<T: Copy>(
    dst: &mut [T],
    d: usize,
    d_col: usize,
    src: &[T],
    s: usize,
    s_col: usize,
    cols: Range<usize>,
) {
    for i in cols {
        dst[d + i * d_col] = src[s + i * s_col];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// `dst[d + row.1 + col.1] = src[s + row.0 + col.0]`, one element at a time.
    fn by_element(
        dst: &mut [u32],
        d: usize,
        rows: &[(usize, usize)],
        src: &[u32],
        s: usize,
        cols: &[(usize, usize)],
    ) {
        for &(row_src, row_dst) in rows {
            for &(col_src, col_dst) in cols {
                dst[d + row_dst + col_dst] = src[s + row_src + col_src];
            }
        }
    }

    /// Blocks find their lines by the pitch only where every whole block's last row confirms it.
    #[test]
    fn rows_are_pitched_where_every_whole_block_ends_on_the_pitch() {
        // Two whole blocks 7 apart, then 5 rows of a partial block (not checked: it moves
        // element by element).
        let mut rows: Vec<(usize, usize)> = (0..2 * ROWS + 5).map(|r| (r, r * 7)).collect();
        assert_eq!(pitched(&rows, Some(7)), Some(7));
        assert_eq!(pitched(&rows, None), None);
        assert_eq!(pitched(&rows, Some(8)), None);
        // A second block that starts elsewhere but keeps the pitch.
        for row in &mut rows[ROWS..] {
            row.1 += 1000;
        }
        assert_eq!(pitched(&rows, Some(7)), Some(7));
        // A block whose last row is off the pitch.
        rows[2 * ROWS - 1].1 += 1;
        assert_eq!(pitched(&rows, Some(7)), None);
        // A pitch so large that the block's span overflows.
        assert_eq!(pitched(&rows, Some(usize::MAX / 2)), None);
    }

    /// Blocks that stream, for the choices that depend on it (they move nothing).
    struct Streams;
    impl BlockMove<u32> for Streams {
        const STREAMS: bool = true;
        unsafe fn block<const COLS: usize, L: Lines>(
            _: &mut [u32],
            _: usize,
            _: L,
            _: &[u32],
            _: usize,
            _: &[(usize, usize); COLS],
        ) {
        }
    }

    /// Bands: every row where the lines stream or the rows span at most 2 KiB of source; else
    /// about 64 KiB of destination rows, but at least 512 source bytes per column.
    #[test]
    fn bands_cover_the_destination_near_the_core_in_long_source_runs() {
        // f32 nhwc->nchw: 256 channel rows (1 KiB of source) of 3136 positions.
        assert_eq!(band_rows::<u32, Portable, 16>(256, 3136), 256);
        // f32 nchw->nhwc: 3136 position rows of 256 channels: 64 KiB is 64 rows, 512 bytes
        // of each plane 128.
        assert_eq!(band_rows::<u32, Portable, 16>(3136, 256), 128);
        // u8 nchw->nhwc: 64 KiB and 512 bytes are both 256 and 512 rows.
        assert_eq!(band_rows::<u8, Portable, 16>(3136, 256), 512);
        assert_eq!(band_rows::<u8, Portable, 16>(3136, 64), 1024);
        // Narrow tiles: the 64 KiB rule, capped, in whole blocks.
        assert_eq!(band_rows::<u32, Portable, 16>(100_000, 2), 8192);
        assert_eq!(band_rows::<u32, Portable, 16>(100_000, 3), 5456);
        // Streamed lines: one band.
        assert_eq!(band_rows::<u32, Streams, 16>(3136, 256), 3136);
    }

    /// Whole-line blocks, streamed or not, go out several to a row only while their source
    /// lines stay close.
    #[test]
    fn whole_lines_group_while_their_source_is_compact() {
        let cols =
            |pitch: usize| -> Vec<(usize, usize)> { (0..64).map(|c| (c * pitch, c)).collect() };
        // 16 columns 256 elements apart span 15 KiB of u32: four blocks would fit in 64 KiB,
        // as many as the tuning allows go together.
        assert_eq!(lines_per_visit::<u32, 16>(&cols(256), 2), 2);
        assert_eq!(lines_per_visit::<u32, 16>(&cols(256), 1), 1);
        assert_eq!(lines_per_visit::<u32, 16>(&cols(256), 8), 4);
        assert_eq!(lines_per_visit::<u32, 16>(&cols(512), 2), 2);
        assert_eq!(lines_per_visit::<u32, 16>(&cols(2048), 2), 1);
        // 3136 apart (NCHW planes of 56x56) span 184 KiB: one block at a time.
        assert_eq!(lines_per_visit::<u32, 16>(&cols(3136), 2), 1);
        // Blocks narrower than a line never group.
        assert_eq!(lines_per_visit::<u32, 8>(&cols(256), 2), 1);
        // Streamed blocks prefetch their source only where its lines are at least the
        // tuning's distance apart (2 KiB on Intel, 512 bytes on AMD); other blocks always.
        assert!(!prefetches_source::<u32, Streams, 16>(&cols(256), 2048));
        assert!(!prefetches_source::<u32, Streams, 16>(&cols(511), 2048));
        assert!(prefetches_source::<u32, Streams, 16>(&cols(512), 2048));
        assert!(prefetches_source::<u32, Streams, 16>(&cols(3136), 2048));
        assert!(prefetches_source::<u32, Streams, 16>(&cols(256), 1024));
        assert!(!prefetches_source::<u32, Streams, 16>(&cols(255), 1024));
        assert!(prefetches_source::<u32, Portable, 16>(&cols(256), 2048));
        assert!(prefetches_source::<u32, Streams, 8>(&cols(16), 2048));
    }

    /// Every tile of a batch moves, the last one ending at the very end of both slices (its
    /// reach just fits), through the portable tile and through `transpose` (SIMD blocks for
    /// `u32` on x86-64).
    #[test]
    fn every_tile_of_a_batch_moves() {
        let rows: Vec<(usize, usize)> = (0..32).map(|r| (r, r * 24)).collect();
        let cols: Vec<(usize, usize)> = (0..20).map(|c| (c * 36, c)).collect();
        let reach = Reach::of(&rows, &cols);
        let (tile_src, tile_dst) = (reach.src + 1, reach.dst + 1);
        let origins = [
            (0, 0),
            (tile_src, tile_dst + 4),
            (2 * tile_src + 3, 2 * tile_dst + 4),
        ];
        let (s, d) = (2, 1);
        let src: Vec<u32> = (0..s + origins[2].0 + tile_src)
            .map(|i| i as u32 * 3)
            .collect();
        let len = d + origins[2].1 + tile_dst;
        let mut want = alloc::vec![0u32; len];
        for &(at_src, at_dst) in &origins {
            by_element(&mut want, d + at_dst, &rows, &src, s + at_src, &cols);
        }
        let batch = TileBatch {
            origins: &origins,
            rows: &rows,
            cols: &cols,
            row_pitch: Some(24),
        };
        let mut got = alloc::vec![0u32; len];
        portable_planes(&mut got, d, &src, s, batch, reach);
        assert_eq!(got, want);
        let mut got = alloc::vec![0u32; len];
        transpose(&mut got, d, &src, s, batch, reach, false);
        assert_eq!(got, want);
    }

    /// Tiles one block wide with rows `COLS` apart move through packed blocks, with the rows
    /// past the last whole block and a tile whose reach does not fit; a listing with a block
    /// whose ends do not match the pitch takes the general path. Both as the listing says.
    #[test]
    fn packed_blocks_move_as_listed() {
        // Three blocks of 16 rows and 8 more, 4 apart; then the same with the second block's
        // last row elsewhere.
        let packed_rows: Vec<(usize, usize)> = (0..56).map(|r| (r, r * 4)).collect();
        let mut odd_rows = packed_rows.clone();
        odd_rows[31].1 = 300;
        let cols: Vec<(usize, usize)> = (0..4).map(|c| (c * 60, c)).collect();
        assert!(packed::<4>(&packed_rows, &cols, Some(4)).is_some());
        assert!(packed::<4>(&odd_rows, &cols, Some(4)).is_none());
        assert!(packed::<4>(&packed_rows, &cols, Some(5)).is_none());
        assert!(packed::<8>(&packed_rows, &cols, Some(8)).is_none());
        for rows in [&packed_rows, &odd_rows] {
            let reach = Reach::of(rows, &cols);
            let origins = [(0, 0), (reach.src + 1, reach.dst + 1)];
            let src: Vec<u32> = (0..2 * (reach.src + 1) + 2).map(|i| i as u32 * 5).collect();
            let len = 2 * (reach.dst + 1) + 1;
            let mut want = alloc::vec![0u32; len];
            for &(at_src, at_dst) in &origins {
                by_element(&mut want, 1 + at_dst, rows, &src, 2 + at_src, &cols);
            }
            let batch = TileBatch {
                origins: &origins,
                rows,
                cols: &cols,
                row_pitch: Some(4),
            };
            let too_far = Reach {
                src: reach.src,
                dst: len,
            };
            for reach in [reach, too_far] {
                let mut got = alloc::vec![0u32; len];
                portable_planes(&mut got, 1, &src, 2, batch, reach);
                assert_eq!(got, want, "{reach:?}");
                let mut got = alloc::vec![0u32; len];
                transpose(&mut got, 1, &src, 2, batch, reach, false);
                assert_eq!(got, want, "{reach:?}, SIMD blocks");
            }
        }
    }

    #[test]
    fn reach_is_the_largest_offset_on_each_side() {
        let rows = [(0, 40), (1, 0), (2, 20)];
        let cols = [(9, 0), (3, 1)];
        assert_eq!(Reach::of(&rows, &cols), Reach { src: 11, dst: 41 });
        assert!(Reach::of(&rows, &cols).fits(42, 0, 12, 0));
        assert!(!Reach::of(&rows, &cols).fits(41, 0, 12, 0));
        assert!(!Reach::of(&rows, &cols).fits(usize::MAX, usize::MAX, 12, 0));
    }

    /// Calls whose reach does not fit (a conservative reach, as a part of a listing gets) and
    /// blocks whose rows do not count up take the checked element path, with the same result.
    #[test]
    fn blocks_outside_the_reach_take_the_checked_path() {
        let rows: Vec<(usize, usize)> = (0..32).map(|r| (r, r * 20)).collect();
        let cols: Vec<(usize, usize)> = (0..16).map(|c| (c * 40, c)).collect();
        let src: Vec<u32> = (0..16 * 40 + 8).collect();
        let mut want = alloc::vec![0u32; 32 * 20 + 4];
        by_element(&mut want, 1, &rows, &src, 2, &cols);
        let one_tile = |rows| TileBatch {
            origins: &[(0, 0)],
            rows,
            cols: &cols,
            row_pitch: Some(20),
        };
        for reach in [
            Reach::of(&rows, &cols),
            Reach {
                src: usize::MAX,
                dst: 0,
            },
        ] {
            let mut got = alloc::vec![0u32; 32 * 20 + 4];
            portable_planes(&mut got, 1, &src, 2, one_tile(&rows), reach);
            assert_eq!(got, want, "{reach:?}");
        }
        // Rows that skip a source offset: the block is not ROWS consecutive source elements.
        let gapped: Vec<(usize, usize)> = (0..16).map(|r| (r + r / 8, r * 20)).collect();
        let mut want = alloc::vec![0u32; 16 * 20 + 4];
        by_element(&mut want, 1, &gapped, &src, 2, &cols);
        let mut got = alloc::vec![0u32; 16 * 20 + 4];
        let reach = Reach::of(&gapped, &cols);
        portable_planes(&mut got, 1, &src, 2, one_tile(&gapped), reach);
        assert_eq!(got, want);
    }
}

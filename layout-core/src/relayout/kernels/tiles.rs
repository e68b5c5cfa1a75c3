//! Cache-blocked transposes: a batch of tiles moved in blocks of [`ROWS`] rows by up to a
//! cache line of columns, through registers where the element type has vector blocks
//! ([`Element::vector_transpose`]) or through a local tile ([`Portable`]).
#![allow(clippy::too_many_arguments)] // the kernel's arguments stay in registers

use super::block_move::{BlockLines, BlockMove};
use super::element::Element;
use super::few_rows::{few_rows_body, takes as takes_few_rows};
use super::narrow::{Cached, narrow_transpose};
use super::tile_batch::{TileBatch, move_elements};
use super::tile_shape::{SourcePrefetch, band_rows, lines_per_visit, pitched, source_prefetch};
use super::transposes::{Transposes, transposes_fn};
use crate::relayout::lines::{DST, Lines, Pitch, SRC, evenly_listed};
use crate::relayout::tuning::{CACHE_LINE, ROWS};

transposes_fn! {
    /// Transposes every tile of `batch` from `src` (at `s`) into `dst` (at `d`) by the vector
    /// blocks, else the narrow kernels, else the portable tile; `reach` bounds one tile's offsets,
    /// `stream` asks for non-temporal stores of whole lines (a destination past the caches).
    pub(crate) fn transpose[T: Element](t: Transposes<T>, stream: bool) {
        if T::vector_transpose(t.reborrow(), stream) {
            return;
        }
        // SAFETY: plain copies run on any CPU.
        if unsafe { narrow_transpose::<T, Cached>(t.reborrow()) } {
            return;
        }
        portable_planes(t);
    }
}

/// One width's transposes as a function of its own ([`planes`]): [`plane`] by default, a
/// `#[target_feature]` function for the AVX2 and AVX-512 blocks.
pub(crate) trait PlaneMove<T: Copy>: BlockMove<T> {
    /// Runs one width's [`width_body`] compiled with the blocks' CPU features, a function per
    /// width: inlined together they slow the smallest blocks (and bloat a debug build's frame).
    ///
    /// # Safety
    ///
    /// The CPU runs the blocks' instructions (nothing for the portable and SSE2 blocks).
    unsafe fn plane<const COLS: usize, const FEW_ROWS: bool>(t: Transposes<'_, T>)
    where
        Self: Sized,
    {
        plane::<T, Self, COLS, FEW_ROWS>(t.dst, t.d, t.src, t.s, t.batch, t.reach);
    }
}

/// Runs a batch of transposes in blocks moved by `B`, [`block_columns`] wide, each width
/// through [`PlaneMove::plane`].
///
/// # Safety
///
/// As [`PlaneMove::plane`]: the CPU runs `B`'s instructions.
pub(crate) unsafe fn planes<T: Copy, B: PlaneMove<T>>(mut t: Transposes<'_, T>) {
    let batch = t.batch;
    let line = CACHE_LINE / size_of::<T>().max(1);
    let columns = block_columns(batch.cols.len(), line, B::streams::<64>());
    // Four or more columns past the last whole block move as a batch of narrower blocks (255
    // f32 channels: 15 x 16 + 8 + 4 + 3); fewer go element by element with the blocks.
    let whole = batch.cols.len() / columns * columns;
    if columns > 4 && whole > 0 && batch.cols.len() - whole >= 4 {
        let (blocks, rest) = batch.cols.split_at(whole);
        for cols in [blocks, rest] {
            // SAFETY: passed on from the caller; the call's `reach` bounds a part of its columns.
            unsafe { planes::<T, B>(t.with_batch(TileBatch { cols, ..batch })) };
        }
        return;
    }
    // SAFETY (each arm): passed on from the caller.
    unsafe {
        match columns {
            64 => width::<T, B, 64>(t),
            32 => width::<T, B, 32>(t),
            16 => width::<T, B, 16>(t),
            8 => width::<T, B, 8>(t),
            _ => width::<T, B, 4>(t),
        }
    }
}

/// One width's transposes: tiles of 4 to 15 rows through the few-rows stage, others by blocks.
///
/// # Safety
///
/// As [`PlaneMove::plane`]: the CPU runs `B`'s instructions.
#[inline(always)]
unsafe fn width<T: Copy, B: PlaneMove<T>, const COLS: usize>(t: Transposes<'_, T>) {
    // SAFETY (both): passed on from the caller.
    unsafe {
        if takes_few_rows(&t.batch) {
            B::plane::<COLS, true>(t)
        } else {
            B::plane::<COLS, false>(t)
        }
    }
}

/// The columns per block of a tile of `cols` columns: as many as fill a cache line of `line`
/// elements, fewer when the tile has fewer (4 at the least). 64 only where `byte_lines` (the
/// blocks stream lines of bytes): in cache, 64 columns of registers cost more than they save.
pub(crate) fn block_columns(cols: usize, line: usize, byte_lines: bool) -> usize {
    match cols {
        n if n >= 64 && byte_lines => 64,
        n if n >= 32 && line >= 32 => 32,
        n if n >= 16 && line >= 16 => 16,
        n if n >= 8 => 8,
        _ => 4,
    }
}

/// [`planes`] with the portable tile, which runs on any CPU.
pub(crate) fn portable_planes<T: Copy>(t: Transposes<'_, T>) {
    // SAFETY: the portable tile's instructions run on any CPU.
    unsafe { planes::<T, Portable>(t) }
}

transposes_fn! {
    /// One width's [`width_body`] as a function of its own (the default [`PlaneMove::plane`]).
    #[inline(never)]
    pub(crate) fn plane[T: Copy, B: PlaneMove<T>, const COLS: usize, const FEW_ROWS: bool](
        t: Transposes<T>,
    ) {
        width_body::<T, B, COLS, FEW_ROWS>(t);
    }
}

/// [`few_rows_body`] through `B`'s [`Cached`](BlockMove::Cached) blocks where `FEW_ROWS`, else
/// [`plane_body`]: what each build of [`PlaneMove::plane`] runs.
#[inline(always)]
pub(crate) fn width_body<T: Copy, B: BlockMove<T>, const COLS: usize, const FEW_ROWS: bool>(
    t: Transposes<'_, T>,
) {
    if FEW_ROWS {
        few_rows_body::<T, B::Cached, COLS>(t);
    } else {
        plane_body::<T, B, COLS>(t);
    }
}

/// The batch's transposes in blocks of `COLS` columns: per tile, bands of rows, in each a
/// group of column blocks at a time through the band's row blocks, so the source reads as a few
/// streams and destination lines are written whole. Inlined into the blocks' CPU-feature builds.
#[inline(always)]
pub(crate) fn plane_body<T: Copy, B: BlockMove<T>, const COLS: usize>(mut t: Transposes<'_, T>) {
    if packed_tiles::<T, B, COLS>(t.reborrow()) {
        return;
    }
    let (dst, d, src, s, batch, reach) = t.parts();
    let (origins, rows, cols) = (batch.origins, batch.rows, batch.cols);
    let band = band_rows::<T>(rows.len(), cols.len(), B::streams::<COLS>());
    let choices = batch.choices;
    let pitch = pitched(rows, batch.row_pitch);
    let group = COLS * lines_per_visit::<T, COLS>(cols, pitch, B::streams::<COLS>(), choices);
    let source_ahead = source_prefetch::<T>(cols, choices, B::streams::<COLS>());
    for &(tile_s, tile_d) in origins {
        let (s, d) = (s + tile_s, d + tile_d);
        let fits = reach.fits(dst.len(), d, src.len(), s);
        for band in rows.chunks(band) {
            for (g, col_group) in cols.chunks(group).enumerate() {
                // Where the next column group's destination lines start in each row.
                let next_group = cols.get((g + 1) * group).map(|col| col.1);
                for (b, row_block) in band.chunks(ROWS).enumerate() {
                    // A band's last rows, fewer than a block: the `ROWS` rows ending with them,
                    // listed (the pitch holds from the band's first row only).
                    let (row_block, pitch) =
                        match overlapping::<ROWS>(band, b * ROWS, row_block.len()) {
                            Some(rows) => (rows, None),
                            None => (row_block, pitch),
                        };
                    if let Some(next) = next_group.filter(|_| !B::streams::<COLS>()) {
                        // Lines written through the cache are read first: ask for the next
                        // group's now, so the reads overlap this block's work.
                        for row in row_block {
                            B::prefetch(dst, d + row.1 + next);
                        }
                    }
                    let row = row_block[0].0;
                    if let Some(SourcePrefetch { ahead, every }) = source_ahead
                        && (row * size_of::<T>()).is_multiple_of(CACHE_LINE)
                    {
                        // More source lines than the hardware prefetcher follows, or one run
                        // faster than it ramps up: on entering a line, ask for those ahead.
                        for col in col_group.iter().step_by(every) {
                            B::prefetch(src, s + row + col.0 + ahead);
                        }
                    }
                    if group == COLS {
                        // One block per visit: no inner loop, which slows the smallest blocks.
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

/// For a last block of `len` rows of `lines` from `start`, at least half but fewer than `N`:
/// the `N` rows ending with it, rewriting part of the block before with the same values so it
/// goes through the vector block (under half, `None`: it would rewrite most of it). Rows only:
/// a check per column block slows whole tiles.
#[inline(always)]
fn overlapping<const N: usize>(
    lines: &[(usize, usize)],
    start: usize,
    len: usize,
) -> Option<&[(usize, usize)]> {
    let end = start + len;
    (len < N && 2 * len >= N && end >= N).then(|| &lines[end - N..end])
}

/// A tile's columns, one block wide, where each block is one destination run (u8 flat->crouton2x2,
/// f32 nchw->nChw16c): destination offsets following one another, rows [`pitched`] `COLS`
/// apart, each whole block's last row `ROWS - 1` past its first in the source.
fn packed<const COLS: usize>(
    rows: &[(usize, usize)],
    cols: &[(usize, usize)],
    row_pitch: Option<usize>,
) -> Option<[(usize, usize); COLS]> {
    let cols: &[(usize, usize); COLS] = cols.try_into().ok()?;
    let columns_follow = cols.iter().zip(0..).all(|(c, i)| c.1 == cols[0].1 + i);
    let sources_follow = rows
        .chunks_exact(ROWS)
        .all(|block| block[ROWS - 1].0.checked_sub(block[0].0) == Some(ROWS - 1));
    (pitched(rows, row_pitch) == Some(COLS) && columns_follow && sources_follow).then_some(*cols)
}

/// The tiles of [`plane_body`] when their blocks are [`packed`] (else `false`, nothing
/// written): whole blocks with the constant row offsets `(r, r * COLS)`, folded into the
/// stores; rows past them, and tiles whose reach does not fit, element by element.
#[inline(always)]
fn packed_tiles<T: Copy, B: BlockMove<T>, const COLS: usize>(t: Transposes<'_, T>) -> bool {
    let (dst, d, src, s, batch, reach) = t.parts();
    let TileBatch { origins, rows, .. } = batch;
    let Some(cols) = packed::<COLS>(rows, batch.cols, batch.row_pitch) else {
        return false;
    };
    let cols = &cols;
    // The rows `(r, r * COLS)`: `Pitch(COLS)` for blocks that stream (see `Pitch`), a constant
    // listing for the others (LLVM compiles their loop worse with `Pitch`).
    let streams =
        B::streams::<COLS>() || B::streams_pairs::<COLS>() || B::streams_block_lines::<COLS>();
    let block_rows: [_; ROWS] = const { evenly_listed(1, COLS) };
    let whole = rows.len() / ROWS * ROWS;
    for &(tile_s, tile_d) in origins {
        let (s, d) = (s + tile_s, d + tile_d);
        if !reach.fits(dst.len(), d, src.len(), s) {
            move_elements(dst, d, src, s, rows, cols);
            continue;
        }
        for block in rows[..whole].chunks_exact(ROWS) {
            let (first_s, first_d) = block[0];
            let (from, to) = (s + first_s, d + first_d + cols[0].1);
            // SAFETY: row `r` is taken as `(first_s + r, first_d + r * COLS)`; `packed` checked
            // that the last row is `(first_s + ROWS - 1, first_d + (ROWS - 1) * COLS)` and that
            // the columns' destination offsets follow one another. So the source lines end at
            // `s + last.0 + col.0 + 1 <= s + reach.src + 1 <= src.len()` (`Reach::fits` above),
            // the last destination line at `d + last.1 + cols[COLS - 1].1 + 1`, at most
            // `d + reach.dst + 1 <= dst.len()`.
            unsafe {
                if streams {
                    B::block(dst, BlockLines::new(to, Pitch(COLS), src, from, cols));
                } else {
                    B::block(dst, BlockLines::new(to, &block_rows, src, from, cols));
                }
            }
        }
        if whole < rows.len() {
            move_elements(dst, d, src, s, &rows[whole..], cols);
        }
    }
    true
}

/// One block of a plane: through `B` when whole and `fits` (the call's
/// [`Reach::fits`](super::reach::Reach::fits)), else element by element; with `pitch` ([`pitched`])
/// its destination lines by [`Pitch`]. Not a closure: it compiles with its inliner's CPU features.
#[inline(always)]
fn move_block<T: Copy, B: BlockMove<T>, const COLS: usize>(
    dst: &mut [T],
    d: usize,
    rows: &[(usize, usize)],
    src: &[T],
    s: usize,
    cols: &[(usize, usize)],
    fits: bool,
    pitch: Option<usize>,
) {
    let (from, to) = (s + rows[0].0, d + cols[0].1);
    match (<&[_; ROWS]>::try_from(rows), <&[_; COLS]>::try_from(cols)) {
        (Ok(rows), Ok(cols))
            if fits
                && rows[ROWS - 1].0.checked_sub(rows[0].0) == Some(ROWS - 1)
                && cols[COLS - 1].1.checked_sub(cols[0].1) == Some(COLS - 1) =>
        {
            // SAFETY: the source lines from `from + col.0 = s + rows[0].0 + col.0` are `ROWS`
            // long and the last row is the first plus `ROWS - 1` (checked just above), so each
            // ends at `s + (last row).0 + col.0 + 1 <= s + reach.src + 1 <= src.len()`
            // (`Reach::fits`), and each destination line at `d + row.1 + (last col).1 + 1 <=
            // d + reach.dst + 1 <= dst.len()`. With a pitch, line `k` is at `rows[0].1 + k *
            // pitch`, between the first and last rows' offsets (`pitched`): the same bounds.
            unsafe {
                match pitch {
                    Some(pitch) => {
                        let to = to + rows[0].1;
                        B::block(dst, BlockLines::new(to, Pitch(pitch), src, from, cols))
                    }
                    None => B::block(dst, BlockLines::new(to, rows, src, from, cols)),
                }
            }
        }
        // Partial blocks at the edges, and blocks the checks above refuse.
        _ => move_elements(dst, d, src, s, rows, cols),
    }
}

/// Blocks through a local tile, for any `T: Copy`.
pub(crate) struct Portable;

impl<T: Copy> PlaneMove<T> for Portable {}

impl<T: Copy> BlockMove<T> for Portable {
    type Cached = Self;

    /// No prefetch: the distances are the vector blocks'.
    #[inline(always)]
    fn prefetch(_: &[T], _: usize) {}

    /// `COLS` source lines into a local tile, then `ROWS` destination lines out, one check a line.
    #[inline(always)]
    unsafe fn block<const COLS: usize, L: Lines<DST>, C: Lines<SRC>>(
        dst: &mut [T],
        b: BlockLines<'_, T, L, C, COLS>,
    ) {
        let (src, s, d) = (b.src, b.s, b.d);
        let mut tile = [[src[s + b.cols.at(0)]; ROWS]; COLS];
        for (j, column) in tile.iter_mut().enumerate() {
            let col = b.cols.at(j);
            *column = src[s + col..s + col + ROWS]
                .try_into()
                .expect("a line of ROWS elements");
        }
        for r in 0..ROWS {
            let row = b.rows.at(r);
            let line: &mut [T; COLS] = (&mut dst[d + row..d + row + COLS])
                .try_into()
                .expect("a line of COLS elements");
            for (out, column) in line.iter_mut().zip(&tile) {
                *out = column[r];
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;

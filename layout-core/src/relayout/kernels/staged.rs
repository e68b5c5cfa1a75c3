//! Transposes whose destination rows lie back to back but are not whole cache lines (NCHW ->
//! NHWC of 17 or 255 f32 channels), staged: a group of rows making whole lines is transposed
//! into a local buffer, which leaves as one run of streamed lines. Written directly, no line
//! starts where a block writes it: nothing streams, and every line is read before it is written.
//! x86-64 only (`x86/avx2.rs::stream_run` copies out). Long rows apart (NHWC -> NCHW of 55 x 55)
//! are not staged: each would leave the buffer in pieces between its own line boundaries.

use super::block_move::{BlockLines, BlockMove};
use super::prefetch::prefetch;
use super::tile_batch::{TileBatch, move_elements};
use super::tiles::block_columns;
use super::transposes::Transposes;
use crate::relayout::lines::Pitch;
use crate::relayout::tuning::{CACHE_LINE, PREFETCH_BYTES, PREFETCHED_STREAMS, ROWS};
use alloc::vec::Vec;
use bytemuck::Pod;

/// Bytes of the local buffer a group of rows is transposed into: half of a 32 KiB L1d, so the
/// buffer and the group's source lines stay in it.
const STAGE_BYTES: usize = 16 * 1024;

/// How a batch is staged: rows of `cols` elements, `rows` of them (a multiple of [`ROWS`]) per
/// group, which are whole destination lines; column blocks `width` wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stages {
    pub cols: usize,
    pub rows: usize,
    pub width: usize,
}

impl Stages {
    /// The stages of `batch`, where staging pays: its tiles' destination rows lie back to back,
    /// a row is neither half a line nor whole lines (those stream as they are) and at least a
    /// block wide, and a group of rows making whole lines fits the buffer. Rows of an odd
    /// number of half lines stage for 2- and 4-byte elements (written directly, every other
    /// row's blocks start off the grid), not for bytes, where staging does not pay.
    pub(crate) fn of<T>(batch: &TileBatch<'_>) -> Option<Self> {
        let (rows, cols) = (batch.rows, batch.cols);
        let (first_col, last_col) = (cols.first()?, cols.last()?);
        let (first_row, last_row) = (rows.first()?, rows.last()?);
        let n = cols.len();
        let row_bytes = n * size_of::<T>();
        let back_to_back = batch.rows_run == Some(n)
            && last_col.1 == first_col.1 + (n - 1)
            && last_row.0 == first_row.0 + (rows.len() - 1);
        let half_lines = row_bytes.is_multiple_of(CACHE_LINE / 2);
        let streams_as_is = row_bytes == CACHE_LINE / 2
            || row_bytes.is_multiple_of(CACHE_LINE)
            || (half_lines && size_of::<T>() == 1);
        if !back_to_back || streams_as_is {
            return None;
        }
        // The fewest rows, a multiple of a block, that make whole lines.
        let mut group = ROWS;
        while !(group * row_bytes).is_multiple_of(CACHE_LINE) {
            group += ROWS;
        }
        // Blocks as the tiles' through the cache, into the buffer.
        let width = block_columns(n, CACHE_LINE / size_of::<T>().max(1), false);
        (n >= width && group * row_bytes <= STAGE_BYTES && rows.len() >= group).then_some(Stages {
            cols: n,
            rows: group,
            width,
        })
    }
}

/// Transposes every tile of the batch in groups of `stages.rows` rows: each group's blocks of
/// `COLS` columns (by `B`) into `buffer`, then out as one run by `stream_run`. Columns past the
/// last whole block go as one more block ending with the last column where they are at least
/// half a block (rewriting part of the one before), else element by element, as do rows past
/// the last group and tiles `reach` does not fit. Where a group reads more source lines than
/// [`PREFETCHED_STREAMS`], blocks prefetch [`PREFETCH_BYTES`] ahead. Always inlined, so the
/// blocks' CPU-feature builds compile it whole.
///
/// # Safety
///
/// The CPU runs `B`'s instructions and `stream_run`'s; `stages` is [`Stages::of`] the batch,
/// with `width == COLS`.
#[inline(always)]
unsafe fn staged_body<T: Pod, B: BlockMove<T>, const COLS: usize>(
    t: Transposes<'_, T>,
    stages: Stages,
    buffer: &mut [T],
    stream_run: unsafe fn(&mut [T], &[T]),
) {
    let (dst, d, src, s, batch, reach) = t.parts();
    let (n, group) = (stages.cols, stages.rows);
    let buffer = &mut buffer[..group * n];
    // The columns within the buffer: at `0..n`, from the same source offsets.
    let cols: Vec<(usize, usize)> = batch
        .cols
        .iter()
        .enumerate()
        .map(|(j, col)| (col.0, j))
        .collect();
    let mut left = &cols[n / COLS * COLS..];
    let last = (2 * left.len() >= COLS).then(|| &cols[n - COLS..]);
    if last.is_some() {
        left = &[];
    }
    let blocks: Vec<[(usize, usize); COLS]> = cols
        .chunks_exact(COLS)
        .chain(last)
        .map(|block| block.try_into().expect("a block of COLS columns"))
        .collect();
    let ahead = (n > PREFETCHED_STREAMS).then_some(PREFETCH_BYTES / size_of::<T>());
    // Rows per source line: one prefetch per line.
    let line_rows = (CACHE_LINE / size_of::<T>()).max(ROWS);
    let rows = batch.rows;
    let (first_row, first_col) = (rows[0], batch.cols[0]);
    let whole = rows.len() / group * group;
    for &(tile_s, tile_d) in batch.origins {
        let (s, d) = (s + tile_s, d + tile_d);
        if !reach.fits(dst.len(), d, src.len(), s) {
            move_elements(dst, d, src, s, rows, batch.cols);
            continue;
        }
        let run_d = d + first_row.1 + first_col.1;
        for start in (0..whole).step_by(group) {
            let group_s = s + first_row.0 + start;
            for block in &blocks {
                if let Some(ahead) = ahead {
                    for r in (0..group).step_by(line_rows) {
                        for col in block {
                            prefetch(src, group_s + r + col.0 + ahead);
                        }
                    }
                }
                for r in (0..group).step_by(ROWS) {
                    // SAFETY: the source lines from `group_s + r + col.0` end at `s + rows[start
                    // + r + ROWS - 1].0 + col.0 + 1 <= s + reach.src + 1 <= src.len()` (rows
                    // count up by one; `Reach::fits` above); the buffer lines from `r * n +
                    // block[0].1 + k * n` end by `(r + ROWS) * n <= group * n`; `B` runs.
                    unsafe {
                        let (d, s) = (r * n + block[0].1, group_s + r);
                        B::block(buffer, BlockLines::new(d, Pitch(n), src, s, block));
                    }
                }
            }
            for r in 0..group {
                for &(col_s, j) in left {
                    buffer[r * n + j] = src[group_s + r + col_s];
                }
            }
            let out = &mut dst[run_d + start * n..][..group * n];
            // SAFETY: the CPU runs `stream_run` (the caller's promise).
            unsafe { stream_run(out, buffer) };
        }
        if whole < rows.len() {
            move_elements(dst, d, src, s, &rows[whole..], batch.cols);
        }
    }
}

/// [`staged_body`] with blocks `stages.width` wide, through a buffer on the stack; inlined.
///
/// # Safety
///
/// As [`staged_body`].
#[inline(always)]
pub(crate) unsafe fn staged_widths<T: Pod, B: BlockMove<T>>(
    t: Transposes<'_, T>,
    stages: Stages,
    stream_run: unsafe fn(&mut [T], &[T]),
) {
    let mut stage = Stage([0; STAGE_BYTES / 8]);
    let buffer = bytemuck::cast_slice_mut::<u64, T>(&mut stage.0);
    // SAFETY (each arm): passed on from the caller, with `COLS == stages.width`.
    unsafe {
        match stages.width {
            32 => staged_body::<T, B, 32>(t, stages, buffer, stream_run),
            16 => staged_body::<T, B, 16>(t, stages, buffer, stream_run),
            8 => staged_body::<T, B, 8>(t, stages, buffer, stream_run),
            _ => staged_body::<T, B, 4>(t, stages, buffer, stream_run),
        }
    }
}

/// The local buffer of a group of rows, aligned to a cache line.
#[repr(C, align(64))]
struct Stage([u64; STAGE_BYTES / 8]);

#[cfg(test)]
mod tests {
    use super::super::tiles::tests::evenly;
    use super::*;

    /// Which batches stage, how: rows back to back off the line grid, within the buffer; not
    /// whole-line rows, rows apart, or batches short of a group or a block.
    #[test]
    fn rows_back_to_back_off_the_line_grid_are_staged_in_groups_of_whole_lines() {
        type Of = fn(&TileBatch<'_>) -> Option<Stages>;
        let (f32s, u16s, u8s): (Of, Of, Of) =
            (Stages::of::<f32>, Stages::of::<u16>, Stages::of::<u8>);
        let stages = |cols, rows, width| Some(Stages { cols, rows, width });
        let cases = [
            // 17 f32 channels a row: 16 rows make 17 lines; blocks of 16 columns.
            (f32s, 17, 1000, 17, stages(17, 16, 16)),
            // u8 rows of 17 bytes: 64 rows make 17 lines; u16 rows of 6: 16 rows, 3 lines.
            (u8s, 17, 1000, 17, stages(17, 64, 16)),
            (u16s, 6, 1000, 6, stages(6, 16, 4)),
            // 255 f32 channels: a group of 16 rows fits the buffer; 257 do not.
            (f32s, 255, 100, 255, stages(255, 16, 16)),
            (f32s, 257, 100, 257, None),
            // 24 f32 channels, a line and a half a row: 16 rows make 24 lines.
            (f32s, 24, 1000, 24, stages(24, 16, 16)),
            // u8 rows of 96 bytes keep their direct blocks.
            (u8s, 96, 1000, 96, None),
            // Rows of 16, 8 or 32 f32 stream as they are.
            (f32s, 16, 1000, 16, None),
            (f32s, 8, 1000, 8, None),
            (f32s, 32, 1000, 32, None),
            // Rows not back to back; fewer rows than a group; fewer columns than a block.
            (f32s, 17, 1000, 18, None),
            (u8s, 17, 40, 17, None),
            (f32s, 3, 1000, 3, None),
        ];
        for (k, (of, n, count, run, want)) in cases.into_iter().enumerate() {
            let (rows, cols) = (evenly(count, 1, run), evenly(n, 1000, 1));
            let batch = TileBatch::listed(&[(0, 0)], &rows, &cols, Some(run)).runs(Some(run), None);
            assert_eq!(of(&batch), want, "case {k}: {count} rows of {n}, run {run}");
        }
    }
}

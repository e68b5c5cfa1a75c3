//! Transposes of tiles of 4 to 15 rows (fewer than a block, more than the narrow kernels take),
//! their rows one run in the source: NHWC -> NCHW of 5 to 15 channels (4 of 2-byte elements),
//! the 2x2 crouton back to flat NHWC. Each block of `COLS` columns goes through the vector block
//! into a local stage, its whole source lines read (past the tile's rows, read and dropped), and
//! only the tile's rows leave it.

use super::block_move::{BlockLines, BlockMove};
use super::tile_batch::{TileBatch, move_elements};
use super::transposes::Transposes;
use crate::relayout::lines::Pitch;
use crate::relayout::tuning::ROWS;

/// Whether the tiles of `batch` are this module's: 4 to `ROWS - 1` rows whose source offsets
/// count up by one.
pub(crate) fn takes(batch: &TileBatch<'_>) -> bool {
    (4..ROWS).contains(&batch.rows.len()) && batch.rows_follow_in_source()
}

/// Transposes every tile of `t`'s batch through the stage, in blocks of `COLS` columns by `B`
/// (through the caches). Columns past the last whole block, blocks whose destination columns do
/// not follow one another, and tiles whose lines would run past the source move element by
/// element. Inlined, so [`PlaneMove::plane`](super::tiles::PlaneMove::plane)'s builds compile it.
#[inline(always)]
pub(crate) fn few_rows_body<T: Copy, B: BlockMove<T>, const COLS: usize>(t: Transposes<'_, T>) {
    let (dst, d, src, s, batch, _) = t.parts();
    let (origins, rows, cols) = (batch.origins, batch.rows, batch.cols);
    let (Some(&(first, _)), Some(&(col_s, _))) = (rows.first(), cols.first()) else {
        return;
    };
    // Every block reads `ROWS` source elements from the first row on, in each of its columns.
    let farthest = cols.iter().map(|col| col.0).max().unwrap_or(0) + first + ROWS;
    let whole = cols.len() / COLS * COLS;
    let mut stage = [[src[s + first + col_s]; COLS]; ROWS];
    let stage = stage.as_flattened_mut();
    for &(tile_s, tile_d) in origins {
        let (s, d) = (s + tile_s, d + tile_d);
        if s + farthest > src.len() {
            move_elements(dst, d, src, s, rows, cols);
            continue;
        }
        for block in cols[..whole].chunks_exact(COLS) {
            let block: &[(usize, usize); COLS] = block.try_into().expect("COLS columns");
            if block[COLS - 1].1.checked_sub(block[0].1) != Some(COLS - 1) {
                move_elements(dst, d, src, s, rows, block);
                continue;
            }
            let lines = BlockLines::new(0, Pitch(COLS), src, s + first, block);
            // SAFETY: the source lines from `s + first + col.0` end by `s + farthest <=
            // src.len()` (checked above); stage line `k`, `k * COLS ..`, lies in its slots.
            unsafe { B::block(stage, lines) };
            for (k, row) in rows.iter().enumerate() {
                dst[d + row.1 + block[0].1..][..COLS].copy_from_slice(&stage[k * COLS..][..COLS]);
            }
        }
        move_elements(dst, d, src, s, rows, &cols[whole..]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tiles::Portable;
    use super::super::tiles::tests::{against_definition, evenly};
    use super::*;
    use alloc::vec::Vec;

    /// NHWC -> NCHW of 4 to 15 channels by portable 8-column blocks, as defined: partial blocks,
    /// two images, the last tile reading past the source or not. Not taken: three rows (narrow),
    /// a whole block (tiles), rows not following one another in the source.
    #[test]
    fn few_rows_take_four_to_fifteen_channels_and_split_them() {
        for (channels, positions) in (4..ROWS).flat_map(|c| [16, 21, 7].map(|p| (c, p))) {
            let rows = evenly(channels, 1, positions);
            let cols = evenly(positions, channels, 1);
            let image = channels * positions;
            let origins = [(0, 0), (image, image)];
            let batch = TileBatch::listed(&origins, &rows, &cols, None);
            let case = alloc::format!("{channels} channels, {positions} positions");
            assert!(takes(&batch), "{case}: taken");
            for src_len in [2 * image, 2 * image + ROWS] {
                let src: Vec<u32> = (0..src_len as u32).collect();
                let case = alloc::format!("{case}, source of {src_len}");
                against_definition(batch, &src, (2 * image, u32::MAX), &case, |t| {
                    few_rows_body::<u32, Portable, 8>(t);
                    true
                });
            }
        }
        let skipping = [(0, 0), (1, 9), (3, 18), (4, 27)];
        for rows in [&evenly(3, 1, 9)[..], &skipping, &evenly(ROWS, 1, 9)] {
            let batch = TileBatch::listed(&[(0, 0)], rows, &[(0, 0)], None);
            assert!(!takes(&batch), "{rows:?}");
        }
    }
}

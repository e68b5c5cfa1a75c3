//! Which transposes write their destination lines whole, so the vector blocks (x86-64 and
//! aarch64) may stream them into a far destination.

use super::block_move::block_is_line;
use super::tile_batch::TileBatch;
use crate::relayout::choices::Choices;
use crate::relayout::tuning::{CACHE_LINE, ROWS};

/// Whether the batch's blocks write whole destination lines: tiles that stream
/// ([`tiles_stream`]) with rows of a line of columns, or half of one with the next row after
/// it; or packed lines of bytes (`BlockMove::streams_block_lines`: rows `cols` bytes apart, each
/// block of `ROWS` rows one 64-byte line, as u8 flat->crouton2x2 makes).
pub(crate) fn blocks_write_whole_lines<E>(batch: TileBatch<'_>) -> bool {
    let (line, cols) = (CACHE_LINE / size_of::<E>(), batch.cols.len());
    let whole_rows = tiles_stream(batch.rows.len(), batch.choices) && cols >= line / 2;
    whole_rows || (size_of::<E>() == 1 && batch.row_pitch == Some(cols) && block_is_line(cols))
}

/// Whether tiles of `rows` rows stream into a far destination: always past one block; at
/// exactly one block per [`Choices::stream_one_block_tiles`].
fn tiles_stream(rows: usize, choices: &Choices) -> bool {
    rows > ROWS || (rows == ROWS && choices.stream_one_block_tiles)
}

#[cfg(test)]
mod tests {
    use super::super::tiles::tests::evenly;
    use super::*;

    /// Tiles of more than one block stream, of less never, of exactly one as the choices say.
    #[test]
    fn tiles_of_one_block_stream_only_where_the_choices_ask() {
        for stream_one_block_tiles in [false, true] {
            let choices = Choices {
                stream_one_block_tiles,
                ..Choices::DEFAULT
            };
            assert!(!tiles_stream(ROWS - 1, &choices));
            assert!(tiles_stream(ROWS + 1, &choices));
            assert_eq!(tiles_stream(ROWS, &choices), stream_one_block_tiles);
        }
    }

    /// Rows of half a line or more write whole lines; shorter ones only as packed byte blocks.
    #[test]
    fn whole_lines_need_half_a_line_of_columns_or_packed_byte_blocks() {
        let (rows, cols) = (evenly(32, 1, 64), evenly(16, 40, 1));
        let batch = |cols, row_pitch| TileBatch::listed(&[(0, 0)], &rows, cols, row_pitch);
        // 16 columns: a whole line of f32, half a line of u16, a quarter of u8.
        assert!(blocks_write_whole_lines::<u32>(batch(&cols, Some(64))));
        assert!(blocks_write_whole_lines::<u16>(batch(&cols, Some(64))));
        assert!(!blocks_write_whole_lines::<u8>(batch(&cols, Some(64))));
        // 4 bytes a row, rows 4 apart: 16 rows are one line.
        assert!(blocks_write_whole_lines::<u8>(batch(&cols[..4], Some(4))));
        assert!(!blocks_write_whole_lines::<u8>(batch(&cols[..4], Some(5))));
    }
}

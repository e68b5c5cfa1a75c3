//! The innermost copies of a relayout: slice rows, cache-blocked transposes, strided elements.
//!
//! Each kernel takes both sides as (slots, start, line stride) plus the line and column ranges:
//! plain scalars that stay in registers across the hot loops, hence the long argument lists.
#![allow(clippy::too_many_arguments)]

use super::nest::Rows;
use core::ops::Range;

/// For each of `rows` rows, copies elements `cols` of the source row (starting at `s`, rows
/// `s_row` apart) into the same columns of the destination row (`d`, rows `d_row` apart).
pub(crate) fn copy_rows<T: Copy>(
    dst: &mut [T],
    d: usize,
    d_row: usize,
    src: &[T],
    s: usize,
    s_row: usize,
    rows: usize,
    cols: Range<usize>,
) {
    let starts = (0..rows).map(|r| (r * s_row, r * d_row));
    copy_rows_at(dst, d, src, s, starts, cols);
}

/// Copies elements `cols` of each listed row: source row at `s + row.0`, destination row at
/// `d + row.1`.
pub(crate) fn copy_listed_rows<T: Copy>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    rows: &[(usize, usize)],
    cols: Range<usize>,
) {
    copy_rows_at(dst, d, src, s, rows.iter().copied(), cols);
}

/// Copies elements `cols` of the rows starting at `(s + from, d + to)` for each `(from, to)`.
///
/// Short rows of common lengths are copied as fixed-size arrays so that each row is a few
/// vector moves instead of a call to `memcpy`.
fn copy_rows_at<T: Copy>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    rows: impl Iterator<Item = (usize, usize)>,
    cols: Range<usize>,
) {
    let (s, d) = (s + cols.start, d + cols.start);
    match cols.len() {
        0 => {}
        4 => fixed_rows::<T, 4>(dst, d, src, s, rows),
        8 => fixed_rows::<T, 8>(dst, d, src, s, rows),
        16 => fixed_rows::<T, 16>(dst, d, src, s, rows),
        32 => fixed_rows::<T, 32>(dst, d, src, s, rows),
        64 => fixed_rows::<T, 64>(dst, d, src, s, rows),
        n => {
            for (from, to) in rows {
                dst[d + to..d + to + n].copy_from_slice(&src[s + from..s + from + n]);
            }
        }
    }
}

fn fixed_rows<T: Copy, const N: usize>(
    dst: &mut [T],
    d: usize,
    src: &[T],
    s: usize,
    rows: impl Iterator<Item = (usize, usize)>,
) {
    for (from, to) in rows {
        let row: &[T; N] = src[s + from..s + from + N]
            .try_into()
            .expect("a row of N elements");
        dst[d + to..d + to + N].copy_from_slice(row);
    }
}

/// Side of the row blocks of a transpose (the source lines read together).
pub(crate) const TRANSPOSE_BLOCK: usize = 16;

/// A transpose plane: `dst[d + r * d_row + i] =
/// src[s + r + i * s_col]` for `r` in `rows`, `i` in `cols`. Column blocks go outermost, so the
/// source is read as a few sequential streams (one per column of the block) and every
/// destination line is written whole; the block's columns cover a cache line of `T` where the
/// stream count allows.
pub(crate) fn transpose_plane<T: Copy>(
    dst: &mut [T],
    d: usize,
    d_row: usize,
    src: &[T],
    s: usize,
    s_col: usize,
    rows: Range<usize>,
    cols: Range<usize>,
) {
    match size_of::<T>() {
        1 | 2 => plane::<T, 32>(dst, d, d_row, src, s, s_col, rows, cols),
        4 => plane::<T, 16>(dst, d, d_row, src, s, s_col, rows, cols),
        _ => plane::<T, 8>(dst, d, d_row, src, s, s_col, rows, cols),
    }
}

fn plane<T: Copy, const COLS: usize>(
    dst: &mut [T],
    d: usize,
    d_row: usize,
    src: &[T],
    s: usize,
    s_col: usize,
    rows: Range<usize>,
    cols: Range<usize>,
) {
    const ROWS: usize = TRANSPOSE_BLOCK;
    // Bands of rows small enough that the band's destination lines (all columns) and its
    // source segments stay in cache while the column blocks sweep across them.
    let row_bytes = cols.len() * size_of::<T>();
    let band = (BAND_BYTES / row_bytes.max(1)).clamp(ROWS, 1 << 12) / ROWS * ROWS;
    let mut band_start = rows.start;
    while band_start < rows.end {
        let band_end = (band_start + band).min(rows.end);
        let mut c0 = cols.start;
        while c0 < cols.end {
            let c1 = (c0 + COLS).min(cols.end);
            let mut r0 = band_start;
            while r0 < band_end {
                let r1 = (r0 + ROWS).min(band_end);
                if c1 - c0 == COLS && r1 - r0 == ROWS {
                    block::<T, COLS, ROWS>(
                        dst,
                        d + r0 * d_row + c0,
                        d_row,
                        src,
                        s + r0 + c0 * s_col,
                        s_col,
                    );
                } else {
                    for r in r0..r1 {
                        let line = &mut dst[d + r * d_row + c0..d + r * d_row + c1];
                        for (j, out) in line.iter_mut().enumerate() {
                            *out = src[s + r + (c0 + j) * s_col];
                        }
                    }
                }
                r0 = r1;
            }
            c0 = c1;
        }
        band_start = band_end;
    }
}

/// Destination bytes one band of a transpose plane covers (a fraction of L2).
const BAND_BYTES: usize = 64 * 1024;

/// One `COLS x ROWS` block: `COLS` source lines (contiguous along `r`) into a local tile, then
/// `ROWS` destination lines (contiguous along `i`) out of it. Fixed sizes let LLVM unroll the
/// block and keep it in vector registers; each line costs one bounds check.
#[inline(always)]
fn block<T: Copy, const COLS: usize, const ROWS: usize>(
    dst: &mut [T],
    d: usize,
    d_row: usize,
    src: &[T],
    s: usize,
    s_col: usize,
) {
    let mut tile = [[src[s]; ROWS]; COLS];
    for (i, column) in tile.iter_mut().enumerate() {
        *column = src[s + i * s_col..s + i * s_col + ROWS]
            .try_into()
            .expect("a line of ROWS elements");
    }
    for r in 0..ROWS {
        let line: &mut [T; COLS] = (&mut dst[d + r * d_row..d + r * d_row + COLS])
            .try_into()
            .expect("a line of COLS elements");
        for (i, out) in line.iter_mut().enumerate() {
            *out = tile[i][r];
        }
    }
}

/// `dst[d + r * rows.dst + i * d_col] = src[s + r * rows.src + i * s_col]`: any strides.
pub(crate) fn copy_strided<T: Copy>(
    dst: &mut [T],
    d: usize,
    d_col: usize,
    src: &[T],
    s: usize,
    s_col: usize,
    rows: Rows,
    cols: Range<usize>,
) {
    for r in 0..rows.count {
        let (s, d) = (s + r * rows.src, d + r * rows.dst);
        for i in cols.clone() {
            dst[d + i * d_col] = src[s + i * s_col];
        }
    }
}

//! The innermost copies of a relayout: slice rows, cache-blocked transposes, strided elements.
//!
//! Each kernel takes both sides as (slots, start) plus what places its lines: a stride, or the
//! per-call listing of `(source, destination)` line offsets the plan made. Plain scalars and
//! slices that stay in registers across the hot loops, hence the long argument lists.
#![allow(clippy::too_many_arguments)]

use core::ops::Range;

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
    let (s, d) = (s + cols.start, d + cols.start);
    match cols.len() {
        0 => {}
        4 => fixed_rows::<T, 4>(dst, d, src, s, rows),
        8 => fixed_rows::<T, 8>(dst, d, src, s, rows),
        16 => fixed_rows::<T, 16>(dst, d, src, s, rows),
        32 => fixed_rows::<T, 32>(dst, d, src, s, rows),
        64 => fixed_rows::<T, 64>(dst, d, src, s, rows),
        n => {
            for &(from, to) in rows {
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
    rows: &[(usize, usize)],
) {
    for &(from, to) in rows {
        let row: &[T; N] = src[s + from..s + from + N]
            .try_into()
            .expect("a row of N elements");
        dst[d + to..d + to + N].copy_from_slice(row);
    }
}

/// Rows of a transpose block: the source lines read together.
pub(crate) const ROWS: usize = 16;

/// A transpose: `dst[d + row.1 + col.1] = src[s + row.0 + col.0]` for every listed `row` and
/// `col`, where the rows' source offsets count up by one, as do the columns' destination
/// offsets. Blocks of `ROWS` rows by up to a cache line of columns go through registers (SSE2
/// for plain 1-, 2- and 4-byte types on x86-64, see `simd`) or a local tile. `stream` asks for
/// non-temporal stores of whole destination lines (a destination much larger than the caches).
pub(crate) fn transpose<T: Copy + 'static>(
    dst: &mut [T],
    d: usize,
    rows: &[(usize, usize)],
    src: &[T],
    s: usize,
    cols: &[(usize, usize)],
    stream: bool,
) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if super::simd::transpose(dst, d, rows, src, s, cols, stream) {
        return;
    }
    let _ = stream; // the portable tile always writes through the cache
    planes::<T, Portable>(dst, d, rows, src, s, cols);
}

/// How one full block of `ROWS` rows by `COLS` columns is moved: `COLS` source lines (each
/// `ROWS` long, at `s + col.0`) in, `ROWS` destination lines (each `COLS` long, at
/// `d + row.1`) out.
pub(crate) trait BlockMove<T> {
    fn block<const COLS: usize>(
        dst: &mut [T],
        d: usize,
        rows: &[(usize, usize); ROWS],
        src: &[T],
        s: usize,
        cols: &[(usize, usize); COLS],
    );
}

/// Runs a transpose in blocks moved by `B`, with as many columns per block as fill a cache line
/// of `T` (fewer when there are fewer columns). Column blocks go outermost within a band of
/// rows, so the source is read as a few sequential streams and every destination line is
/// written whole; partial blocks at the edges move element by element.
pub(crate) fn planes<T: Copy, B: BlockMove<T>>(
    dst: &mut [T],
    d: usize,
    rows: &[(usize, usize)],
    src: &[T],
    s: usize,
    cols: &[(usize, usize)],
) {
    let line = 64 / size_of::<T>().max(1);
    match cols.len() {
        n if n >= 32 && line >= 32 => plane::<T, B, 32>(dst, d, rows, src, s, cols),
        n if n >= 16 && line >= 16 => plane::<T, B, 16>(dst, d, rows, src, s, cols),
        n if n >= 8 => plane::<T, B, 8>(dst, d, rows, src, s, cols),
        _ => plane::<T, B, 4>(dst, d, rows, src, s, cols),
    }
}

fn plane<T: Copy, B: BlockMove<T>, const COLS: usize>(
    dst: &mut [T],
    d: usize,
    rows: &[(usize, usize)],
    src: &[T],
    s: usize,
    cols: &[(usize, usize)],
) {
    // Bands of rows small enough that the band's destination lines (all columns) stay in
    // cache while the column blocks sweep across them.
    let row_bytes = cols.len() * size_of::<T>();
    let band = (BAND_BYTES / row_bytes.max(1)).clamp(ROWS, 1 << 14) / ROWS * ROWS;
    for band in rows.chunks(band) {
        for col_block in cols.chunks(COLS) {
            for row_block in band.chunks(ROWS) {
                let (s, d) = (s + row_block[0].0, d + col_block[0].1);
                match (
                    <&[_; ROWS]>::try_from(row_block),
                    <&[_; COLS]>::try_from(col_block),
                ) {
                    (Ok(row_block), Ok(col_block)) => {
                        B::block::<COLS>(dst, d, row_block, src, s, col_block)
                    }
                    _ => {
                        for (r, &(_, row)) in row_block.iter().enumerate() {
                            for (i, &(col, _)) in col_block.iter().enumerate() {
                                dst[d + row + i] = src[s + r + col];
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Destination bytes one band of a transpose covers (a fraction of L2).
const BAND_BYTES: usize = 1 << 20;

/// Blocks through a local tile, for any `T: Copy`.
pub(crate) struct Portable;

impl<T: Copy> BlockMove<T> for Portable {
    /// `COLS` source lines into a local tile, then `ROWS` destination lines out of it. Fixed
    /// sizes let LLVM unroll the block; each line costs one bounds check.
    #[inline(always)]
    fn block<const COLS: usize>(
        dst: &mut [T],
        d: usize,
        rows: &[(usize, usize); ROWS],
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
        for (r, &(_, row)) in rows.iter().enumerate() {
            let line: &mut [T; COLS] = (&mut dst[d + row..d + row + COLS])
                .try_into()
                .expect("a line of COLS elements");
            for (i, out) in line.iter_mut().enumerate() {
                *out = tile[i][r];
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

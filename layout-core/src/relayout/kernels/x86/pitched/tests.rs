//! The evenly spaced transposes against the portable tile.

use super::super::super::reach::Reach;
use super::super::super::tiles::portable_planes;
use super::super::super::tiles::tests::listings;
use super::super::avx512;
use super::*;

/// Evenly spaced batches (listed as the other kernels' tests list them, two tiles a call,
/// the destination on a cache line or one element past it) move as the portable tile moves
/// them: whole blocks (64 bytes of columns by 16 rows, in groups of a source line's rows
/// for 1- and 2-byte elements), rows left past them as a last
/// block overlapping the one before, columns left past them (narrower column blocks,
/// elements); batches that are not evenly spaced, or without a whole block, are left alone.
/// With `STREAM`, the batches [`swept_when_streamed`] or [`crowded_source`] takes, 4-byte
/// elements of 16 to 32 rows read as one source run (the second block transposed or gathered),
/// their aligned lines streamed. With `crowded`, source columns
/// [`CROWDED_SOURCE_PITCH_BYTES`] apart ([`staged_quads`] for 1- and 2-byte elements), more
/// rows than one visit (for bytes) with a last group shorter than a line, and a last block
/// overlapping the one before.
fn agrees_with_portable<E: Broad + core::fmt::Debug + PartialEq, const STREAM: bool>(
    make: fn(usize) -> E,
    crowded: bool,
) {
    let shapes: &[(usize, usize, usize)] = if crowded {
        if cfg!(miri) {
            // Bytes only (the staged blocks), one group and one block past it.
            if size_of::<E>() != 1 {
                return;
            }
            &[(80, 64, 1)]
        } else {
            &[(600, 70, 0), (88, 64, 1), (64, 130, 3)]
        }
    } else if cfg!(miri) {
        if size_of::<E>() == 1 {
            &[(33, 37, 3), (16, 16, 0), (36, 66, 1), (32, 32, 0)]
        } else {
            // Two row blocks whose second is gathered besides, off the line grid and on it.
            &[
                (33, 37, 3),
                (16, 16, 0),
                (36, 66, 1),
                (32, 32, 0),
                (20, 18, 3),
                (24, 32, 0),
            ]
        }
    } else {
        &[
            (16, 16, 0),
            (33, 37, 3),
            (48, 64, 1),
            (20, 18, 3),
            (27, 40, 1),
            (24, 32, 0),
            (64, 21, 0),
            (80, 130, 1),
            (130, 200, 0),
            (64, 128, 0),
        ]
    };
    for (turn, &(n_rows, n_cols, gap)) in shapes.iter().enumerate() {
        // Rows `n_cols + gap` apart in the destination, columns `n_rows + 5` in the source (a
        // multiple of the crowded pitch where `crowded`).
        let (rows, mut cols) = listings(n_rows, n_cols, gap);
        let col_pitch = if crowded {
            let unit = CROWDED_SOURCE_PITCH_BYTES / size_of::<E>();
            unit * n_rows.div_ceil(unit)
        } else {
            n_rows + 5
        };
        let row_pitch = n_cols + gap;
        if crowded {
            cols = (0..n_cols).map(|c| (c * col_pitch, c)).collect();
        }
        let (tile_src, tile_dst) = (col_pitch * n_cols + 7, n_rows * row_pitch + 9);
        let origins = [(0, 0), (tile_src, tile_dst)];
        // Distinct values in the tiles' elements only (the source between crowded columns is
        // mostly gaps, which Miri would take long to fill one by one).
        let mut src = alloc::vec![make(0); 2 * tile_src + 1];
        for &(tile, _) in &origins {
            for &(col, _) in &cols {
                for &(row, _) in &rows {
                    let at = 1 + tile + col + row;
                    src[at] = make(at * 7 + 1);
                }
            }
        }
        let reach = Reach::of(&rows, &cols);
        let batch = TileBatch {
            cols_run: Some(col_pitch),
            ..TileBatch::listed(&origins, &rows, &cols, Some(row_pitch))
        };
        let swept = !STREAM
            || swept_when_streamed::<E>(col_pitch)
            || crowded_source::<E>(col_pitch)
            || read_as_one_run::<E>(col_pitch, n_rows);
        let whole_block = n_rows >= ROWS && n_cols >= CACHE_LINE / size_of::<E>() && swept;
        // Under Miri, which runs these a thousand times slower, the destination on a line and
        // one element past it in turn from shape to shape.
        let misaligns: &[usize] = if cfg!(miri) { &[turn % 2] } else { &[0, 1] };
        for &misalign in misaligns {
            let len = 2 * tile_dst + 64;
            // Each destination from `misalign` elements past its first cache line.
            let start = |v: &[E]| {
                let line = v.as_ptr().addr().next_multiple_of(64) - v.as_ptr().addr();
                line / size_of::<E>() + misalign
            };
            let mut want = alloc::vec![make(0); len];
            let d = start(&want);
            portable_planes(Transposes::new(&mut want, d, &src, 1, batch, reach));
            let want = &want[d..d + 2 * tile_dst];
            let mut got = alloc::vec![make(0); len];
            let d = start(&got);
            // SAFETY: AVX-512 runs (checked by the caller); `reach` is the batch's.
            let moved =
                unsafe { pitched_plane::<_, STREAM>(&mut got, d, &src, 1, batch, reach, true) };
            let case = alloc::format!(
                "{}-byte {n_rows} x {n_cols}, gap {gap}, +{misalign}",
                size_of::<E>()
            );
            assert_eq!(moved, whole_block, "{case}");
            if moved {
                assert_eq!(&got[d..d + 2 * tile_dst], want, "{case}");
            }
        }
        // Columns not one run: not this kernel's.
        let uneven = TileBatch {
            cols_run: None,
            ..batch
        };
        let mut untouched = alloc::vec![make(0); 2 * tile_dst + 64];
        // SAFETY: as above.
        let moved =
            unsafe { pitched_plane::<_, STREAM>(&mut untouched, 0, &src, 1, uneven, reach, true) };
        assert!(!moved && untouched.iter().all(|x| *x == make(0)));
    }
}

#[test]
fn evenly_spaced_transposes_equal_the_portable_tile() {
    if !avx512::available() {
        return;
    }
    for crowded in [false, true] {
        agrees_with_portable::<u32, false>(|i| i as u32, crowded);
        agrees_with_portable::<u16, false>(|i| i as u16, crowded);
        agrees_with_portable::<u8, false>(|i| (i % 251) as u8, crowded);
        agrees_with_portable::<u32, true>(|i| i as u32, crowded);
        agrees_with_portable::<u16, true>(|i| i as u16, crowded);
        agrees_with_portable::<u8, true>(|i| (i % 251) as u8, crowded);
    }
}

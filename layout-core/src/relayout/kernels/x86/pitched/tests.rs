//! The evenly spaced transposes against the portable tile.

use super::super::super::tiles::tests::TwoTiles;
use super::super::tests::{Build, isa_test};
use super::*;
use crate::relayout::test_layouts::under_miri;

/// Tiles `(rows, columns, gap)` of evenly spaced transposes.
const SHAPES: [(usize, usize, usize); 13] = [
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
    (36, 66, 1),
    (32, 32, 0),
    (9, 70, 1),
];

/// Tiles `(rows, columns, gap)` of evenly spaced transposes with crowded source columns.
const CROWDED_SHAPES: [(usize, usize, usize); 4] =
    [(600, 70, 0), (88, 64, 1), (64, 130, 3), (80, 64, 1)];

/// Evenly spaced batches move as the portable tile moves them: whole blocks, rows left past
/// them as an overlapping last block, columns left past them; batches not evenly spaced, or
/// without a whole block, are left alone. Where `stream`, the batches [`swept_when_streamed`],
/// [`crowded_source`] or [`read_as_one_run`] takes. With `crowded`, source columns
/// [`CROWDED_SOURCE_PITCH_BYTES`] apart ([`quads`] stages them).
fn agrees_with_portable<E: Broad + core::fmt::Debug + PartialEq>(
    make: fn(usize) -> E,
    (crowded, stream): (bool, bool),
    build: Build,
) {
    // Under Miri, a sample: two row blocks, the second gathered, off the line grid and on it;
    // crowded, bytes only, one group and one block past it.
    let shapes = match (crowded, size_of::<E>()) {
        (false, 1) => under_miri(&SHAPES, &[1, 0, 10, 11]),
        (false, _) => under_miri(&SHAPES, &[1, 0, 10, 11, 3, 5]),
        (true, 1) => under_miri(&CROWDED_SHAPES, &[3]),
        (true, _) => under_miri(&CROWDED_SHAPES, &[]),
    };
    for (turn, (n_rows, n_cols, gap)) in shapes.into_iter().enumerate() {
        // Columns `n_rows + 5` apart, a multiple of the crowded pitch where `crowded`.
        let col_pitch = if crowded {
            let unit = CROWDED_SOURCE_PITCH_BYTES / size_of::<E>();
            unit * n_rows.div_ceil(unit)
        } else {
            n_rows + 5
        };
        let tiles = TwoTiles::new(make, (n_rows, n_cols, gap), col_pitch);
        let batch = tiles.batch(Some(n_cols + gap)).runs(None, Some(col_pitch));
        let swept = match build {
            Build::Avx512 => {
                !stream
                    || swept_when_streamed::<E>(col_pitch)
                    || crowded_source::<E>(col_pitch)
                    || read_as_one_run::<E>(col_pitch, n_rows)
            }
            Build::Avx2 => !stream && size_of::<E>() == 1,
            Build::Sse2 => unreachable!("SSE2 has no evenly spaced sweeps"),
        };
        let whole_block = n_rows >= ROWS && n_cols >= CACHE_LINE / size_of::<E>() && swept;
        // SAFETY (both): the build's features run (asserted by the test); `reach` is the
        // batch's.
        let pitched = |t: Transposes<'_, E>, stream| unsafe {
            match (build, stream) {
                (Build::Avx512, true) => pitched_plane::<_, true>(t),
                (Build::Avx512, false) => pitched_plane::<_, false>(t),
                (Build::Avx2, true) => false,
                (Build::Avx2, false) => bytes_avx2(t),
                (Build::Sse2, _) => unreachable!("SSE2 has no evenly spaced sweeps"),
            }
        };
        let case = alloc::format!("{}-byte {n_rows} x {n_cols}, gap {gap}", size_of::<E>());
        // Under Miri, the destination on a line or one element past it, in turn.
        let misaligns: &[usize] = if cfg!(miri) { &[turn % 2] } else { &[0, 1] };
        for &misalign in misaligns {
            let case = alloc::format!("{case}, +{misalign}");
            let moved = tiles.agree(batch, misalign, &case, &[stream], pitched);
            assert_eq!(moved, whole_block, "{case}");
        }
        // Columns not one run: not this kernel's.
        let uneven = tiles.batch(Some(n_cols + gap));
        let moved = tiles.agree(uneven, 0, &case, &[stream], pitched);
        assert!(!moved, "{case}, no run");
    }
}

/// Every element size through `build`'s sweeps, streamed and not, crowded source columns and
/// not.
fn each_type_agrees(build: Build) {
    for ways in [(false, false), (false, true), (true, false), (true, true)] {
        agrees_with_portable::<u32>(|i| i as u32, ways, build);
        agrees_with_portable::<u16>(|i| i as u16, ways, build);
        agrees_with_portable::<u8>(|i| (i % 251) as u8, ways, build);
    }
}

isa_test! {
    avx512:
    fn evenly_spaced_transposes_equal_the_portable_tile() {
        each_type_agrees(Build::Avx512);
    }
}

isa_test! {
    avx2:
    fn evenly_spaced_avx2_transposes_equal_the_portable_tile() {
        each_type_agrees(Build::Avx2);
    }
}

//! The transposes against a copy one element at a time.

use super::super::reach::Reach;
use super::*;
use alloc::vec::Vec;

#[cfg(vector_kernels)]
pub(crate) type Listing = Vec<(usize, usize)>;

/// Listed rows (source offsets counting up) and columns (destination offsets counting up) with
/// `gap` elements between destination lines, as a transpose of loops with padding sees them.
#[cfg(vector_kernels)]
pub(crate) fn listings(rows: usize, cols: usize, gap: usize) -> (Listing, Listing) {
    let row_pitch = cols + gap;
    let col_pitch = rows + 5;
    let rows = (0..rows).map(|r| (r, r * row_pitch)).collect();
    let cols = (0..cols).map(|c| (c * col_pitch, c)).collect();
    (rows, cols)
}

/// Tiles of `(rows, columns, gap)` ([`listings`]) that reach every path of the vector blocks:
/// partial blocks, whole-line columns, narrow tiles, tiles of fewer rows than a block (the
/// few-rows stage), lines listed and pitched; and (gap 0) rows adjacent in the destination, so
/// that a register's lines are stored at once.
#[cfg(vector_kernels)]
pub(crate) const BLOCK_SHAPES: [(usize, usize, usize); 13] = [
    (16, 16, 3),
    (33, 37, 3),
    (48, 64, 3),
    (20, 4, 3),
    (17, 8, 3),
    (64, 40, 3),
    (32, 4, 0),
    (48, 8, 0),
    (16, 16, 0),
    (32, 32, 0),
    (4, 37, 3),
    (5, 64, 3),
    (15, 70, 3),
];

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
    let batch = TileBatch::listed(&origins, &rows, &cols, Some(24));
    let mut got = alloc::vec![0u32; len];
    portable_planes(Transposes::new(&mut got, d, &src, s, batch, reach));
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
        let batch = TileBatch::listed(&origins, rows, &cols, Some(4));
        let too_far = Reach {
            src: reach.src,
            dst: len,
        };
        for reach in [reach, too_far] {
            let mut got = alloc::vec![0u32; len];
            portable_planes(Transposes::new(&mut got, 1, &src, 2, batch, reach));
            assert_eq!(got, want, "{reach:?}");
            let mut got = alloc::vec![0u32; len];
            transpose(&mut got, 1, &src, 2, batch, reach, false);
            assert_eq!(got, want, "{reach:?}, SIMD blocks");
        }
    }
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
    let one_tile = |rows| TileBatch::listed(&[(0, 0)], rows, &cols, Some(20));
    for reach in [
        Reach::of(&rows, &cols),
        Reach {
            src: usize::MAX,
            dst: 0,
        },
    ] {
        let mut got = alloc::vec![0u32; 32 * 20 + 4];
        portable_planes(Transposes::new(
            &mut got,
            1,
            &src,
            2,
            one_tile(&rows),
            reach,
        ));
        assert_eq!(got, want, "{reach:?}");
    }
    // Rows that skip a source offset: the block is not ROWS consecutive source elements.
    let gapped: Vec<(usize, usize)> = (0..16).map(|r| (r + r / 8, r * 20)).collect();
    let mut want = alloc::vec![0u32; 16 * 20 + 4];
    by_element(&mut want, 1, &gapped, &src, 2, &cols);
    let mut got = alloc::vec![0u32; 16 * 20 + 4];
    let reach = Reach::of(&gapped, &cols);
    portable_planes(Transposes::new(
        &mut got,
        1,
        &src,
        2,
        one_tile(&gapped),
        reach,
    ));
    assert_eq!(got, want);
}

//! The transposes against their definition, and the shared cases and checks of the vector
//! blocks' tests against the portable tile.

use super::super::reach::Reach;
use super::*;
#[cfg(vector_kernels)]
use crate::relayout::test_layouts::line_start;
use alloc::vec::Vec;

/// Tiles ([`TwoTiles`]) that reach every path of the vector blocks: partial blocks, whole-line
/// columns, narrow tiles, fewer rows than a block; gap 0 stores a register's lines at once.
#[cfg(vector_kernels)]
pub(crate) const BLOCK_SHAPES: [(usize, usize, usize); 14] = [
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
    (5, 33, 3),
];

/// Two tiles of `(rows, columns, gap)`, rows `columns + gap` apart in the destination, columns
/// `col_pitch` apart in the source, the second after the first on both sides; the source holds
/// `make(i)` at each tile element `i` (from 1), `make(0)` elsewhere.
#[cfg(vector_kernels)]
pub(crate) struct TwoTiles<E> {
    pub(crate) rows: Vec<(usize, usize)>,
    pub(crate) cols: Vec<(usize, usize)>,
    pub(crate) origins: [(usize, usize); 2],
    pub(crate) src: Vec<E>,
    /// The destination from the first tile's origin to the end of the second tile.
    pub(crate) len: usize,
}

#[cfg(vector_kernels)]
impl<E: Copy + core::fmt::Debug + PartialEq> TwoTiles<E> {
    pub(crate) fn new(
        make: fn(usize) -> E,
        (n_rows, n_cols, gap): (usize, usize, usize),
        col_pitch: usize,
    ) -> Self {
        let rows = evenly(n_rows, 1, n_cols + gap);
        let cols = evenly(n_cols, col_pitch, 1);
        let (tile_src, tile_dst) = (col_pitch * n_cols + 7, n_rows * (n_cols + gap) + 9);
        let origins = [(0, 0), (tile_src, tile_dst)];
        // Values in the tiles' elements only: Miri would take long to fill the gaps.
        let mut src = alloc::vec![make(0); 2 * tile_src + 1];
        for (tile, _) in origins {
            for &(col, _) in &cols {
                for &(row, _) in &rows {
                    src[1 + tile + col + row] = make(1 + tile + col + row);
                }
            }
        }
        TwoTiles {
            rows,
            cols,
            origins,
            src,
            len: 2 * tile_dst,
        }
    }

    /// The two tiles as a batch, rows `row_pitch` apart in each block where given.
    pub(crate) fn batch(&self, row_pitch: Option<usize>) -> TileBatch<'_> {
        TileBatch::listed(&self.origins, &self.rows, &self.cols, row_pitch)
    }

    /// `batch` through `kernel` with each of `streams`, into destinations `misalign` elements
    /// past a cache line: the same as the portable tile where `kernel` moves it (`true`), else
    /// nothing written. Whether it moved every time.
    pub(crate) fn agree(
        &self,
        batch: TileBatch<'_>,
        misalign: usize,
        case: &str,
        streams: &[bool],
        kernel: impl Fn(Transposes<'_, E>, bool) -> bool,
    ) -> bool {
        let reach = Reach::of(batch.rows, batch.cols);
        let buffer = || alloc::vec![self.src[0]; self.len + 2 * CACHE_LINE];
        // The portable tile's elements, once the kernel moved the batch.
        let mut want: Option<Vec<E>> = None;
        let mut moved = true;
        for &stream in streams {
            let mut got = buffer();
            let d = line_start(&got, misalign);
            let t = Transposes::new(&mut got, d, &self.src, 1, batch, reach);
            if !kernel(t, stream) {
                assert!(got == buffer(), "{case}, stream {stream}: wrote");
                moved = false;
                continue;
            }
            let want = want.get_or_insert_with(|| {
                let mut want = buffer();
                let w = line_start(&want, misalign);
                portable_planes(Transposes::new(&mut want, w, &self.src, 1, batch, reach));
                want[w..w + self.len].to_vec()
            });
            assert_eq!(&got[d..d + self.len], &want[..], "{case}, stream {stream}");
        }
        moved
    }
}

/// Each of `shapes` through `blocks`, streamed and not, against the portable tile: with the
/// row pitch and without, the destination on a cache line and one element past it (whole-line
/// rows stream in some calls only). Under Miri where `by_turn`, one of two ways per shape.
#[cfg(vector_kernels)]
pub(crate) fn blocks_agree<E: Copy + core::fmt::Debug + PartialEq>(
    make: fn(usize) -> E,
    shapes: &[(usize, usize, usize)],
    by_turn: bool,
    build: &str,
    blocks: impl Fn(Transposes<'_, E>, bool),
) {
    let moved = |t: Transposes<'_, E>, stream| {
        blocks(t, stream);
        true
    };
    for (turn, &(n_rows, n_cols, gap)) in shapes.iter().enumerate() {
        let tiles = TwoTiles::new(make, (n_rows, n_cols, gap), n_rows + 5);
        let pitch = Some(n_cols + gap);
        let all = [(pitch, 0), (pitch, 1), (None, 0), (None, 1)];
        // By turn: the first way, then the last.
        let ways = match by_turn && cfg!(miri) {
            true => &all[3 * (turn % 2)..][..1],
            false => &all[..],
        };
        for &(row_pitch, misalign) in ways {
            let case = alloc::format!(
                "{build}, {}-byte {n_rows} x {n_cols} + {gap}, pitch {row_pitch:?}, +{misalign}",
                size_of::<E>()
            );
            let batch = tiles.batch(row_pitch);
            tiles.agree(batch, misalign, &case, &[false, true], moved);
        }
    }
}

/// `dst[origin.1 + row.1 + col.1] = src[origin.0 + row.0 + col.0]` for every tile of `batch`,
/// one element at a time.
pub(crate) fn by_definition<T: Copy>(dst: &mut [T], src: &[T], batch: TileBatch) {
    for &(tile_src, tile_dst) in batch.origins {
        for &(row_src, row_dst) in batch.rows {
            for &(col_src, col_dst) in batch.cols {
                dst[tile_dst + row_dst + col_dst] = src[tile_src + row_src + col_src];
            }
        }
    }
}

/// `batch` through `kernel` into `dst_len` slots of `fill`: as defined where it moves the batch
/// (`true`), else nothing written. Whether it moved.
pub(crate) fn against_definition<E: Copy + PartialEq + core::fmt::Debug>(
    batch: TileBatch<'_>,
    src: &[E],
    (dst_len, fill): (usize, E),
    case: &str,
    kernel: impl FnOnce(Transposes<'_, E>) -> bool,
) -> bool {
    let (mut got, mut want) = (alloc::vec![fill; dst_len], alloc::vec![fill; dst_len]);
    let reach = Reach::of(batch.rows, batch.cols);
    let moved = kernel(Transposes::new(&mut got, 0, src, 0, batch, reach));
    if moved {
        by_definition(&mut want, src, batch);
    }
    assert_eq!(got, want, "{case}");
    moved
}

/// `batch`, ending where its last tile reaches, through the portable tile and `transpose`: as
/// defined, with its reach and with reaches that do not fit either side (the checked path).
fn moves_as_defined(batch: TileBatch<'_>, case: &str) {
    let fits = Reach::of(batch.rows, batch.cols);
    let last = |side: fn(&(usize, usize)) -> usize| batch.origins.iter().map(side).max();
    let src: Vec<u32> = (0..2 + last(|o| o.0).unwrap() + fits.src + 1)
        .map(|i| i as u32 * 3)
        .collect();
    let len = 1 + last(|o| o.1).unwrap() + fits.dst + 1;
    let mut want = alloc::vec![0u32; len];
    by_definition(&mut want[1..], &src[2..], batch);
    for reach in [fits, Reach { src: !0, ..fits }, Reach { dst: len, ..fits }] {
        let mut got = alloc::vec![0u32; len];
        portable_planes(Transposes::new(&mut got, 1, &src, 2, batch, reach));
        assert_eq!(got, want, "{case}, {reach:?}");
        let mut got = alloc::vec![0u32; len];
        transpose(&mut got, 1, &src, 2, batch, reach, false);
        assert_eq!(got, want, "{case}, {reach:?}, SIMD blocks");
    }
}

/// `n` listed offsets, `(k * src, k * dst)` for `k` from 0.
pub(crate) fn evenly(n: usize, src: usize, dst: usize) -> Vec<(usize, usize)> {
    (0..n).map(|k| (k * src, k * dst)).collect()
}

/// Listed batches move as defined: three tiles, the last ending at the very end of both slices;
/// packed blocks, a block whose ends miss the pitch; rows not counting up in the source.
#[test]
fn listed_batches_move_as_defined() {
    // 56 rows 4 apart, packed; not with the second block's last row elsewhere, another pitch
    // or another block width.
    let packed_rows = evenly(56, 1, 4);
    let mut odd_rows = packed_rows.clone();
    odd_rows[31].1 = 300;
    let (cols_36, cols_60, cols_40) = (evenly(20, 36, 1), evenly(4, 60, 1), evenly(16, 40, 1));
    assert!(packed::<4>(&packed_rows, &cols_60, Some(4)).is_some());
    assert!(packed::<4>(&odd_rows, &cols_60, Some(4)).is_none());
    assert!(packed::<4>(&packed_rows, &cols_60, Some(5)).is_none());
    assert!(packed::<8>(&packed_rows, &cols_60, Some(8)).is_none());
    // Rows that skip a source offset: the block is not ROWS consecutive source elements.
    let gapped: Vec<(usize, usize)> = (0..16).map(|r| (r + r / 8, r * 20)).collect();
    let (by_24, by_20) = (evenly(32, 1, 24), evenly(32, 1, 20));
    // Rows, columns, pitch, and how far past the previous tile's reach each later one starts.
    let cases: [(_, _, _, _, &[(usize, usize)]); 5] = [
        ("3 tiles", &by_24, &cols_36, 24, &[(1, 5), (4, 1)]),
        ("packed", &packed_rows, &cols_60, 4, &[(1, 1)]),
        ("odd", &odd_rows, &cols_60, 4, &[(1, 1)]),
        ("counting up", &by_20, &cols_40, 20, &[]),
        ("gapped", &gapped, &cols_40, 20, &[]),
    ];
    for (case, rows, cols, pitch, past) in cases {
        let reach = Reach::of(rows, cols);
        let mut origins = alloc::vec![(0, 0)];
        for &(s, d) in past {
            let (last_s, last_d) = origins[origins.len() - 1];
            origins.push((last_s + reach.src + s, last_d + reach.dst + d));
        }
        moves_as_defined(TileBatch::listed(&origins, rows, cols, Some(pitch)), case);
    }
}

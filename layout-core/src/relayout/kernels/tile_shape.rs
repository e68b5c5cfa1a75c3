//! How a transpose's tiles are cut and visited: bands of rows, column blocks per visit, source
//! prefetches, and the pitch that places a block's destination lines.

use crate::relayout::choices::Choices;
use crate::relayout::tuning::{
    ALIASED_VISIT_BYTES, BAND_BYTES, BAND_SOURCE_RUN_BYTES, CACHE_LINE, GROUP_SOURCE_BYTES,
    NEAR_RUN_BYTES, PREFETCH_BYTES, ROWS, WHOLE_BAND_SOURCE_BYTES, WHOLE_ROW_BYTES,
};

/// The plan's destination pitch of whole blocks of [`ROWS`] rows
/// ([`TileBatch::row_pitch`](super::TileBatch::row_pitch)) where each block's last row is its
/// first plus `(ROWS - 1) * pitch`, which keeps computed lines inside the listed bounds.
pub(super) fn pitched(rows: &[(usize, usize)], row_pitch: Option<usize>) -> Option<usize> {
    let pitch = row_pitch?;
    let span = pitch.checked_mul(ROWS - 1)?;
    rows.chunks_exact(ROWS)
        .all(|block| block[0].1.checked_add(span) == Some(block[ROWS - 1].1))
        .then_some(pitch)
}

/// How many column blocks go together through each row block. Short rows whose columns' lines
/// fit in L1: all ([`rows_go_whole`]). Cached rows whose `pitch` crowds a few L1 sets
/// ([`crowds_sets`]): [`ALIASED_VISIT_BYTES`] per row. Blocks of whole destination lines: up to
/// [`Choices::lines_per_visit`] while their source stays within [`GROUP_SOURCE_BYTES`] (one
/// compact region). Narrower blocks: one.
pub(super) fn lines_per_visit<T, const COLS: usize>(
    cols: &[(usize, usize)],
    pitch: Option<usize>,
    streams: bool,
    choices: &Choices,
) -> usize {
    let block_bytes = COLS * size_of::<T>();
    let most = choices.lines_per_visit;
    match cols.get(..COLS) {
        Some(_) if rows_go_whole(cols, size_of::<T>(), choices) => cols.len().div_ceil(COLS),
        Some(_) if !streams && crowds_sets::<T>(pitch, choices) => {
            (ALIASED_VISIT_BYTES / block_bytes.max(1)).clamp(1, cols.len().div_ceil(COLS))
        }
        Some([first, .., last]) if block_bytes == CACHE_LINE => {
            let span = (last.0.abs_diff(first.0) + ROWS) * size_of::<T>();
            (GROUP_SOURCE_BYTES / span).clamp(1, most.max(1))
        }
        _ => 1,
    }
}

/// Whether destination rows `pitch` elements apart crowd a few L1 sets: a block's 16 rows put
/// more lines in one set than half its ways (the destination's share beside the source, as
/// [`Choices::whole_rows_fit`] counts): on 8- and 12-way L1s of 4 KiB ways, multiples of 2 KiB.
fn crowds_sets<T>(pitch: Option<usize>, choices: &Choices) -> bool {
    let g = &choices.geometry;
    pitch
        .map(|p| p.saturating_mul(size_of::<T>()))
        .is_some_and(|bytes| bytes != 0 && g.lines_per_l1_set(bytes, ROWS) > g.l1d.ways / 2)
}

/// Whether a tile's column blocks all go in one visit, writing each destination row whole and
/// the destination in one sweep: rows of at most [`WHOLE_ROW_BYTES`] whose columns' source
/// lines stay in L1 ([`Choices::whole_rows_fit`]).
pub(crate) fn rows_go_whole(cols: &[(usize, usize)], element: usize, choices: &Choices) -> bool {
    let pitch = match cols {
        [first, next, ..] => next.0.abs_diff(first.0) * element,
        _ => 0,
    };
    cols.len() * element <= WHOLE_ROW_BYTES && choices.whole_rows_fit(cols.len(), pitch, element)
}

/// How far ahead, in elements, blocks prefetch their source lines, if at all: a source of one
/// run (nChw16c->nchw), or nearly (lines at most [`NEAR_RUN_BYTES`] apart),
/// [`Choices::run_prefetch_bytes`]; separate lines (nchw->nhwc's planes) [`PREFETCH_BYTES`]
/// each (streamed farther per [`Choices::streamed_prefetch_bytes`]), streamed blocks only where
/// lines lie at least [`Choices::prefetch_apart`] apart (more streams than the hardware
/// follows) and do not crowd L1 sets, cached ones under [`Choices::cached_prefetch_below`].
pub(super) fn source_prefetch<T>(
    cols: &[(usize, usize)],
    choices: &Choices,
    streams: bool,
) -> Option<SourcePrefetch> {
    let element = size_of::<T>().max(1);
    let apart = match cols {
        [first, next, ..] => next.0.abs_diff(first.0),
        _ => 0,
    };
    let separate = if streams {
        apart * element >= choices.prefetch_apart
    } else {
        apart * element < choices.cached_prefetch_below
    };
    if apart == ROWS || (apart > ROWS && apart * element <= NEAR_RUN_BYTES) {
        Some(SourcePrefetch {
            ahead: choices.run_prefetch_bytes / element,
            every: (CACHE_LINE / (apart * element)).max(1),
        })
    } else if separate {
        let near = PREFETCH_BYTES / element;
        // Columns a multiple of half an L1 way apart share a few L1 sets a streamed block's
        // lines already fill, where prefetches would evict lines in use: left to the hardware.
        // Uncrowded, farther: at most an eighth of the spacing.
        let crowded = (apart * element).is_multiple_of(choices.geometry.l1_way_bytes() / 2);
        if streams && crowded {
            return None;
        }
        let ahead = choices
            .streamed_prefetch_bytes
            .filter(|_| streams && !crowded)
            .map_or(near, |far| (far / element).min(apart / 8).max(near));
        Some(SourcePrefetch { ahead, every: 1 })
    } else {
        None
    }
}

/// Where a block's source prefetches go: `ahead` elements past its columns' lines, for every
/// `every`-th column (a run of lines shorter than a cache line takes one per cache line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SourcePrefetch {
    pub ahead: usize,
    pub every: usize,
}

/// How many of a tile's `rows` [`plane_body`](super::tiles::plane_body) sweeps per band: all for
/// streamed lines or rows spanning at most [`WHOLE_BAND_SOURCE_BYTES`] of source; else about
/// [`BAND_BYTES`] of destination (in the nearest caches), at least [`BAND_SOURCE_RUN_BYTES`] of
/// source per column (a run the prefetchers follow).
pub(super) fn band_rows<T>(rows: usize, cols: usize, streams: bool) -> usize {
    let element = size_of::<T>().max(1);
    if streams || rows * element <= WHOLE_BAND_SOURCE_BYTES {
        return rows.max(1);
    }
    let covering = BAND_BYTES / (cols * element).max(1);
    let run = BAND_SOURCE_RUN_BYTES / element;
    covering.max(run).clamp(ROWS, 1 << 14) / ROWS * ROWS
}

#[cfg(test)]
mod tests {
    use super::super::tiles::tests::evenly;
    use super::*;
    use alloc::vec::Vec;

    /// Blocks find their lines by the pitch only where every whole block's last row confirms it.
    #[test]
    fn rows_are_pitched_where_every_whole_block_ends_on_the_pitch() {
        // Two whole blocks 7 apart and a partial one (unchecked: it moves element by element).
        let mut rows: Vec<(usize, usize)> = (0..2 * ROWS + 5).map(|r| (r, r * 7)).collect();
        assert_eq!(pitched(&rows, Some(7)), Some(7));
        assert_eq!(pitched(&rows, None), None);
        assert_eq!(pitched(&rows, Some(8)), None);
        // A second block that starts elsewhere but keeps the pitch.
        for row in &mut rows[ROWS..] {
            row.1 += 1000;
        }
        assert_eq!(pitched(&rows, Some(7)), Some(7));
        // A block whose last row is off the pitch.
        rows[2 * ROWS - 1].1 += 1;
        assert_eq!(pitched(&rows, Some(7)), None);
        // A pitch so large that the block's span overflows.
        assert_eq!(pitched(&rows, Some(usize::MAX / 2)), None);
    }

    /// Bands as [`band_rows`] says, for the tuned 2 KiB, 64 KiB and 512 bytes.
    #[test]
    fn bands_cover_the_destination_near_the_core_in_long_source_runs() {
        // f32 nhwc->nchw: 256 channel rows (1 KiB of source) of 3136 positions.
        assert_eq!(band_rows::<u32>(256, 3136, false), 256);
        // f32 nchw->nhwc: 3136 position rows of 256 channels: 64 KiB is 64 rows, 512 bytes
        // of each plane 128.
        assert_eq!(band_rows::<u32>(3136, 256, false), 128);
        // u8 nchw->nhwc: 64 KiB and 512 bytes are both 256 and 512 rows.
        assert_eq!(band_rows::<u8>(3136, 256, false), 512);
        assert_eq!(band_rows::<u8>(3136, 64, false), 1024);
        // Narrow tiles: the 64 KiB rule, capped, in whole blocks.
        assert_eq!(band_rows::<u32>(100_000, 2, false), 8192);
        assert_eq!(band_rows::<u32>(100_000, 3, false), 5456);
        // Streamed lines: one band.
        assert_eq!(band_rows::<u32>(3136, 256, true), 3136);
    }

    /// Whole-line blocks, streamed or not, go out several to a row only while their source
    /// lines stay close; short rows go whole where their columns' lines fit in L1.
    #[test]
    fn whole_lines_group_while_their_source_is_compact() {
        type Visits = fn(&[(usize, usize)], Option<usize>, bool, &Choices) -> usize;
        let (u8x64, u16x32): (Visits, Visits) =
            (lines_per_visit::<u8, 64>, lines_per_visit::<u16, 32>);
        let (u32x16, u32x8): (Visits, Visits) =
            (lines_per_visit::<u32, 16>, lines_per_visit::<u32, 8>);
        // The kernel, `count` columns `apart` apart, pitch, streamed, `lines_per_visit`, visits.
        let cases = [
            // NCHW -> NHWC of 256 channels from 56 x 56 planes: u8 (4 lines a set of a 4 KiB
            // way) go whole in one visit (4 blocks of 64); f32 (16 a set) do not.
            (u8x64, 256, 3136, None, false, 1, 4),
            (u32x16, 256, 3136, None, false, 1, 1),
            // 24 u16 channels 3136 apart: whole, in one block of 32 columns.
            (u16x32, 24, 3136, None, false, 1, 1),
            // Longer rows (u8 NHWC -> NCHW's 3136 positions) or more columns: the group rule.
            (u8x64, 3136, 256, None, false, 1, 1),
            (u16x32, 512, 3136, None, false, 1, 1),
            // 16 columns 256 apart span 15 KiB of u32: as many as the choices allow, up to 4.
            (u32x16, 2048, 256, None, false, 2, 2),
            (u32x16, 2048, 256, None, false, 1, 1),
            (u32x16, 2048, 256, None, false, 8, 4),
            (u32x16, 2048, 512, None, false, 2, 2),
            (u32x16, 2048, 2048, None, false, 2, 1),
            // 3136 apart (NCHW planes of 56x56) span 184 KiB: one block at a time.
            (u32x16, 2048, 3136, None, false, 2, 1),
            // Pitches putting more of a block's rows in one L1 set than half its 8 ways
            // (multiples of 2 KiB): 256 bytes per row and visit, at most the tile's blocks.
            (u32x16, 2048, 3136, Some(1024), false, 1, 4),
            (u32x16, 40, 3136, Some(1024), false, 1, 3),
            // Streamed, the same rows take no L1 set: one block at a time, as without a pitch.
            (u32x16, 2048, 3136, Some(1024), true, 1, 1),
            (u8x64, 1024, 1, Some(2048), false, 1, 4),
            (u8x64, 4096, 1, Some(4096), false, 2, 4),
            (u32x8, 2048, 3136, Some(512), false, 1, 8),
            (u32x16, 300, 3136, Some(512), false, 1, 4),
            (u32x16, 290, 1, Some(512), false, 1, 4),
            // Pitches that spread over the sets (1 KiB, 512 bytes, others): as without a pitch.
            (u32x16, 2048, 3136, Some(256), false, 1, 1),
            (u8x64, 1024, 1, Some(512), false, 1, 1),
            (u32x8, 2048, 3136, Some(128), false, 1, 1),
            (u32x16, 2048, 3136, Some(3136), false, 1, 1),
            (u32x16, 2048, 3136, Some(100), false, 1, 1),
            (u8x64, 3136, 256, Some(3136), false, 1, 1),
            // Blocks narrower than a line never group.
            (u32x8, 2048, 256, None, false, 2, 1),
        ];
        for (k, (visits, count, apart, pitch, streams, at_most, want)) in
            cases.into_iter().enumerate()
        {
            let choices = Choices {
                lines_per_visit: at_most,
                ..Choices::DEFAULT
            };
            let got = visits(&evenly(count, apart, 1), pitch, streams, &choices);
            let case = alloc::format!("case {k}: {count} columns {apart} apart, pitch {pitch:?}");
            assert_eq!(got, want, "{case}, streamed {streams}, at most {at_most}");
        }
        assert!(rows_go_whole(&evenly(24, 3136, 1), 2, &Choices::DEFAULT));
        assert!(rows_go_whole(&evenly(256, 1, 1), 1, &Choices::DEFAULT));
        assert!(!rows_go_whole(&evenly(4097, 1, 1), 1, &Choices::DEFAULT));
        // Elements that use up a line in one block of rows never go whole.
        assert!(!rows_go_whole(&evenly(24, 3136, 1), 4, &Choices::DEFAULT));
        assert!(!rows_go_whole(&evenly(256, 1, 1), 8, &Choices::DEFAULT));
    }

    /// Source prefetches as [`source_prefetch`] says, with the choices of a roomy L2, a small
    /// one and a wide L1.
    #[test]
    fn source_lines_are_prefetched_as_the_choices_say() {
        use crate::relayout::cache_geometry::CacheGeometry;
        type Prefetch = fn(&[(usize, usize)], &Choices, bool) -> Option<SourcePrefetch>;
        let (u32s, u8s): (Prefetch, Prefetch) = (source_prefetch::<u32>, source_prefetch::<u8>);
        let ahead = |ahead| Some(SourcePrefetch { ahead, every: 1 });
        let near = ahead(PREFETCH_BYTES / 4);
        let roomy = &Choices::for_cache(CacheGeometry {
            l2_bytes: 2 << 20,
            ..CacheGeometry::DEFAULT
        });
        let small = &Choices::DEFAULT;
        let wide = &Choices::for_cache(CacheGeometry::DESCRIBED[1]);
        // A source of one run: the run distance ahead, streamed or not, once per cache line.
        let run = |choices: &Choices, element: usize, every| {
            let ahead = choices.run_prefetch_bytes / element;
            Some(SourcePrefetch { ahead, every })
        };
        assert_eq!(run(wide, 4, 1).map(|p| p.ahead), Some(2048));
        assert_eq!(run(small, 4, 1).map(|p| p.ahead), Some(128));
        // The element, 2048 columns `apart` apart, choices, streamed, the prefetch.
        let cases = [
            (u32s, 127, roomy, true, None),
            (u32s, 128, small, true, near),
            (u32s, 511, roomy, true, None),
            (u32s, 513, roomy, true, near),
            (u32s, 3136, roomy, true, near),
            // Streamed columns a multiple of half an L1 way (2 KiB) apart crowd their sets.
            (u32s, 512, roomy, true, None),
            (u32s, 1024, small, true, None),
            // Small L2, streamed: 512 bytes, at most an eighth of the spacing; none where the
            // lines crowd L1 sets; through the cache, near.
            (u32s, 3136, small, true, ahead(128)),
            (u32s, 8192, small, true, None),
            (u32s, 8192, roomy, false, near),
            (u32s, 4100, small, true, ahead(128)),
            (u32s, 300, small, true, ahead(64)),
            (u8s, 3136, small, true, ahead(392)),
            (u32s, 256, roomy, false, near),
            (u32s, 33, roomy, false, near),
            (u32s, 3136, small, false, None),
            (u32s, 256, small, false, None),
            (u32s, 255, small, false, near),
            (u32s, ROWS, wide, true, run(wide, 4, 1)),
            (u32s, ROWS, roomy, true, run(roomy, 4, 1)),
            (u32s, ROWS, small, false, run(small, 4, 1)),
            (u8s, ROWS, roomy, true, run(roomy, 1, 4)),
            // Lines at most two cache lines apart count as one run too.
            (u32s, 17, small, true, run(small, 4, 1)),
            (u32s, 17, roomy, false, run(roomy, 4, 1)),
            (u32s, 32, roomy, true, run(roomy, 4, 1)),
            (u32s, 33, small, true, None),
            (u8s, 32, small, true, run(small, 1, 2)),
            (u8s, 128, roomy, true, run(roomy, 1, 1)),
            (u8s, 129, small, true, None),
        ];
        for (k, (prefetch, apart, choices, streams, want)) in cases.into_iter().enumerate() {
            let got = prefetch(&evenly(2048, apart, 1), choices, streams);
            assert_eq!(got, want, "case {k}: {apart} apart, streamed {streams}");
        }
    }
}

//! The engine's machine-dependent choices, derived from the cache geometry by one cost model
//! (docs/relayout.md, "The cost model"); a measured plan (`RelayoutPlan::measured`) tries the
//! alternatives instead.

use super::cache_geometry::CacheGeometry;
use super::tuning::{ROWS, RUN_PREFETCH_BYTES};

/// Every machine-dependent choice of a relayout, for one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choices {
    /// The caches the choices were derived from (the kernels' set arithmetic reads it).
    pub geometry: CacheGeometry,
    /// Most destination lines a transpose writes per row on one visit, where its blocks are
    /// whole lines and their source stays compact (`kernels::tile_shape::lines_per_visit`).
    pub lines_per_visit: usize,
    /// Whether a transpose may write each short destination row whole in one visit where
    /// [`Choices::whole_rows_fit`] allows; off, one column block goes through a band at a time.
    pub whole_rows: bool,
    /// Whether tiles of exactly one 16-row block stream their destination lines too (tiles of
    /// more rows always do, once the destination is past the caches).
    pub stream_one_block_tiles: bool,
    /// Least distance in bytes between a streamed block's source lines for the block to
    /// prefetch them (`kernels::tile_shape::source_prefetch`).
    pub prefetch_apart: usize,
    /// How many bytes ahead a streamed block prefetches each of its separate source lines
    /// (`None`: the near distance), in bytes because it counts lines in flight per stream. Row
    /// copies streaming two rows to a line prefetch their source this far on too (`None`: not).
    pub streamed_prefetch_bytes: Option<usize>,
    /// How many bytes ahead a transpose prefetches into L1 a source it reads as one run (each
    /// column's line right after the previous one's: nChw16c, NHWC of 17 to 32 channels).
    pub run_prefetch_bytes: usize,
    /// Blocks written through the cache prefetch their separate source lines where these lie
    /// less than this many bytes apart.
    pub cached_prefetch_below: usize,
    /// Whether row copies of rows shorter than a line, into a destination past the caches,
    /// stream their paired rows and prefetch their other destination lines.
    pub stream_short_rows: bool,
    /// Whether evenly spaced 4-byte transposes sweep each row block across every column
    /// (`kernels::x86::pitched`) where the general blocks serve too: cached, and streamed tiles
    /// on the line grid in whole blocks. Streamed tiles with rows off the grid or past their
    /// whole blocks are swept either way: the general blocks would write their lines in parts.
    pub sweep_four_byte: bool,
    /// Whether streamed 4-byte transposes whose source is one run, in tiles on the line grid
    /// with 8 to 15 rows past their first 16, realign their rows
    /// (`kernels::x86::pitched::realigned`); off, the general blocks move them, overlapping.
    pub realign_overlapped_rows: bool,
    /// Whether 1- and 2-byte transposes whose source columns crowd a few L1 sets stage each
    /// group's column lines first (`kernels::x86::pitched`); off, blocks read them in place.
    pub stage_crowded_columns: bool,
    /// Below this many destination bytes a relayout stays on one thread (`parallel` feature).
    pub min_parallel_bytes: usize,
}

/// A private L2 from which the model takes a core to keep many lines per stream in flight, so
/// the software prefetches and narrow visits that help a 1 MiB L2 cost more than they save.
const ROOMY_L2_BYTES: usize = 2 << 20;

/// An L1d with room for a source run prefetched [`RUN_PREFETCH_BYTES`] ahead beside the lines
/// in use (and a realigned tile's two blocks); a smaller one prefetches less.
const WIDE_L1D_BYTES: usize = 48 << 10;

/// How far ahead a smaller L1d prefetches a source run: eight lines.
const NEAR_RUN_PREFETCH_BYTES: usize = 512;

impl Choices {
    /// The choices for [`CacheGeometry::DEFAULT`].
    #[cfg(test)]
    pub(crate) const DEFAULT: Choices = Choices::for_cache(CacheGeometry::DEFAULT);

    /// The choices for a machine with the caches `geometry` describes.
    pub(crate) const fn for_cache(geometry: CacheGeometry) -> Choices {
        let roomy = geometry.l2_bytes >= ROOMY_L2_BYTES;
        let wide_l1 = geometry.l1d.bytes >= WIDE_L1D_BYTES;
        let l2 = geometry.l2_bytes;
        Choices {
            geometry,
            lines_per_visit: if roomy { 4 } else { 1 },
            whole_rows: true,
            stream_one_block_tiles: !roomy,
            prefetch_apart: if roomy { 2048 } else { 512 },
            streamed_prefetch_bytes: if roomy { None } else { Some(512) },
            run_prefetch_bytes: if wide_l1 {
                RUN_PREFETCH_BYTES
            } else {
                NEAR_RUN_PREFETCH_BYTES
            },
            cached_prefetch_below: if roomy { usize::MAX } else { 1024 },
            // Streamed whole lines skip reading each far line before it is overwritten.
            stream_short_rows: true,
            sweep_four_byte: !roomy,
            realign_overlapped_rows: wide_l1,
            stage_crowded_columns: !roomy,
            // A split pays once each thread's share outgrows a private L2 (half of one of at
            // most 1 MiB).
            min_parallel_bytes: if roomy { 2 * l2 } else { l2 / 2 },
        }
    }

    /// The choices for this machine ([`CacheGeometry::of_this_machine`]).
    pub(crate) fn of_this_machine() -> Choices {
        Choices::for_cache(CacheGeometry::of_this_machine())
    }

    /// Whether a visit reading one line of each of `columns` columns, `pitch` bytes apart, for
    /// a block of 16 rows should write those rows whole: only where the next row blocks read
    /// the same lines again (1- and 2-byte elements; a 4-byte block uses its lines up), and
    /// those lines stay in L1 meanwhile: at most half the ways of any set (the other half is the
    /// destination's and the stack's), and at most half the cache.
    pub(crate) fn whole_rows_fit(&self, columns: usize, pitch: usize, element: usize) -> bool {
        let g = &self.geometry;
        self.whole_rows
            && g.line > ROWS * element
            && columns * g.line <= g.l1d.bytes / 2
            && g.lines_per_l1_set(pitch, columns) <= g.l1d.ways / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::cache_geometry::tests::{KIB, MIB};

    /// The model's choices for the described machines, tabled: a change of choice shows.
    #[test]
    fn the_choices_of_described_machines() {
        let machines = CacheGeometry::DESCRIBED.map(Choices::for_cache);
        macro_rules! table {
            ($($field:ident: $want:expr,)*) => {$(
                assert_eq!(machines.map(|c| c.$field), $want, stringify!($field));
            )*};
        }
        table! {
            lines_per_visit: [1, 1, 4],
            whole_rows: [true; 3],
            stream_one_block_tiles: [true, true, false],
            prefetch_apart: [512, 512, 2048],
            streamed_prefetch_bytes: [Some(512), Some(512), None],
            run_prefetch_bytes: [512, 8 * KIB, 8 * KIB],
            cached_prefetch_below: [1024, 1024, usize::MAX],
            stream_short_rows: [true; 3],
            sweep_four_byte: [true, true, false],
            realign_overlapped_rows: [false, true, true],
            stage_crowded_columns: [true, true, false],
            min_parallel_bytes: [512 * KIB, 512 * KIB, 4 * MIB],
        }
    }

    /// Whole-row visits by the set arithmetic, on the three described machines: 256 u8 planes
    /// and 64 u16 ones always; 4-byte elements, 512 u8 planes, or planes 4 KiB apart never.
    #[test]
    fn whole_rows_where_their_lines_are_read_again_and_fit_the_sets() {
        let [small, wide, roomy] = CacheGeometry::DESCRIBED.map(Choices::for_cache);
        for c in [small, wide, roomy] {
            assert!(c.whole_rows_fit(256, 3_136, 1));
            assert!(c.whole_rows_fit(64, 6_272, 2));
            assert!(!c.whole_rows_fit(256, 12_544, 4));
            assert!(!c.whole_rows_fit(256, 12_100, 4));
            assert!(!c.whole_rows_fit(24, 12_544, 4));
            assert!(!c.whole_rows_fit(512, 3_136, 1));
            assert!(!c.whole_rows_fit(16, 4 * KIB, 1));
            let without = Choices {
                whole_rows: false,
                ..c
            };
            assert!(!without.whole_rows_fit(256, 3_136, 1));
        }
        // 384 u8 channel planes 3,136 bytes apart: 6 lines a set, 24 KiB: a 48 KiB L1 only.
        assert!(!small.whole_rows_fit(384, 3_136, 1));
        assert!(wide.whole_rows_fit(384, 3_136, 1));
    }
}

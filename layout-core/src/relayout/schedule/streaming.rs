//! When a relayout writes its destination past the caches (non-temporal stores), decided once
//! per call from the destination's size. Streaming what the last-level cache could hold costs
//! the next reader (and the relayout) a trip to memory, so the thresholds grow with that cache.

use crate::relayout::choices::Choices;
use crate::relayout::tuning::{
    STREAM_BLOCKS_FROM_CACHE_SHARE, STREAM_FLOOR_BYTES, STREAM_LINE_ROWS_FROM_CACHE_SHARE,
};

/// Which of a relayout's stores go past the caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Streaming {
    /// Transposes write whole destination lines past the caches, row copies that pair rows into
    /// lines stream each pair, and other row copies into this destination ask for their lines
    /// ahead ([`Destination::Far`](crate::relayout::kernels::Destination::Far)).
    pub blocks: bool,
    /// Row copies whose every row is one whole 64-byte line write it past the caches.
    pub line_rows: bool,
    /// Row copies of rows shorter than a line stream each pair that makes a line, and ask for
    /// other rows' lines ahead: `blocks`, where [`Choices::stream_short_rows`] allows.
    pub short_rows: bool,
    /// Row copies of rows that do not fill lines ask for their destination lines ahead whatever
    /// `short_rows` says: out of a chunk table, whose chunks' rows land in lines that neighbours
    /// complete, which prefetchers do not follow.
    pub far_rows: bool,
}

impl Streaming {
    /// Every store through the caches.
    pub(crate) const NONE: Streaming = Streaming {
        blocks: false,
        line_rows: false,
        short_rows: false,
        far_rows: false,
    };

    /// Every kernel that can stream does: what a destination far larger than any cache gets.
    pub(crate) const ALL: Streaming = Streaming {
        blocks: true,
        line_rows: true,
        short_rows: true,
        far_rows: false,
    };

    /// Stores past the caches forced on ([`ALL`](Self::ALL), short rows as `choices` say) or off.
    pub(crate) fn forced(on: bool, choices: &Choices) -> Streaming {
        (if on { Streaming::ALL } else { Streaming::NONE }).allowed(choices)
    }

    /// The streaming of a destination of `bytes` on a machine with `choices`.
    pub(crate) fn for_destination(bytes: usize, choices: &Choices) -> Streaming {
        Self::with_cache(bytes, choices.geometry.last_level).allowed(choices)
    }

    /// This streaming, short rows only where `choices` stream them.
    fn allowed(self, choices: &Choices) -> Streaming {
        Streaming {
            short_rows: self.short_rows && choices.stream_short_rows,
            ..self
        }
    }

    /// The streaming of `bytes` under a last-level cache of `cache` bytes (`None`: the floor).
    fn with_cache(bytes: usize, cache: Option<usize>) -> Streaming {
        let from = |share: usize| {
            cache.map_or(STREAM_FLOOR_BYTES, |c| (c / share).max(STREAM_FLOOR_BYTES))
        };
        let blocks = bytes >= from(STREAM_BLOCKS_FROM_CACHE_SHARE);
        Streaming {
            blocks,
            line_rows: bytes >= from(STREAM_LINE_ROWS_FROM_CACHE_SHARE),
            short_rows: blocks,
            far_rows: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relayout::cache_geometry::tests::MIB;

    /// The destinations of the pairs measured on three machines' last-level caches
    /// (docs/engine-measurements.md) fall on the side each ran faster on; none known: the floor.
    #[test]
    fn thresholds_follow_the_last_level_cache() {
        let at = |bytes, cache| Streaming::with_cache(bytes, cache);
        let big = Some(480 * MIB);
        assert_eq!(at(9_437_184, big), Streaming::NONE);
        assert_eq!(at(12_845_056, big), Streaming::NONE);
        let f32_activations = at(25_690_112, big);
        assert!(f32_activations.blocks && !f32_activations.line_rows);
        // 105 and 32 MiB: everything streams from the floor but whole-line rows under 105/16 MiB.
        for cache in [Some(105 * MIB), Some(32 * MIB)] {
            assert_eq!(at(STREAM_FLOOR_BYTES - 1, cache), Streaming::NONE);
            assert!(at(STREAM_FLOOR_BYTES, cache).blocks);
            let five_mib = Streaming {
                line_rows: cache == Some(32 * MIB),
                ..Streaming::ALL
            };
            assert_eq!(at(5 * MIB, cache), five_mib, "{cache:?}");
            for bytes in [9_437_184, 25_690_112] {
                assert_eq!(at(bytes, cache), Streaming::ALL, "{bytes} {cache:?}");
            }
        }
        assert_eq!(at(STREAM_FLOOR_BYTES - 1, None), Streaming::NONE);
        assert_eq!(at(STREAM_FLOOR_BYTES, None), Streaming::ALL);
    }
}

//! When a relayout writes its destination past the caches (non-temporal stores), decided once
//! per call from the destination's size and this CPU's last-level cache.
//!
//! Streaming a destination that the caches could have held costs the next reader a trip to
//! memory, and on a large cache costs the relayout too: where a destination of tens of MB fits
//! in the L3, a copy through the cache runs from the L3 (as memcpy does: glibc streams only
//! past 3/4 of a thread's share of it), faster than streamed stores to memory. Where the cache
//! is smaller, the same copies run faster streamed. So the threshold grows with the last-level
//! cache, from [`STREAM_FLOOR_BYTES`] (past a core's L2, where writing through the cache first
//! reads every line it overwrites):
//!
//! - transposes (and, on the processor families that gain by it, row copies that pair two
//!   half-line rows into each line and the destination prefetch of other far row copies)
//!   stream from a small share of the last-level cache ([`STREAM_BLOCKS_FROM_CACHE_SHARE`]): a
//!   transpose through the cache writes lines in many places at once and keeps paying for it,
//!   so the break-even comes early;
//! - row copies whose every row is one whole 64-byte line, which through the cache are a plain
//!   memcpy, stream from a larger share of it ([`STREAM_LINE_ROWS_FROM_CACHE_SHARE`]).
//!
//! Both shares put each of the machines measured on the side it ran faster (the measurements
//! are in [`tuning`](crate::relayout::tuning) and docs/performance.md, the reasoning in
//! docs/concepts.md, "Decisions"); the choice only picks between kernels that are correct
//! either way, so a wrong guess costs speed, never results.

use crate::relayout::tuning::{
    STREAM_BLOCKS_FROM_CACHE_SHARE, STREAM_FLOOR_BYTES, STREAM_LINE_ROWS_FROM_CACHE_SHARE, Tuning,
};
use core::sync::atomic::{AtomicUsize, Ordering};

/// Which of a relayout's stores go past the caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Streaming {
    /// Transposes write whole destination lines past the caches, row copies that pair rows into
    /// lines stream each pair, and other row copies into this destination ask for their lines
    /// ahead ([`Destination::Far`](crate::relayout::kernels::Destination::Far)).
    pub blocks: bool,
    /// Row copies whose every row is one whole 64-byte line write it past the caches.
    pub line_rows: bool,
    /// Row copies of rows shorter than a line stream each pair of rows that makes a line, and
    /// ask for the destination lines of other rows ahead: `blocks`, where the processor
    /// family gains by it ([`Tuning::stream_short_rows`]).
    pub short_rows: bool,
    /// Row copies of rows that do not fill lines ask for their destination lines ahead
    /// whatever `short_rows` says (pairs of rows stay as it says): set out of a chunk table
    /// into a destination past the caches, where each chunk's rows land in lines its
    /// neighbours complete, a pattern of stores the hardware prefetchers do not follow.
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
    #[cfg(test)]
    pub(crate) const ALL: Streaming = Streaming {
        blocks: true,
        line_rows: true,
        short_rows: true,
        far_rows: false,
    };

    /// The streaming of a destination of `bytes` on this CPU.
    pub(crate) fn for_destination(bytes: usize) -> Streaming {
        let streaming = Self::with_cache(bytes, last_level_cache_bytes());
        Streaming {
            short_rows: streaming.short_rows && Tuning::current().stream_short_rows,
            ..streaming
        }
    }

    /// The streaming of a destination of `bytes` under a last-level cache of `cache` bytes
    /// (`None`: not known, the floor for both).
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

/// The size in bytes of this CPU's largest cache, found with `cpuid` on the first call and then
/// kept; `None` where `cpuid` does not say (another architecture, Miri, an old CPU).
fn last_level_cache_bytes() -> Option<usize> {
    const UNKNOWN: usize = usize::MAX;
    static FOUND: AtomicUsize = AtomicUsize::new(UNKNOWN);
    let mut found = FOUND.load(Ordering::Relaxed);
    if found == UNKNOWN {
        found = largest_cache().unwrap_or(0);
        FOUND.store(found, Ordering::Relaxed);
    }
    (found != 0).then_some(found)
}

/// The largest cache that `cpuid` lists: leaf 4 (Intel's deterministic cache parameters) or,
/// on AMD and Hygon, leaf 0x8000_001D, which has the same layout.
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn largest_cache() -> Option<usize> {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    let leaf = if crate::relayout::tuning::vendor_is_amd() {
        0x8000_001D
    } else {
        4
    };
    // The highest leaf of the range must reach it, or the answer is another leaf's.
    if __cpuid(leaf & 0x8000_0000).eax < leaf {
        return None;
    }
    (0..16)
        .map(|sub| {
            let r = __cpuid_count(leaf, sub);
            [r.eax, r.ebx, r.ecx]
        })
        .take_while(|[eax, _, _]| eax & 0x1f != 0)
        .map(|[_, ebx, ecx]| cache_bytes(ebx, ecx))
        .max()
}

/// Miri and other architectures: no `cpuid`.
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
fn largest_cache() -> Option<usize> {
    None
}

/// A cache's size from the EBX and ECX of its `cpuid` leaf 4 (or 0x8000_001D) entry: ways x
/// partitions x line size x sets, each stored as one less.
#[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
fn cache_bytes(ebx: u32, ecx: u32) -> usize {
    let ways = (ebx >> 22) as usize + 1;
    let partitions = ((ebx >> 12) & 0x3ff) as usize + 1;
    let line = (ebx & 0xfff) as usize + 1;
    let sets = ecx as usize + 1;
    ways * partitions * line * sets
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    /// The three machines measured: each pair's destination falls on the side it ran faster.
    #[test]
    fn thresholds_follow_the_last_level_cache() {
        // 480 MiB L3: 9.4 MB and 12.8 MB transposes through the cache, 25.7 MB streamed;
        // 25.7 MB of whole-line rows through the cache.
        let big = Some(480 * MIB);
        assert_eq!(Streaming::with_cache(9_437_184, big), Streaming::NONE);
        assert_eq!(Streaming::with_cache(12_845_056, big), Streaming::NONE);
        let f32_activations = Streaming::with_cache(25_690_112, big);
        assert!(f32_activations.blocks && !f32_activations.line_rows);
        // 105 MiB (Sapphire Rapids class) and 32 MiB (Zen 4): everything from 4 MiB on streams
        // but whole-line rows under 105/16 MiB, a size none of the measured pairs had.
        for cache in [105 * MIB, 32 * MIB] {
            assert_eq!(
                Streaming::with_cache(STREAM_FLOOR_BYTES - 1, Some(cache)),
                Streaming::NONE
            );
            assert!(Streaming::with_cache(STREAM_FLOOR_BYTES, Some(cache)).blocks);
            assert_eq!(
                Streaming::with_cache(5 * MIB, Some(cache)),
                Streaming {
                    blocks: true,
                    line_rows: cache == 32 * MIB,
                    short_rows: true,
                    far_rows: false,
                }
            );
            for bytes in [9_437_184, 25_690_112] {
                assert_eq!(Streaming::with_cache(bytes, Some(cache)), Streaming::ALL);
            }
        }
        // Unknown: the floor.
        assert_eq!(
            Streaming::with_cache(STREAM_FLOOR_BYTES - 1, None),
            Streaming::NONE
        );
        assert_eq!(
            Streaming::with_cache(STREAM_FLOOR_BYTES, None),
            Streaming::ALL
        );
    }

    /// cpuid leaf 4 of a 32 KiB, 8-way L1 with 64-byte lines and 64 sets, and of a 480 MiB,
    /// 16-way L3 (491520 sets).
    #[test]
    fn cache_sizes_are_decoded_as_cpuid_gives_them() {
        assert_eq!(cache_bytes((7 << 22) | 63, 63), 32 << 10);
        assert_eq!(cache_bytes((15 << 22) | 63, 491_520 - 1), 480 * MIB);
    }

    #[test]
    fn the_cache_found_is_kept() {
        let first = last_level_cache_bytes();
        assert_eq!(last_level_cache_bytes(), first);
        if cfg!(miri) || !cfg!(target_arch = "x86_64") {
            assert_eq!(first, None);
        }
    }
}

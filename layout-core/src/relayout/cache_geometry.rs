//! The caches of the machine a relayout runs on, read once per process from `cpuid` on x86-64,
//! elsewhere from `/sys/devices/system/cpu/cpu0/cache/` (with `std`), or a stated default.

use core::sync::atomic::{AtomicUsize, Ordering};

/// One cache level's capacity and associativity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CacheLevel {
    /// Capacity in bytes.
    pub bytes: usize,
    /// Ways of associativity: how many lines that map to one set it holds at once.
    pub ways: usize,
}

/// The cache geometry the relayout engine's choices follow from
/// ([`Choices::for_cache`](super::choices::Choices::for_cache)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CacheGeometry {
    /// Bytes of a cache line.
    pub line: usize,
    /// The L1 data cache of one core.
    pub l1d: CacheLevel,
    /// Bytes of the L2 cache of one core (the model reads only its capacity).
    pub l2_bytes: usize,
    /// The largest cache (the last level), when the processor names one.
    pub last_level: Option<usize>,
}

impl CacheGeometry {
    /// What the engine assumes where the processor reports nothing: the smallest caches of the
    /// server cores it is tuned for, and no last-level cache, so streaming starts at its floor.
    pub(crate) const DEFAULT: CacheGeometry = CacheGeometry {
        last_level: None,
        ..CacheGeometry::described(32 << 10, 8, 1 << 20)
    };

    /// The machines whose choices the tests table and run, each with a 32 MiB last-level cache.
    #[cfg(test)]
    pub(crate) const DESCRIBED: [CacheGeometry; 3] = [
        CacheGeometry::described(32 << 10, 8, 1 << 20),
        CacheGeometry::described(48 << 10, 12, 1 << 20),
        CacheGeometry::described(48 << 10, 12, 2 << 20),
    ];

    /// A machine of 64-byte lines, an L1d of `l1d` bytes in `ways` ways, an L2 of `l2` bytes
    /// and a 32 MiB last-level cache.
    const fn described(l1d: usize, ways: usize, l2: usize) -> CacheGeometry {
        CacheGeometry {
            line: 64,
            l1d: CacheLevel { bytes: l1d, ways },
            l2_bytes: l2,
            last_level: Some(32 << 20),
        }
    }

    /// Bytes of one way of the L1 data cache (its sets times its line): lines this far apart
    /// map to the same set.
    pub(crate) fn l1_way_bytes(&self) -> usize {
        (self.l1d.bytes / self.l1d.ways.max(1)).max(self.line)
    }

    /// The most of `count` lines, `pitch` bytes apart, that share one L1 set: all where they are
    /// a multiple of a way apart, else spread over the sets `pitch` steps through.
    pub(crate) fn lines_per_l1_set(&self, pitch: usize, count: usize) -> usize {
        let way = self.l1_way_bytes();
        let step = pitch % way;
        if step == 0 {
            return count;
        }
        // Lines `step` bytes apart return to their first set after `way / gcd(step, way)`
        // lines; a step under a line moves to the next set only every `line / step` lines.
        let sets_visited = (way / gcd(step, way)).min(way / self.line).max(1);
        count.div_ceil(sets_visited)
    }

    /// This machine's geometry: read on the first call, then kept in static atomics. Racing
    /// threads store the same values; the line size, stored last (`Release`/`Acquire`, never
    /// 0 once read), tells a reader the other fields are there.
    pub(crate) fn of_this_machine() -> CacheGeometry {
        static FOUND: [AtomicUsize; 5] = [const { AtomicUsize::new(0) }; 5];
        if FOUND[0].load(Ordering::Acquire) == 0 {
            let g = detect().unwrap_or(CacheGeometry::DEFAULT);
            let (l1d, last) = (g.l1d, g.last_level.unwrap_or(0));
            let fields = [l1d.bytes, l1d.ways, g.l2_bytes, last];
            for (slot, value) in FOUND[1..].iter().zip(fields) {
                slot.store(value, Ordering::Relaxed);
            }
            FOUND[0].store(g.line, Ordering::Release);
        }
        let [line, bytes, ways, l2_bytes, last] =
            FOUND.each_ref().map(|f| f.load(Ordering::Relaxed));
        let last_level = Some(last).filter(|&bytes| bytes != 0);
        let l1d = CacheLevel { bytes, ways };
        CacheGeometry {
            line,
            l1d,
            l2_bytes,
            last_level,
        }
    }

    /// The geometry from a list of caches as `cpuid` or the kernel lists them; `None` without
    /// an L1 data cache and an L2.
    fn from_listed(caches: impl Iterator<Item = Listed>) -> Option<CacheGeometry> {
        let (mut l1d, mut l2, mut last) = (None, None, 0);
        for cache in caches.filter(|c| c.holds_data && c.bytes > 0) {
            match cache.level {
                1 => l1d = Some(cache),
                2 => l2 = Some(cache.bytes),
                _ => {}
            }
            last = last.max(cache.bytes);
        }
        let l1d = l1d?;
        Some(CacheGeometry {
            line: if l1d.line == 0 { 64 } else { l1d.line },
            l1d: CacheLevel {
                bytes: l1d.bytes,
                ways: l1d.ways.max(1),
            },
            l2_bytes: l2?,
            last_level: Some(last),
        })
    }
}

/// One cache as the processor lists it.
#[derive(Clone, Copy, Debug)]
struct Listed {
    level: u32,
    holds_data: bool,
    bytes: usize,
    ways: usize,
    line: usize,
}

/// Greatest common divisor.
fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The caches `cpuid` lists: leaf 4 (deterministic cache parameters) where it lists any, else
/// leaf 0x8000_001D, of the same layout, where processors that leave leaf 4 empty list theirs.
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn detect() -> Option<CacheGeometry> {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    let leaf_entries = |leaf: u32| {
        // The highest leaf of the range must reach it, or the answer is another leaf's.
        let reaches = __cpuid(leaf & 0x8000_0000).eax >= leaf;
        (0..16)
            .map(move |sub| {
                let r = __cpuid_count(leaf, sub);
                [r.eax, r.ebx, r.ecx]
            })
            .take_while(move |[eax, _, _]| reaches && eax & 0x1f != 0)
            .map(|[eax, ebx, ecx]| cpuid_entry(eax, ebx, ecx))
    };
    CacheGeometry::from_listed(leaf_entries(4))
        .or_else(|| CacheGeometry::from_listed(leaf_entries(0x8000_001D)))
}

/// Elsewhere with `std`: the kernel's list of the first CPU's caches.
#[cfg(all(not(target_arch = "x86_64"), feature = "std", not(miri)))]
fn detect() -> Option<CacheGeometry> {
    extern crate std;
    let read = |index: usize, name: &str| {
        let path = std::format!("/sys/devices/system/cpu/cpu0/cache/index{index}/{name}");
        std::fs::read_to_string(path).ok()
    };
    let caches = (0..16).map_while(|index| {
        let text = |name| read(index, name);
        Some(sysfs_entry(
            &text("level")?,
            &text("type")?,
            &text("size")?,
            &text("ways_of_associativity").unwrap_or_default(),
            &text("coherency_line_size").unwrap_or_default(),
        ))
    });
    CacheGeometry::from_listed(caches)
}

/// Miri, and other architectures without `std`: nothing to read, no cache listed.
#[cfg(any(miri, not(any(target_arch = "x86_64", feature = "std"))))]
fn detect() -> Option<CacheGeometry> {
    CacheGeometry::from_listed(core::iter::empty())
}

/// A cache from the EAX, EBX and ECX of its `cpuid` leaf 4 (or 0x8000_001D) entry: type in
/// EAX bits 0-4 (1 data, 3 unified), level in bits 5-7; ways, partitions and line size in
/// EBX, sets in ECX, each stored as one less.
#[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
fn cpuid_entry(eax: u32, ebx: u32, ecx: u32) -> Listed {
    let ways = (ebx >> 22) as usize + 1;
    let partitions = ((ebx >> 12) & 0x3ff) as usize + 1;
    let line = (ebx & 0xfff) as usize + 1;
    let sets = ecx as usize + 1;
    Listed {
        level: (eax >> 5) & 0x7,
        holds_data: matches!(eax & 0x1f, 1 | 3),
        bytes: ways * partitions * line * sets,
        ways,
        line,
    }
}

/// A cache from the kernel's files for it: `level`, `type` (`Data`, `Unified`,
/// `Instruction`), `size` (`48K`, `2048K`, `32M`), `ways_of_associativity`,
/// `coherency_line_size` (the last two may be empty: unknown).
#[cfg_attr(
    any(not(feature = "std"), miri, target_arch = "x86_64"),
    allow(dead_code)
)]
fn sysfs_entry(level: &str, kind: &str, size: &str, ways: &str, line: &str) -> Listed {
    let size = size.trim();
    let (digits, unit) = size.split_at(
        size.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(size.len()),
    );
    let scale = match unit {
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => 1,
    };
    Listed {
        level: level.trim().parse().unwrap_or(0),
        holds_data: matches!(kind.trim(), "Data" | "Unified"),
        bytes: digits.parse::<usize>().unwrap_or(0).saturating_mul(scale),
        ways: ways.trim().parse().unwrap_or(8),
        line: line.trim().parse().unwrap_or(64),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A kibibyte, for cache sizes the tests describe.
    pub(crate) const KIB: usize = 1 << 10;
    /// A mebibyte, for cache sizes the tests describe.
    pub(crate) const MIB: usize = 1 << 20;

    /// `cpuid` leaf 4 of a 32 KiB 8-way L1d, a 1 MiB L2 and a 480 MiB L3, and an instruction
    /// cache, which does not count.
    #[test]
    fn cpuid_entries_are_decoded_as_the_processor_gives_them() {
        let l1 = cpuid_entry(1 | (1 << 5), (7 << 22) | 63, 63);
        let l2 = cpuid_entry(3 | (2 << 5), (7 << 22) | 63, 2047);
        let l3 = cpuid_entry(3 | (3 << 5), (15 << 22) | 63, 491_520 - 1);
        let l1i = cpuid_entry(2 | (1 << 5), (7 << 22) | 63, 63);
        assert_eq!((l1.level, l1.bytes, l1.ways, l1.line), (1, 32 * KIB, 8, 64));
        assert_eq!((l2.level, l2.bytes), (2, MIB));
        assert_eq!((l3.level, l3.bytes, l3.ways), (3, 480 * MIB, 16));
        assert!(!l1i.holds_data);
        let geometry = CacheGeometry::from_listed([l1i, l1, l2, l3].into_iter()).unwrap();
        // The default's caches (32 KiB 8-way L1d, 1 MiB L2, 64-byte lines).
        let want = CacheGeometry {
            last_level: Some(480 * MIB),
            ..CacheGeometry::DEFAULT
        };
        assert_eq!(geometry, want);
        // No L2 listed: no geometry (the default applies).
        assert_eq!(CacheGeometry::from_listed([l1].into_iter()), None);
    }

    /// The kernel's files of an aarch64 core with a 64 KiB 4-way L1d, 1 MiB L2 and 32 MiB L3.
    #[test]
    fn sysfs_entries_are_read_with_their_units() {
        let l1 = sysfs_entry("1\n", "Data\n", "64K\n", "4\n", "64\n");
        let l2 = sysfs_entry("2", "Unified", "1024K", "8", "64");
        let l3 = sysfs_entry("3", "Unified", "32M", "", "");
        let l1i = sysfs_entry("1", "Instruction", "64K", "4", "64");
        assert_eq!((l1.bytes, l1.ways, l1.holds_data), (64 * KIB, 4, true));
        assert_eq!((l3.bytes, l3.ways, l3.line), (32 * MIB, 8, 64));
        let geometry = CacheGeometry::from_listed([l1, l1i, l2, l3].into_iter()).unwrap();
        assert_eq!(geometry.l1_way_bytes(), 16 * KIB);
        assert_eq!(geometry.last_level, Some(32 * MIB));
    }

    /// Lines far apart crowd the sets their pitch steps through: f32 planes of 56 x 56 step
    /// through 16 sets, so 256 of them put 16 lines in a set; byte planes through all 64.
    #[test]
    fn lines_are_counted_per_set_by_their_pitch() {
        let g = CacheGeometry::DEFAULT;
        assert_eq!(g.l1_way_bytes(), 4 * KIB);
        assert_eq!(g.lines_per_l1_set(12_544, 256), 16);
        assert_eq!(g.lines_per_l1_set(3_136, 256), 4);
        assert_eq!(g.lines_per_l1_set(4 * KIB, 16), 16);
        assert_eq!(g.lines_per_l1_set(8 * KIB, 16), 16);
        assert_eq!(g.lines_per_l1_set(512, 16), 2);
        // Lines nearer than a line apart share sets with their neighbours.
        assert_eq!(g.lines_per_l1_set(16, 64), 1);
        assert_eq!(g.lines_per_l1_set(64, 64), 1);
        assert_eq!(g.lines_per_l1_set(64, 65), 2);
    }

    /// This machine's geometry is found once and kept, sizes nonzero (under Miri: the default).
    #[test]
    fn the_geometry_found_is_kept() {
        let first = CacheGeometry::of_this_machine();
        assert_eq!(CacheGeometry::of_this_machine(), first);
        assert!(first.line > 0 && first.l1d.bytes > 0 && first.l2_bytes > 0);
        if cfg!(miri) {
            assert_eq!(first, CacheGeometry::DEFAULT);
        }
    }
}

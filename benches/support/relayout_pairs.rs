//! The layout pairs the relayout benchmarks measure (docs/performance.md's table), shared by
//! `benches/relayout.rs` (criterion) and `benches/relayout_interleaved.rs` (alternating calls),
//! with the thread pools and the 2-thread memcpy both time.

use half::f16;
// The bound on conversions by name, as the including crate names it: the library's own, or in
// the A/B driver, a stand-in where the commit under test predates it.
use super::RelayoutFrom;
// What the library stores one per slot (`tensor_layout::tensors::Element`), as the including crate names
// it: the library's own, or in the A/B driver, a stand-in where the commit under test predates it.
use super::TensorElement;
use tensor_layout::prelude::*;

/// A value per element that is not a constant (so no copy can be folded away), and its bits
/// (every byte of the element: two destinations compare byte for byte through them).
pub trait Element: TensorElement + Copy + Default + Send + Sync + 'static {
    fn of(i: usize) -> Self;
    fn bits(self) -> u64;
}
impl Element for f32 {
    fn of(i: usize) -> Self {
        i as f32
    }
    fn bits(self) -> u64 {
        self.to_bits().into()
    }
}
impl Element for f16 {
    fn of(i: usize) -> Self {
        f16::from_f32((i % 2048) as f32)
    }
    fn bits(self) -> u64 {
        self.to_bits().into()
    }
}
impl Element for u8 {
    fn of(i: usize) -> Self {
        i as u8
    }
    fn bits(self) -> u64 {
        self.into()
    }
}

/// A benchmark of one pair: `A -> B` on `dims`, named `name`; `naive` asks for the per-element
/// loop too (two pairs have it, to show the gain).
pub trait Measure {
    fn pair<T: Element, A, B>(&mut self, name: &str, dims: [usize; 4], naive: bool)
    where
        A: Layout<Index = [usize; 4]> + Default + PartialEq,
        B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default + PartialEq;
}

/// Runs `m` over every benchmarked pair, in the table's order.
pub fn each_pair(m: &mut impl Measure) {
    let act = [8, 256, 56, 56];
    m.pair::<f32, onednn::nchw, onednn::nhwc>("f32 8x256x56x56 nchw->nhwc", act, true);
    m.pair::<f32, onednn::nhwc, onednn::nchw>("f32 8x256x56x56 nhwc->nchw", act, false);
    m.pair::<f32, onednn::nchw, onednn::nChw16c>("f32 8x256x56x56 nchw->nChw16c", act, false);
    m.pair::<f32, onednn::nChw16c, onednn::nchw>("f32 8x256x56x56 nChw16c->nchw", act, false);
    m.pair::<f32, onednn::nhwc, onednn::nChw16c>("f32 8x256x56x56 nhwc->nChw16c", act, false);
    m.pair::<f32, onednn::nChw8c, onednn::nChw16c>("f32 8x256x56x56 nChw8c->nChw16c", act, false);
    let weights = [512, 512, 3, 3];
    m.pair::<f32, onednn::oihw, onednn::OIhw16i16o>(
        "f32 512x512x3x3 oihw->OIhw16i16o",
        weights,
        false,
    );
    m.pair::<f16, onednn::nchw, onednn::nChw16c>("f16 8x256x56x56 nchw->nChw16c", act, false);
    m.pair::<u8, onednn::nchw, onednn::nhwc>("u8 8x256x56x56 nchw->nhwc", act, false);
    m.pair::<u8, onednn::nhwc, onednn::nchw>("u8 8x256x56x56 nhwc->nchw", act, false);
    // One image (3.2 MB each side): the transposes written through the cache on every machine
    // (under the 4 MiB from which the smallest-cache machines stream).
    let image = [1, 256, 56, 56];
    m.pair::<f32, onednn::nchw, onednn::nhwc>("f32 1x256x56x56 nchw->nhwc", image, false);
    m.pair::<f32, onednn::nhwc, onednn::nchw>("f32 1x256x56x56 nhwc->nchw", image, false);
    // The same bytes of u8 (four images), through the cache too.
    let images = [4, 256, 56, 56];
    m.pair::<u8, onednn::nchw, onednn::nhwc>("u8 4x256x56x56 nchw->nhwc (in cache)", images, false);
    m.pair::<u8, onednn::nhwc, onednn::nchw>("u8 4x256x56x56 nhwc->nchw (in cache)", images, false);
    // And of f16 (two images): half-precision activations between NCHW and NHWC.
    let halves = [2, 256, 56, 56];
    m.pair::<f16, onednn::nchw, onednn::nhwc>(
        "f16 2x256x56x56 nchw->nhwc (in cache)",
        halves,
        false,
    );
    m.pair::<f16, onednn::nhwc, onednn::nchw>(
        "f16 2x256x56x56 nhwc->nchw (in cache)",
        halves,
        false,
    );
    let nhwc = [1, 64, 64, 256];
    let (flat, crouton) = (
        "u8 1x64x64x256 flat->crouton",
        "u8 1x64x64x256 crouton->flat",
    );
    m.pair::<u8, htp::R4FlatMemoryLayout, htp::R4CroutonLayout>(flat, nhwc, true);
    m.pair::<u8, htp::R4CroutonLayout, htp::R4FlatMemoryLayout>(crouton, nhwc, false);
    let flat_2x2 = "u8 1x64x64x256 flat->crouton2x2";
    m.pair::<u8, htp::R4FlatMemoryLayout, htp::R4Crouton2x2Layout>(flat_2x2, nhwc, false);
    // Across systems, by axis name: HTP's NHWC croutons into oneDNN's NCHW 32-channel blocks
    // (the same bytes move as crouton->flat; the permutation is folded into the plan).
    let to_onednn = "u8 1x64x64x256 crouton->nChw32c";
    m.pair::<u8, htp::R4CroutonLayout, onednn::nChw32c>(to_onednn, nhwc, false);
    // The same pairs on a batch larger than the caches (16 MiB each side), where memcpy runs
    // at memory speed as it does for the pairs above it; the 1 MiB ones compare with a memcpy
    // inside the L2 and L3 (docs/performance.md).
    let large = [4, 128, 128, 256];
    let (flat, crouton, flat_2x2) = (
        "u8 4x128x128x256 flat->crouton",
        "u8 4x128x128x256 crouton->flat",
        "u8 4x128x128x256 flat->crouton2x2",
    );
    m.pair::<u8, htp::R4FlatMemoryLayout, htp::R4CroutonLayout>(flat, large, false);
    m.pair::<u8, htp::R4CroutonLayout, htp::R4FlatMemoryLayout>(crouton, large, false);
    m.pair::<u8, htp::R4FlatMemoryLayout, htp::R4Crouton2x2Layout>(flat_2x2, large, false);
    // Back from the 2x2 crouton: each channel's 2 x 2 positions together in the source, so
    // tiles of four rows (fewer than a block).
    let from_2x2 = "u8 4x128x128x256 crouton2x2->flat";
    m.pair::<u8, htp::R4Crouton2x2Layout, htp::R4FlatMemoryLayout>(from_2x2, large, false);
    let to_onednn = "u8 4x128x128x256 crouton->nChw32c";
    m.pair::<u8, htp::R4CroutonLayout, onednn::nChw32c>(to_onednn, large, false);
    // Odd shapes of the plain transposes, each about the size of the round 8x256x56x56 (19 to
    // 27 MB a side, past the caches as it is): few channels (C = 3, an RGB input; C = 17), one
    // short of a block (C = 255), W = 1, and H * W not a multiple of 8 (55 x 55; with C = 17,
    // 230 x 230, whose planes do not lie a multiple of 4 KiB apart as 224 x 224's do, nor on
    // the line grid; 228 x 228's do, but a quarter plane does not), and C = 24 (MobileNet's
    // narrow layers: 8 channels past a block of 16).
    for (dims, name) in [
        ([32, 3, 224, 224], "32x3x224x224"),
        ([32, 24, 112, 112], "32x24x112x112"),
        ([8, 17, 224, 224], "8x17x224x224"),
        ([8, 17, 228, 228], "8x17x228x228"),
        ([8, 17, 230, 230], "8x17x230x230"),
        ([8, 255, 56, 56], "8x255x56x56"),
        ([8, 256, 3136, 1], "8x256x3136x1"),
        ([8, 256, 55, 55], "8x256x55x55"),
    ] {
        let (there, back) = (
            format!("f32 {name} nchw->nhwc (odd)"),
            format!("f32 {name} nhwc->nchw (odd)"),
        );
        m.pair::<f32, onednn::nchw, onednn::nhwc>(&there, dims, false);
        m.pair::<f32, onednn::nhwc, onednn::nchw>(&back, dims, false);
    }
    // Lines a power-of-two number of bytes apart, which crowd a few cache sets:
    // 1024 channels of NHWC (4 KiB rows of f32), planes of 32 x 32 positions (4 KiB of f32,
    // 1 KiB of u8).
    let pow2 = "f32 8x1024x32x32 nchw->nhwc (pitch 4 KiB)";
    m.pair::<f32, onednn::nchw, onednn::nhwc>(pow2, [8, 1024, 32, 32], false);
    let pow2 = "f32 8x256x32x32 nhwc->nchw (pitch 4 KiB)";
    m.pair::<f32, onednn::nhwc, onednn::nchw>(pow2, [8, 256, 32, 32], false);
    let pow2 = "u8 8x256x32x32 nhwc->nchw (pitch 1 KiB)";
    m.pair::<u8, onednn::nhwc, onednn::nchw>(pow2, [8, 256, 32, 32], false);
    // Source columns (NCHW planes of 64 x 64 bytes) 4 KiB apart, through the caches and past
    // them.
    let pow2 = "u8 2x256x64x64 nchw->nhwc (pitch 4 KiB)";
    m.pair::<u8, onednn::nchw, onednn::nhwc>(pow2, [2, 256, 64, 64], false);
    let pow2 = "u8 8x256x64x64 nchw->nhwc (pitch 4 KiB)";
    m.pair::<u8, onednn::nchw, onednn::nhwc>(pow2, [8, 256, 64, 64], false);
    // An RGB image batch of bytes, as a decoder hands it over, into NHWC and back.
    let rgb = [32, 3, 224, 224];
    m.pair::<u8, onednn::nchw, onednn::nhwc>("u8 32x3x224x224 nchw->nhwc (RGB)", rgb, false);
    m.pair::<u8, onednn::nhwc, onednn::nchw>("u8 32x3x224x224 nhwc->nchw (RGB)", rgb, false);
    // RGBA into NHWC and back (tiles of four columns and of four rows), and 8 channels (tiles
    // of eight rows, fewer than a block).
    let rgba = "u8 32x4x224x224 nchw->nhwc (RGBA)";
    m.pair::<u8, onednn::nchw, onednn::nhwc>(rgba, [32, 4, 224, 224], false);
    let rgba = "u8 32x4x224x224 nhwc->nchw (RGBA)";
    m.pair::<u8, onednn::nhwc, onednn::nchw>(rgba, [32, 4, 224, 224], false);
    let eight = "f32 8x8x224x224 nhwc->nchw (8 channels)";
    m.pair::<f32, onednn::nhwc, onednn::nchw>(eight, [8, 8, 224, 224], false);
    // A tile narrower than two blocks: 7 x 7 positions, 49 bytes of u8 per destination row.
    let late = "u8 32x2048x7x7 nhwc->nchw (7x7)";
    m.pair::<u8, onednn::nhwc, onednn::nchw>(late, [32, 2048, 7, 7], false);
    let tiny = "u8 1x3x5x30 flat->crouton (tiny)";
    m.pair::<u8, htp::R4FlatMemoryLayout, htp::R4CroutonLayout>(tiny, [1, 3, 5, 30], true);
}

/// A pool of `threads` threads, for the library's relayout (and the 2-thread memcpy).
pub fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Runs `f` on one thread: inside `one` (a 1-thread pool) where the library is built with
/// `parallel`, so that the relayout does not split across the global pool, and on the calling
/// thread otherwise (the library then never hands work to rayon). A pool's worker keeps
/// running for a while after each job, and on this machine's two vCPUs whatever runs on the
/// other one slows a relayout by up to a third (docs/performance.md, "Two machines"), so the
/// plain build measures without a pool.
pub fn on_one_thread<R: Send>(one: &rayon::ThreadPool, f: impl FnOnce() -> R + Send) -> R {
    if cfg!(feature = "parallel") {
        one.install(f)
    } else {
        f()
    }
}

/// Runs `f` inside `two` (a 2-thread pool) once both its threads are awake: a pool's idle
/// thread falls asleep soon after its last job, and waking it takes microseconds that would
/// land in whichever contender ran first after a pause (memcpy on two threads ran right after
/// the relayout, on threads still awake from it). Both contenders start alike so; a
/// relayout called on a cold pool pays that wake-up once more.
pub fn on_two_threads<R: Send>(two: &rayon::ThreadPool, f: impl FnOnce() -> R + Send) -> R {
    two.install(|| {
        rayon::broadcast(|_| ());
        f()
    })
}

/// memcpy on two threads of the current pool: each copies one half.
pub fn copy_halves(from: &[u8], into: &mut [u8]) {
    let half = from.len() / 2;
    let (from_low, from_high) = std::hint::black_box(from).split_at(half);
    let (into_low, into_high) = std::hint::black_box(into).split_at_mut(half);
    rayon::join(
        || into_low.copy_from_slice(from_low),
        || into_high.copy_from_slice(from_high),
    );
}

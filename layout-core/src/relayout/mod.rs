//! Relayout: copying a tensor's logical elements into another layout, at memory speed
//! (docs/relayout.md describes each layer). A relayout is planned once per call ([`plan`]) and
//! walked ([`schedule`]) writing the destination's padding in the same pass, so every slot is
//! written exactly once; [`kernels`] run the innermost loops: row copies, cache-blocked tiles,
//! or a strided loop. The engine is compiled once per element size ([`by_size`]); every tuned
//! number is in [`tuning`].

mod by_size;
mod cache_geometry;
mod choices;
mod chunk_table;
mod kernels;
mod lines;
mod plan;
mod schedule;
#[cfg(x86_kernels)]
mod stores;
#[cfg(test)]
pub(crate) mod test_layouts;
mod tuning;

use crate::{Layout, Mapping, mappings::Coords};
pub(crate) use cache_geometry::CacheGeometry;
pub(crate) use choices::Choices;
pub(crate) use chunk_table::{TableMove, copy_table};
use core::mem::MaybeUninit;
pub(crate) use plan::Pair;
use plan::Point;
pub(crate) use plan::Renumbering;
#[cfg(test)]
use plan::SAME_ORDER;
pub(crate) use schedule::{Description, Job, KernelKind, Planned, Streaming};

/// Writes every logical element of `src_slots` (laid out by `src`) into `dst_slots` (laid out by
/// `dst`), element `x` at the destination index whose dimension `to[d]` is `x[d]`, and `pad`
/// into every padding slot of `dst`. The slots may be memory without values yet
/// (`MaybeUninit<T>`): when [`Layout::gaps_are_padding`], every slot holds a value afterwards.
/// The layouts become numbers here ([`Pair`]), so that what follows is compiled once per element
/// size ([`by_size`]), not once per layout pair in the caller's crate.
pub(crate) fn copy_into<T, S, L1, L2>(
    src: &Mapping<L1>,
    src_slots: &[T],
    dst: &Mapping<L2>,
    dst_slots: &mut [S],
    pad: T,
    to: &Renumbering,
) where
    S: Slot<T>,
    T: Copy + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index>,
{
    copy_streaming(src, src_slots, dst, S::values(dst_slots), pad, to, None);
}

/// A slot of a destination: a value of `T`, or memory for one (`MaybeUninit<T>`).
pub(crate) trait Slot<T> {
    /// The slots as values of `T`, for the engine to write.
    fn values(slots: &mut [Self]) -> &mut [T]
    where
        Self: Sized;
}

impl<T> Slot<T> for T {
    fn values(slots: &mut [T]) -> &mut [T] {
        slots
    }
}

impl<T> Slot<T> for MaybeUninit<T> {
    fn values(slots: &mut [Self]) -> &mut [T] {
        // SAFETY: `MaybeUninit<T>` has `T`'s size and alignment: the same memory, exclusively
        // borrowed. Slots without a value are never read: the engine only writes whole values,
        // never a load, blend and store back (Miri checks the relayouts into new memory).
        unsafe { &mut *(core::ptr::from_mut(slots) as *mut [T]) }
    }
}

/// [`copy_into`] with `streaming` overriding the choice of stores past the caches.
fn copy_streaming<T, L1, L2>(
    src: &Mapping<L1>,
    src_slots: &[T],
    dst: &Mapping<L2>,
    dst_slots: &mut [T],
    pad: T,
    to: &Renumbering,
    streaming: Option<Streaming>,
) where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index>,
{
    debug_assert!(
        (0..<L1::Index as Coords>::RANK).all(|d| src.dims()[d] == dst.dims()[to[d]]),
        "dims agree under the renumbering"
    );
    let pair = Pair::of(src, dst, to);
    let choices = Choices::of_this_machine();
    let job = Job::Fresh {
        pair: &pair,
        streaming,
        choices: &choices,
    };
    run_planned(job, src, src_slots, dst, dst_slots, pad, to);
}

/// The choices a plan is made with: the machine's, and any override of the streaming.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlanChoices {
    pub choices: Choices,
    pub streaming: Option<Streaming>,
}

impl PlanChoices {
    /// The cache model's choices for this machine.
    pub(crate) fn model() -> PlanChoices {
        PlanChoices {
            choices: Choices::of_this_machine(),
            streaming: None,
        }
    }
}

/// Runs `job` (a [`Job::Planned`] is [`Planned::new`] of [`Pair::of`] these mappings) from
/// `src_slots` into `dst_slots`, `pad` into every padding slot.
pub(crate) fn run_planned<T, L1, L2>(
    job: Job<'_>,
    src: &Mapping<L1>,
    src_slots: &[T],
    dst: &Mapping<L2>,
    dst_slots: &mut [T],
    pad: T,
    to: &Renumbering,
) where
    T: Copy + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index>,
{
    // The source offset of each point of `dst`'s walk, for plans that cannot follow by additions.
    let dst_origin = dst.origin();
    let offsets = |p: &Point| {
        let mut index = L1::Index::splat(0);
        for d in 0..<L1::Index as Coords>::RANK {
            index[d] = p[to[d]] - dst_origin[to[d]];
        }
        src.offset(index)
    };
    by_size::copy(job, src_slots, dst_slots, pad, &offsets);
}

#[cfg(test)]
mod tests {
    use super::test_layouts::{Flat, NChw8c, NChw16c, Nchw, Nhwc, OIhw16i16o, Oihw};
    use super::test_layouts::{FourDims, line_start, under_miri};
    use super::*;
    use alloc::vec::Vec;

    /// Croutons of 4x4x32 cut again into 2x2 pixel blocks: one-line blocks of bytes.
    type Crouton2x2 = crate::chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2];

    /// Relayouts `A` -> `B` with every kernel streaming and with none, against the definition:
    /// each element lands at its destination offset, every other slot holds the pad. Each runs
    /// into slots filled beforehand and into new memory, `misalign` elements past a 64-byte line.
    fn check<T, A: FourDims, B: FourDims>(dims: [usize; 4], misalign: usize, of: fn(u32) -> T)
    where
        T: Copy + Send + Sync + PartialEq + core::fmt::Debug + 'static,
    {
        let src = Mapping::<A>::new(dims).unwrap();
        let dst = Mapping::<B>::new(dims).unwrap();
        let src_slots: Vec<T> = (0..src.storage_len()).map(|i| of(i as u32 + 1)).collect();
        let (pad, len) = (of(0), dst.storage_len());
        let mut want = alloc::vec![pad; len];
        crate::mappings::for_each_row_major_index(&dims, |_, i| {
            let i: [usize; 4] = i.try_into().unwrap();
            want[dst.offset(i)] = src_slots[src.offset(i)];
        });
        // The relayout into `slots`, read back.
        let relayout = |slots: &mut [MaybeUninit<T>], mode| {
            let (values, to) = (Slot::values(slots), &SAME_ORDER);
            copy_streaming(&src, &src_slots, &dst, values, pad, to, Some(mode));
            // SAFETY: the relayout wrote every slot (what this checks: under Miri, reading a
            // slot it missed is an error).
            Vec::from_iter(slots.iter().map(|s| unsafe { s.assume_init() }))
        };
        // Under Miri, streaming forced on only, into new memory only: the other tests run every
        // kernel unstreamed, and Miri checks in new memory that every slot is written.
        let runs = if cfg!(miri) { 1 } else { 2 };
        for mode in [Streaming::ALL, Streaming::NONE].into_iter().take(runs) {
            for filled in [false, true].into_iter().take(runs) {
                let slot = filled.then(|| of(0xBEEF));
                let slot = slot.map_or(MaybeUninit::uninit(), MaybeUninit::new);
                let mut slots = alloc::vec![slot; len + 64 + misalign];
                let start = line_start(&slots, misalign);
                let got = relayout(&mut slots[start..start + len], mode);
                assert_eq!(got, want, "{dims:?} {mode:?} +{misalign}, filled: {filled}");
            }
        }
    }

    /// Every kernel that streams, on shapes small enough for Miri: whole-line and paired rows,
    /// whole-line blocks of each element size (also in bands and in groups of column blocks),
    /// one-block tiles, sequential lines, one-line blocks and narrow tiles' pieces; odd shapes
    /// leave partial blocks and padding.
    #[test]
    fn streamed_relayouts_equal_the_definition() {
        check::<f32, Nhwc, NChw16c>([1, 32, 3, 5], 0, |v| v as f32);
        check::<f32, NChw8c, NChw16c>([1, 40, 3, 4], 0, |v| v as f32);
        check::<f32, NChw16c, NChw8c>([1, 32, 2, 4], 0, |v| v as f32);
        check::<f32, Nchw, Nhwc>([1, 32, 4, 9], 0, |v| v as f32);
        if !cfg!(miri) {
            // 620 positions: the blocks above in bands of 400 and the rest, too long for Miri.
            check::<f32, Nchw, Nhwc>([1, 40, 20, 31], 0, |v| v as f32);
        }
        check::<u32, Nhwc, Nchw>([1, 33, 4, 8], 0, |v| v);
        // 54 positions: a group of two column blocks per visit, then one and a partial one.
        check::<f32, Nhwc, Nchw>([1, 40, 6, 9], 0, |v| v as f32);
        check::<u16, Nchw, Nhwc>([1, 32, 4, 8], 0, |v| v as u16);
        check::<u8, Nchw, Nhwc>([1, 64, 8, 8], 0, |v| v as u8);
        check::<u32, NChw16c, Nchw>([1, 32, 4, 8], 0, |v| v);
        check::<u16, Nchw, NChw16c>([1, 32, 4, 9], 0, |v| v as u16);
        check::<f32, Oihw, OIhw16i16o>([32, 17, 1, 2], 0, |v| v as f32);
        check::<u8, Flat, Crouton2x2>([1, 8, 8, 40], 0, |v| v as u8);
        // Narrow tiles (1-3 planes zipped or split), their pieces streamed where whole lines.
        check::<f32, Nchw, Nhwc>([2, 3, 5, 37], 0, |v| v as f32);
        check::<f32, Nhwc, Nchw>([2, 3, 5, 37], 0, |v| v as f32);
        check::<u32, Nchw, Nhwc>([1, 2, 4, 20], 0, |v| v);
        check::<u32, Nhwc, Nchw>([1, 1, 3, 33], 0, |v| v);
        check::<u8, Nchw, Nhwc>([1, 3, 4, 40], 0, |v| v as u8);
        // Four planes zipped (RGBA): streamed f32, and bytes.
        check::<f32, Nchw, Nhwc>([2, 4, 5, 37], 0, |v| v as f32);
        check::<u8, Nchw, Nhwc>([1, 4, 4, 40], 0, |v| v as u8);
        // Rows of three bytes split into planes (VBMI where present): two steps and a tail.
        check::<u8, Nhwc, Nchw>([2, 3, 5, 37], 0, |v| v as u8);
        // Rows back to back off the line grid, staged: 17 f32 channels (the last column
        // element by element), 29 (the last columns as a block overlapping the one before);
        // u8 and u16 rows of 17 and 7 columns.
        check::<f32, Nchw, Nhwc>([2, 17, 5, 7], 0, |v| v as f32);
        check::<f32, Nchw, Nhwc>([1, 29, 4, 9], 0, |v| v as f32);
        check::<u8, Nchw, Nhwc>([1, 17, 8, 9], 0, |v| v as u8);
        check::<u16, Nchw, Nhwc>([1, 7, 8, 9], 0, |v| v as u16);
    }

    /// Channels in and out of the last place on odd shapes (rows off the line grid, images one
    /// pixel wide), and into 16-channel blocks, for each element size with vector blocks, into
    /// destinations on a line and one element past it.
    #[test]
    fn odd_shapes_on_and_off_the_line_equal_the_definition() {
        fn each_shape<T>(of: fn(u32) -> T)
        where
            T: Copy + Send + Sync + PartialEq + core::fmt::Debug + 'static,
        {
            // Under Miri, 17 channels one pixel wide only: the 255-channel shapes take minutes.
            let shapes = [[2, 3, 5, 7], [1, 17, 9, 1], [2, 17, 6, 5]];
            let wide = [[1, 255, 7, 1], [1, 255, 3, 11], [1, 255, 1, 3]];
            for dims in under_miri(&[shapes, wide].concat(), &[1]) {
                for misalign in [0, 1] {
                    check::<T, Nchw, Nhwc>(dims, misalign, of);
                    check::<T, Nhwc, Nchw>(dims, misalign, of);
                    check::<T, Nchw, NChw16c>(dims, misalign, of);
                }
            }
        }
        each_shape::<f32>(|v| v as f32);
        each_shape::<half::f16>(|v| half::f16::from_bits(v as u16));
        each_shape::<u8>(|v| (v * 13) as u8);
    }

    /// A 4-byte type with three padding bytes: moved as `MaybeUninit<u32>`, its padding
    /// copied as it is (Miri checks that no uninitialised byte is read as a value).
    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(C, align(4))]
    struct Padded(u8);

    /// Element types that are not plain numbers take the engine of their size (`MaybeUninit`
    /// units), or, of another size or alignment, one of their own (`Opaque`); both move every
    /// element and fill the padding like the plain ones.
    #[test]
    fn every_element_type_takes_an_engine_of_its_size() {
        check::<Padded, Nchw, Nhwc>([1, 20, 3, 5], 0, |v| Padded(v as u8));
        check::<Padded, Nhwc, NChw16c>([1, 20, 3, 2], 0, |v| Padded(v as u8));
        check::<(u8, u16), Nchw, NChw8c>([1, 9, 2, 3], 0, |v| (v as u8, v as u16));
        check::<[u8; 3], NChw16c, Nhwc>([1, 17, 2, 3], 0, |v| [v as u8, 1, 2]);
        check::<(u64, u64), Oihw, OIhw16i16o>([17, 3, 1, 2], 0, |v| (u64::from(v), 7));
        check::<bool, Flat, Crouton2x2>([1, 3, 5, 33], 0, |v| v % 3 == 0);
    }
}

//! The relayout engine against the plainest possible relayout: for every destination slot, look
//! up which logical index it holds (`index_of`) and read that index from the source through its
//! `offset`; padding gets the pad value, slots outside a view stay untouched. Covers every
//! benchmarked pair (on small, odd shapes), random pairs of catalog layouts, random pairs of
//! chunk lists, and strided views on either side.

mod common;
use common::{chunk_list, chunk_list_of_rank, storage_slots};
use half::f16;
use proptest::prelude::*;
use tensor_layout::prelude::*;
use tensor_layout::{
    DynLayout, axes::RelayoutFrom, dynamic::DynChunked, layouts::ChunkEntry, registry,
    tensors::Element,
};

/// Source slots: distinct values for elements, `poison` in padding (a relayout must not read it).
fn numbered<L: Layout>(mapping: &Mapping<L>, poison: u32) -> Vec<u32> {
    (0..mapping.storage_len() as u32)
        .map(|slot| match mapping.index_of(slot as usize) {
            Some(_) => slot + 1,
            None => poison,
        })
        .collect()
}

/// For each source dimension, the destination dimension of the same name.
fn renumbering<A: Layout, B: Layout>(src: &A, dst: &B) -> Vec<usize> {
    let (from, to) = (src.axis_word(), dst.axis_word());
    (0..from.rank())
        .map(|d| to.position_of(from.letter(d)).expect("the same names"))
        .collect()
}

/// The source's `dims` in the destination's axis order.
fn dims_by_name<A: Layout, B: Layout<Index = A::Index>>(
    src: &A,
    dst: &B,
    dims: A::Index,
) -> A::Index {
    let mut out = dims;
    for (d, &at) in renumbering(src, dst).iter().enumerate() {
        out[at] = dims[d];
    }
    out
}

/// What the destination must hold after the relayout (see the module docs).
fn expected<T: Element, L1: Layout, L2: Layout<Index = L1::Index> + RelayoutFrom<L1>>(
    src: &Mapping<L1>,
    src_slots: &[T],
    dst: &Mapping<L2>,
    before: &[T],
    pad: T,
) -> Vec<T> {
    let to = renumbering(src.layout(), dst.layout());
    (0..before.len())
        .map(|slot| match dst.index_of(slot) {
            Some(at) => {
                let mut index = at;
                for (d, &t) in to.iter().enumerate() {
                    index[d] = at[t];
                }
                src_slots[src.offset(index)]
            }
            None if dst.layout().gaps_are_padding() && slot < dst.storage_len() => pad,
            None => before[slot],
        })
        .collect()
}

/// Runs the engine from `src_slots` into `before` (the destination's prior contents).
fn engine<
    T: Element + Default + Send + Sync + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index> + RelayoutFrom<L1>,
>(
    src: Mapping<L1>,
    src_slots: &[T],
    dst: Mapping<L2>,
    before: &[T],
) -> Vec<T> {
    let mut out = before.to_vec();
    let view = TensorView::from_slice(src, src_slots).unwrap();
    view.relayout_into(&mut TensorViewMut::from_slice(dst, &mut out).unwrap())
        .unwrap();
    out
}

fn check_mappings<L1: Layout, L2: Layout<Index = L1::Index> + RelayoutFrom<L1>>(
    src: Mapping<L1>,
    dst: Mapping<L2>,
) {
    check_mappings_as(src, dst, |v| v);
}

/// [`check_mappings`] with elements of type `T` (`of` turns the numbering into `T`).
fn check_mappings_as<T, L1, L2>(src: Mapping<L1>, dst: Mapping<L2>, of: fn(u32) -> T)
where
    T: Element + Default + Send + Sync + PartialEq + std::fmt::Debug + 'static,
    L1: Layout,
    L2: Layout<Index = L1::Index> + RelayoutFrom<L1>,
{
    let src_slots: Vec<T> = numbered(&src, 0xDEAD).into_iter().map(of).collect();
    let before = vec![of(0xBEEF); dst.storage_len()];
    let got = engine(src, &src_slots, dst, &before);
    let want = expected(&src, &src_slots, &dst, &before, T::default());
    assert_eq!(
        got,
        want,
        "{} -> {} on {:?}",
        src.layout(),
        dst.layout(),
        src.dims()
    );
}

fn check_typed<A, B>(dims: [usize; 4])
where
    A: Layout<Index = [usize; 4]> + Default,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    let dst_dims = dims_by_name(&A::default(), &B::default(), dims);
    check_mappings(
        Mapping::<A>::new(dims).unwrap(),
        Mapping::<B>::new(dst_dims).unwrap(),
    );
}

const SHAPES: [[usize; 4]; 8] = [
    [1, 1, 1, 1],
    [2, 16, 16, 64], // no padding anywhere: whole tiles, loops moved around the tile rows
    [2, 3, 5, 7],
    [3, 37, 5, 7],
    [2, 16, 9, 9],
    [1, 33, 1, 31],
    [2, 64, 3, 3],
    [1, 19, 17, 70],
];

#[test]
fn every_benchmarked_pair_equals_the_plain_relayout() {
    for dims in SHAPES {
        check_typed::<onednn::nchw, onednn::nhwc>(dims);
        check_typed::<onednn::nhwc, onednn::nchw>(dims);
        check_typed::<onednn::nchw, onednn::nChw16c>(dims);
        check_typed::<onednn::nChw16c, onednn::nchw>(dims);
        check_typed::<onednn::nhwc, onednn::nChw16c>(dims);
        check_typed::<onednn::nChw8c, onednn::nChw16c>(dims);
        check_typed::<onednn::oihw, onednn::OIhw16i16o>(dims);
        check_typed::<htp::R4FlatMemoryLayout, htp::R4CroutonLayout>(dims);
        check_typed::<htp::R4CroutonLayout, htp::R4FlatMemoryLayout>(dims);
        check_typed::<htp::R4FlatMemoryLayout, htp::R4Crouton2x2Layout>(dims);
    }
}

/// Every element width through every transpose shape the kernels have (full tiles of 32, 16,
/// 8 and 4 columns, partial edges), against `u32` through the same pair.
fn every_width_alike<A, B>(dims: [usize; 4])
where
    A: Layout<Index = [usize; 4]> + Default,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    let reference = Tensor::<u32, A>::from_fn(dims, |[n, c, h, w]| {
        (n * 4000 + c * 150 + h * 10 + w) as u32
    });
    let want = reference.relayout::<B>().to_row_major();
    macro_rules! same_for {
        ($($t:ty => $from:expr),* $(,)?) => {$({
            let t = Tensor::<$t, A>::from_fn(dims, |i| $from(reference[i]));
            let got = t.relayout::<B>();
            let expect: Vec<$t> = want.iter().map(|&v| $from(v)).collect();
            assert_eq!(got.to_row_major(), expect, "{} {dims:?}", stringify!($t));
            let padding_zero = |slots: &[$t]| slots.iter().all(|&v| v == $from(0));
            got.mapping().for_each_padding(|range| assert!(padding_zero(&got.as_raw()[range])));
        })*};
    }
    same_for!(
        u8 => |v: u32| v as u8, i8 => |v: u32| v as i8, u16 => |v: u32| v as u16,
        i16 => |v: u32| v as i16, i32 => |v: u32| v as i32, f32 => |v: u32| v as f32,
        f64 => |v: u32| v as f64, f16 => |v: u32| f16::from_f32(v as f32),
        half::bf16 => |v: u32| half::bf16::from_f32(v as f32),
        (u8, u16) => |v: u32| (v as u8, v as u16),
    );
}

#[test]
fn element_types_of_every_width_relayout_alike() {
    for dims in [[2, 21, 5, 6], [1, 12, 5, 7], [1, 40, 9, 9], [1, 70, 3, 33]] {
        every_width_alike::<onednn::nchw, onednn::nChw16c>(dims);
        every_width_alike::<onednn::nChw16c, onednn::nchw>(dims);
        every_width_alike::<onednn::nchw, onednn::nhwc>(dims);
        every_width_alike::<onednn::nhwc, onednn::nchw>(dims);
        every_width_alike::<onednn::oihw, onednn::OIhw16i16o>(dims);
    }
    for dims in [[1, 16, 16, 64], [1, 9, 14, 40]] {
        every_width_alike::<htp::R4FlatMemoryLayout, htp::R4Crouton2x2Layout>(dims);
        every_width_alike::<htp::R4Crouton2x2Layout, htp::R4FlatMemoryLayout>(dims);
    }
}

/// NCHW -> NHWC and back on `dims`, against the element-by-element relayout and in every
/// element width.
fn plain_transposes_alike(dims: [usize; 4]) {
    check_typed::<onednn::nchw, onednn::nhwc>(dims);
    check_typed::<onednn::nhwc, onednn::nchw>(dims);
    every_width_alike::<onednn::nchw, onednn::nhwc>(dims);
    every_width_alike::<onednn::nhwc, onednn::nchw>(dims);
}

/// Tiles one to three channels wide (RGB images: planes interleaved into rows of three, and
/// split out again), with runs of positions longer than one tile may list: split in two
/// (130 x 130 = 2 x 8450 positions; 131 x 131 = 131 x 131), or not at all (16411 is prime);
/// and 17 or 3 channels of 3 x 5776 = 17328 positions, whose run through NCHW parts on whole
/// lines of 4-byte elements (3 x 5776), not in two (2 x 8664).
#[test]
fn narrow_tiles_and_long_runs_relayout_alike() {
    for dims in [
        [1, 17, 3, 5776],
        [1, 3, 3, 5776],
        [1, 3, 130, 130],
        [2, 2, 131, 131],
        [1, 3, 1, 16411],
        [3, 1, 7, 9],
        [2, 3, 5, 37],
        [1, 2, 16, 16],
    ] {
        plain_transposes_alike(dims);
    }
}

/// Tiles of four to fifteen rows, fewer than a block (NHWC -> NCHW of an RGBA image and of 5
/// to 15 channels; the 2x2 crouton back to flat, each channel's 2 x 2 positions together):
/// whole blocks of columns and a partial one, tiles whose blocks read past the source's end.
#[test]
fn tiles_of_few_rows_relayout_alike() {
    for dims in [
        [2, 4, 9, 21],
        [1, 5, 8, 16],
        [1, 8, 3, 70],
        [2, 15, 7, 9],
        [1, 12, 1, 65],
        [1, 4, 3, 5776],
    ] {
        plain_transposes_alike(dims);
    }
    for dims in [[1, 4, 6, 96], [2, 7, 9, 33]] {
        check_typed::<htp::R4Crouton2x2Layout, htp::R4FlatMemoryLayout>(dims);
    }
}

/// Planes of 33 to 63 positions (7 x 7, 6 x 6, 9 x 7, 5 x 7), whose NCHW rows of bytes lie
/// back to back, shorter than a line: channels in groups of 64 and blocks of 16 past them,
/// the last block overlapping the one before, and fewer channels than one group.
#[test]
fn short_planes_back_to_back_relayout_alike() {
    for dims in [[2, 150, 7, 7], [1, 70, 6, 6], [1, 64, 9, 7], [3, 20, 5, 7]] {
        plain_transposes_alike(dims);
    }
}

/// Destination rows whose pitch is a multiple of 512 bytes for some element width (384, 512 and
/// 1024 channels of NHWC; planes of 512 and 1024 positions of NCHW), which the transposes visit
/// several lines per row at a time, with tiles that end part-way into a row block; and source
/// columns 4 KiB apart (planes of 64 x 64 bytes), staged.
#[test]
fn rows_on_pitches_that_crowd_the_cache_relayout_alike() {
    for dims in [
        [1, 384, 5, 7],
        [2, 1024, 3, 3],
        [1, 512, 1, 19],
        [2, 3, 16, 32],
        [1, 21, 32, 32],
        [1, 65, 64, 64],
    ] {
        plain_transposes_alike(dims);
    }
}

#[test]
fn padding_gets_the_destination_pad_value_in_the_same_pass() {
    let src = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 3, 5, 30], |_| 7);
    let mut dst = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    dst.as_raw_mut().fill(1); // stale contents everywhere
    dst.fill_padding(200);
    dst.as_raw_mut().fill(1);
    src.relayout_into(&mut dst).unwrap();
    let padding = dst.as_raw().iter().filter(|&&v| v == 200).count();
    assert_eq!(padding, 2048 - 450);
    assert_eq!(dst.as_raw().iter().filter(|&&v| v == 7).count(), 450);
}

#[test]
fn strided_views_on_either_side_equal_the_plain_relayout() {
    let t = Tensor::<u32, onednn::nchw>::from_fn([2, 5, 6, 7], |[n, c, h, w]| {
        (n * 1000 + c * 100 + h * 10 + w) as u32
    });
    let nhwc_view = t.align_to::<names::NHWC>().unwrap();
    let window = t.slice(2, 1..5).unwrap();
    fn against_two<L, N>(m: Mapping<L>)
    where
        L: Layout<Index = [usize; 4], Names = N>,
        N: tensor_layout::axes::AxisNames,
        names::NHWC: tensor_layout::axes::SameAxesAs<N>,
    {
        type Blocked<N> = ChunkedMemoryLayout<
            4,
            (
                Chunk<0, 0>,
                Chunk<1, 0>,
                Chunk<2, 0>,
                Chunk<3, 0>,
                Chunk<3, 4>,
            ),
            N,
        >;
        check_mappings(m, Mapping::<Blocked<N>>::new(m.dims()).unwrap());
        let crouton = htp::R4CroutonLayout::default();
        let crouton_dims = dims_by_name(m.layout(), &crouton, m.dims());
        check_mappings(
            m,
            Mapping::<htp::R4CroutonLayout>::new(crouton_dims).unwrap(),
        );
    }
    against_two(*nhwc_view.mapping());
    against_two(*window.mapping());
    // A strided destination: a window of a larger tensor; slots outside it stay as they were.
    let big = Mapping::<onednn::nchw>::new([2, 5, 9, 7]).unwrap();
    let mut storage = vec![0xBEEF_u32; big.storage_len()];
    let mut whole = TensorViewMut::from_slice(big, &mut storage).unwrap();
    let window = whole.slice_mut(2, 2..8).unwrap();
    let dst = *window.mapping();
    let src = Mapping::<onednn::nChw4c>::new([2, 5, 6, 7]).unwrap();
    let src_slots = numbered(&src, 0xDEAD);
    let before = storage[..dst.storage_len()].to_vec(); // the window's reach in the buffer
    let got = engine(src, &src_slots, dst, &before);
    assert_eq!(got, expected(&src, &src_slots, &dst, &before, 0));
}

/// A pair of run-time layouts of one rank, on dims; compared with the plain relayout.
fn check_lists(rank: usize, a: &[ChunkEntry], b: &[ChunkEntry], dims: &[usize]) {
    check_lists_as(rank, a, b, dims, |v| v);
}

/// [`check_lists`] with elements of type `T`.
fn check_lists_as<T>(
    rank: usize,
    a: &[ChunkEntry],
    b: &[ChunkEntry],
    dims: &[usize],
    of: fn(u32) -> T,
) where
    T: Element + Default + Send + Sync + PartialEq + std::fmt::Debug + 'static,
{
    macro_rules! ranked {
        ($($r:literal)*) => {
            match rank {
                $($r => {
                    let a = DynLayout::new(rank, a).unwrap().ranked::<$r>().unwrap();
                    let b = DynLayout::new(rank, b).unwrap().ranked::<$r>().unwrap();
                    let dims: [usize; $r] = dims.try_into().unwrap();
                    check_mappings_as(
                        Mapping::<DynChunked<$r>>::with_layout(a, dims).unwrap(),
                        Mapping::<DynChunked<$r>>::with_layout(b, dims).unwrap(),
                        of,
                    );
                })*
                _ => unreachable!(),
            }
        };
    }
    ranked!(1 2 3 4 5 6);
}

/// A chunk list of `rank` whose blocks are what accelerator layouts use (2 to 32, mostly powers
/// of two), one to three of them.
fn blocked_list(rank: usize) -> impl Strategy<Value = Vec<ChunkEntry>> {
    let rests = Just((0..rank).collect::<Vec<_>>()).prop_shuffle();
    let size = prop::sample::select(vec![2usize, 4, 8, 16, 32, 3, 12]);
    let fixed = prop::collection::vec((0..rank, size), 1..=3);
    (rests, fixed).prop_map(|(rests, fixed)| {
        let rest = rests.into_iter().map(|dim| ChunkEntry { dim, size: 0 });
        let fixed = fixed
            .into_iter()
            .map(|(dim, size)| ChunkEntry { dim, size });
        rest.chain(fixed).collect()
    })
}

fn small(a: &[ChunkEntry], b: &[ChunkEntry], dims: &[usize]) -> bool {
    [a, b]
        .iter()
        .all(|e| storage_slots(e, dims).is_some_and(|s| s <= 4096))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_chunk_list_pairs_equal_the_plain_relayout(
        (rank, a, b, dims) in chunk_list().prop_flat_map(|(rank, a)| {
            (Just(rank), Just(a), chunk_list_of_rank(rank), prop::collection::vec(0usize..=9, rank))
        }).prop_filter("small storage", |(_, a, b, dims)| small(a, b, dims))
    ) {
        check_lists(rank, &a, &b, &dims);
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    /// Blocks of 2 to 32 and dims up to 48, so that the transposes get full SIMD blocks of
    /// 1-, 2- and 4-byte elements, tile rows and columns of several loops, and the row blocks
    /// their listings.
    #[test]
    fn random_blocked_pairs_with_full_tiles_equal_the_plain_relayout(
        (rank, a, b, dims) in (2usize..=4).prop_flat_map(|rank| {
            (Just(rank), blocked_list(rank), blocked_list(rank), prop::collection::vec(1usize..=48, rank))
        }).prop_filter("at most 64 Ki slots", |(_, a, b, dims)| {
            [a, b].iter().all(|e| storage_slots(e, dims).is_some_and(|s| s <= 1 << 16))
        }),
        width in 0usize..3,
    ) {
        match width {
            0 => check_lists_as(rank, &a, &b, &dims, |v| v as u8),
            1 => check_lists_as(rank, &a, &b, &dims, |v| v as u16),
            _ => check_lists_as(rank, &a, &b, &dims, |v| v),
        }
    }

    #[test]
    fn random_catalog_pairs_on_odd_shapes_equal_the_plain_relayout(
        i in 0usize..1000, j in 0usize..1000, dims in prop::collection::vec(1usize..=19, 4)
    ) {
        let rank4: Vec<DynLayout> = registry::all().iter().map(|e| e.layout()).filter(|l| l.rank() == 4).collect();
        let (a, b) = (&rank4[i % rank4.len()], &rank4[j % rank4.len()]);
        if small(a.entries(), b.entries(), &dims) {
            check_lists(4, a.entries(), b.entries(), &dims);
        }
    }
}

/// Large enough (over 4 MiB of destination, the most any processor family waits for) that the
/// `parallel` feature splits the walk: the split result equals the plain relayout, padding
/// included, for each kernel.
#[cfg(feature = "parallel")]
#[test]
fn parallel_relayouts_equal_the_plain_relayout() {
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    two.install(|| {
        let dims = [2, 40, 121, 119];
        check_typed::<onednn::nchw, onednn::nChw16c>(dims); // transpose, channel padding
        check_typed::<onednn::nChw16c, onednn::nchw>(dims);
        check_typed::<onednn::nhwc, onednn::nChw16c>(dims); // row copies
        check_typed::<onednn::nchw, onednn::nhwc>(dims);
        check_typed::<htp::R4FlatMemoryLayout, htp::R4CroutonLayout>([1, 203, 61, 45]);
        // One image: one kernel call would cover it all, so its outermost loop is cut in two
        // for the threads (positions 14 x 224, channels 8 x 64); no cut where no divisor keeps
        // whole blocks of rows (14399 positions, 100 channels).
        check_typed::<onednn::nchw, onednn::nhwc>([1, 512, 56, 56]);
        check_typed::<onednn::nhwc, onednn::nchw>([1, 512, 56, 56]);
        check_typed::<onednn::nchw, onednn::nhwc>([1, 100, 121, 119]);
        check_typed::<onednn::nhwc, onednn::nchw>([1, 100, 121, 119]);
        check_typed::<htp::R4FlatMemoryLayout, htp::R4CroutonLayout>([1, 512, 64, 64]);
        check_typed::<htp::R4CroutonLayout, htp::R4FlatMemoryLayout>([1, 512, 64, 64]);
        // Croutons into nChw32c loop over rows of chunks outermost; the channel blocks come
        // to the front for the split.
        check_typed::<htp::R4CroutonLayout, onednn::nChw32c>([1, 512, 64, 64]);
    });
}

/// Row copies into destinations past the streaming threshold (4 MiB, more on CPUs with a
/// last-level cache over 64 MiB: `relayout::streaming`; the engine's own tests force every
/// streaming kernel on small shapes) whose rows fill whole 64-byte lines write each line past
/// the caches: 16-channel rows of four bytes out of nhwc (their
/// positions split to list 512 rows a call, or whole when no divisor fits: 61 x 67), and rows
/// of 32 bytes two to a line: 8-channel rows of four bytes into nChw16c, 4-channel rows of
/// eight bytes into nChw8c, and the rows of two neighbouring positions out of nChw16c into
/// nChw8c (an even width). With 40 channels the last 16-channel block is half padding, and
/// its rows are copied plainly.
#[test]
fn row_copies_larger_than_the_caches_equal_the_plain_relayout() {
    check_typed::<onednn::nhwc, onednn::nChw16c>([1, 256, 64, 65]);
    check_typed::<onednn::nhwc, onednn::nChw16c>([1, 256, 61, 67]);
    check_typed::<onednn::nChw8c, onednn::nChw16c>([1, 256, 64, 65]);
    check_typed::<onednn::nChw16c, onednn::nChw8c>([1, 256, 64, 64]);
    check_typed::<onednn::nChw8c, onednn::nChw16c>([2, 40, 120, 121]);
    let dims = [1, 256, 46, 47];
    let n_chw4c = Mapping::<onednn::nChw4c>::new(dims).unwrap();
    let n_chw8c = Mapping::<onednn::nChw8c>::new(dims).unwrap();
    check_mappings_as(n_chw4c, n_chw8c, f64::from);
}

/// Row copies into destinations past the streaming threshold whose innermost listed loop
/// steps the destination by one whole row go group by group: HTP croutons into flat NHWC,
/// each position's 8 (256 channels) or 4 (128 channels) channel-block rows one destination
/// run, and back, each chunk row's eight positions one run of the chunk (asking for the next
/// block's rows ahead), u8 (and u16 croutons into flat for 256 channels); with 120 channels
/// the last chunk's rows are part padding.
#[test]
fn row_groups_larger_than_the_caches_equal_the_plain_relayout() {
    for dims in [[1, 136, 128, 256], [2, 136, 128, 128], [2, 136, 128, 120]] {
        let crouton = Mapping::<htp::R4CroutonLayout>::new(dims).unwrap();
        let flat = Mapping::<htp::R4FlatMemoryLayout>::new(dims).unwrap();
        check_mappings_as(crouton, flat, |v| v as u8);
        if dims[3] == 256 {
            check_mappings_as(flat, crouton, |v| v as u8);
            check_mappings_as(crouton, flat, |v| v as u16);
        }
    }
}

/// Destinations past the streaming threshold (4 MiB, more on CPUs with a last-level cache
/// over 128 MiB: `relayout::streaming`) take the transposes' non-temporal stores, in
/// whole destination lines of 16 four-byte, 32 two-byte and 64 one-byte elements; odd spatial
/// dims leave partial blocks at the edges, and oihw->OIhw16i16o streams sequential lines.
/// Channel blocks of half a line (16 two-byte or 8 four-byte channels) stream two rows per
/// line, and u8 flat->crouton2x2's blocks (16 channels x 4 pixels) stream as one line each,
/// with a partial channel block at the edge (H and W whole 8x8 chunks: with a partial chunk
/// the plan's tiles are not packed and the blocks take the cache path).
#[test]
fn transposes_larger_than_the_caches_equal_the_plain_relayout() {
    let dims = [1, 256, 130, 131];
    let nchw = Mapping::<onednn::nchw>::new(dims).unwrap();
    let nhwc = Mapping::<onednn::nhwc>::new(dims).unwrap();
    check_mappings(nchw, nhwc);
    check_mappings(nhwc, nchw);
    check_mappings_as(nhwc, nchw, |v| v as u16);
    check_mappings_as(nchw, nhwc, |v| v as u8);
    let n_chw16c = Mapping::<onednn::nChw16c>::new(dims).unwrap();
    check_mappings_as(nchw, n_chw16c, |v| v as u16);
    check_mappings(nchw, Mapping::<onednn::nChw8c>::new(dims).unwrap());
    check_typed::<onednn::oihw, onednn::OIhw16i16o>([1024, 512, 3, 3]);
    let activations = [1, 128, 136, 250];
    let flat = Mapping::<htp::R4FlatMemoryLayout>::new(activations).unwrap();
    let crouton_2x2 = Mapping::<htp::R4Crouton2x2Layout>::new(activations).unwrap();
    check_mappings_as(flat, crouton_2x2, |v| v as u8);
}

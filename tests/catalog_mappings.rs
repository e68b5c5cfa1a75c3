//! Every catalog layout, and chunk lists chosen to stress the rules (non-power-of-two blocks,
//! several fixed entries per dimension, ranks 1 to 8, long lists), checked on odd shapes
//! against the literal chunk-list formulas (docs/concepts.md).

mod common;
use common::{Chunked, check_chunked};
use tensor_layout::htp;
use tensor_layout::{Chunk, ChunkedMemoryLayout};

/// The tuple `(Chunk<d0, s0>, Chunk<d1, s1>, ...)` of the pairs `d0,s0 d1,s1 ...`: a chunk list
/// spelled by hand, on one line.
macro_rules! chunk_tuple {
    ($($dim:literal,$size:literal)+) => {
        ($(Chunk<$dim, $size>,)+)
    };
}

const SHAPES: [[usize; 4]; 10] = [
    [1, 1, 1, 1],
    [1, 3, 5, 30],
    [2, 9, 20, 50],
    [3, 3, 32, 32],
    [1, 8, 8, 32],
    [2, 7, 33, 65],
    [1, 0, 5, 5],
    [5, 1, 17, 3],
    [0, 0, 0, 0],
    [1, 17, 3, 97],
];

macro_rules! check_catalog {
    ($($name:ident),+ $(,)?) => {$(
        #[test]
        #[allow(non_snake_case)]
        fn $name() {
            for dims in SHAPES {
                <htp::$name as Chunked<4>>::check(dims);
            }
        }
    )+};
}

check_catalog!(
    R4FlatMemoryLayout,
    R4NCHWMemoryLayout,
    R4NHWCAsNCHWLayout,
    R4Depth32MemoryLayout,
    R4CroutonLayout,
    R4Crouton4x1Layout,
    R4Crouton2x2Layout,
    R4Crouton2Layout,
    R4Crouton4Layout,
    R4ConvWeightLayout,
    SpatialXMajor,
);

#[test]
fn non_power_of_two_blocks() {
    // oneDNN-style 48-channel blocks and a 3x5 spatial tile.
    type Odd = ChunkedMemoryLayout<4, chunk_tuple!(0,0 1,0 2,0 3,0 2,3 3,48 1,5)>;
    for dims in [[1, 7, 4, 49], [2, 5, 3, 48], [1, 11, 13, 100], [1, 1, 1, 1]] {
        Odd::check(dims);
    }
    assert_eq!(Odd::BLOCKS, [1, 5, 3, 48]);
}

#[test]
fn one_dimension_split_three_ways() {
    // Dimension 1 has a rest entry and three fixed entries (4 * 3 * 2 = 24 per block).
    type List = chunk_tuple!(1,0 0,0 1,4 0,2 1,3 1,2);
    for dims in [[3, 50], [1, 24], [2, 1], [5, 49]] {
        check_chunked::<2, List>(dims);
    }
}

#[test]
fn ranks_one_to_eight() {
    check_chunked::<1, chunk_tuple!(0, 0)>([5]);
    check_chunked::<1, chunk_tuple!(0,0 0,4)>([7]);
    check_chunked::<2, chunk_tuple!(1,0 0,0)>([3, 4]);
    check_chunked::<3, chunk_tuple!(2,0 0,0 1,0 2,2)>([3, 4, 5]);
    check_chunked::<5, chunk_tuple!(0,0 1,0 2,0 3,0 4,0 1,16)>([2, 17, 2, 3, 2]);
    check_chunked::<6, chunk_tuple!(5,0 4,0 3,0 2,0 1,0 0,0)>([1, 2, 1, 3, 1, 2]);
    type Rank8 = chunk_tuple!(0,0 1,0 2,0 3,0 4,0 5,0 6,0 7,0 7,2 0,2);
    check_chunked::<8, Rank8>([3, 2, 1, 2, 1, 2, 1, 3]);
}

#[test]
fn lists_of_sixteen_and_more_entries() {
    // 4 rest entries and 20 fixed entries of size 1 or 2: 24 entries, the supported maximum.
    type Long = chunk_tuple!(
        0,0 1,0 2,0 3,0
        1,2 2,1 3,2 0,1 1,1 2,2 3,1 0,2 1,1 2,1
        3,1 0,1 1,2 2,1 3,2 0,1 1,1 2,2 3,1 0,1
    );
    assert_eq!(ChunkedMemoryLayout::<4, Long>::ENTRIES.len(), 24);
    for dims in [[3, 5, 6, 7], [1, 1, 1, 1], [2, 4, 4, 4]] {
        check_chunked::<4, Long>(dims);
    }
    type Sixteen = chunk_tuple!(0,0 1,0 2,0 3,0 4,0 4,2 3,2 2,2 1,2 0,2 4,2 3,2 2,2 1,2 0,2 4,2);
    check_chunked::<5, Sixteen>([5, 4, 3, 9, 2]);
}

macro_rules! check_module {
    ($module:ident, $rank:literal, $shapes:expr, [$($name:ident),+ $(,)?]) => {
        #[test]
        fn $module() {
            for dims in $shapes {
                $(<tensor_layout::$module::$name as Chunked<$rank>>::check(dims);)+
            }
        }
    };
}

const SHAPES_5D: [[usize; 5]; 4] = [
    [1, 1, 1, 1, 1],
    [2, 17, 3, 2, 5],
    [1, 33, 1, 4, 2],
    [2, 0, 3, 3, 3],
];

check_module!(
    onednn,
    4,
    SHAPES,
    [
        nchw,
        nhwc,
        chwn,
        nChw4c,
        nChw8c,
        nChw16c,
        nChw32c,
        NChw16n16c,
        oihw,
        hwio,
        ohwi,
        iohw,
        OIhw8i8o,
        OIhw16i16o,
        OIhw16o16i,
        IOhw16o16i,
        OIhw4i16o4i,
        OIhw8i16o2i,
        Ohwi16o,
    ]
);

#[test]
#[allow(non_snake_case)]
fn onednn_5d() {
    use tensor_layout::onednn::{gOIhw16i16o, goihw, nCdhw16c, ncdhw, ndhwc};
    for dims in SHAPES_5D {
        <ncdhw as Chunked<5>>::check(dims);
        <ndhwc as Chunked<5>>::check(dims);
        <nCdhw16c as Chunked<5>>::check(dims);
        <goihw as Chunked<5>>::check(dims);
        <gOIhw16i16o as Chunked<5>>::check(dims);
    }
}

check_module!(
    megengine,
    4,
    SHAPES,
    [NCHW, NHWC, NCHW4, NCHW32, NCHW64, CHWN4]
);

//! Type equalities checked at compile time: every catalog alias is the type its axis word and
//! chunk list spell through the macros, and the type of `catalog_lists` with the word of
//! `names`; two layouts spelled by the macros are one type exactly when rank, axis names in order
//! and chunk list are equal. A catalog list spelled by hand as a tuple is another type. Pairs
//! that must differ are asserted to differ.

use static_assertions::{assert_type_eq_all, assert_type_ne_all};
use tensor_layout::axes::Positional;
use tensor_layout::prelude::*;
use tensor_layout::{catalog_lists, layouts::ChunkList};

assert_type_eq_all!(
    htp::R4FlatMemoryLayout,
    chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0],
    ChunkedMemoryLayout<4, catalog_lists::abcd, names::NHWC>,
    htp::FlatMemoryLayout<4>,
);
assert_type_eq_all!(
    htp::R4NCHWMemoryLayout,
    chunked_layout![NHWC; 0,0, 3,0, 2,0, 1,0],
    ChunkedMemoryLayout<4, catalog_lists::adcb, names::NHWC>,
);
assert_type_eq_all!(
    htp::R4NHWCAsNCHWLayout,
    chunked_layout![NHWC; 0,0, 3,0, 1,0, 2,0],
    ChunkedMemoryLayout<4, catalog_lists::adbc, names::NHWC>,
);
assert_type_eq_all!(
    htp::R4Depth32MemoryLayout,
    chunked_layout![NHWC; 0,0, 1,0, 3,0, 2,0, 2,4, 3,32],
    ChunkedMemoryLayout<4, catalog_lists::abDC4c32d, names::NHWC>,
);
assert_type_eq_all!(
    htp::R4CroutonLayout,
    htp::ChannelMajorCrouton,
    chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32],
    chunked_layout![NHWC; 0, 0, /* height */ 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32,],
    ChunkedMemoryLayout<4, catalog_lists::aBCD8b8c32d, names::NHWC>,
);
assert_type_eq_all!(
    htp::R4Crouton4x1Layout,
    chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,4],
    ChunkedMemoryLayout<4, catalog_lists::aBCD8b2c32d4c, names::NHWC>,
);
assert_type_eq_all!(
    htp::R4Crouton2x2Layout,
    htp::SpatialXYMajor,
    chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2],
    ChunkedMemoryLayout<4, catalog_lists::aBCD4b4c32d2b2c, names::NHWC>,
);
assert_type_eq_all!(
    htp::R4Crouton2Layout,
    chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,2],
    ChunkedMemoryLayout<4, catalog_lists::aBCD8b2c32d2c, names::NHWC>,
);
assert_type_eq_all!(
    htp::R4Crouton4Layout,
    chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32],
    ChunkedMemoryLayout<4, catalog_lists::aBCD8b2c32d, names::NHWC>,
);
assert_type_eq_all!(
    htp::R4ConvWeightLayout,
    chunked_layout![HWIO; 3,0, 2,0, 0,0, 1,0, 2,8, 3,32, 2,4],
    ChunkedMemoryLayout<4, catalog_lists::DCab8c32d4c, names::HWIO>,
);
assert_type_eq_all!(
    htp::SpatialXMajor,
    chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,4, 2,2, 3,32, 2,4],
    ChunkedMemoryLayout<4, catalog_lists::aBCD4b2c32d4c, names::NHWC>,
);

// oneDNN: a tag's letters name its axes (NCHW, whatever the memory order); the same tag in
// positional letters is the positional layout, another type.
assert_type_eq_all!(
    onednn::nChw16c,
    onednn_layout!("nChw16c"),
    chunked_layout![NCHW; 0,0, 1,0, 2,0, 3,0, 1,16],
    ChunkedMemoryLayout<4, catalog_lists::aBcd16b, names::NCHW>,
);
assert_type_eq_all!(
    onednn_layout!("aBcd16b"),
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,16],
    chunked_layout![abcd; 0,0, 1,0, 2,0, 3,0, 1,16],
    ChunkedMemoryLayout<4, catalog_lists::aBcd16b>,
    ChunkedMemoryLayout<4, catalog_lists::aBcd16b, Positional>,
);
assert_type_ne_all!(onednn_layout!("aBcd16b"), onednn::nChw16c);
assert_type_eq_all!(
    onednn::nhwc,
    onednn_layout!("nhwc"),
    chunked_layout![NCHW; 0,0, 2,0, 3,0, 1,0]
);
assert_type_eq_all!(
    onednn::OIhw4i16o4i,
    onednn_layout!("OIhw4i16o4i"),
    chunked_layout![OIHW; 0,0, 1,0, 2,0, 3,0, 1,4, 0,16, 1,4]
);
assert_type_eq_all!(
    onednn::hwio,
    onednn_layout!("hwio"),
    chunked_layout![OIHW; 2,0, 3,0, 1,0, 0,0]
);
assert_type_eq_all!(
    onednn::gOIhw16i16o,
    chunked_layout![GOIHW; 0,0, 1,0, 2,0, 3,0, 4,0, 2,16, 1,16]
);
assert_type_eq_all!(onednn::ncw, chunked_layout![NCW; 0,0, 1,0, 2,0]);
assert_type_eq_all!(
    onednn::nCdhw16c,
    chunked_layout![NCDHW; 0,0, 1,0, 2,0, 3,0, 4,0, 1,16]
);
assert_type_eq_all!(
    onednn::OIdhw16i16o,
    chunked_layout![OIDHW; 0,0, 1,0, 2,0, 3,0, 4,0, 1,16, 0,16]
);

// One system's NCHW is another's: oneDNN, MegEngine and Sophgo's system memory agree.
assert_type_eq_all!(
    onednn::nchw,
    megengine::NCHW,
    sophgo::Continuous,
    chunked_layout![NCHW; 0,0, 1,0, 2,0, 3,0]
);
assert_type_eq_all!(onednn::nhwc, megengine::NHWC);
assert_type_eq_all!(
    sophgo::ContinuousWeights,
    chunked_layout![IOHW; 0,0, 1,0, 2,0, 3,0]
);

/// Asserts that each catalog list's `Spelling` is the tuple `(Chunk<d, s>, ...)` of its
/// `d,s` pairs, spelled by hand.
macro_rules! spelled_as {
    ($($list:ident: $($dim:literal,$size:literal)+;)+) => {$(
        assert_type_eq_all!(
            <catalog_lists::$list as ChunkList>::Spelling,
            ($(Chunk<$dim, $size>,)+)
        );
    )+};
}

// The catalog's list types spell the lists the macros read; a list spelled by hand as a tuple
// is another type, with the same `Spelling`.
spelled_as! {
    abcd: 0,0 1,0 2,0 3,0;
    adcb: 0,0 3,0 2,0 1,0;
    adbc: 0,0 3,0 1,0 2,0;
    abDC4c32d: 0,0 1,0 3,0 2,0 2,4 3,32;
    aBCD8b8c32d: 0,0 1,0 2,0 3,0 1,8 2,8 3,32;
    aBCD8b2c32d4c: 0,0 1,0 2,0 3,0 1,8 2,2 3,32 2,4;
    aBCD4b4c32d2b2c: 0,0 1,0 2,0 3,0 1,4 2,4 3,32 1,2 2,2;
    aBCD8b2c32d2c: 0,0 1,0 2,0 3,0 1,8 2,2 3,32 2,2;
    aBCD8b2c32d: 0,0 1,0 2,0 3,0 1,8 2,2 3,32;
    DCab8c32d4c: 3,0 2,0 0,0 1,0 2,8 3,32 2,4;
    aBCD4b2c32d4c: 0,0 1,0 2,0 3,0 1,4 2,2 3,32 2,4;
    aBcd16b: 0,0 1,0 2,0 3,0 1,16;
}
assert_type_ne_all!(
    htp::R4CroutonLayout,
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 8>, Chunk<3, 32>), names::NHWC>,
);

// The same chunk list with other names, or positional axes, is another layout.
assert_type_ne_all!(
    htp::R4FlatMemoryLayout,
    onednn::nchw,
    onednn_layout!("abcd")
);
assert_type_ne_all!(onednn::oihw, onednn::nchw, sophgo::ContinuousWeights);
assert_type_ne_all!(
    htp::R4CroutonLayout,
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32]
);
assert_type_ne_all!(onednn::chwn, megengine::CHWN4);

#[test]
fn macro_types_behave_as_their_catalog_twins() {
    // The compile-time assertions above are the test; this checks values as well.
    let m = Mapping::<onednn_layout!("nChw8c")>::new([2, 17, 3, 3]).unwrap();
    assert_eq!(m.padded_dims(), [2, 24, 3, 3]);
    assert_eq!(m.layout().axis_word().as_str(), "NCHW");
    let positional = Mapping::<onednn_layout!("aBcd8b")>::new([2, 17, 3, 3]).unwrap();
    assert_eq!(positional.layout().axis_word().as_str(), "abcd");
    assert_eq!(positional.axes(), m.axes());
}

//! Type equalities checked at compile time: every catalog alias is the type its chunk list
//! spells, by hand and through the macros; equal lists are equal types.

use static_assertions::assert_type_eq_all;
use tensor_layout::prelude::*;

assert_type_eq_all!(
    htp::R4FlatMemoryLayout,
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>)>,
    onednn_layout!("abcd"),
);
assert_type_eq_all!(
    htp::R4NCHWMemoryLayout,
    chunked_layout![4; 0,0, 3,0, 2,0, 1,0],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<3, 0>, Chunk<2, 0>, Chunk<1, 0>)>,
);
assert_type_eq_all!(
    htp::R4NHWCAsNCHWLayout,
    chunked_layout![4; 0,0, 3,0, 1,0, 2,0],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<3, 0>, Chunk<1, 0>, Chunk<2, 0>)>,
);
assert_type_eq_all!(
    htp::R4Depth32MemoryLayout,
    chunked_layout![4; 0,0, 1,0, 3,0, 2,0, 2,4, 3,32],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<3, 0>, Chunk<2, 0>, Chunk<2, 4>, Chunk<3, 32>)>,
);
assert_type_eq_all!(
    htp::R4CroutonLayout,
    htp::ChannelMajorCrouton,
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32],
    chunked_layout![4; 0, 0, /* height */ 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32,],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 8>, Chunk<3, 32>)>,
);
assert_type_eq_all!(
    htp::R4Crouton4x1Layout,
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,4],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 2>, Chunk<3, 32>, Chunk<2, 4>)>,
);
assert_type_eq_all!(
    htp::R4Crouton2x2Layout,
    htp::SpatialXYMajor,
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 4>, Chunk<2, 4>, Chunk<3, 32>, Chunk<1, 2>, Chunk<2, 2>)>,
);
assert_type_eq_all!(
    htp::R4Crouton2Layout,
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,2],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 2>, Chunk<3, 32>, Chunk<2, 2>)>,
);
assert_type_eq_all!(
    htp::R4Crouton4Layout,
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 8>, Chunk<2, 2>, Chunk<3, 32>)>,
);
assert_type_eq_all!(
    htp::R4ConvWeightLayout,
    chunked_layout![4; 3,0, 2,0, 0,0, 1,0, 2,8, 3,32, 2,4],
    ChunkedMemoryLayout<4, (Chunk<3, 0>, Chunk<2, 0>, Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 8>, Chunk<3, 32>, Chunk<2, 4>)>,
);
assert_type_eq_all!(
    htp::SpatialXMajor,
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,4, 2,2, 3,32, 2,4],
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 4>, Chunk<2, 2>, Chunk<3, 32>, Chunk<2, 4>)>,
);

// oneDNN spellings: positional and named letters give one type.
assert_type_eq_all!(
    onednn_layout!("aBcd16b"),
    onednn_layout!("nChw16c"),
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,16]
);
// oneDNN numbers dims n, c, h, w: its nhwc is not HTP's flat NHWC, whose dims are numbered n, h, w, c.
assert_type_eq_all!(
    onednn_layout!("acdb"),
    onednn_layout!("nhwc"),
    chunked_layout![4; 0,0, 2,0, 3,0, 1,0]
);
assert_type_eq_all!(
    onednn_layout!("ABcd4b16a4b"),
    onednn_layout!("OIhw4i16o4i"),
    chunked_layout![4; 0,0, 1,0, 2,0, 3,0, 1,4, 0,16, 1,4]
);
assert_type_eq_all!(
    onednn_layout!("cdba"),
    onednn_layout!("hwio"),
    chunked_layout![4; 2,0, 3,0, 1,0, 0,0]
);
assert_type_eq_all!(onednn_layout!("aBCde16c16b"), onednn_layout!("gOIhw16i16o"));

#[test]
fn macro_types_behave_as_their_catalog_twins() {
    // The compile-time assertions above are the test; this checks a value as well.
    let m = Mapping::<onednn_layout!("nChw8c")>::new([2, 17, 3, 3]).unwrap();
    assert_eq!(m.padded_dims(), [2, 24, 3, 3]);
}

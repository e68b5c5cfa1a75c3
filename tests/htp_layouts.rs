//! The HTP documentation's worked examples (Qualcomm HTP), element by element.
//!
//! Each expected order is the documentation's listing written as nested loops in the order it
//! prints it; every storage slot is compared, padding included.

use tensor_layout::prelude::*;

type Index4 = [usize; 4];

/// Asserts that slot `k` of `mapping` holds `expected[k]` (a coordinate in the padded dims) and
/// is padding exactly when that coordinate lies outside the logical dims.
fn assert_memory_order<L: Layout<Index = Index4> + Default>(dims: Index4, expected: &[Index4]) {
    let m = Mapping::<L>::new(dims).unwrap();
    assert_eq!(m.storage_len(), expected.len(), "storage length");
    for (offset, want) in expected.iter().enumerate() {
        assert_eq!(m.padded_index_of(offset), Some(*want), "slot {offset}");
        let logical = want.iter().zip(&dims).all(|(i, d)| i < d);
        assert_eq!(
            m.index_of(offset),
            logical.then_some(*want),
            "slot {offset}"
        );
        if logical {
            assert_eq!(m.offset(*want), offset, "offset of {want:?}");
        }
    }
}

#[test]
fn flat_2x3x5x30_is_row_major_nhwc() {
    // "(0,0,0,0), (0,0,0,1) ... (0,0,0,29), (0,0,1,0) ... (1,2,4,29)"
    let mut expected = Vec::new();
    for n in 0..2 {
        for h in 0..3 {
            for w in 0..5 {
                for c in 0..30 {
                    expected.push([n, h, w, c]);
                }
            }
        }
    }
    assert_memory_order::<htp::R4FlatMemoryLayout>([2, 3, 5, 30], &expected);
    let m = Mapping::<htp::R4FlatMemoryLayout>::new([2, 3, 5, 30]).unwrap();
    // Line boundaries of the documentation's listing.
    assert_eq!(m.offset([0, 0, 4, 29]), 149);
    assert_eq!(m.offset([0, 1, 0, 0]), 150);
    assert_eq!(m.offset([0, 2, 4, 29]), 449);
    assert_eq!(m.offset([1, 0, 0, 0]), 450);
    assert_eq!(m.offset([1, 2, 4, 29]), 899);
    assert_eq!(m.storage_len(), 900);
}

#[test]
fn crouton_1x3x5x30_pads_to_one_8x8x32_chunk() {
    let dims = [1, 3, 5, 30];
    let mut expected = Vec::new();
    for h in 0..8 {
        for w in 0..8 {
            for c in 0..32 {
                expected.push([0, h, w, c]);
            }
        }
    }
    assert_memory_order::<htp::R4CroutonLayout>(dims, &expected);

    let m = Mapping::<htp::R4CroutonLayout>::new(dims).unwrap();
    assert_eq!(m.padded_dims(), [1, 8, 8, 32]);
    // The documentation names the padding: "(0,0,0,30) (0,0,0,31) is pad", "(0,0,4,30), (0,0,4,31),
    // (0,0,5,0)...(0,0,7,31) is pad", "(0,2,4,30) ...(0,2,7,31),(0,3,0,0)...(0,7,7,31) is pad".
    let pad_span = |from: Index4, to: Index4| {
        let (a, b) = (
            expected.iter().position(|i| *i == from).unwrap(),
            expected.iter().position(|i| *i == to).unwrap(),
        );
        a..b + 1
    };
    let mut padding = Vec::new();
    m.for_each_padding(|range| padding.push(range));
    assert_eq!(padding[0], pad_span([0, 0, 0, 30], [0, 0, 0, 31]));
    assert!(padding.contains(&pad_span([0, 0, 4, 30], [0, 0, 7, 31])));
    assert_eq!(
        *padding.last().unwrap(),
        pad_span([0, 2, 4, 30], [0, 7, 7, 31])
    );
    // Every row of 32 channels ends in two padding slots; rows 5..8 of each height are padding.
    assert_eq!(padding.len(), 3 * 5);
    let padding_slots: usize = padding.iter().map(|r| r.len()).sum();
    assert_eq!(padding_slots, 2048 - 450);
    // "(0,0,0,0) to (0,0,0,29) is valid data"
    assert!((0..30).all(|c| !m.is_padding(m.offset([0, 0, 0, c]))));
}

#[test]
fn crouton_2x9x20x50_chunk_order_matches_the_documentation() {
    // The documentation's listing, outermost first: batch, height block (8), width block (8),
    // depth block (32), then inside a chunk: 8 rows, 8 columns, 32 channels.
    let mut expected = Vec::new();
    for n in 0..2 {
        for hb in 0..2 {
            for wb in 0..3 {
                for cb in 0..2 {
                    for h in 0..8 {
                        for w in 0..8 {
                            for c in 0..32 {
                                expected.push([n, hb * 8 + h, wb * 8 + w, cb * 32 + c]);
                            }
                        }
                    }
                }
            }
        }
    }
    assert_memory_order::<htp::R4CroutonLayout>([2, 9, 20, 50], &expected);

    let m = Mapping::<htp::R4CroutonLayout>::new([2, 9, 20, 50]).unwrap();
    assert_eq!(m.padded_dims(), [2, 16, 24, 64]);
    // Landmarks the documentation calls out.
    assert_eq!(m.padded_index_of(2047), Some([0, 7, 7, 31])); // "> end of chunk"
    assert_eq!(m.offset([0, 0, 0, 32]), 2048); // "> start of chunk"
    assert_eq!(m.padded_index_of(4095), Some([0, 7, 7, 63])); // "finished traversing all 64 in dimension 3"
    assert_eq!(m.offset([0, 0, 8, 0]), 4096);
    assert_eq!(m.offset([0, 0, 16, 0]), 8192);
    assert_eq!(m.padded_index_of(12287), Some([0, 7, 23, 63])); // "finished traversing all 24 in dimension 2"
    assert_eq!(m.offset([0, 8, 0, 0]), 12288);
    assert_eq!(m.padded_index_of(24575), Some([0, 15, 23, 63])); // "finished traversing all 16 in dimension 1"
    assert_eq!(m.offset([1, 0, 0, 0]), 24576);
    assert_eq!(m.padded_index_of(49151), Some([1, 15, 23, 63])); // "> end of memory layout"
    assert_eq!(m.storage_len(), 49152);
    // Rows 9..16 of the second height block are padding; so are columns 20..24 and channels 50..64.
    assert!(m.is_padding(m.storage_len() - 1));
    assert_eq!(m.index_of(12288 + 32), Some([0, 8, 1, 0]));
    assert_eq!(m.index_of(12288 + 256), None); // (0, 9, 0, 0) is padding
}

#[test]
fn weights_3x3x32x32_interleave_four_input_channels() {
    // "(0,0,0,0), (0,0,1,0), (0,0,2,0), (0,0,3,0), (0,0,0,1) ... (0,0,3,31), (0,0,4,0) ...
    //  (0,0,31,31), (0,1,0,0) ... (0,2,31,31), (1,0,0,0) ... (1,0,31,31)"
    let mut expected = Vec::new();
    for fh in 0..3 {
        for fw in 0..3 {
            for i8 in 0..8 {
                for o in 0..32 {
                    for i in 0..4 {
                        expected.push([fh, fw, i8 * 4 + i, o]);
                    }
                }
            }
        }
    }
    assert_memory_order::<htp::R4ConvWeightLayout>([3, 3, 32, 32], &expected);
    let m = Mapping::<htp::R4ConvWeightLayout>::new([3, 3, 32, 32]).unwrap();
    let first: Vec<_> = (0..9).map(|k| m.index_of(k).unwrap()).collect();
    assert_eq!(
        first,
        [
            [0, 0, 0, 0],
            [0, 0, 1, 0],
            [0, 0, 2, 0],
            [0, 0, 3, 0],
            [0, 0, 0, 1],
            [0, 0, 1, 1],
            [0, 0, 2, 1],
            [0, 0, 3, 1],
            [0, 0, 0, 2]
        ]
    );
    assert_eq!(m.index_of(127), Some([0, 0, 3, 31]));
    assert_eq!(m.index_of(128), Some([0, 0, 4, 0]));
    assert_eq!(m.index_of(1023), Some([0, 0, 31, 31]));
    assert_eq!(m.index_of(1024), Some([0, 1, 0, 0]));
    assert_eq!(m.index_of(2048), Some([0, 2, 0, 0]));
    assert_eq!(m.index_of(3072), Some([1, 0, 0, 0]));
    assert_eq!(m.index_of(3072 + 1023), Some([1, 0, 31, 31]));
}

#[test]
fn weights_3x3x64x96_put_input_blocks_inside_output_blocks() {
    // "(0,0,0,0)...(2,2,31,31), (0,0,32,0)...(2,2,63,31), (0,0,0,32)...(2,2,31,63),
    //  (0,0,32,32)...(2,2,63,63), (0,0,0,64)...(2,2,31,95), (0,0,32,64)...(2,2,63,95)"
    let mut expected = Vec::new();
    for ob in 0..3 {
        for ib in 0..2 {
            for fh in 0..3 {
                for fw in 0..3 {
                    for i8 in 0..8 {
                        for o in 0..32 {
                            for i in 0..4 {
                                expected.push([fh, fw, ib * 32 + i8 * 4 + i, ob * 32 + o]);
                            }
                        }
                    }
                }
            }
        }
    }
    assert_memory_order::<htp::R4ConvWeightLayout>([3, 3, 64, 96], &expected);
    let m = Mapping::<htp::R4ConvWeightLayout>::new([3, 3, 64, 96]).unwrap();
    let block = 3 * 3 * 32 * 32;
    let starts = [
        [0, 0, 0, 0],
        [0, 0, 32, 0],
        [0, 0, 0, 32],
        [0, 0, 32, 32],
        [0, 0, 0, 64],
        [0, 0, 32, 64],
    ];
    let ends = [
        [2, 2, 31, 31],
        [2, 2, 63, 31],
        [2, 2, 31, 63],
        [2, 2, 63, 63],
        [2, 2, 31, 95],
        [2, 2, 63, 95],
    ];
    for (k, (start, end)) in starts.iter().zip(&ends).enumerate() {
        assert_eq!(m.index_of(k * block), Some(*start));
        assert_eq!(m.index_of((k + 1) * block - 1), Some(*end));
    }
}

#[test]
fn weights_3x3x32x50_pad_output_channels_to_64() {
    // "a 3x3x32x50 tensor ... will get padded into 3x3x32x64"
    let m = Mapping::<htp::R4ConvWeightLayout>::new([3, 3, 32, 50]).unwrap();
    assert_eq!(m.padded_dims(), [3, 3, 32, 64]);
    assert_eq!(m.index_of(9 * 1024), Some([0, 0, 0, 32]));
    assert_eq!(m.index_of(9 * 1024 + 4 * 18), None); // output channel 50 is padding
}

#[test]
fn crouton_1x3x5x30_listing_reads_like_the_documentation() {
    // The HTP documentation prints this example as rows of 30 valid channels followed by 2 padding channels,
    // the rest of each 8-column row of the chunk, and finally all of rows 3..8, as padding.
    let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    let mut expected = String::new();
    for h in 0..3 {
        for w in 0..4 {
            expected +=
                &format!("(0,{h},{w},0) ... (0,{h},{w},29)  pad (0,{h},{w},30), (0,{h},{w},31)\n");
        }
        let (end, slots) = if h < 2 {
            (format!("(0,{h},7,31)"), 98)
        } else {
            ("(0,7,7,31)".to_string(), 1378)
        };
        expected +=
            &format!("(0,{h},4,0) ... (0,{h},4,29)  pad (0,{h},4,30) ... {end} [{slots} slots]\n");
    }
    assert_eq!(m.memory_order().to_string(), expected);
}

#[test]
fn concepts_worked_example() {
    // docs/concepts.md: element (1, 8, 17, 40) of a 2x9x20x50 crouton tensor.
    let m = Mapping::<htp::R4CroutonLayout>::new([2, 9, 20, 50]).unwrap();
    let strides: Vec<usize> = m.axes().iter().map(|a| a.stride).collect();
    let extents: Vec<usize> = m.axes().iter().map(|a| a.extent).collect();
    assert_eq!(extents, [2, 2, 3, 2, 8, 8, 32]);
    assert_eq!(strides, [24576, 12288, 4096, 2048, 256, 32, 1]);
    assert_eq!(m.offset([1, 8, 17, 40]), 47144);
}

#[test]
fn crouton_2x9x20x50_folded_listing_follows_the_documentation() {
    // On the padded tensor (2x16x24x64) every chunk is full: the folded listing is one line per
    // chunk, in the order the documentation lists them, each marked as the documentation marks them.
    let padded = Mapping::<htp::R4CroutonLayout>::new([2, 16, 24, 64]).unwrap();
    let mut expected = String::new();
    for n in 0..2 {
        for hb in 0..2 {
            for wb in 0..3 {
                for cb in 0..2 {
                    let (h, w, c) = (hb * 8, wb * 8, cb * 32);
                    expected += &format!(
                        "({n},{h},{w},{c}) ... ({n},{},{},{})  > end of chunk\n",
                        h + 7,
                        w + 7,
                        c + 31
                    );
                }
            }
        }
    }
    assert_eq!(padded.memory_order().folded().to_string(), expected);
    // The real tensor: the first chunk is full, every chunk ends with its marker.
    let m = Mapping::<htp::R4CroutonLayout>::new([2, 9, 20, 50]).unwrap();
    let listing = m.memory_order().folded().to_string();
    assert!(listing.starts_with("(0,0,0,0) ... (0,7,7,31)  > end of chunk\n(0,0,0,32) ... (0,0,0,49)  pad (0,0,0,50) ... (0,0,0,63) [14 slots]\n"));
    assert_eq!(listing.matches("> end of chunk").count(), 2 * 2 * 3 * 2);
}

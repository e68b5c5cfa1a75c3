//! 4-bit elements packed two per byte in storage order, the even slot in the low nibble
//! (MegEngine's int4 and uint4 in `NCHW64`), checked element by element against that rule.

use proptest::prelude::*;
use tensor_layout::prelude::*;
use tensor_layout::{quantized::Nibble, quantized::PackedTensor, quantized::i4, quantized::u4};

/// The element at storage slot `slot` of `bytes` by the packing rule, written out.
fn by_rule(bytes: &[u8], slot: usize) -> u8 {
    let byte = bytes[slot / 2];
    if slot.is_multiple_of(2) {
        byte & 0x0F
    } else {
        byte >> 4
    }
}

/// Every logical element of `t` sits where the packing rule and the layout's offset say.
fn follows_the_rule<E: Nibble, L: Layout>(t: &PackedTensor<E, L>) {
    for (index, value) in t.indexed_iter() {
        let slot = t.mapping().offset(index);
        assert_eq!(
            by_rule(t.as_bytes(), slot),
            value.to_bits(),
            "{index:?} at slot {slot}"
        );
    }
}

#[test]
fn every_i4_value_survives_its_nibble() {
    for v in -8..=7i8 {
        let x = i4::new(v);
        assert_eq!(i4::from_bits(x.to_bits()), x);
        assert_eq!(
            i4::from_bits(x.to_bits() | 0xF0),
            x,
            "the high nibble is ignored"
        );
    }
    for v in 0..=15u8 {
        assert_eq!(u4::from_bits(u4::new(v).to_bits()), u4::new(v));
    }
    assert_eq!(
        (i4::try_new(8), i4::try_new(-9), u4::try_new(16)),
        (None, None, None)
    );
}

#[test]
fn nchw64_packs_channels_in_pairs_and_pads_with_zero_nibbles() {
    let dims = [2, 70, 3, 1];
    let t = PackedTensor::<u4, megengine::NCHW64>::from_fn(dims, |[n, c, h, _]| {
        u4::new(((n * 5 + c * 3 + h) % 16) as u8)
    });
    follows_the_rule(&t);
    // Two channel blocks of 64 per image, per pixel: 2 * 2 * 3 * 64 nibbles.
    assert_eq!(t.as_bytes().len(), 2 * 2 * 3 * 64 / 2);
    let logical: std::collections::HashSet<usize> = t
        .indexed_iter()
        .map(|(index, _)| t.mapping().offset(index))
        .collect();
    for slot in (0..t.mapping().storage_len()).filter(|s| !logical.contains(s)) {
        assert_eq!(by_rule(t.as_bytes(), slot), 0, "padding slot {slot}");
    }
}

#[test]
fn an_odd_storage_length_pads_the_last_nibble() {
    let q = ScaleOffset::new(1.0, 3);
    let mut t = PackedTensor::<u4, onednn::nchw, _>::try_zeros_with([1, 1, 1, 5], q).unwrap();
    assert_eq!(t.as_bytes(), [0x33, 0x33, 0x33]);
    t.set_real([0, 0, 0, 4], 4.0);
    assert_eq!(
        t.as_bytes()[2],
        0x37,
        "slot 4 low, the padding nibble keeps the offset"
    );
    let src = PackedTensor::<u4, onednn::nhwc, _>::try_zeros_with([1, 1, 1, 5], q).unwrap();
    src.relayout_into(&mut t).unwrap();
    assert_eq!(t.as_bytes(), [0x33, 0x33, 0x33]);
}

#[test]
fn relayouts_move_nibbles_by_axis_name() {
    let dims = [2, 67, 3, 5];
    let values: Vec<i4> = (0..dims.iter().product::<usize>())
        .map(|k| i4::new((k * 7 % 16) as i8 - 8))
        .collect();
    let nchw = PackedTensor::<i4, megengine::NCHW>::from_row_major(dims, &values).unwrap();
    let blocked = nchw.try_relayout::<megengine::NCHW64>().unwrap();
    // HTP's flat layout names its axes NHWC in that logical order (MegEngine's NHWC keeps NCHW
    // dims), so the dims permute.
    let nhwc = blocked.try_relayout::<htp::R4FlatMemoryLayout>().unwrap();
    assert_eq!(nhwc.dims(), [2, 3, 5, 67]);
    follows_the_rule(&blocked);
    assert_eq!(blocked.to_row_major(), values);
    for (index, value) in nchw.indexed_iter() {
        let [n, c, h, w] = index;
        assert_eq!(nhwc.value([n, h, w, c]), value);
    }
    let mut back = PackedTensor::<i4, megengine::NCHW>::zeros(dims);
    nhwc.relayout_into(&mut back).unwrap();
    assert_eq!(back.as_bytes(), nchw.as_bytes());
    let mut wrong = PackedTensor::<i4, megengine::NCHW>::zeros([2, 67, 3, 4]);
    assert!(matches!(
        nhwc.relayout_into(&mut wrong),
        Err(LayoutError::ShapeMismatch { .. })
    ));
}

proptest! {
    #[test]
    fn set_and_value_agree_with_the_rule_in_any_order(
        c in 1usize..140,
        w in 1usize..4,
        writes in prop::collection::vec((0usize..1000, 0u8..16), 1..60),
    ) {
        let dims = [1, c, 1, w];
        let mut t = PackedTensor::<u4, megengine::NCHW64>::zeros(dims);
        let mut want = vec![0u8; c * w];
        for (k, v) in writes {
            let k = k % (c * w);
            let index = [0, k / w, 0, k % w];
            t.set(index, u4::new(v));
            want[k] = v;
        }
        let got: Vec<u8> = t.to_row_major().into_iter().map(u4::get).collect();
        prop_assert_eq!(got, want);
        follows_the_rule(&t);
    }
}

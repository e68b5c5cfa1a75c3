//! Hand-written offset formulas for three HTP layouts: the baselines of the `offset` benchmark
//! (and of `examples/offset_asm.rs`, which shows their machine code beside the library's).

/// The strides of the rest entries a hand-written kernel would precompute once per shape.
pub struct Strides {
    /// Stride of each dimension's rest entry, indexed by logical dimension.
    pub outer: [usize; 4],
}

/// R4CroutonLayout (0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32) for NHWC dims, by hand.
pub fn crouton_by_hand(s: &Strides, [n, h, w, c]: [usize; 4]) -> usize {
    n * s.outer[0]
        + (h >> 3) * s.outer[1]
        + (w >> 3) * s.outer[2]
        + (c >> 5) * s.outer[3]
        + ((h & 7) << 8)
        + ((w & 7) << 5)
        + (c & 31)
}

/// R4Crouton2x2Layout (0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2), by hand.
pub fn crouton2x2_by_hand(s: &Strides, [n, h, w, c]: [usize; 4]) -> usize {
    n * s.outer[0]
        + (h >> 3) * s.outer[1]
        + (w >> 3) * s.outer[2]
        + (c >> 5) * s.outer[3]
        + (((h >> 1) & 3) << 9)
        + (((w >> 1) & 3) << 7)
        + ((c & 31) << 2)
        + ((h & 1) << 1)
        + (w & 1)
}

/// R4ConvWeightLayout (3,0, 2,0, 0,0, 1,0, 2,8, 3,32, 2,4) for [fh, fw, i, o] dims, by hand.
pub fn conv_weight_by_hand(s: &Strides, [fh, fw, i, o]: [usize; 4]) -> usize {
    (o >> 5) * s.outer[3]
        + (i >> 5) * s.outer[2]
        + fh * s.outer[0]
        + fw * s.outer[1]
        + (((i >> 2) & 7) << 7)
        + ((o & 31) << 2)
        + (i & 3)
}

//! Real to stored integers: nearest, ties to even, saturated (without `std`'s float methods).

/// Magnitudes up to which [`round_ties_even`] is exact, far beyond every stored integer type.
const LIMIT: f64 = (1u64 << 40) as f64;

/// `x` rounded to the nearest integer, ties to even, for `|x| <= 2^40`: adding and subtracting
/// 1.5 * 2^52 leaves no fraction bits, and the addition rounds in the default mode, to nearest
/// with ties to even.
fn round_ties_even(x: f64) -> f64 {
    debug_assert!(x.abs() <= LIMIT);
    const ROUND: f64 = 6_755_399_441_055_744.0; // 1.5 * 2^52
    (x + ROUND) - ROUND
}

/// `round(steps) + offset`, ties to even, saturated to `[min, max]`; NaN gives `offset`
/// saturated. The rounding happens before the offset is added, as in ONNX's `QuantizeLinear`.
pub(crate) fn quantize(steps: f64, offset: f64, min: f64, max: f64) -> f64 {
    if steps.is_nan() {
        return offset.clamp(min, max);
    }
    (round_ties_even(steps.clamp(-LIMIT, LIMIT)) + offset).clamp(min, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_go_to_even_before_the_offset_and_ends_saturate() {
        let r = |x| quantize(x, 0.0, -128.0, 127.0);
        assert_eq!(
            [
                r(0.5),
                r(1.5),
                r(2.5),
                r(-0.5),
                r(-1.5),
                r(2.4999),
                r(2.5001)
            ],
            [0.0, 2.0, 2.0, 0.0, -2.0, 2.0, 3.0]
        );
        assert_eq!(
            [r(127.4), r(127.6), r(1e30), r(-1e30)],
            [127.0, 127.0, 127.0, -128.0]
        );
        assert_eq!(
            [r(f64::INFINITY), r(f64::NEG_INFINITY), r(f64::NAN)],
            [127.0, -128.0, 0.0]
        );
        // round(-2.5) = -2, then + 5: 3 (rounding after the offset would give 2).
        assert_eq!(quantize(-2.5, 5.0, 0.0, 255.0), 3.0);
        assert_eq!(quantize(f64::NAN, 300.0, 0.0, 255.0), 255.0);
        let wide = |x| quantize(x, 0.0, i32::MIN.into(), i32::MAX.into());
        assert_eq!(wide(2_147_483_646.5), 2_147_483_646.0);
        assert_eq!(wide(3e9), 2_147_483_647.0);
    }
}

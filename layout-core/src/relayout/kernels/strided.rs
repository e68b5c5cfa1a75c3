//! The kernel for any strides: one element at a time.

use core::ops::Range;

/// `dst[d + i * d_col] = src[s + i * s_col]` for `i` in `cols`: any strides.
pub(crate) fn copy_strided<T: Copy>(
    dst: &mut [T],
    d: usize,
    d_col: usize,
    src: &[T],
    s: usize,
    s_col: usize,
    cols: Range<usize>,
) {
    for i in cols {
        dst[d + i * d_col] = src[s + i * s_col];
    }
}

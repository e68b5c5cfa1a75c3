//! The layouts the relayout tests move between, named once: oneDNN formats by their tags, and
//! the shared chunked layouts (axes `NHWC`); and the cases the tests take under Miri.

/// Plain channels-first activations.
pub(crate) type Nchw = crate::onednn_layout!("nchw");
/// Plain channels-last activations.
pub(crate) type Nhwc = crate::onednn_layout!("nhwc");
/// Channel blocks of 4, inside each position.
pub(crate) type NChw4c = crate::onednn_layout!("nChw4c");
/// Channel blocks of 8 (one 32-byte row of f32).
pub(crate) type NChw8c = crate::onednn_layout!("nChw8c");
/// Channel blocks of 16 (one 64-byte line of f32).
pub(crate) type NChw16c = crate::onednn_layout!("nChw16c");
/// Channel blocks of 32.
pub(crate) type NChw32c = crate::onednn_layout!("nChw32c");
/// Plain weights, outputs outermost.
pub(crate) type Oihw = crate::onednn_layout!("oihw");
/// Weights in 16x16 blocks of inputs by outputs.
pub(crate) type OIhw16i16o = crate::onednn_layout!("OIhw16i16o");
/// Flat NHWC as a chunked layout: one chunk, channels innermost.
pub(crate) type Flat = crate::chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0];
/// HTP's crouton: chunks of 8 rows by 8 columns by 32 channels.
pub(crate) type Crouton = crate::chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32];

/// A layout of four dimensions that a test names by its type alone.
pub(crate) trait FourDims: crate::Layout<Index = [usize; 4]> + Default {}

impl<L: crate::Layout<Index = [usize; 4]> + Default> FourDims for L {}

/// Where a buffer's first 64-byte line starts, as an element index (for elements whose size
/// does not divide a line, the last one starting before it), plus `misalign` elements.
pub(crate) fn line_start<E>(buffer: &[E], misalign: usize) -> usize {
    let at = buffer.as_ptr().addr();
    (at.next_multiple_of(64) - at) / size_of::<E>() + misalign
}

/// `all`, or under Miri (about a thousand times slower) the ones at `sample`.
pub(crate) fn under_miri<T: Copy>(all: &[T], sample: &[usize]) -> alloc::vec::Vec<T> {
    match cfg!(miri) {
        true => sample.iter().map(|&k| all[k]).collect(),
        false => all.to_vec(),
    }
}

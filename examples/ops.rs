//! Layout-checked operations: signatures carry layouts, so a tensor in the wrong layout is a
//! compile error, not wrong numbers.
//!
//! - `add`: element-wise, generic over one layout (both inputs and the output share it);
//! - `conv2d`: a reference 2-D convolution taking HTP crouton activations and HTP conv weights,
//!   walking 8x8x32 output chunks and reading whole input and weight chunks, the way HTP kernels
//!   do, through the tensors' chunk access (chunk numbers, coordinates inside a chunk); it is
//!   tested against a naive convolution of row-major data.
//!
//! Run with `cargo run --release --example ops`; `cargo test --example ops` runs its tests.

use std::ops::Add;
use tensor_layout::prelude::*;
use tensor_layout::tensors::Element;

/// Weights as they arrive, plain, with the axes of HTP's convolution weights: filter height,
/// filter width, input channels, output channels (HWIO), the output channel fastest.
type FlatWeights = chunked_layout![HWIO; 0,0, 1,0, 2,0, 3,0];

/// `a + b`, element by element. Both tensors and the result have layout `L`: handing this two
/// tensors of different layouts does not compile.
///
/// # Errors
/// [`LayoutError::ShapeMismatch`] when the dims differ.
pub fn add<T, L>(a: &Tensor<T, L>, b: &Tensor<T, L>) -> Result<Tensor<T, L>, LayoutError>
where
    T: Element + Default + Add<Output = T>,
    L: Layout + Default,
{
    // Logical elements only: the sum of two pads never lands in the result's padding.
    a.zip_with(b, |x, y| x + y)
}

/// A stride-1, unpadded ("valid") 2-D convolution of NHWC activations `x` with
/// `[filter height, filter width, in, out]` weights `w`; each sum of products, in `u32`, is
/// shifted right by `shift` and saturated to `u8`.
///
/// It walks the output chunk by chunk and, for each output element, reads the input and weight
/// chunks that hold its inputs by coordinates inside them (`chunk_view_at`): no offset or
/// block arithmetic of its own.
///
/// # Errors
/// [`LayoutError::ShapeMismatch`] when the input channels differ or the filter is larger than
/// the image.
pub fn conv2d(
    x: &Tensor<u8, htp::R4CroutonLayout>,
    w: &Tensor<u8, htp::R4ConvWeightLayout>,
    shift: u32,
) -> Result<Tensor<u8, htp::R4CroutonLayout>, LayoutError> {
    let [batch, height, width, cin] = x.dims();
    let [fh, fw, w_cin, cout] = w.dims();
    if cin != w_cin || fh > height || fw > width {
        return Err(LayoutError::ShapeMismatch {
            source: w.dims().to_vec(),
            destination: x.dims().to_vec(),
        });
    }
    let out_dims = [batch, height - fh + 1, width - fw + 1, cout];
    let mut out = Tensor::<u8, htp::R4CroutonLayout>::try_zeros(out_dims)?;
    for mut chunk in out.chunk_views_mut() {
        let [b, h0, w0, c0] = chunk.origin();
        // The chunk's elements; the rest of its 8x8x32 box is padding and stays zero.
        let [_, rows, cols, channels] = chunk.dims();
        for row in 0..rows {
            for col in 0..cols {
                for ch in 0..channels {
                    let (oh, ow, oc) = (h0 + row, w0 + col, c0 + ch);
                    let mut acc = 0u32;
                    for kh in 0..fh {
                        for kw in 0..fw {
                            let (ih, iw) = (oh + kh, ow + kw);
                            // The input channels of pixel (ih, iw), a run inside one input
                            // chunk and one weight chunk at a time.
                            let mut ci = 0;
                            while ci < cin {
                                let (xs, [xb, xr, xc, x0]) = x.chunk_view_at([b, ih, iw, ci])?;
                                let (ws, [wh, ww, w0, wo]) = w.chunk_view_at([kh, kw, ci, oc])?;
                                let run = (xs.dims()[3] - x0).min(ws.dims()[2] - w0);
                                for k in 0..run {
                                    let xv = xs[[xb, xr, xc, x0 + k]];
                                    let wv = ws[[wh, ww, w0 + k, wo]];
                                    acc += u32::from(xv) * u32::from(wv);
                                }
                                ci += run;
                            }
                        }
                    }
                    chunk[[0, row, col, ch]] = (acc >> shift).min(255) as u8;
                }
            }
        }
    }
    Ok(out)
}

/// The same convolution on plain row-major data, written the obvious way: the reference.
pub fn conv2d_naive(
    x: &[u8],
    x_dims: [usize; 4],
    w: &[u8],
    w_dims: [usize; 4],
    shift: u32,
) -> Vec<u8> {
    let [batch, height, width, cin] = x_dims;
    let [fh, fw, _, cout] = w_dims;
    let (oh_n, ow_n) = (height - fh + 1, width - fw + 1);
    let mut out = Vec::with_capacity(batch * oh_n * ow_n * cout);
    for b in 0..batch {
        for oh in 0..oh_n {
            for ow in 0..ow_n {
                for oc in 0..cout {
                    let mut acc = 0u32;
                    for kh in 0..fh {
                        for kw in 0..fw {
                            for ci in 0..cin {
                                let xv = x[((b * height + oh + kh) * width + ow + kw) * cin + ci];
                                let wv = w[((kh * fw + kw) * cin + ci) * cout + oc];
                                acc += u32::from(xv) * u32::from(wv);
                            }
                        }
                    }
                    out.push((acc >> shift).min(255) as u8);
                }
            }
        }
    }
    out
}

/// Deterministic small pseudo-random bytes.
fn bytes(len: usize, seed: u32) -> Vec<u8> {
    let mut state = seed.wrapping_mul(2_654_435_761).max(1);
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state % 16) as u8
        })
        .collect()
}

fn main() -> Result<(), LayoutError> {
    let (x_dims, w_dims) = ([1, 10, 12, 40], [3, 3, 40, 50]);
    let x_rm = bytes(x_dims.iter().product(), 1);
    let w_rm = bytes(w_dims.iter().product(), 2);
    let x = Tensor::<u8, htp::R4FlatMemoryLayout>::from_row_major(x_dims, &x_rm)?
        .relayout::<htp::R4CroutonLayout>();
    let w = Tensor::<u8, FlatWeights>::from_row_major(w_dims, &w_rm)?
        .relayout::<htp::R4ConvWeightLayout>();
    let y = conv2d(&x, &w, 10)?;
    let doubled = add(&y, &y)?;
    println!("x {:?} -> padded {:?} (crouton)", x.dims(), x.padded_dims());
    println!(
        "w {:?} -> padded {:?} (conv weights)",
        w.dims(),
        w.padded_dims()
    );
    println!(
        "y {:?}, {} output chunks; y[0,0,0,0..4] = {:?}",
        y.dims(),
        y.chunks().count(),
        &y.to_row_major()[..4]
    );
    println!("y + y: [0,0,0,0] = {}", doubled[[0, 0, 0, 0]]);
    assert_eq!(
        y.to_row_major(),
        conv2d_naive(&x_rm, x_dims, &w_rm, w_dims, 10)
    );
    println!("equal to the naive row-major convolution");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_conv(x_dims: [usize; 4], w_dims: [usize; 4], shift: u32) {
        let x_rm = bytes(x_dims.iter().product(), 7);
        let w_rm = bytes(w_dims.iter().product(), 11);
        let x = Tensor::<u8, htp::R4FlatMemoryLayout>::from_row_major(x_dims, &x_rm).unwrap();
        let w = Tensor::<u8, FlatWeights>::from_row_major(w_dims, &w_rm).unwrap();
        let y = conv2d(&x.relayout(), &w.relayout(), shift).unwrap();
        assert_eq!(
            y.to_row_major(),
            conv2d_naive(&x_rm, x_dims, &w_rm, w_dims, shift),
            "{x_dims:?} * {w_dims:?}"
        );
        // The output's padding stays zero.
        let m = *y.mapping();
        assert!(
            y.as_raw()
                .iter()
                .enumerate()
                .all(|(o, &v)| !m.is_padding(o) || v == 0)
        );
    }

    #[test]
    fn conv2d_walking_chunks_equals_the_naive_convolution() {
        check_conv([1, 10, 12, 40], [3, 3, 40, 50], 6);
        check_conv([2, 9, 9, 32], [1, 1, 32, 32], 4);
        check_conv([1, 17, 8, 70], [2, 3, 70, 33], 8);
        check_conv([1, 3, 3, 1], [3, 3, 1, 1], 0);
    }

    #[test]
    fn conv2d_rejects_mismatched_channels() {
        let x = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 32]);
        let w = Tensor::<u8, htp::R4ConvWeightLayout>::zeros([3, 3, 16, 32]);
        assert!(matches!(
            conv2d(&x, &w, 0),
            Err(LayoutError::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn add_is_element_wise_in_any_layout() {
        let a = Tensor::<u16, htp::R4Crouton2x2Layout>::from_fn([1, 9, 5, 33], |[_, h, w, c]| {
            (h * 100 + w * 40 + c) as u16
        });
        let b =
            Tensor::<u16, htp::R4Crouton2x2Layout>::from_fn([1, 9, 5, 33], |[_, _, _, c]| c as u16);
        let sum = add(&a, &b).unwrap();
        let expected: Vec<u16> = a.iter().zip(b.iter()).map(|(x, y)| x + y).collect();
        assert_eq!(sum.to_row_major(), expected);
        let other = Tensor::<u16, htp::R4Crouton2x2Layout>::zeros([1, 9, 5, 32]);
        assert!(add(&a, &other).is_err());
    }
}

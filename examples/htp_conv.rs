//! A quantized 3x3 convolution on the Qualcomm HTP tensor model, written chunk by chunk.
//!
//! Activations are `u8` in `R4CroutonLayout` (NHWC, 8x8x32 crouton chunks) read through a
//! `ScaleOffset`; weights are `u8` in `R4ConvWeightLayout` (HWIO, chunks of 32 input by 32
//! output channels); sums are `i32`; the output is requantized to `u8` croutons whose padding
//! holds the output's zero point. The kernel never computes an offset itself: it asks for the
//! chunk that holds an element and the element's coordinates inside it (`chunk_view_at`),
//! reads chunks by those coordinates (`offset_in_chunk`, padding included: padding holds the
//! zero point, so a partial last channel block needs no special case), and takes its loop
//! bounds from the layouts' `CHUNK_SHAPE` constants, so the inner loops have constant trip
//! counts.
//!
//! `cargo run --release --example htp_conv` times it against the same convolution over flat
//! NHWC tensors indexed element by element, the two runs alternating; `cargo test --example
//! htp_conv` checks that both give the same bytes.

use std::hint::black_box;
use std::time::{Duration, Instant};
use tensor_layout::prelude::*;
use tensor_layout::quantized::RealValues;

type Activations = htp::R4CroutonLayout;
type Weights = htp::R4ConvWeightLayout;
/// HWIO weights without chunks, for the element-by-element reference.
type FlatWeights = chunked_layout![HWIO; 0,0, 1,0, 2,0, 3,0];
type Flat = htp::R4FlatMemoryLayout;

/// Rows, columns and channels of an activation chunk (8, 8, 32).
const ROWS: usize = Activations::CHUNK_SHAPE[1];
const COLS: usize = Activations::CHUNK_SHAPE[2];
const CHANNELS: usize = Activations::CHUNK_SHAPE[3];
/// Input and output channels of a weight chunk (32 by 32).
const IN: usize = Weights::CHUNK_SHAPE[2];
const OUT: usize = Weights::CHUNK_SHAPE[3];
const _: () = assert!(IN == CHANNELS && OUT == CHANNELS);

/// The output's stored value for a sum of products of stored-minus-offset values.
fn requantize(sum: i32, x: &ScaleOffset, w: &ScaleOffset, y: &ScaleOffset) -> u8 {
    let real = f64::from(sum) * f64::from(x.scale) * f64::from(w.scale);
    RealValues::<u8>::stored(y, real as f32, 0)
}

/// 3x3 convolution, stride 1, "same" padding (the input's zero point outside the image), chunk
/// by chunk: each output crouton sums, per 32-channel block of the input, a 10x10 window of
/// input pixels (the crouton and a one-pixel halo) against the 3x3 weight chunks of that block.
fn conv_chunked(
    x: &Tensor<u8, Activations, ScaleOffset>,
    w: &Tensor<u8, Weights, ScaleOffset>,
    y_interface: ScaleOffset,
) -> Tensor<u8, Activations, ScaleOffset> {
    let [batch, height, width, channels] = x.dims();
    let [3, 3, w_in, out_channels] = w.dims() else {
        panic!("3x3 weights expected, found {:?}", w.dims());
    };
    assert_eq!(w_in, channels, "weights' input channels");
    let (xq, wq) = (*x.interface(), *w.interface());
    let mut y = Tensor::zeros_with([batch, height, width, out_channels], y_interface);
    let mut window = [[[0i32; CHANNELS]; COLS + 2]; ROWS + 2];
    let mut taps = [[0i32; OUT]; IN];
    for number in 0..y.chunk_count() {
        let out = y
            .chunk_view(number)
            .expect("a chunk number below the count");
        let ([b, h0, w0, o0], dims) = (out.origin(), out.dims());
        let mut sums = [[[0i32; OUT]; COLS]; ROWS];
        for i0 in (0..channels).step_by(CHANNELS) {
            // The input's pixels around this crouton, as stored minus offset (0 outside).
            for (dr, row) in window.iter_mut().enumerate() {
                for (dc, pixel) in row.iter_mut().enumerate() {
                    pixel.fill(0);
                    let (Some(ih), Some(iw)) = ((h0 + dr).checked_sub(1), (w0 + dc).checked_sub(1))
                    else {
                        continue;
                    };
                    if ih >= height || iw >= width {
                        continue;
                    }
                    let (chunk, [lb, lr, lc, _]) = x
                        .chunk_view_at([b, ih, iw, i0])
                        .expect("an index inside the dims");
                    // Past the last channel the chunk's padding holds the zero point: 0 here.
                    for (k, value) in pixel.iter_mut().enumerate() {
                        let slot = Activations::offset_in_chunk([lb, lr, lc, k]);
                        *value = i32::from(chunk.as_raw()[slot]) - xq.offset;
                    }
                }
            }
            for (kh, kw) in (0..3).flat_map(|kh| (0..3).map(move |kw| (kh, kw))) {
                let (chunk, [lh, lw, ..]) = w
                    .chunk_view_at([kh, kw, i0, o0])
                    .expect("an index inside the dims");
                for (i, row) in taps.iter_mut().enumerate() {
                    for (o, tap) in row.iter_mut().enumerate() {
                        // Padding of the weights (past the last channel) holds their offset: 0.
                        let slot = Weights::offset_in_chunk([lh, lw, i, o]);
                        *tap = i32::from(chunk.as_raw()[slot]) - wq.offset;
                    }
                }
                for (r, sum_row) in sums.iter_mut().enumerate() {
                    for (c, sum) in sum_row.iter_mut().enumerate() {
                        let pixel = &window[r + kh][c + kw];
                        for (i, tap_row) in taps.iter().enumerate() {
                            let v = pixel[i];
                            for (o, s) in sum.iter_mut().enumerate() {
                                *s += v * tap_row[o];
                            }
                        }
                    }
                }
            }
        }
        let mut out = y.chunk_view_mut(number).expect("the same chunk");
        for r in 0..dims[1] {
            for c in 0..dims[2] {
                for o in 0..dims[3] {
                    out[[0, r, c, o]] = requantize(sums[r][c][o], &xq, &wq, &y_interface);
                }
            }
        }
    }
    y
}

/// The same convolution over flat NHWC activations and HWIO weights, element by element.
fn conv_flat(
    x: &Tensor<u8, Flat, ScaleOffset>,
    w: &Tensor<u8, FlatWeights, ScaleOffset>,
    y_interface: ScaleOffset,
) -> Tensor<u8, Flat, ScaleOffset> {
    let [batch, height, width, channels] = x.dims();
    let [_, _, _, out_channels] = w.dims();
    let (xq, wq) = (*x.interface(), *w.interface());
    let mut y = Tensor::zeros_with([batch, height, width, out_channels], y_interface);
    for b in 0..batch {
        for h in 0..height {
            for ww in 0..width {
                for o in 0..out_channels {
                    let mut sum = 0i32;
                    for kh in 0..3 {
                        for kw in 0..3 {
                            let (Some(ih), Some(iw)) =
                                ((h + kh).checked_sub(1), (ww + kw).checked_sub(1))
                            else {
                                continue;
                            };
                            if ih >= height || iw >= width {
                                continue;
                            }
                            for i in 0..channels {
                                let v = i32::from(x[[b, ih, iw, i]]) - xq.offset;
                                sum += v * (i32::from(w[[kh, kw, i, o]]) - wq.offset);
                            }
                        }
                    }
                    y[[b, h, ww, o]] = requantize(sum, &xq, &wq, &y_interface);
                }
            }
        }
    }
    y
}

/// Inputs of the given shape: activations and weights with values spread over their range.
fn inputs(
    [batch, height, width, channels]: [usize; 4],
    out_channels: usize,
) -> (
    Tensor<u8, Flat, ScaleOffset>,
    Tensor<u8, FlatWeights, ScaleOffset>,
) {
    let xq = ScaleOffset::new(0.05, 128);
    let wq = ScaleOffset::new(0.01, 120);
    let x = Tensor::<u8, Flat>::from_fn([batch, height, width, channels], |[b, h, w, c]| {
        ((b * 131 + h * 31 + w * 17 + c * 7) % 256) as u8
    })
    .with_interface(xq)
    .expect("a per-tensor interface fits");
    let w = Tensor::<u8, FlatWeights>::from_fn([3, 3, channels, out_channels], |[kh, kw, i, o]| {
        ((kh * 37 + kw * 11 + i * 5 + o * 3) % 251) as u8
    })
    .with_interface(wq)
    .expect("a per-tensor interface fits");
    (x, w)
}

/// The output's interface: scale and zero point of the requantized result.
const Y: ScaleOffset = ScaleOffset::new(0.5, 100);

fn main() {
    let (shape, out_channels) = ([1, 32, 32, 64], 64);
    let (x_flat, w_flat) = inputs(shape, out_channels);
    let x = x_flat.relayout::<Activations>();
    let w = w_flat.relayout::<Weights>();
    let check = conv_chunked(&x, &w, Y).relayout::<Flat>();
    assert_eq!(check.as_raw(), conv_flat(&x_flat, &w_flat, Y).as_raw());
    let (mut chunked, mut flat) = (Vec::new(), Vec::new());
    for _ in 0..21 {
        let start = Instant::now();
        black_box(conv_chunked(black_box(&x), black_box(&w), Y));
        chunked.push(start.elapsed());
        let start = Instant::now();
        black_box(conv_flat(black_box(&x_flat), black_box(&w_flat), Y));
        flat.push(start.elapsed());
    }
    let median = |mut times: Vec<Duration>| {
        times.sort_unstable();
        times[times.len() / 2]
    };
    let (chunked, flat) = (median(chunked), median(flat));
    println!(
        "quantized 3x3 convolution, {shape:?} -> {out_channels} channels, medians of 21 alternating runs"
    );
    println!(
        "chunk by chunk (crouton):        {:>10.3} ms",
        chunked.as_secs_f64() * 1e3
    );
    println!(
        "element by element (flat NHWC):  {:>10.3} ms",
        flat.as_secs_f64() * 1e3
    );
    println!(
        "flat / chunked:                  {:>10.2}",
        flat.as_secs_f64() / chunked.as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Odd shapes: partial croutons in every dim, partial channel blocks on both sides.
    #[test]
    fn chunked_equals_the_flat_reference() {
        for (shape, out_channels) in [
            ([1, 9, 13, 40], 48),
            ([2, 8, 8, 32], 32),
            ([1, 1, 17, 3], 5),
        ] {
            let (x_flat, w_flat) = inputs(shape, out_channels);
            let y = conv_chunked(&x_flat.relayout(), &w_flat.relayout(), Y);
            let reference = conv_flat(&x_flat, &w_flat, Y);
            assert_eq!(
                y.relayout::<Flat>().as_raw(),
                reference.as_raw(),
                "{shape:?}"
            );
            let padding = (0..y.storage_len()).filter(|&s| y.mapping().index_of(s).is_none());
            assert!(
                padding.into_iter().all(|s| y.as_raw()[s] == Y.offset as u8),
                "padding holds the zero point"
            );
        }
    }
}

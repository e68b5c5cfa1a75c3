//! The in-cache f32 transposes (NCHW <-> NHWC of 1x256x56x56: 3.2 MB a side, inside a 32 MiB
//! L3) against a transpose written by hand for that one shape, each alternating with memcpy of
//! the same bytes in rounds of its own (medians compared, as in `relayout_interleaved.rs`).
//!
//! The hand-written transpose is what a kernel author would write with AVX-512 for this
//! shape: 16 x 16 blocks of 4-byte elements, sixteen loads, four rounds of `vpermt2d`, sixteen
//! stores, in one of two loop orders: each destination row written whole before the next
//! (the order the library takes for these rows), or bands of 64 source rows swept across
//! all columns. It says how close to memcpy a transpose of this shape gets on the machine at
//! hand: the library's ratio is to be read against it.
//!
//! `cargo bench --bench transpose_by_hand` (x86-64 with AVX-512 F; elsewhere it says so and
//! measures nothing).

use std::hint::black_box;
use tensor_layout::axes::RelayoutFrom;
use tensor_layout::onednn;
use tensor_layout::prelude::*;

mod support;
use support::alternating::{calls_for, ratio, with_memcpy};

fn main() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        by_hand::run();
        return;
    }
    println!("transpose_by_hand: needs an x86-64 CPU with AVX-512 F; nothing measured");
}

#[cfg(target_arch = "x86_64")]
mod by_hand {
    use super::*;
    use std::arch::x86_64::{
        __m512i, _mm_sfence, _mm512_loadu_si512, _mm512_permutex2var_epi32, _mm512_setr_epi32,
        _mm512_setzero_si512, _mm512_storeu_si512, _mm512_stream_si512,
    };

    /// How the hand-written transpose visits its 16 x 16 blocks.
    #[derive(Clone, Copy, Debug)]
    enum Order {
        /// Each destination row whole: every column block of a row block in turn.
        RowsWhole,
        /// Bands of 64 source rows, each swept across all the columns.
        Bands64,
    }

    /// `dst` (`cols` rows of `rows`) = the transpose of `src` (`rows` rows of `cols`), both
    /// multiples of 16, in 16 x 16 blocks; with `stream`, every destination line by a
    /// non-temporal store (`dst` on 64 bytes), as for a destination past the caches.
    ///
    /// # Safety
    ///
    /// The CPU runs AVX-512 F; `src` and `dst` hold `rows * cols` elements.
    #[target_feature(enable = "avx512f")]
    unsafe fn transpose(
        src: &[f32],
        dst: &mut [f32],
        rows: usize,
        cols: usize,
        order: Order,
        stream: bool,
    ) {
        assert!(src.len() >= rows * cols && dst.len() >= rows * cols);
        assert!(rows.is_multiple_of(16) && cols.is_multiple_of(16));
        assert!(!stream || dst.as_ptr().addr().is_multiple_of(64));
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let firsts = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        let seconds =
            _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
        // Block at source row `r` and column `c`: row `r + i` in register `i`; four rounds of
        // the perfect shuffle make register `j` the block's column `c + j`.
        let block = |r: usize, c: usize| {
            let mut v = [_mm512_setzero_si512(); 16];
            for (i, register) in v.iter_mut().enumerate() {
                // SAFETY: row `r + i`, columns `c .. c + 16`, inside `src` (asserted above).
                *register = unsafe { _mm512_loadu_si512(s.add((r + i) * cols + c).cast()) };
            }
            for _ in 0..4 {
                let mut shuffled = [_mm512_setzero_si512(); 16];
                for k in 0..8 {
                    shuffled[2 * k] = _mm512_permutex2var_epi32(v[k], firsts, v[k + 8]);
                    shuffled[2 * k + 1] = _mm512_permutex2var_epi32(v[k], seconds, v[k + 8]);
                }
                v = shuffled;
            }
            for (j, register) in v.iter().enumerate() {
                let to = d.wrapping_add((c + j) * rows + r).cast::<__m512i>();
                // SAFETY: destination row `c + j`, columns `r .. r + 16`, inside `dst`; on 64
                // bytes where streamed (`dst` is, and `rows` is a multiple of 16).
                unsafe {
                    if stream {
                        _mm512_stream_si512(to, *register)
                    } else {
                        _mm512_storeu_si512(to, *register)
                    }
                };
            }
        };
        match order {
            Order::RowsWhole => {
                for c in (0..cols).step_by(16) {
                    for r in (0..rows).step_by(16) {
                        block(r, c);
                    }
                }
            }
            Order::Bands64 => {
                for band in (0..rows).step_by(64) {
                    for c in (0..cols).step_by(16) {
                        for r in (band..(band + 64).min(rows)).step_by(16) {
                            block(r, c);
                        }
                    }
                }
            }
        }
        if stream {
            // The streamed lines reach memory before anything after them.
            _mm_sfence();
        }
    }

    /// Each pair: the library, the hand-written transpose in each order, and memcpy, in turn:
    /// one image through the caches, then eight (25.7 MB a side) streamed past them.
    pub fn run() {
        println!(
            "| pair | library ÷ memcpy | by hand, rows whole ÷ memcpy | by hand, bands of 64 ÷ memcpy |"
        );
        println!("| --- | ---: | ---: | ---: |");
        for (images, stream) in [(1, false), (8, true)] {
            let dims = [images, 256, 56, 56];
            let nchw = Tensor::<f32, onednn::nchw>::from_fn(dims, |[n, c, h, w]| {
                (n * 1_000_000 + c * 10_000 + h * 100 + w) as f32
            });
            let nhwc: Tensor<f32, onednn::nhwc> = nchw.relayout();
            let shape = Shape {
                rows: 256,
                cols: 56 * 56,
                stream,
            };
            let name = format!("f32 {images}x256x56x56");
            measure(&format!("{name} nchw->nhwc"), &nchw, nhwc.clone(), shape);
            let back = Shape {
                rows: shape.cols,
                cols: shape.rows,
                ..shape
            };
            measure(&format!("{name} nhwc->nchw"), &nhwc, nchw.clone(), back);
        }
    }

    /// What the hand-written transpose moves in each image: `rows` rows of `cols`, streamed or
    /// not.
    #[derive(Clone, Copy)]
    struct Shape {
        rows: usize,
        cols: usize,
        stream: bool,
    }

    /// The hand-written transpose of every image of `src` into `dst`, in `order`.
    fn by_hand(src: &[f32], dst: &mut [f32], shape: Shape, order: Order) {
        let Shape { rows, cols, stream } = shape;
        let image = rows * cols;
        for (from, to) in src.chunks_exact(image).zip(dst.chunks_exact_mut(image)) {
            // SAFETY: AVX-512 F runs (`main` checked); both hold `rows * cols`; `to` starts on
            // 64 bytes (tensor storage is aligned to 128, images are multiples of 64 bytes).
            unsafe { transpose(from, to, rows, cols, order, stream) };
        }
    }

    /// Times `src.relayout_into(dst)` against the hand-written transpose of `src`'s storage
    /// (`shape`) in each order and memcpy of its bytes, after checking that the hand-written
    /// transposes write the library's bytes.
    fn measure<L1: Layout, L2: Layout<Index = L1::Index> + RelayoutFrom<L1>>(
        name: &str,
        src: &Tensor<f32, L1>,
        mut dst: Tensor<f32, L2>,
        shape: Shape,
    ) {
        let orders = [Order::RowsWhole, Order::Bands64];
        let source = src.as_raw();
        // Tensor storage: aligned, as the streaming stores need.
        let mut written = dst.clone();
        let by_hand_dst = written.as_raw_mut();
        for order in orders {
            by_hand_dst.fill(0.0);
            by_hand(source, by_hand_dst, shape, order);
            assert_eq!(
                by_hand_dst,
                dst.as_raw(),
                "{name}: the hand-written transpose ({order:?})"
            );
        }
        let (from, mut to) = (vec![1u8; source.len() * 4], vec![0u8; source.len() * 4]);
        let calls = calls_for(2 * source.len() * 4);
        // Each contender in rounds of its own with memcpy, its ratio to that memcpy
        // (`support/alternating.rs` says why).
        let library = ratio(with_memcpy(calls, &from, &mut to, || {
            black_box(src).relayout_into(black_box(&mut dst)).unwrap()
        }));
        let hand = orders.map(|order| {
            ratio(with_memcpy(calls, &from, &mut to, || {
                by_hand(
                    black_box(source),
                    black_box(&mut *by_hand_dst),
                    shape,
                    order,
                )
            }))
        });
        let [rows_whole, bands] = hand;
        println!("| {name} | {library:.2} | {rows_whole:.2} | {bands:.2} |");
    }
}

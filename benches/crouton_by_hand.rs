//! u8 HTP croutons (8 x 8 x 32 chunks) to and from flat NHWC (4x128x128x256: 16.8 MB a side)
//! against copies written by hand for that one shape, each alternating with memcpy of the
//! same bytes in rounds of its own (medians compared, as in `relayout_interleaved.rs`).
//!
//! Each chunk row is 32 channels of one position: 32 contiguous bytes on both sides, so the
//! relayout is a copy of 32-byte rows and the question is only the order. Written by hand
//! with AVX2, one 32-byte load and store per row, each row's offsets computed from its
//! coordinates: in chunk order (each chunk read whole, its rows written to 64 positions of
//! the flat tensor) and in flat order (each position's 256 bytes written whole, its eight rows
//! read from eight chunks; the library's order for both directions, which takes each row's
//! offsets from a listing instead). They say how close to memcpy such a copy gets on the
//! machine at hand: the library's ratio is to be read against them.
//!
//! `cargo bench --bench crouton_by_hand` (x86-64 with AVX2; elsewhere it says so and
//! measures nothing).

use std::hint::black_box;
use tensor_layout::axes::RelayoutFrom;
use tensor_layout::htp::{R4CroutonLayout, R4FlatMemoryLayout};
use tensor_layout::prelude::*;

mod support;
use support::alternating::{calls_for, memcpy_buffers, ratio, with_memcpy};

fn main() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        by_hand::run();
        return;
    }
    println!("crouton_by_hand: needs an x86-64 CPU with AVX2; nothing measured");
}

#[cfg(target_arch = "x86_64")]
mod by_hand {
    use super::*;
    use std::arch::x86_64::{_mm256_loadu_si256, _mm256_storeu_si256};

    /// The logical dims, NHWC.
    const DIMS: [usize; 4] = [4, 128, 128, 256];
    /// Bytes of a chunk row (32 channels) and of a chunk (8 x 8 rows).
    const ROW: usize = 32;
    const CHUNK: usize = 8 * 8 * ROW;

    /// Which way the rows go.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Direction {
        CroutonToFlat,
        FlatToCrouton,
    }

    /// The order the hand-written copy takes.
    #[derive(Clone, Copy, Debug)]
    enum Order {
        /// Chunk by chunk, each read or written whole.
        Chunks,
        /// Position by position through the flat tensor.
        Flat,
    }

    /// Offset of row `(h % 8, w % 8)` of the chunk holding channel block `cb` of `(n, h, w)`.
    fn crouton_at(n: usize, h: usize, w: usize, cb: usize) -> usize {
        let [_, height, width, channels] = DIMS;
        let chunk = ((n * (height / 8) + h / 8) * (width / 8) + w / 8) * (channels / ROW) + cb;
        chunk * CHUNK + ((h % 8) * 8 + w % 8) * ROW
    }

    /// Offset of channel `c` of `(n, h, w)` in flat NHWC.
    fn flat_at(n: usize, h: usize, w: usize, c: usize) -> usize {
        let [_, height, width, channels] = DIMS;
        ((n * height + h) * width + w) * channels + c
    }

    /// Copies one 32-byte row, `crouton` to `flat` or back by `direction`.
    ///
    /// # Safety
    ///
    /// The CPU runs AVX2; both rows lie inside their buffers, of `s` and `d`.
    #[inline(always)]
    unsafe fn row(s: *const u8, d: *mut u8, crouton: usize, flat: usize, direction: Direction) {
        let (from, to) = match direction {
            Direction::CroutonToFlat => (crouton, flat),
            Direction::FlatToCrouton => (flat, crouton),
        };
        // SAFETY: passed on from the caller.
        unsafe { _mm256_storeu_si256(d.add(to).cast(), _mm256_loadu_si256(s.add(from).cast())) };
    }

    /// Every row from `src` to `dst`, `direction` and `order`, one 32-byte move each.
    ///
    /// # Safety
    ///
    /// The CPU runs AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn copy(src: &[u8], dst: &mut [u8], direction: Direction, order: Order) {
        let [images, height, width, channels] = DIMS;
        assert!(src.len() == images * height * width * channels && dst.len() == src.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let blocks = channels / ROW;
        match order {
            Order::Chunks => {
                for n in 0..images {
                    for h0 in (0..height).step_by(8) {
                        for w0 in (0..width).step_by(8) {
                            for cb in 0..blocks {
                                for h in h0..h0 + 8 {
                                    for w in w0..w0 + 8 {
                                        let (crouton, flat) =
                                            (crouton_at(n, h, w, cb), flat_at(n, h, w, cb * ROW));
                                        // SAFETY: both rows lie inside the tensor; AVX2 runs.
                                        unsafe { row(s, d, crouton, flat, direction) };
                                    }
                                }
                            }
                        }
                    }
                }
            }
            Order::Flat => {
                for n in 0..images {
                    for h in 0..height {
                        for w in 0..width {
                            for cb in 0..blocks {
                                let (crouton, flat) =
                                    (crouton_at(n, h, w, cb), flat_at(n, h, w, cb * ROW));
                                // SAFETY: both rows lie inside the tensor; AVX2 runs.
                                unsafe { row(s, d, crouton, flat, direction) };
                            }
                        }
                    }
                }
            }
        }
    }

    /// Both directions: the library, the hand-written copy in each order, and memcpy, in turn.
    pub fn run() {
        println!(
            "| pair | library ÷ memcpy | by hand, chunk order ÷ memcpy | by hand, flat order ÷ memcpy |"
        );
        println!("| --- | ---: | ---: | ---: |");
        let flat = Tensor::<u8, R4FlatMemoryLayout>::from_fn(DIMS, |[n, h, w, c]| {
            (n * 131 + h * 31 + w * 7 + c) as u8
        });
        let crouton: Tensor<u8, R4CroutonLayout> = flat.relayout();
        let name = "u8 4x128x128x256";
        measure(
            &format!("{name} crouton->flat"),
            &crouton,
            flat.clone(),
            Direction::CroutonToFlat,
        );
        measure(
            &format!("{name} flat->crouton"),
            &flat,
            crouton.clone(),
            Direction::FlatToCrouton,
        );
    }

    /// Times `src.relayout_into(dst)` against the hand-written copies of `src`'s storage in
    /// each order and memcpy of its bytes, after checking that they write the library's bytes.
    fn measure<L1: Layout, L2: Layout<Index = L1::Index> + RelayoutFrom<L1>>(
        name: &str,
        src: &Tensor<u8, L1>,
        mut dst: Tensor<u8, L2>,
        direction: Direction,
    ) {
        let orders = [Order::Chunks, Order::Flat];
        let source = src.as_raw();
        let mut written = vec![0u8; source.len()];
        let by_hand = |from: &[u8], to: &mut [u8], order: Order| {
            // SAFETY: AVX2 runs (`main` checked); `copy` checks the lengths.
            unsafe { copy(from, to, direction, order) }
        };
        for order in orders {
            written.fill(0);
            by_hand(source, &mut written, order);
            assert_eq!(written, dst.as_raw(), "{name}: by hand ({order:?})");
        }
        let (from, mut to) = memcpy_buffers(source.len());
        let calls = calls_for(2 * source.len());
        // Each contender in rounds of its own with memcpy, its ratio to that memcpy
        // (`support/alternating.rs` says why).
        let library = ratio(with_memcpy(calls, &from, &mut to, || {
            black_box(src).relayout_into(black_box(&mut dst)).unwrap()
        }));
        let [chunks, flat] = orders.map(|order| {
            ratio(with_memcpy(calls, &from, &mut to, || {
                by_hand(black_box(source), black_box(&mut *written), order)
            }))
        });
        println!("| {name} | {library:.2} | {chunks:.2} | {flat:.2} |");
    }
}

//! How close to memcpy a transpose's memory traffic alone gets: the plain transposes (NCHW <->
//! NHWC of 256 channels of 56 x 56) against the same cache lines loaded and stored in a
//! transpose's order without transposing them, each alternating with memcpy of the same bytes
//! in rounds of its own (medians compared, as in `relayout_interleaved.rs`).
//!
//! A transpose of `rows` x `cols` elements in blocks one cache line square (64 x 64 bytes,
//! 16 x 16 f32) loads each block's source lines and stores its destination lines. The lines
//! alone do exactly those loads and stores, the line loaded from source row `r + k` stored as
//! destination row `c + k`, with no shuffle between: what the memory system gives a transpose
//! that reads and writes whole lines in that order and with those prefetches, before any work
//! on the registers (other orders and prefetches may do better: the library's streamed f32
//! sweeps do). Two orders: each destination row block written across every source row before the next (the
//! destination one sequential run, the source a line from each of its rows), and each source
//! row block read across every column before the next (the source a few sequential runs, the
//! destination a line into each of its rows); each without and with the source lines of the
//! block two ahead prefetched. Destinations past the caches (eight images) are streamed, as the
//! library streams them. First of all, the same bytes copied line by line in address order
//! with the same kind of store: what those stores reach in a copy's order, the most any order
//! can give them (streamed, that is memory's write speed, while the memcpy it is compared
//! with may run from the last-level cache).
//!
//! `cargo bench --bench transpose_lines [-- FILTER...]` (x86-64 with AVX-512 F; elsewhere it
//! says so and measures nothing). Filters select the pairs whose names contain them.

use std::hint::black_box;
use tensor_layout::axes::RelayoutFrom;
use tensor_layout::onednn;
use tensor_layout::prelude::*;
use tensor_layout::tensors::Element;

mod support;
use support::alternating::{calls_for, ratio, with_memcpy};

fn main() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        lines_alone::run();
        return;
    }
    println!("transpose_lines: needs an x86-64 CPU with AVX-512 F; nothing measured");
}

#[cfg(target_arch = "x86_64")]
mod lines_alone {
    use super::*;
    use std::arch::x86_64::{
        _MM_HINT_T0, _mm_prefetch, _mm_sfence, _mm512_loadu_si512, _mm512_storeu_si512,
        _mm512_stream_si512,
    };

    /// The order the blocks are visited in.
    #[derive(Clone, Copy, Debug)]
    enum Order {
        /// Each destination row block across every source row.
        DestinationRows,
        /// Each source row block across every source column.
        SourceRows,
    }

    /// How the lines of one image move.
    #[derive(Clone, Copy)]
    struct Traffic {
        /// Source rows per image.
        rows: usize,
        /// Source columns (elements per source row).
        cols: usize,
        /// Bytes per element.
        size: usize,
        /// Destination lines by non-temporal stores.
        stream: bool,
        /// The order the blocks are visited in.
        order: Order,
        /// Prefetch the source lines of the block this many blocks ahead (0: none).
        ahead: usize,
    }

    /// The loads and stores of a transpose of `src` (`rows` x `cols`) into `dst` in blocks one
    /// line square, without the transposing: line `k` of a block's source lines is stored as
    /// its destination line `k`.
    ///
    /// # Safety
    ///
    /// The CPU runs AVX-512 F; `src` and `dst` hold `rows * cols * size` bytes; with
    /// `stream`, `dst` starts on 64 bytes.
    #[target_feature(enable = "avx512f")]
    unsafe fn lines(src: &[u8], dst: &mut [u8], traffic: Traffic) {
        let Traffic {
            rows,
            cols,
            size,
            stream,
            order,
            ahead,
        } = traffic;
        let line = 64 / size;
        assert!(src.len() >= rows * cols * size && dst.len() >= rows * cols * size);
        assert!(rows.is_multiple_of(line) && cols.is_multiple_of(line));
        assert!(!stream || dst.as_ptr().addr().is_multiple_of(64));
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let (row_blocks, col_blocks) = (rows / line, cols / line);
        // Block `b` in visiting order: its first source row and column.
        let at = |b: usize| match order {
            Order::DestinationRows => (b % row_blocks * line, b / row_blocks * line),
            Order::SourceRows => (b / col_blocks * line, b % col_blocks * line),
        };
        let blocks = row_blocks * col_blocks;
        for b in 0..blocks {
            if ahead > 0 && b + ahead < blocks {
                let (r, c) = at(b + ahead);
                for k in 0..line {
                    // A hint (it cannot fault): a source line of a block inside `src`.
                    _mm_prefetch::<_MM_HINT_T0>(s.wrapping_add(((r + k) * cols + c) * size).cast());
                }
            }
            let (r, c) = at(b);
            for k in 0..line {
                // SAFETY: source row `r + k`, columns `c .. c + line`, and destination row
                // `c + k`, columns `r .. r + line`, lie inside the buffers (asserted above);
                // streamed lines start on 64 bytes (`dst` does, rows are whole lines).
                unsafe {
                    let v = _mm512_loadu_si512(s.add(((r + k) * cols + c) * size).cast());
                    let to = d.add(((c + k) * rows + r) * size).cast();
                    if stream {
                        _mm512_stream_si512(to, v)
                    } else {
                        _mm512_storeu_si512(to, v)
                    }
                }
            }
        }
        if stream {
            // The streamed lines reach memory before anything after them.
            _mm_sfence();
        }
    }

    /// `src` copied into `dst` line by line in address order, streamed or not: the same
    /// stores as a transpose's, in the order a copy takes.
    ///
    /// # Safety
    ///
    /// The CPU runs AVX-512 F; with `stream`, `dst` starts on 64 bytes.
    #[target_feature(enable = "avx512f")]
    unsafe fn in_order(src: &[u8], dst: &mut [u8], stream: bool) {
        assert!(src.len() == dst.len() && src.len().is_multiple_of(64));
        assert!(!stream || dst.as_ptr().addr().is_multiple_of(64));
        for (from, to) in src.chunks_exact(64).zip(dst.chunks_exact_mut(64)) {
            // SAFETY: both lines are 64 bytes inside their buffers; a streamed line starts
            // on 64 bytes (`dst` does, and every line is 64 bytes long).
            unsafe {
                let v = _mm512_loadu_si512(from.as_ptr().cast());
                if stream {
                    _mm512_stream_si512(to.as_mut_ptr().cast(), v)
                } else {
                    _mm512_storeu_si512(to.as_mut_ptr().cast(), v)
                }
            }
        }
        if stream {
            _mm_sfence();
        }
    }

    /// The lines of every image of `src` into `dst`.
    fn each_image(src: &[u8], dst: &mut [u8], traffic: Traffic) {
        let image = traffic.rows * traffic.cols * traffic.size;
        for (from, to) in src.chunks_exact(image).zip(dst.chunks_exact_mut(image)) {
            // SAFETY: AVX-512 F runs (`main` checked); both hold one image; `to` starts on 64
            // bytes (tensor storage is aligned to 128, images are multiples of 64 bytes).
            unsafe { lines(from, to, traffic) };
        }
    }

    /// Each plain transpose, u8 and f32, streamed (eight images) and through the caches.
    pub fn run() {
        println!(
            "| pair | library | lines in address order (a copy) | lines, destination rows | the same, prefetched | lines, source rows | the same, prefetched |"
        );
        println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        let filters: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .collect();
        pairs::<u8>("u8", [4, 8], &filters);
        pairs::<f32>("f32", [1, 8], &filters);
    }

    /// NCHW -> NHWC and back for `T`, for each image count of `images` (eight streamed), of the
    /// pairs whose names contain one of `filters` (all, without filters).
    fn pairs<T>(type_name: &str, images: [usize; 2], filters: &[String])
    where
        T: Element + Default + Send + Sync + 'static + From<u8>,
    {
        for images in images {
            let dims = [images, 256, 56, 56];
            let nchw = Tensor::<T, onednn::nchw>::from_fn(dims, |[n, c, h, w]| {
                T::from((n * 7 + c * 5 + h * 3 + w) as u8)
            });
            let nhwc: Tensor<T, onednn::nhwc> = nchw.relayout();
            let traffic = Traffic {
                rows: 256,
                cols: 56 * 56,
                size: size_of::<T>(),
                stream: images == 8,
                order: Order::DestinationRows,
                ahead: 0,
            };
            let back = Traffic {
                rows: traffic.cols,
                cols: traffic.rows,
                ..traffic
            };
            for (name, traffic) in [("nchw->nhwc", traffic), ("nhwc->nchw", back)] {
                let name = format!("{type_name} {images}x256x56x56 {name}");
                if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
                    continue;
                }
                if name.ends_with("nchw->nhwc") {
                    measure(&name, &nchw, nhwc.clone(), traffic);
                } else {
                    measure(&name, &nhwc, nchw.clone(), traffic);
                }
            }
        }
    }

    /// Times `src.relayout_into(dst)` and the lines alone of its shape (`traffic`), in each
    /// order, without and with prefetches, each against memcpy of its bytes.
    fn measure<T, L1: Layout, L2: Layout<Index = L1::Index> + RelayoutFrom<L1>>(
        name: &str,
        src: &Tensor<T, L1>,
        mut dst: Tensor<T, L2>,
        traffic: Traffic,
    ) where
        T: Element + Default + Send + Sync + 'static,
    {
        let bytes = size_of_val(src.as_raw());
        // Tensor storage, aligned as the streaming stores need.
        let mut to_lines = Tensor::<u8, onednn::nchw>::zeros([1, 1, 1, bytes]);
        let from_lines = Tensor::<u8, onednn::nchw>::from_fn([1, 1, 1, bytes], |[.., i]| i as u8);
        let (from, mut to) = (vec![1u8; bytes], vec![0u8; bytes]);
        let calls = calls_for(2 * bytes);
        // Each contender in rounds of its own with memcpy, its ratio to that memcpy
        // (`support/alternating.rs` says why).
        let library = ratio(with_memcpy(calls, &from, &mut to, || {
            black_box(src).relayout_into(black_box(&mut dst)).unwrap()
        }));
        // SAFETY: AVX-512 F runs (`main` checked); `to_lines` is tensor storage, aligned to 128.
        let copy = ratio(with_memcpy(calls, &from, &mut to, || unsafe {
            in_order(
                black_box(from_lines.as_raw()),
                black_box(to_lines.as_raw_mut()),
                traffic.stream,
            )
        }));
        let mut cells = vec![format!("{library:.2}"), format!("{copy:.2}")];
        for order in [Order::DestinationRows, Order::SourceRows] {
            for ahead in [0, 2] {
                let traffic = Traffic {
                    order,
                    ahead,
                    ..traffic
                };
                let lines = ratio(with_memcpy(calls, &from, &mut to, || {
                    each_image(
                        black_box(from_lines.as_raw()),
                        black_box(to_lines.as_raw_mut()),
                        traffic,
                    )
                }));
                cells.push(format!("{lines:.2}"));
            }
        }
        println!("| {name} | {} |", cells.join(" | "));
    }
}

//! The NEON kernels against the portable ones: the blocks against the portable tile, whole
//! relayouts of plain elements (NEON) against the same relayouts of a non-plain type of the
//! same size (portable kernels), and which row copies stream (the streamed rows' result:
//! `rows`' tests, which run on every target).

use super::super::RowBlock;
use super::super::element::Opaque;
use super::super::reach::Reach;
use super::super::rows::stream_rows;
use super::super::tiles::planes;
use super::super::tiles::tests::{BLOCK_SHAPES, blocks_agree, line_start, under_miri};
use super::*;
use crate::relayout::tuning::CACHE_LINE;
use crate::relayout::{SAME_ORDER, Streaming, copy_streaming};
use crate::{Layout, Mapping};
use alloc::vec::Vec;
use core::fmt::Debug;

/// 4x4 blocks of 4-byte elements, 8x8 of 2-byte and 16x16 of bytes, and the narrower
/// micro-blocks of 2- and 1-byte elements (4 or 8 columns), against the portable tile
/// ([`blocks_agree`]): whole blocks, rows and columns past the last whole block, rows that are
/// whole lines (streamed where aligned), half lines in adjacent pairs, and packed blocks of
/// bytes that are one line.
#[test]
fn neon_blocks_equal_the_portable_tile() {
    fn each_shape<E: Block + Debug + PartialEq>(make: fn(usize) -> E) {
        // Under Miri (an aarch64 build interpreted, about a thousand times slower), a sample
        // that still reaches every block path: partial blocks, whole-line rows, half lines in
        // pairs, narrow micro-blocks, packed one-line byte blocks, tiles of a few rows.
        let mut shapes = under_miri(&BLOCK_SHAPES, &[1, 3, 9, 6, 13]);
        if !cfg!(miri) {
            shapes.extend([(17, 255, 1), (255, 17, 0), (64, 64, 0)]);
        }
        // SAFETY (both): NEON runs on every CPU this module is compiled for.
        blocks_agree(make, &shapes, false, "NEON", |t, stream| match stream {
            true => unsafe { planes::<E, Neon<true>>(t) },
            false => unsafe { planes::<E, Neon<false>>(t) },
        });
    }
    each_shape::<u32>(|i| (i * 7) as u32);
    each_shape::<u16>(|i| (i * 7) as u16);
    each_shape::<u8>(|i| (i * 7) as u8);
}

/// The relayout `A -> B` of `dims` of `src`, streamed as `streaming` says, into a destination
/// filled with `src[0]` that starts `misalign` elements past a cache line, padded with `pad`.
fn relayout<T, A, B>(
    dims: [usize; 4],
    src: &[T],
    pad: T,
    streaming: Streaming,
    misalign: usize,
) -> Vec<T>
where
    T: Copy + Send + Sync + 'static,
    A: Layout<Index = [usize; 4]> + Default,
    B: Layout<Index = [usize; 4]> + Default,
{
    let from = Mapping::<A>::new(dims).unwrap();
    let to = Mapping::<B>::new(dims).unwrap();
    let len = to.storage_len();
    let mut out = alloc::vec![src[0]; len + 2 * CACHE_LINE];
    let d = line_start(&out, misalign);
    let slots = &mut out[d..d + len];
    copy_streaming(&from, src, &to, slots, pad, &SAME_ORDER, Some(streaming));
    slots.to_vec()
}

/// Relayouts `A -> B` of `dims`, streaming and not, into a destination that starts on a cache
/// line and one element past it: of plain elements (the NEON kernels) and of the same bits as
/// a type that is not plain ([`Opaque`]: the portable kernels), which must agree slot for slot.
fn relayouts_agree<T, A, B>(dims: [usize; 4], of: fn(usize) -> T)
where
    T: Copy + Send + Sync + PartialEq + Debug + 'static,
    A: Layout<Index = [usize; 4]> + Default,
    B: Layout<Index = [usize; 4]> + Default,
{
    let plain: Vec<T> = (0..Mapping::<A>::new(dims).unwrap().storage_len())
        .map(|i| of(i + 1))
        .collect();
    let opaque: Vec<Opaque<T>> = plain.iter().map(|&v| Opaque(v)).collect();
    for streaming in [Streaming::ALL, Streaming::NONE] {
        for misalign in [0, 1] {
            let neon = relayout::<T, A, B>(dims, &plain, of(0), streaming, misalign);
            let portable = relayout::<_, A, B>(dims, &opaque, Opaque(of(0)), streaming, misalign);
            let portable: Vec<T> = portable.iter().map(|e| e.0).collect();
            assert_eq!(neon, portable, "{dims:?}, {streaming:?}, +{misalign}");
        }
    }
}

type Nchw = crate::onednn_layout!("nchw");
type Nhwc = crate::onednn_layout!("nhwc");
type NChw16c = crate::onednn_layout!("nChw16c");

/// Channels in and out of the last place on odd shapes (3, 17 and 255 channels; images one
/// pixel wide; rows of 12, 68 and 1020 bytes, off the line grid), and into 16-channel blocks,
/// for each element size with NEON blocks.
#[test]
fn neon_relayouts_of_odd_shapes_equal_the_portable_ones() {
    fn each_shape<T: Copy + Send + Sync + PartialEq + Debug + 'static>(of: fn(usize) -> T) {
        // Under Miri, one shape of each kind: 17 channels one pixel wide, 255 channels.
        let shapes = [
            [2, 3, 5, 7],
            [1, 17, 9, 1],
            [2, 17, 6, 5],
            [1, 255, 7, 1],
            [1, 255, 3, 11],
            [1, 255, 1, 3],
        ];
        for dims in under_miri(&shapes, &[1, 5]) {
            relayouts_agree::<T, Nchw, Nhwc>(dims, of);
            relayouts_agree::<T, Nhwc, Nchw>(dims, of);
            relayouts_agree::<T, Nchw, NChw16c>(dims, of);
        }
    }
    each_shape::<f32>(|v| v as f32);
    each_shape::<half::f16>(|v| half::f16::from_bits(v as u16));
    each_shape::<u8>(|v| (v * 13) as u8);
}

/// Rows of a whole line are streamed by `stnp`; rows of any other length are left to the
/// portable copies.
#[test]
fn only_rows_of_whole_lines_stream() {
    fn check<E: Element + Debug + PartialEq>(make: fn(usize) -> E) {
        let line = CACHE_LINE / size_of::<E>();
        let src: Vec<E> = (0..line).map(|i| make(i + 1)).collect();
        let mut dst = alloc::vec![make(0); line];
        let rows = [(0, 0)];
        let reach = Reach::of(&rows, &[(0, 0)]);
        let stream = E::row_streams().expect("NEON streams rows");
        for (cols, streamed) in [(0..line - 1, false), (0..line, true)] {
            let block = RowBlock {
                dst: &mut dst,
                d: 0,
                src: &src,
                s: 0,
                source_ahead: 0,
            };
            assert_eq!(
                stream_rows(block, &rows, cols.clone(), reach, stream, 0),
                streamed,
                "{cols:?}"
            );
        }
    }
    check::<u8>(|i| i as u8);
    check::<u16>(|i| i as u16);
    check::<u32>(|i| i as u32);
    check::<u64>(|i| i as u64);
}

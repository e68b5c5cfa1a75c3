//! The NEON kernels against the portable ones: the blocks against the portable tile, whole
//! relayouts of plain elements (NEON) against the same relayouts of a non-plain type of the
//! same size (portable kernels), and the streamed row copies against plain copies.

use super::super::reach::Reach;
use super::super::rows::{Destination, copy_listed_blocks, stream_rows};
use super::super::tile_batch::TileBatch;
use super::super::tiles::tests::{BLOCK_SHAPES, listings};
use super::super::tiles::{planes, portable_planes};
use super::super::{OneBlock, RowBlock};
use super::*;
use crate::relayout::tuning::CACHE_LINE;
use crate::relayout::{SAME_ORDER, Streaming, copy_streaming};
use crate::{Layout, Mapping};
use alloc::vec::Vec;
use bytemuck::Pod;
use core::fmt::Debug;

/// Where a buffer's first cache line starts, as an element index, plus `misalign` elements.
fn start<E>(buffer: &[E], misalign: usize) -> usize {
    let at = buffer.as_ptr().addr();
    (at.next_multiple_of(CACHE_LINE) - at) / size_of::<E>() + misalign
}

/// Tile batches of `rows x cols` (two tiles a call, the second past the first) through the
/// portable tile and through the NEON blocks, streamed and not, with the destination lines
/// found by their pitch and from the listing, the destination starting on a cache line and
/// one element past it.
fn blocks_agree<E: Block + Debug + PartialEq>(
    make: fn(usize) -> E,
    shapes: &[(usize, usize, usize)],
) {
    for &(n_rows, n_cols, gap) in shapes {
        let (rows, cols) = listings(n_rows, n_cols, gap);
        let (tile_src, tile_dst) = ((n_rows + 5) * n_cols + 7, n_rows * (n_cols + gap) + 9);
        let origins = [(0, 0), (tile_src, tile_dst)];
        let src: Vec<E> = (0..2 * tile_src + 1).map(make).collect();
        let reach = Reach::of(&rows, &cols);
        let len = 2 * tile_dst;
        let buffer = || alloc::vec![make(0); len + 2 * CACHE_LINE];
        for row_pitch in [Some(n_cols + gap), None] {
            let batch = TileBatch::listed(&origins, &rows, &cols, row_pitch);
            for misalign in [0, 1] {
                let mut want = buffer();
                let d = start(&want, misalign);
                portable_planes(Transposes::new(&mut want, d, &src, 1, batch, reach));
                let want = &want[d..d + len];
                for stream in [false, true] {
                    let mut got = buffer();
                    let d = start(&got, misalign);
                    // SAFETY: NEON runs on every CPU this module is compiled for.
                    unsafe {
                        if stream {
                            planes::<E, Neon<true>>(Transposes::new(
                                &mut got, d, &src, 1, batch, reach,
                            ));
                        } else {
                            planes::<E, Neon<false>>(Transposes::new(
                                &mut got, d, &src, 1, batch, reach,
                            ));
                        }
                    }
                    assert_eq!(
                        &got[d..d + len],
                        want,
                        "{n_rows} x {n_cols} + {gap}, pitch {row_pitch:?}, +{misalign}, \
                         stream {stream}"
                    );
                }
            }
        }
    }
}

/// 4x4 blocks of 4-byte elements, 8x8 of 2-byte and 16x16 of bytes, and the narrower
/// micro-blocks of 2- and 1-byte elements (4 or 8 columns), against the portable tile: whole
/// blocks, rows and columns past the last whole block, rows that are whole lines (streamed
/// where aligned), half lines in adjacent pairs, and packed blocks of bytes that are one line.
#[test]
fn neon_blocks_equal_the_portable_tile() {
    // Under Miri (an aarch64 build interpreted, about a thousand times slower), a sample that
    // still reaches every block path: partial blocks, whole-line rows, half lines in pairs,
    // narrow micro-blocks, packed one-line byte blocks, tiles of a few rows.
    let miri = [(33, 37, 3), (20, 4, 3), (32, 32, 0), (32, 4, 0), (5, 33, 3)];
    let more = [(17, 255, 1), (255, 17, 0), (64, 64, 0)];
    let shapes: Vec<_> = BLOCK_SHAPES.iter().chain(&more).copied().collect();
    let shapes = if cfg!(miri) { &miri[..] } else { &shapes };
    blocks_agree::<u32>(|i| (i * 7) as u32, shapes);
    blocks_agree::<u16>(|i| (i * 7) as u16, shapes);
    blocks_agree::<u8>(|i| (i * 7) as u8, shapes);
}

/// A 4-byte (or 2-, 1-byte) type that is not plain: it moves as `MaybeUninit` of its unit, by
/// the portable kernels.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(transparent)]
struct Opaque<T>(T);

/// Relayouts `A -> B` of `dims`, streaming and not, into a destination that starts on a cache
/// line and one element past it: of plain elements (the NEON kernels) and of the same bits as
/// a type that is not plain (the portable kernels), which must agree slot for slot.
fn relayouts_agree<T, A, B>(dims: [usize; 4], of: fn(usize) -> T)
where
    T: Copy + Send + Sync + PartialEq + Debug + 'static,
    A: Layout<Index = [usize; 4]> + Default,
    B: Layout<Index = [usize; 4]> + Default,
{
    let (src, dst) = (
        Mapping::<A>::new(dims).unwrap(),
        Mapping::<B>::new(dims).unwrap(),
    );
    let plain: Vec<T> = (0..src.storage_len()).map(|i| of(i + 1)).collect();
    let opaque: Vec<Opaque<T>> = plain.iter().map(|&v| Opaque(v)).collect();
    let len = dst.storage_len();
    for streaming in [Streaming::ALL, Streaming::NONE] {
        for misalign in [0, 1] {
            let mut neon = alloc::vec![of(0xBEEF); len + 2 * CACHE_LINE];
            let d = start(&neon, misalign);
            let out = &mut neon[d..d + len];
            copy_streaming(&src, &plain, &dst, out, of(0), &SAME_ORDER, Some(streaming));
            let mut portable = alloc::vec![Opaque(of(0xBEEF)); len + 2 * CACHE_LINE];
            let d = start(&portable, misalign);
            let expected = &mut portable[d..d + len];
            let pad = Opaque(of(0));
            copy_streaming(
                &src,
                &opaque,
                &dst,
                expected,
                pad,
                &SAME_ORDER,
                Some(streaming),
            );
            let expected: Vec<T> = expected.iter().map(|e| e.0).collect();
            assert_eq!(out, &expected[..], "{dims:?}, {streaming:?}, +{misalign}");
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
    fn each_shape<T>(of: fn(usize) -> T)
    where
        T: Copy + Send + Sync + PartialEq + Debug + 'static,
    {
        let shapes: &[[usize; 4]] = if cfg!(miri) {
            // Under Miri, one shape of each kind: 17 channels one pixel wide, 255 channels.
            &[[1, 17, 9, 1], [1, 255, 1, 3]]
        } else {
            &[
                [2, 3, 5, 7],
                [1, 17, 9, 1],
                [2, 17, 6, 5],
                [1, 255, 7, 1],
                [1, 255, 3, 11],
            ]
        };
        for &dims in shapes {
            relayouts_agree::<T, Nchw, Nhwc>(dims, of);
            relayouts_agree::<T, Nhwc, Nchw>(dims, of);
            relayouts_agree::<T, Nchw, NChw16c>(dims, of);
        }
    }
    each_shape::<f32>(|v| v as f32);
    each_shape::<half::f16>(|v| half::f16::from_bits(v as u16));
    each_shape::<u8>(|v| (v * 13) as u8);
}

/// Rows of 64 bytes (one to a line) and 32 bytes (two, adjacent or not), streamed by `stnp`
/// where whole aligned lines, equal copies one row at a time; rows of any other length are
/// left to the portable copies.
#[test]
fn streamed_rows_equal_plain_copies() {
    fn check<E: Element + Pod + Debug + PartialEq>(make: fn(usize) -> E) {
        let line = CACHE_LINE / size_of::<E>();
        let src: Vec<E> = (0..8 * line).map(|i| make(i + 1)).collect();
        for (n, rows) in [
            // Whole lines: on the grid, and one element off it.
            (line, alloc::vec![(0, 0), (3, line), (7, 2 * line + 1)]),
            // Half lines: a pair side by side, a pair apart, one left over.
            (
                line / 2,
                alloc::vec![
                    (0, 0),
                    (2, line / 2),
                    (9, 2 * line),
                    (5, 4 * line),
                    (1, 5 * line)
                ],
            ),
        ] {
            let reach = Reach::of(&rows, &[(0, 0)]);
            let mut dst = alloc::vec![make(0); 8 * line];
            let d = start(&dst, 0);
            let mut one = OneBlock(RowBlock {
                dst: &mut dst[..],
                d,
                src: &src,
                s: 1,
                source_ahead: 0,
            });
            copy_listed_blocks(&mut one, &rows, 0..n, reach, Destination::FarLines, 16);
            let mut want = alloc::vec![make(0); 8 * line];
            for &(from, to) in &rows {
                want[d + to..d + to + n].copy_from_slice(&src[1 + from..1 + from + n]);
            }
            assert_eq!(dst, want, "rows of {n}");
        }
        let mut dst = alloc::vec![make(0); 8 * line];
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
            assert_eq!(stream_rows(block, &rows, cols, reach, stream, 0), streamed);
        }
    }
    check::<u8>(|i| i as u8);
    check::<u16>(|i| i as u16);
    check::<u32>(|i| i as u32);
    check::<u64>(|i| i as u64);
}

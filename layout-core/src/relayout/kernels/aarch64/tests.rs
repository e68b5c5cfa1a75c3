//! The NEON blocks against the portable tile, and which row copies stream (their result is
//! checked by `rows`' tests, whole relayouts by the relayout's own).

use super::super::RowBlock;
use super::super::element::Element;
use super::super::reach::Reach;
use super::super::rows::stream_rows;
use super::super::tiles::planes;
use super::super::tiles::tests::{BLOCK_SHAPES, blocks_agree};
use super::*;
use crate::relayout::test_layouts::under_miri;
use crate::relayout::tuning::CACHE_LINE;
use alloc::vec::Vec;
use core::fmt::Debug;

/// The blocks of each element size and the narrower micro-blocks against the portable tile
/// ([`blocks_agree`]): partial blocks, whole-line rows (streamed where aligned), half lines in
/// adjacent pairs, and packed one-line blocks of bytes.
#[test]
fn neon_blocks_equal_the_portable_tile() {
    fn each_shape<E: Block + Debug + PartialEq>(make: fn(usize) -> E) {
        // Under Miri, a sample that still reaches every block path.
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
            let got = stream_rows(block, &rows, cols.clone(), reach, stream, 0);
            assert_eq!(got, streamed, "{cols:?}");
        }
    }
    check::<u8>(|i| i as u8);
    check::<u16>(|i| i as u16);
    check::<u32>(|i| i as u32);
    check::<u64>(|i| i as u64);
}

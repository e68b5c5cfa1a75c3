//! Exposes the offset functions the `offset` benchmark measures as plain symbols, so their
//! machine code can be read:
//!
//! ```text
//! cargo build --release --example offset_asm
//! objdump -d --no-show-raw-insn -M intel target/release/examples/offset_asm \
//!     | awk '/<crouton_offset>:/,/ret/'
//! ```
//!
//! `docs/performance.md` shows what it prints: shifts, masks and multiplies by the per-dims
//! strides, no division and no loop, and the same instruction count as the hand-written
//! formulas (`crouton_by_hand`, ...) from `benches/hand_written.rs`.

use std::hint::black_box;
use tensor_layout::prelude::*;

#[path = "../benches/support/hand_written.rs"]
mod hand_written;
use hand_written::Strides;

/// Offset of an R4CroutonLayout index.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn crouton_offset(m: &Mapping<htp::R4CroutonLayout>, index: [usize; 4]) -> usize {
    m.offset(index)
}

/// Offset of an R4Crouton2x2Layout index.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn crouton2x2_offset(m: &Mapping<htp::R4Crouton2x2Layout>, index: [usize; 4]) -> usize {
    m.offset(index)
}

/// Offset of an R4ConvWeightLayout index.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn conv_weight_offset(m: &Mapping<htp::R4ConvWeightLayout>, index: [usize; 4]) -> usize {
    m.offset(index)
}

/// The hand-written R4CroutonLayout formula.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn crouton_by_hand(s: &Strides, index: [usize; 4]) -> usize {
    hand_written::crouton_by_hand(s, index)
}

/// The hand-written R4Crouton2x2Layout formula.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn crouton2x2_by_hand(s: &Strides, index: [usize; 4]) -> usize {
    hand_written::crouton2x2_by_hand(s, index)
}

/// The hand-written R4ConvWeightLayout formula.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn conv_weight_by_hand(s: &Strides, index: [usize; 4]) -> usize {
    hand_written::conv_weight_by_hand(s, index)
}

/// The sum of column `col` of a crouton chunk (8 rows x 32 channels), read through the layout's
/// in-chunk offsets from an array of the chunk's volume: the loops over the chunk's constant
/// shape unroll, and every offset is a constant plus `col * 32`.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn crouton_chunk_column_sum(
    chunk: &[u8; htp::R4CroutonLayout::CHUNK_VOLUME],
    col: usize,
) -> u32 {
    const SHAPE: [usize; 4] = htp::R4CroutonLayout::CHUNK_SHAPE;
    let mut sum = 0;
    for row in 0..SHAPE[1] {
        for ch in 0..SHAPE[3] {
            let at = htp::R4CroutonLayout::offset_in_chunk([0, row, col % SHAPE[2], ch]);
            sum += u32::from(chunk[at]);
        }
    }
    sum
}

/// The same over a 2x2 crouton (`1,4, 2,4, 3,32, 1,2, 2,2`), whose rows and columns interleave
/// inside the chunk: the in-chunk offsets are still constants and shifts.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn crouton2x2_chunk_column_sum(
    chunk: &[u8; htp::R4Crouton2x2Layout::CHUNK_VOLUME],
    col: usize,
) -> u32 {
    const SHAPE: [usize; 4] = htp::R4Crouton2x2Layout::CHUNK_SHAPE;
    let mut sum = 0;
    for row in 0..SHAPE[1] {
        for ch in 0..SHAPE[3] {
            let at = htp::R4Crouton2x2Layout::offset_in_chunk([0, row, col % SHAPE[2], ch]);
            sum += u32::from(chunk[at]);
        }
    }
    sum
}

fn main() {
    let dims = black_box([1, 64, 64, 256]);
    let a = crouton_offset(&Mapping::new(dims).unwrap(), black_box([0, 9, 17, 40]));
    let b = crouton2x2_offset(&Mapping::new(dims).unwrap(), black_box([0, 9, 17, 40]));
    let c = conv_weight_offset(
        &Mapping::new(black_box([3, 3, 256, 256])).unwrap(),
        black_box([1, 2, 40, 99]),
    );
    let s = black_box(Strides {
        outer: [1, 2, 3, 4],
    });
    let d = crouton_by_hand(&s, black_box([0, 9, 17, 40]))
        + crouton2x2_by_hand(&s, black_box([0, 9, 17, 40]))
        + conv_weight_by_hand(&s, black_box([1, 2, 40, 99]));
    println!("crouton {a}, crouton2x2 {b}, conv weight {c}, by hand (dummy strides) {d}");
    let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 8, 8, 32], |[_, h, w, c]| {
        (h + w + c) as u8
    });
    let chunk = t.chunk_view(0).unwrap();
    let column = crouton_chunk_column_sum(chunk.as_array(), black_box(3));
    let t2 = t.relayout::<htp::R4Crouton2x2Layout>();
    let column2 = crouton2x2_chunk_column_sum(t2.chunk_view(0).unwrap().as_array(), black_box(3));
    assert_eq!(column, column2);
    println!("column 3 of a crouton chunk sums to {column} in both chunk orders");
}

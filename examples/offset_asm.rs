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
}

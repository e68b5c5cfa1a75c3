//! NEON transpose blocks for the plain 1-, 2- and 4-byte element types (aarch64 only).
//!
//! The portable tile ([`Portable`](super::super::tiles::Portable)) moves one element per load
//! and store; these blocks move 16 bytes per instruction instead. NEON (Advanced SIMD) is part
//! of every aarch64 CPU that runs a general-purpose OS (the targets enable it), so nothing is
//! detected at run time.
//!
//! A micro-block of `N` source lines of `L` elements (one 128-bit register each,
//! `L = 16 / size`) is transposed by `log2(N)` rounds of the perfect shuffle (`zip1`/`zip2` of
//! the first half of the registers with the second, element by element), after which register
//! `k` holds destination lines `k * L / N ..` of `N` elements each: a 4x4 block of 4-byte
//! elements in 2 rounds of 4 permutes, 8x8 of 2-byte ones in 3 rounds of 8, 16x16 bytes in 4
//! rounds of 16. The same rounds as the x86-64 SSE2 blocks (`unpacklo`/`unpackhi`), so both
//! ISAs cut blocks the same way.
//!
//! Only plain element types take this path (see [`by_size`](crate::relayout::by_size)).

use super::super::tiles::BlockMove;
use super::lines::{bytes_of, load, store, write_line};
use crate::relayout::lines::Lines;
use crate::relayout::tuning::ROWS;
use bytemuck::Pod;
use core::arch::aarch64::{
    uint8x16_t, vdupq_n_u8, vreinterpretq_u8_u16, vreinterpretq_u8_u32, vreinterpretq_u16_u8,
    vreinterpretq_u32_u8, vzip1q_u8, vzip1q_u16, vzip1q_u32, vzip2q_u8, vzip2q_u16, vzip2q_u32,
};

/// Blocks moved through NEON registers; with `STREAM`, destination lines that are a whole
/// aligned cache line are written with `stnp` (a hint to write them past the caches).
pub(crate) struct Neon<const STREAM: bool>;

impl<E: Block, const STREAM: bool> BlockMove<E> for Neon<STREAM> {
    const STREAMS: bool = STREAM;

    /// # Safety
    ///
    /// As [`BlockMove::block`]: every listed line lies inside its slice.
    #[inline(always)]
    unsafe fn block<const COLS: usize, L: Lines>(
        dst: &mut [E],
        d: usize,
        rows: L,
        src: &[E],
        s: usize,
        cols: &[(usize, usize); COLS],
    ) {
        // SAFETY (all three): passed on from the caller.
        unsafe {
            match COLS.min(E::LANES) {
                16 => micro_blocks::<E, L, COLS, 16, STREAM>(dst, d, rows, src, s, cols),
                8 => micro_blocks::<E, L, COLS, 8, STREAM>(dst, d, rows, src, s, cols),
                _ => micro_blocks::<E, L, COLS, 4, STREAM>(dst, d, rows, src, s, cols),
            }
        }
    }
}

/// An unsigned integer that fills a 128-bit register `LANES` times, with the two halves of the
/// perfect shuffle of its elements (`zip1` and `zip2` of its size).
pub(crate) trait Block: Pod {
    /// Elements per register.
    const LANES: usize;
    /// The first halves of `a` and `b`, element by element (`zip1`).
    fn low(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t;
    /// The second halves of `a` and `b`, element by element (`zip2`).
    fn high(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t;
}

/// `Block` for unsigned types: lanes, their `zip1` and `zip2`, and the reinterpretations of a
/// byte register as a register of them and back (free: the same bits).
macro_rules! block_for {
    ($($int:ty: $lanes:literal, $zip1:ident, $zip2:ident, $to:ident, $back:ident;)+) => {$(
        impl Block for $int {
            const LANES: usize = $lanes;

            #[inline(always)]
            fn low(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
                // SAFETY: NEON runs on every CPU this module is compiled for (module docs).
                unsafe { $back($zip1($to(a), $to(b))) }
            }

            #[inline(always)]
            fn high(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
                // SAFETY: as for `low`.
                unsafe { $back($zip2($to(a), $to(b))) }
            }
        }
    )+};
}

block_for! {
    u8: 16, vzip1q_u8, vzip2q_u8, as_bytes, as_bytes;
    u16: 8, vzip1q_u16, vzip2q_u16, vreinterpretq_u16_u8, vreinterpretq_u8_u16;
    u32: 4, vzip1q_u32, vzip2q_u32, vreinterpretq_u32_u8, vreinterpretq_u8_u32;
}

/// A byte register as itself (the reinterpretation of bytes, for `block_for`).
#[inline(always)]
fn as_bytes(register: uint8x16_t) -> uint8x16_t {
    register
}

/// A register of zero bits.
#[inline(always)]
fn zero() -> uint8x16_t {
    // SAFETY: NEON runs on every CPU this module is compiled for (see the module docs).
    unsafe { vdupq_n_u8(0) }
}

/// Registers in a 64-byte destination line.
const LINE_REGISTERS: usize = 4;

/// The block as micro-blocks of `N` columns by `E::LANES` rows, one register per source line.
///
/// # Safety
///
/// As [`BlockMove::block`]: every listed line lies inside its slice.
#[inline(always)]
unsafe fn micro_blocks<
    E: Block,
    L: Lines,
    const COLS: usize,
    const N: usize,
    const STREAM: bool,
>(
    dst: &mut [E],
    d: usize,
    rows: L,
    src: &[E],
    s: usize,
    cols: &[(usize, usize); COLS],
) {
    let lanes = E::LANES;
    if N < lanes {
        // SAFETY: passed on from the caller.
        return unsafe { narrow_micro_blocks::<E, L, COLS, N, STREAM>(dst, d, rows, src, s, cols) };
    }
    // Rows of a whole cache line go past the caches when they start on one; so do rows of
    // half a line whose next row follows them.
    let stream = <Neon<STREAM> as BlockMove<E>>::streams::<COLS>();
    let paired = <Neon<STREAM> as BlockMove<E>>::streams_pairs::<COLS>();
    for r in (0..ROWS).step_by(lanes) {
        if !stream && !paired {
            // Each micro-block's lines are stored as soon as they are transposed: fewest
            // registers live.
            for c in (0..COLS).step_by(N) {
                // SAFETY: each source line `s + col.0 ..` holds `ROWS` elements (the caller's
                // promise) and `r + LANES <= ROWS`.
                let v = unsafe { transposed::<E, N>(src, s + r, &cols[c..c + N]) };
                for (k, register) in v.into_iter().enumerate() {
                    // SAFETY: the destination line at `d + rows.at(r + k)` holds `COLS`
                    // elements (the caller's promise); this register fills its elements
                    // `c .. c + N`.
                    unsafe { store(dst, d + rows.at(r + k) + c, register) };
                }
            }
            continue;
        }
        // Every column block of these rows is transposed first, then each destination line is
        // written whole, so that `stnp` writes whole lines.
        let mut lines = [[zero(); LINE_REGISTERS]; N];
        for (b, c) in (0..COLS).step_by(N).enumerate() {
            // SAFETY: as above.
            let v = unsafe { transposed::<E, N>(src, s + r, &cols[c..c + N]) };
            for (line, register) in lines.iter_mut().zip(v) {
                line[b] = register;
            }
        }
        if stream {
            for (k, line) in lines.iter().enumerate() {
                // SAFETY: the destination line at `d + rows.at(r + k)` holds `COLS` elements
                // (the caller's promise), which are 64 bytes (`streams::<COLS>`).
                unsafe { write_line(dst, d + rows.at(r + k), line, true) };
            }
            continue;
        }
        // Paired: two registers per row, 32 bytes.
        for k in (0..N).step_by(2) {
            let (at, next) = (d + rows.at(r + k), d + rows.at(r + k + 1));
            let (this, that) = (&lines[k], &lines[k + 1]);
            if next == at + COLS {
                // SAFETY: the two rows' lines (`COLS` elements each, inside `dst` by the
                // caller's promise) are adjacent: 64 bytes from `at`.
                let line = [this[0], this[1], that[0], that[1]];
                unsafe { write_line(dst, at, &line, true) };
            } else {
                for (at, line) in [(at, this), (next, that)] {
                    // SAFETY: each line holds `COLS = 2 * N` elements (the caller's promise).
                    unsafe {
                        store(dst, at, line[0]);
                        store(dst, at + N, line[1]);
                    }
                }
            }
        }
    }
}

/// Micro-blocks narrower than a register (`N < E::LANES`, so `COLS == N`): each register holds
/// `LANES / N` destination lines, stored at once where they are adjacent. With `STREAM`, a
/// block that is one whole 64-byte destination line (16 rows of 4 bytes, adjacent: u8
/// flat->crouton2x2's 16 channels of a 2x2 pixel tile) goes past the caches where it starts
/// on a cache line.
///
/// # Safety
///
/// As [`BlockMove::block`]: every listed line lies inside its slice.
#[inline(always)]
unsafe fn narrow_micro_blocks<
    E: Block,
    L: Lines,
    const COLS: usize,
    const N: usize,
    const STREAM: bool,
>(
    dst: &mut [E],
    d: usize,
    rows: L,
    src: &[E],
    s: usize,
    cols: &[(usize, usize); COLS],
) {
    let lanes = E::LANES;
    let per_register = lanes / N;
    let one_line = <Neon<STREAM> as BlockMove<E>>::streams_block_lines::<COLS>() && COLS == N;
    if one_line && lines_follow(rows, 0, ROWS, COLS) {
        // SAFETY: as in `micro_blocks`; the block's `ROWS` lines of `COLS` elements follow one
        // another from `d + rows.at(0)`, inside `dst` (the caller's promise): 64 bytes.
        unsafe {
            let v = transposed::<E, N>(src, s, &cols[..N]);
            let line = [v[0], v[1], v[2], v[3]];
            return write_line(dst, d + rows.at(0), &line, true);
        }
    }
    for r in (0..ROWS).step_by(lanes) {
        for c in (0..COLS).step_by(N) {
            // SAFETY: as in `micro_blocks`.
            let v = unsafe { transposed::<E, N>(src, s + r, &cols[c..c + N]) };
            for (k, register) in v.iter().enumerate() {
                let first_line = r + k * per_register;
                let first = rows.at(first_line);
                if lines_follow(rows, first_line, per_register, N) {
                    // SAFETY: the register's `per_register` lines of `N` elements follow one
                    // another from `d + first + c`, each inside `dst` (the caller's promise):
                    // `lanes` elements.
                    unsafe { store(dst, d + first + c, *register) };
                    continue;
                }
                let lines: [E; 16] = lanes_of(*register);
                for j in 0..per_register {
                    let at = d + rows.at(first_line + j) + c;
                    dst[at..at + N].copy_from_slice(&lines[j * N..(j + 1) * N]);
                }
            }
        }
    }
}

/// The elements of a register, in the first `16 / size` slots of the result.
#[inline(always)]
fn lanes_of<E: Pod>(register: uint8x16_t) -> [E; 16] {
    let mut out = [E::zeroed(); 16];
    let n = 16 / size_of::<E>();
    bytemuck::cast_slice_mut::<E, u8>(&mut out[..n]).copy_from_slice(&bytes_of(register));
    out
}

/// Whether `count` lines from line `first` of `rows` follow one another `apart` elements apart:
/// from the pitch where the rows have one, else line by line.
#[inline(always)]
fn lines_follow<L: Lines>(rows: L, first: usize, count: usize, apart: usize) -> bool {
    if let Some(pitch) = rows.pitch() {
        return count < 2 || pitch == apart;
    }
    let start = rows.at(first);
    (1..count).all(|j| rows.at(first + j) == start + j * apart)
}

/// `N` source lines of `E::LANES` elements (at `s + col.0` for each of `cols`) transposed by
/// `log2(N)` perfect-shuffle rounds: register `k` then holds destination lines
/// `k * LANES / N ..`, `N` elements each.
///
/// # Safety
///
/// `s + col.0 + E::LANES <= src.len()` for the first `N` of `cols`.
#[inline(always)]
unsafe fn transposed<E: Block, const N: usize>(
    src: &[E],
    s: usize,
    cols: &[(usize, usize)],
) -> [uint8x16_t; N] {
    let mut v = [zero(); N];
    for (register, col) in v.iter_mut().zip(cols) {
        // SAFETY: `E::LANES` elements of `E` are 16 bytes, inside `src` from `s + col.0` (the
        // caller's promise).
        *register = unsafe { load(src, s + col.0) };
    }
    shuffle_rounds::<E, N>(v)
}

/// `log2(N)` rounds of the perfect shuffle on `v`, each interleaving the first half of the
/// registers with the second, element by element.
#[inline(always)]
fn shuffle_rounds<E: Block, const N: usize>(v: [uint8x16_t; N]) -> [uint8x16_t; N] {
    // Every round written out on arrays indexed by constants, so that the registers stay
    // registers (as the x86-64 blocks do, for the same reason).
    macro_rules! round {
        ($v:ident, $half:literal: $($i:literal)+) => {
            [$(E::low($v[$i], $v[$i + $half]), E::high($v[$i], $v[$i + $half])),+]
        };
    }
    match N {
        16 => {
            let v: [uint8x16_t; 16] = resized(v);
            let v = round!(v, 8: 0 1 2 3 4 5 6 7);
            let v = round!(v, 8: 0 1 2 3 4 5 6 7);
            let v = round!(v, 8: 0 1 2 3 4 5 6 7);
            resized(round!(v, 8: 0 1 2 3 4 5 6 7))
        }
        8 => {
            let v: [uint8x16_t; 8] = resized(v);
            let v = round!(v, 4: 0 1 2 3);
            let v = round!(v, 4: 0 1 2 3);
            resized(round!(v, 4: 0 1 2 3))
        }
        4 => {
            let v: [uint8x16_t; 4] = resized(v);
            let v = round!(v, 2: 0 1);
            resized(round!(v, 2: 0 1))
        }
        _ => unreachable!("micro-blocks of 4, 8 or 16 lines"),
    }
}

/// `v` as an array of `M` registers, where `M == N` (the arms of `shuffle_rounds`).
#[inline(always)]
fn resized<const N: usize, const M: usize>(v: [uint8x16_t; N]) -> [uint8x16_t; M] {
    let fixed: &[uint8x16_t; M] = v[..].try_into().expect("arrays of the same length");
    *fixed
}

//! SSE2 transpose blocks for the plain 1-, 2- and 4-byte element types (x86-64 only).
//!
//! LLVM turns the portable tile ([`Portable`](super::super::tiles::Portable)) into one scalar
//! move per element; these blocks move 16 bytes per instruction instead. SSE2 is part of every
//! x86-64 CPU (the module is compiled where `target_feature = "sse2"`), so no run-time
//! detection is needed.
//!
//! A block of `N` source lines of `L` elements (one 128-bit register each, `L = 16 / size`) is
//! transposed by `log2(N)` rounds of the perfect shuffle (interleaving the first half of the
//! registers with the second, element by element), after which register `k` holds destination
//! lines `k * L / N ..` of `N` elements each.
//!
//! Only plain element types take this path: types whose every bit pattern is a valid value
//! (integers, floats, `half`'s `f16`/`bf16`), recognised by their `TypeId` and viewed as the
//! unsigned integers of their size ([`by_size`](crate::relayout::by_size)); any other type
//! keeps the portable tile.

use super::super::tiles::BlockMove;
use super::shuffle::{Interleave, load_register, shuffle_rounds, zero};
use crate::relayout::lines::Lines;
use crate::relayout::stores::{store, store_line, store_lines};
use crate::relayout::tuning::ROWS;
use bytemuck::Pod;
use core::arch::x86_64::{__m128i, _mm_stream_si128};

/// Blocks moved through SSE2 registers; with `STREAM`, destination lines that are a whole
/// aligned cache line are written with non-temporal stores (no read of the line first, no
/// eviction of the cache's other contents).
pub(crate) struct Sse2<const STREAM: bool>;

impl<E: Block, const STREAM: bool> BlockMove<E> for Sse2<STREAM> {
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

/// An unsigned integer that fills a 128-bit register `LANES` times, with its interleaves.
pub(crate) trait Block: Pod + Interleave<__m128i> {
    const LANES: usize;
}

impl Block for u8 {
    const LANES: usize = 16;
}

impl Block for u16 {
    const LANES: usize = 8;
}

impl Block for u32 {
    const LANES: usize = 4;
}

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
    // Rows of a whole cache line go straight to memory when they start on one; so do rows of
    // half a line whose next row follows them (f16 nchw->nChw16c: 16 channels are 32 bytes).
    let stream = <Sse2<STREAM> as BlockMove<E>>::streams::<COLS>();
    let paired = <Sse2<STREAM> as BlockMove<E>>::streams_pairs::<COLS>();
    for r in (0..ROWS).step_by(lanes) {
        if !stream && !paired {
            // Each micro-block's lines are stored as soon as they are transposed: fewest
            // registers live (the streaming order below spills registers, which costs byte
            // transposes that stay in cache much of their speed).
            for c in (0..COLS).step_by(N) {
                // SAFETY: each source line `s + col.0 ..` holds `ROWS` elements (the caller's
                // promise) and `r + LANES <= ROWS`.
                let v = unsafe { transposed::<E, N>(src, s + r, &cols[c..c + N]) };
                for (k, register) in v.into_iter().enumerate() {
                    // SAFETY: the destination line at `d + rows.at(k)` holds `COLS` elements (the
                    // caller's promise); this register fills its elements `c .. c + N`.
                    unsafe { store(dst, d + rows.at(r + k) + c, register) };
                }
            }
            continue;
        }
        // Every column block of these rows is transposed first, then each destination line is
        // written by back-to-back stores: a line leaves the write-combining buffer whole, which
        // streams far faster than storing block by block (docs/concepts.md, "Non-temporal
        // stores in relayout").
        let mut lines = [[zero(); LINE_REGISTERS]; N];
        for (b, c) in (0..COLS).step_by(N).enumerate() {
            // SAFETY: as above.
            let v = unsafe { transposed::<E, N>(src, s + r, &cols[c..c + N]) };
            for (line, register) in lines.iter_mut().zip(v) {
                line[b] = register;
            }
        }
        if stream {
            // SAFETY: the destination line at `d + rows.at(k)` holds `COLS` elements (the
            // caller's promise), which are 64 bytes (`streams::<COLS>`).
            unsafe { store_lines(dst, d, rows, r, &lines, true, _mm_stream_si128) };
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
                unsafe { store_line(dst, at, &line, _mm_stream_si128) };
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

/// Registers in a 64-byte destination line: 4 of 4-byte elements, of 8 2-byte ones or of 16
/// bytes.
const LINE_REGISTERS: usize = 4;

/// Micro-blocks narrower than a register (`N < E::LANES`): each register holds `LANES / N`
/// destination lines, stored at once where they are adjacent. With `STREAM`, a block that is
/// one whole 64-byte destination line (16 rows of 4 bytes, adjacent: u8 flat->crouton2x2's 16
/// channels of a 2x2 pixel tile) goes past the caches where it starts on a cache line.
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
    let one_line = <Sse2<STREAM> as BlockMove<E>>::streams_block_lines::<COLS>() && COLS == N;
    if one_line && lines_follow(rows, 0, ROWS, COLS) {
        // SAFETY: as in `micro_blocks`; the block's `ROWS` lines of `COLS` elements follow one
        // another from `d + rows.at(0)`, inside `dst` (the caller's promise): 64 bytes.
        unsafe {
            let v = transposed::<E, N>(src, s, &cols[..N]);
            let line = [v[0], v[1], v[2], v[3]];
            return store_line(dst, d + rows.at(0), &line, _mm_stream_si128);
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
                    // The register's lines are adjacent in the destination: one store.
                    // A checked slice copy, not `store`: with `store` LLVM compiles this loop
                    // worse (u8 flat->crouton2x2).
                    let bytes: [u8; 16] = bytemuck::cast(*register);
                    let at = d + first + c;
                    bytemuck::cast_slice_mut::<E, u8>(&mut dst[at..at + lanes])
                        .copy_from_slice(&bytes);
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

/// Whether `count` lines from line `first` of `rows` follow one another `apart` elements apart:
/// from the pitch where the rows have one (known at compile time for a constant pitch), else
/// line by line. A plain loop rather than a closure, as everywhere in the blocks (a closure is
/// compiled on its own, without the build's CPU features).
#[inline(always)]
fn lines_follow<L: Lines>(rows: L, first: usize, count: usize, apart: usize) -> bool {
    if let Some(pitch) = rows.pitch() {
        return count < 2 || pitch == apart;
    }
    let start = rows.at(first);
    for j in 1..count {
        if rows.at(first + j) != start + j * apart {
            return false;
        }
    }
    true
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
) -> [__m128i; N] {
    // A plain loop, not `core::array::from_fn` (see `shuffle_rounds`).
    let mut v = [zero(); N];
    for (register, col) in v.iter_mut().zip(cols) {
        // SAFETY: `E::LANES` elements of `E` are 16 bytes, inside `src` from `s + col.0` (the
        // caller's promise).
        *register = unsafe { load_register(src, s + col.0) };
    }
    // SAFETY: SSE2 is enabled (see the module docs).
    unsafe { shuffle_rounds::<E, __m128i, N>(v) }
}

/// The elements of a register, in the first `16 / size` slots of the result.
#[inline(always)]
fn lanes_of<E: Pod>(register: __m128i) -> [E; 16] {
    let bytes: [u8; 16] = bytemuck::cast(register);
    let mut out = [E::zeroed(); 16];
    let n = 16 / size_of::<E>();
    bytemuck::cast_slice_mut::<E, u8>(&mut out[..n]).copy_from_slice(&bytes);
    out
}

//! The 128-bit transpose blocks every vector ISA shares: a block of `ROWS` rows by `COLS`
//! columns cut into micro-blocks of `N` source lines, one 128-bit register each, transposed by
//! the perfect shuffle ([`shuffle_rounds`]) and stored as destination lines. SSE2 (x86-64) and
//! NEON (aarch64) supply only their register: how it loads, stores and streams a line
//! ([`Register128`]), and their interleaves ([`Interleave`]); the loop is written once, here.
//! The wider x86-64 blocks (AVX2, AVX-512) fall back to it for blocks narrower than their
//! registers.

use super::shuffle::{Interleave, shuffle_rounds};
use super::tiles::BlockMove;
use crate::relayout::lines::Lines;
use crate::relayout::tuning::ROWS;
use bytemuck::Pod;

/// An ISA's 128-bit register as the shared blocks use it.
pub(crate) trait Register128: Copy {
    /// A register of zero bits.
    fn zero() -> Self;

    /// The 16 bytes of `src` from element `at`, read unaligned.
    ///
    /// # Safety
    ///
    /// `at + 16 / size_of::<E>() <= src.len()`.
    unsafe fn load<E: Pod>(src: &[E], at: usize) -> Self;

    /// Writes the register to `dst` from element `at`, unaligned, through the caches.
    ///
    /// # Safety
    ///
    /// `at + 16 / size_of::<E>() <= dst.len()`.
    unsafe fn store<E: Pod>(dst: &mut [E], at: usize, register: Self);

    /// Writes the four registers of `line` back to back from element `at`: past the caches
    /// where they are one whole cache line (`at` on a 64-byte boundary), else through them.
    ///
    /// # Safety
    ///
    /// `at + 64 / size_of::<E>() <= dst.len()`.
    unsafe fn stream_line<E: Pod>(dst: &mut [E], at: usize, line: &[Self; 4]);

    /// [`Register128::stream_line`] of `lines[k]` at element `at + rows.at(from + k)`, for
    /// every `k`.
    ///
    /// # Safety
    ///
    /// Each line's 64 bytes lie inside `dst`.
    unsafe fn stream_lines<E: Pod, L: Lines>(
        dst: &mut [E],
        at: usize,
        rows: L,
        from: usize,
        lines: &[[Self; 4]],
    ) {
        for (k, line) in lines.iter().enumerate() {
            // SAFETY: passed on from the caller.
            unsafe { Self::stream_line(dst, at + rows.at(from + k), line) };
        }
    }

    /// The register's 16 bytes.
    fn bytes(self) -> [u8; 16];
}

/// A plain unsigned integer of 1, 2 or 4 bytes: `LANES` of them fill a 128-bit register.
pub(crate) trait Lanes: Pod {
    /// Elements per 128-bit register.
    const LANES: usize;
}

impl Lanes for u8 {
    const LANES: usize = 16;
}

impl Lanes for u16 {
    const LANES: usize = 8;
}

impl Lanes for u32 {
    const LANES: usize = 4;
}

/// Registers in a 64-byte destination line.
const LINE_REGISTERS: usize = 4;

/// The block, for an ISA whose blocks are `B` (whose [`BlockMove::streams`] and kin say which
/// lines go past the caches) and whose register is `R`: micro-blocks of `min(COLS, LANES)`
/// columns.
///
/// # Safety
///
/// As [`BlockMove::block`]: every listed line lies inside its slice; the CPU runs `R`'s
/// instructions.
#[inline(always)]
pub(crate) unsafe fn block<E, R, B, L, const COLS: usize>(
    dst: &mut [E],
    d: usize,
    rows: L,
    src: &[E],
    s: usize,
    cols: &[(usize, usize); COLS],
) where
    E: Lanes + Interleave<R>,
    R: Register128,
    B: BlockMove<E>,
    L: Lines,
{
    // SAFETY (all three): passed on from the caller.
    unsafe {
        match COLS.min(E::LANES) {
            16 => micro_blocks::<E, R, B, L, COLS, 16>(dst, d, rows, src, s, cols),
            8 => micro_blocks::<E, R, B, L, COLS, 8>(dst, d, rows, src, s, cols),
            _ => micro_blocks::<E, R, B, L, COLS, 4>(dst, d, rows, src, s, cols),
        }
    }
}

/// The block as micro-blocks of `N` columns by `E::LANES` rows, one register per source line.
///
/// # Safety
///
/// As [`block`].
#[inline(always)]
unsafe fn micro_blocks<E, R, B, L, const COLS: usize, const N: usize>(
    dst: &mut [E],
    d: usize,
    rows: L,
    src: &[E],
    s: usize,
    cols: &[(usize, usize); COLS],
) where
    E: Lanes + Interleave<R>,
    R: Register128,
    B: BlockMove<E>,
    L: Lines,
{
    let lanes = E::LANES;
    if N < lanes {
        // SAFETY: passed on from the caller.
        return unsafe { narrow_micro_blocks::<E, R, B, L, COLS, N>(dst, d, rows, src, s, cols) };
    }
    // Rows of a whole cache line go past the caches when they start on one; so do rows of
    // half a line whose next row follows them (f16 nchw->nChw16c: 16 channels are 32 bytes).
    let stream = B::streams::<COLS>();
    let paired = B::streams_pairs::<COLS>();
    for r in (0..ROWS).step_by(lanes) {
        if !stream && !paired {
            // Each micro-block's lines are stored as soon as they are transposed: fewest
            // registers live (the streaming order below spills registers, which costs byte
            // transposes that stay in cache much of their speed).
            for c in (0..COLS).step_by(N) {
                // SAFETY: each source line `s + col.0 ..` holds `ROWS` elements (the caller's
                // promise) and `r + LANES <= ROWS`.
                let v = unsafe { transposed::<E, R, N>(src, s + r, &cols[c..c + N]) };
                for (k, register) in v.into_iter().enumerate() {
                    // SAFETY: the destination line at `d + rows.at(r + k)` holds `COLS`
                    // elements (the caller's promise); this register fills `c .. c + N`.
                    unsafe { R::store(dst, d + rows.at(r + k) + c, register) };
                }
            }
            continue;
        }
        // Every column block of these rows is transposed first, then each destination line is
        // written by back-to-back stores: a line leaves the write-combining buffer whole, which
        // streams far faster than storing block by block (docs/concepts.md, "Non-temporal
        // stores in relayout").
        let mut lines = [[R::zero(); LINE_REGISTERS]; N];
        for (b, c) in (0..COLS).step_by(N).enumerate() {
            // SAFETY: as above.
            let v = unsafe { transposed::<E, R, N>(src, s + r, &cols[c..c + N]) };
            for (line, register) in lines.iter_mut().zip(v) {
                line[b] = register;
            }
        }
        if stream {
            // SAFETY: the destination line at `d + rows.at(r + k)` holds `COLS` elements (the
            // caller's promise), which are 64 bytes (`streams::<COLS>`).
            unsafe { R::stream_lines(dst, d, rows, r, &lines) };
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
                unsafe { R::stream_line(dst, at, &line) };
            } else {
                for (at, line) in [(at, this), (next, that)] {
                    // SAFETY: each line holds `COLS = 2 * N` elements (the caller's promise).
                    unsafe {
                        R::store(dst, at, line[0]);
                        R::store(dst, at + N, line[1]);
                    }
                }
            }
        }
    }
}

/// Micro-blocks narrower than a register (`N < E::LANES`, so `COLS == N`): each register holds
/// `LANES / N` destination lines, stored at once where they are adjacent. With streaming, a
/// block that is one whole 64-byte destination line (16 rows of 4 bytes, adjacent: u8
/// flat->crouton2x2's 16 channels of a 2x2 pixel tile) goes past the caches where it starts
/// on a cache line.
///
/// # Safety
///
/// As [`block`].
#[inline(always)]
unsafe fn narrow_micro_blocks<E, R, B, L, const COLS: usize, const N: usize>(
    dst: &mut [E],
    d: usize,
    rows: L,
    src: &[E],
    s: usize,
    cols: &[(usize, usize); COLS],
) where
    E: Lanes + Interleave<R>,
    R: Register128,
    B: BlockMove<E>,
    L: Lines,
{
    let lanes = E::LANES;
    let per_register = lanes / N;
    let one_line = B::streams_block_lines::<COLS>() && COLS == N;
    if one_line && lines_follow(rows, 0, ROWS, COLS) {
        // SAFETY: as in `micro_blocks`; the block's `ROWS` lines of `COLS` elements follow one
        // another from `d + rows.at(0)`, inside `dst` (the caller's promise): 64 bytes.
        unsafe {
            let v = transposed::<E, R, N>(src, s, &cols[..N]);
            let line = [v[0], v[1], v[2], v[3]];
            return R::stream_line(dst, d + rows.at(0), &line);
        }
    }
    for r in (0..ROWS).step_by(lanes) {
        for c in (0..COLS).step_by(N) {
            // SAFETY: as in `micro_blocks`.
            let v = unsafe { transposed::<E, R, N>(src, s + r, &cols[c..c + N]) };
            for (k, register) in v.iter().enumerate() {
                let first_line = r + k * per_register;
                let first = rows.at(first_line);
                let bytes = register.bytes();
                if lines_follow(rows, first_line, per_register, N) {
                    // The register's lines are adjacent in the destination: one checked copy
                    // of its bytes (with an unchecked store LLVM compiles this loop worse: u8
                    // flat->crouton2x2 on x86-64).
                    let at = d + first + c;
                    bytemuck::cast_slice_mut::<E, u8>(&mut dst[at..at + lanes])
                        .copy_from_slice(&bytes);
                    continue;
                }
                let lines: [E; 16] = lanes_of(bytes);
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
/// `s + col.0 + E::LANES <= src.len()` for the first `N` of `cols`; the CPU runs `R`'s
/// instructions.
#[inline(always)]
unsafe fn transposed<E, R, const N: usize>(src: &[E], s: usize, cols: &[(usize, usize)]) -> [R; N]
where
    E: Lanes + Interleave<R>,
    R: Register128,
{
    // A plain loop, not `core::array::from_fn` (see `shuffle_rounds`).
    let mut v = [R::zero(); N];
    for (register, col) in v.iter_mut().zip(cols) {
        // SAFETY: `E::LANES` elements of `E` are 16 bytes, inside `src` from `s + col.0` (the
        // caller's promise).
        *register = unsafe { R::load(src, s + col.0) };
    }
    // SAFETY: the CPU runs the interleaves (the caller's promise).
    unsafe { shuffle_rounds::<E, R, N>(v) }
}

/// The elements of a register's `bytes`, in the first `16 / size` slots of the result.
#[inline(always)]
fn lanes_of<E: Pod>(bytes: [u8; 16]) -> [E; 16] {
    let mut out = [E::zeroed(); 16];
    let n = 16 / size_of::<E>();
    bytemuck::cast_slice_mut::<E, u8>(&mut out[..n]).copy_from_slice(&bytes);
    out
}

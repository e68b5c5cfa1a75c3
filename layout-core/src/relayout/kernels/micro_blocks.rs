//! The transpose blocks every vector ISA shares: a block of `ROWS` by `COLS` cut into
//! micro-blocks of `N` source lines of one 128-bit lane each, transposed by the perfect shuffle
//! ([`shuffle_rounds`]) and stored as destination lines. The interleaves work within lanes, so
//! a register of several lanes (AVX2's two, AVX-512's four) holds as many micro-blocks side by
//! side (the same rows' next columns): a transposed register is part of one destination line.
//! The ISAs supply their [`Register`] and [`Interleave`]. Plain loops, no closures: a closure is
//! a function of its own, not compiled with the build's CPU features.

use super::block_move::{BlockLines, BlockMove};
use super::register::{Lanes, Register, Register128};
use super::shuffle::{Interleave, shuffle_rounds};
use super::tiles::PlaneMove;
use crate::relayout::lines::{DST, Lines, SRC};
use crate::relayout::tuning::{CACHE_LINE, ROWS};
use core::marker::PhantomData;

/// Blocks moved through an ISA's 128-bit registers `R` (SSE2, NEON); with `STREAM`, destination
/// lines of a whole aligned cache line go past the caches.
pub(crate) struct Blocks128<R, const STREAM: bool>(PhantomData<R>);

impl<E, R, const STREAM: bool> PlaneMove<E> for Blocks128<R, STREAM>
where
    E: Lanes + Interleave<R>,
    R: Register128,
{
}

impl<E, R, const STREAM: bool> BlockMove<E> for Blocks128<R, STREAM>
where
    E: Lanes + Interleave<R>,
    R: Register128,
{
    const STREAMS: bool = STREAM;
    type Cached = Blocks128<R, false>;

    #[inline(always)]
    unsafe fn block<const COLS: usize, L: Lines<DST>, C: Lines<SRC>>(
        dst: &mut [E],
        b: BlockLines<'_, E, L, C, COLS>,
    ) {
        // SAFETY (both): passed on from the caller; every CPU the ISA's module is built for runs
        // `R`. Blocks a register wide never reach `wide_block`'s narrower blocks (here `Self`).
        unsafe {
            if COLS < E::LANES {
                narrow_micro_blocks::<E, R, Self, L, C, COLS>(dst, b)
            } else {
                wide_block::<E, R, Self, Self, L, C, COLS>(dst, b)
            }
        }
    }
}

/// The block through registers `R` of one or more 128-bit lanes, for an ISA whose blocks are
/// `B` (whose [`BlockMove::streams`] and kin say which lines go past the caches), a register of
/// micro-blocks at a time; blocks narrower than a register are `Narrower`'s.
///
/// # Safety
///
/// As [`BlockMove::block`]: every listed line lies inside its slice; the CPU runs `R`'s and
/// `Narrower`'s instructions.
#[inline(always)]
pub(crate) unsafe fn wide_block<E, R, B, Narrower, L, C, const COLS: usize>(
    dst: &mut [E],
    b: BlockLines<'_, E, L, C, COLS>,
) where
    E: Lanes + Interleave<R>,
    R: Register,
    L: Lines<DST>,
    C: Lines<SRC>,
    B: BlockMove<E>,
    Narrower: BlockMove<E>,
{
    // SAFETY (all arms): passed on from the caller; past the test, `COLS` fills a register.
    unsafe {
        if COLS < R::BYTES / 16 * E::LANES {
            return Narrower::block(dst, b);
        }
        match E::LANES {
            16 => micro_blocks::<E, R, B, L, C, COLS, 16>(dst, b),
            8 => micro_blocks::<E, R, B, L, C, COLS, 8>(dst, b),
            _ => micro_blocks::<E, R, B, L, C, COLS, 4>(dst, b),
        }
    }
}

/// The block as micro-blocks of `N == E::LANES` columns by `N` rows, `R::BYTES / 16` side by
/// side in each register: register `k` of a transposed group is part of destination line `k`.
///
/// # Safety
///
/// As [`wide_block`], and `COLS` fills at least one register (`R::BYTES / 16 * E::LANES`).
#[inline(always)]
unsafe fn micro_blocks<E, R, B, L, C, const COLS: usize, const N: usize>(
    dst: &mut [E],
    b: BlockLines<'_, E, L, C, COLS>,
) where
    E: Lanes + Interleave<R>,
    R: Register,
    B: BlockMove<E>,
    L: Lines<DST>,
    C: Lines<SRC>,
{
    let (d, rows, src, s, cols) = (b.d, b.rows, b.src, b.s, b.cols);
    let span = R::BYTES / 16 * N; // columns per register
    // Rows of a whole cache line stream when they start on one; so do pairs of adjacent
    // half-line rows (f16 nchw->nChw16c: 16 channels are 32 bytes).
    let stream = B::streams::<COLS>();
    let paired = B::streams_pairs::<COLS>();
    for r in (0..ROWS).step_by(N) {
        if !stream && !paired {
            // Each register stored once transposed: fewest registers live (the streaming order
            // below spills, which slows cached byte transposes).
            for c in (0..COLS).step_by(span) {
                // SAFETY: each source line `s + cols.at(j) ..` holds `ROWS` elements (the
                // caller's promise) and `r + N <= ROWS`.
                let v = unsafe { transposed::<E, R, C, N>(src, s + r, cols, c) };
                for (k, register) in v.into_iter().enumerate() {
                    // SAFETY: the destination line at `d + rows.at(r + k)` holds `COLS`
                    // elements (the caller's promise); this register fills `c .. c + span`.
                    unsafe { R::store(dst, d + rows.at(r + k) + c, register) };
                }
            }
            continue;
        }
        // All these rows' registers first, then each line by back-to-back stores, leaving the
        // write-combining buffer whole (docs/concepts.md, "Non-temporal stores in relayout").
        let mut lines = [R::zero_line(); N];
        for (b, c) in (0..COLS).step_by(span).enumerate() {
            // SAFETY: as above.
            let v = unsafe { transposed::<E, R, C, N>(src, s + r, cols, c) };
            for (line, register) in lines.iter_mut().zip(v) {
                line.as_mut()[b] = register;
            }
        }
        if stream {
            // SAFETY: the destination line at `d + rows.at(r + k)` holds `COLS` elements (the
            // caller's promise), which are 64 bytes (`streams::<COLS>`).
            unsafe { R::stream_lines(dst, d, rows, r, &lines) };
            continue;
        }
        // Paired: each row half a line, its line's first `half` registers.
        let half = CACHE_LINE / 2 / R::BYTES;
        for k in (0..N).step_by(2) {
            let (at, next) = (d + rows.at(r + k), d + rows.at(r + k + 1));
            let (this, that) = (lines[k].as_ref(), lines[k + 1].as_ref());
            if next == at + COLS {
                let mut line = R::zero_line();
                let registers = line.as_mut();
                registers[..half].copy_from_slice(&this[..half]);
                registers[half..2 * half].copy_from_slice(&that[..half]);
                // SAFETY: the two rows' lines (`COLS` elements each, inside `dst` by the
                // caller's promise) are adjacent: 64 bytes from `at`.
                unsafe { R::stream_line(dst, at, &line) };
            } else {
                for (at, line) in [(at, this), (next, that)] {
                    for (i, &register) in line[..half].iter().enumerate() {
                        // SAFETY: each line holds `COLS = half * span` elements (the
                        // caller's promise).
                        unsafe { R::store(dst, at + i * span, register) };
                    }
                }
            }
        }
    }
}

/// Blocks narrower than a 128-bit register `R` (`COLS < E::LANES`), for an ISA whose blocks are
/// `B`: each register holds `LANES / COLS` destination lines, stored at once where adjacent. A
/// block of one aligned line (16 rows of 4 bytes: u8 flat->crouton2x2) may stream.
///
/// # Safety
///
/// As [`BlockMove::block`]; the CPU runs `R`'s instructions.
#[inline(always)]
unsafe fn narrow_micro_blocks<E, R, B, L, C, const COLS: usize>(
    dst: &mut [E],
    b: BlockLines<'_, E, L, C, COLS>,
) where
    E: Lanes + Interleave<R>,
    B: BlockMove<E>,
    R: Register128,
    L: Lines<DST>,
    C: Lines<SRC>,
{
    let (d, rows, src, s, cols) = (b.d, b.rows, b.src, b.s, b.cols);
    let lanes = E::LANES;
    let per_register = lanes / COLS;
    if B::streams_block_lines::<COLS>() && lines_follow(rows, 0, ROWS, COLS) {
        // SAFETY: as in `micro_blocks`; the block's lines follow one another from
        // `d + rows.at(0)`: 64 bytes inside `dst` (the caller's promise).
        unsafe {
            let v = transposed::<E, R, C, COLS>(src, s, cols, 0);
            let line = [v[0], v[1], v[2], v[3]];
            return R::stream_line(dst, d + rows.at(0), &line);
        }
    }
    for r in (0..ROWS).step_by(lanes) {
        // SAFETY: as in `micro_blocks`.
        let v = unsafe { transposed::<E, R, C, COLS>(src, s + r, cols, 0) };
        for (k, register) in v.iter().enumerate() {
            let first_line = r + k * per_register;
            let first = rows.at(first_line);
            let bytes = register.bytes();
            if lines_follow(rows, first_line, per_register, COLS) {
                // One checked copy (LLVM compiles this loop worse with an unchecked store).
                let at = d + first;
                bytemuck::cast_slice_mut::<E, u8>(&mut dst[at..at + lanes]).copy_from_slice(&bytes);
                continue;
            }
            let lines: [E; 16] = lanes_of(bytes);
            for j in 0..per_register {
                let at = d + rows.at(first_line + j);
                dst[at..at + COLS].copy_from_slice(&lines[j * COLS..(j + 1) * COLS]);
            }
        }
    }
}

/// Whether `count` lines from line `first` of `rows` lie `apart` elements apart: from the pitch
/// where there is one (a compile-time constant), else line by line.
#[inline(always)]
fn lines_follow<L: Lines<DST>>(rows: L, first: usize, count: usize, apart: usize) -> bool {
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

/// `N` source lines of `E::LANES` elements in each lane of `N` registers (line `q * N + j` from
/// column `first`, at `s + cols.at(first + q * N + j)`, in lane `q` of register `j`),
/// transposed by `log2(N)` perfect-shuffle rounds: register `k` then holds destination lines
/// `k * LANES / N ..` of each lane's micro-block. Columns a pitch apart add an [`opaque`] step
/// per register: else the compiler keeps `4N` multiples of the pitch on the stack.
///
/// # Safety
///
/// `s + cols.at(first + c) + E::LANES <= src.len()` for every `c < R::BYTES / 16 * N`; the CPU
/// runs `R`'s instructions.
#[inline(always)]
pub(crate) unsafe fn transposed<E, R, C, const N: usize>(
    src: &[E],
    s: usize,
    cols: C,
    first: usize,
) -> [R; N]
where
    E: Lanes + Interleave<R>,
    R: Register,
    C: Lines<SRC>,
{
    let mut v = [R::zero(); N];
    // Each lane's address, for columns a pitch apart (a listing reads every line's own).
    let mut running = [0; 4];
    if cols.pitch().is_some() {
        for (q, at) in running.iter_mut().take(R::BYTES / 16).enumerate() {
            *at = s + cols.at(first + q * N);
        }
    }
    for (j, register) in v.iter_mut().enumerate() {
        let at = match cols.pitch() {
            Some(pitch) if j > 0 => {
                let step = opaque(pitch);
                for at in running.iter_mut().take(R::BYTES / 16) {
                    *at += step;
                }
                running
            }
            Some(_) => running,
            None => {
                let mut at = [0; 4];
                for (q, at) in at.iter_mut().take(R::BYTES / 16).enumerate() {
                    *at = s + cols.at(first + q * N + j);
                }
                at
            }
        };
        // SAFETY: 16 bytes (`E::LANES` elements) from each `at`, inside `src` (caller's promise).
        *register = unsafe { R::load_lanes(src, at) };
    }
    // SAFETY: the CPU runs the interleaves (the caller's promise).
    unsafe { shuffle_rounds::<E, R, N>(v) }
}

/// The elements of a register's `bytes`, in the first `16 / size` slots of the result.
#[inline(always)]
fn lanes_of<E: bytemuck::Pod>(bytes: [u8; 16]) -> [E; 16] {
    let mut out = [E::zeroed(); 16];
    let n = 16 / size_of::<E>();
    bytemuck::cast_slice_mut::<E, u8>(&mut out[..n]).copy_from_slice(&bytes);
    out
}

/// `value` unchanged, through an empty assembly block the compiler cannot compute through
/// ahead of time (under Miri, which runs no assembly, it passes as it is).
#[inline(always)]
#[cfg_attr(miri, allow(unused_mut))] // the assembly that writes it is not built under Miri
pub(crate) fn opaque(mut value: usize) -> usize {
    #[cfg(not(miri))]
    // SAFETY: the assembly is empty: it touches no memory or stack and keeps flags and register.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) value, options(nomem, nostack, preserves_flags));
    }
    value
}

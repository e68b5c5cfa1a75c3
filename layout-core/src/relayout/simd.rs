//! SSE2 transpose blocks for the plain 1-, 2- and 4-byte element types (x86-64 only).
//!
//! LLVM turns the portable tile of [`super::kernels`] into one scalar move per element; these
//! blocks move 16 bytes per instruction instead. SSE2 is part of every x86-64 CPU (the module is
//! compiled where `target_feature = "sse2"`), so no run-time detection is needed.
//!
//! A block of `N` source lines of `L` elements (one 128-bit register each, `L = 16 / size`) is
//! transposed by `log2(N)` rounds of the perfect shuffle (interleaving the first half of the
//! registers with the second, element by element), after which register `k` holds destination
//! lines `k * L / N ..` of `N` elements each.
//!
//! Element types are recognised by [`TypeId`] (hence `T: 'static`): only types whose every bit
//! pattern is a valid value (integers, floats, `half`'s `f16`/`bf16`) take this path, viewed as
//! unsigned integers of their size; any other `T: Copy` keeps the portable tile.

use super::kernels::{self, BlockMove, Element, Lines, ROWS, Reach, TileBatch, block_is_line};
use super::stores::{end_streaming, store, store_line, store_lines};
use super::tuning::Tuning;
use super::{avx2, avx512};
use bytemuck::Pod;
use core::arch::x86_64::{
    __m128i, _mm_stream_si128, _mm_unpackhi_epi8, _mm_unpackhi_epi16, _mm_unpackhi_epi32,
    _mm_unpacklo_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi32,
};
use core::ops::Range;

/// The plain integers' vector kernels: transposes in SSE2, AVX2 or AVX-512 blocks (1-, 2- and
/// 4-byte elements), rows streamed past the caches with AVX2 (all four sizes).
macro_rules! vector_element {
    ($($int:ty: $transposes:tt),*) => {$(
        impl Element for $int {
            fn vector_transpose(
                dst: &mut [Self],
                d: usize,
                src: &[Self],
                s: usize,
                batch: TileBatch<'_>,
                reach: Reach,
                stream: bool,
            ) -> bool {
                vector_transpose!($transposes, dst, d, src, s, batch, reach, stream)
            }

            fn stream_rows(
                dst: &mut [Self],
                d: usize,
                src: &[Self],
                s: usize,
                rows: &[(usize, usize)],
                cols: Range<usize>,
                reach: Reach,
            ) -> bool {
                avx2::stream_rows(dst, d, src, s, rows, cols, reach)
            }
        }
    )*};
}

/// The body of [`Element::vector_transpose`]: [`transpose_as`] where the type has transpose
/// blocks.
macro_rules! vector_transpose {
    (true, $($arg:expr),*) => {{
        transpose_as($($arg),*);
        true
    }};
    (false, $($arg:expr),*) => {{
        let _ = ($($arg),*);
        false
    }};
}

vector_element!(u8: true, u16: true, u32: true, u64: false);

/// [`transpose`] of plain elements viewed as the unsigned integers `E` of their size.
fn transpose_as<E: avx512::Broad>(
    dst: &mut [E],
    d: usize,
    src: &[E],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
    stream: bool,
) {
    // Streaming needs whole destination lines (a line of columns, or half of one with the
    // next row after it).
    let line = 64 / size_of::<E>();
    let whole_rows =
        tiles_stream(batch.rows.len(), Tuning::current()) && batch.cols.len() >= line / 2;
    if stream && (whole_rows || packed_line_blocks::<E>(batch)) {
        planes::<E, true>(dst, d, src, s, batch, reach);
        end_streaming();
    } else {
        planes::<E, false>(dst, d, src, s, batch, reach);
    }
}

/// Whether the batch's blocks are packed lines of bytes, which the streaming build writes as
/// one line each ([`BlockMove::streams_block_lines`]): rows `cols` bytes apart (the plan's row
/// pitch), each block of `ROWS` rows one 64-byte line (u8 flat->crouton2x2: 16 channels x 4
/// pixels), although a row is much less than a line.
fn packed_line_blocks<E>(batch: TileBatch<'_>) -> bool {
    size_of::<E>() == 1
        && batch.row_pitch == Some(batch.cols.len())
        && block_is_line(batch.cols.len())
}

/// Whether tiles of `rows` rows stream their destination lines (once the destination is past
/// the caches): tiles of more than one block always; tiles of exactly one block where the
/// processor family gains by it ([`Tuning::stream_one_block_tiles`]).
fn tiles_stream(rows: usize, tuning: Tuning) -> bool {
    rows > ROWS || (rows == ROWS && tuning.stream_one_block_tiles)
}

/// [`kernels::planes`] with AVX-512 blocks (each width compiled for AVX-512) where the CPU has
/// AVX-512 F and BW, else with AVX2 blocks (compiled for AVX2) where the CPU has AVX2, else
/// with SSE2 blocks.
fn planes<E: avx512::Broad, const STREAM: bool>(
    dst: &mut [E],
    d: usize,
    src: &[E],
    s: usize,
    batch: TileBatch<'_>,
    reach: Reach,
) {
    if avx512::available() {
        // SAFETY: the CPU runs AVX-512 F and BW instructions (checked just above).
        unsafe { kernels::planes::<E, avx512::Avx512Blocks<STREAM>>(dst, d, src, s, batch, reach) }
    } else if avx2::available() {
        // SAFETY: the CPU runs AVX2 instructions (checked just above).
        unsafe { kernels::planes::<E, avx2::Avx2Blocks<STREAM>>(dst, d, src, s, batch, reach) }
    } else {
        // SAFETY: SSE2 is enabled (see the module docs).
        unsafe { kernels::planes::<E, Sse2<STREAM>>(dst, d, src, s, batch, reach) }
    }
}

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

/// The two halves of the perfect shuffle of `Self`'s elements in registers of type `R`.
pub(crate) trait Interleave<R> {
    /// The first halves of `a` and `b`, element by element.
    ///
    /// # Safety
    ///
    /// The CPU runs the instruction: SSE2 (every x86-64 CPU) for `__m128i`, AVX2 for `__m256i`,
    /// AVX-512 F and BW for `__m512i`.
    unsafe fn low(a: R, b: R) -> R;
    /// The second halves of `a` and `b`, element by element.
    ///
    /// # Safety
    ///
    /// As for [`Interleave::low`].
    unsafe fn high(a: R, b: R) -> R;
}

/// `Interleave<$register>` for unsigned types by their interleave instructions.
macro_rules! interleave_for {
    ($register:ty: $($ty:ty: $low:ident, $high:ident;)+) => {$(
        impl Interleave<$register> for $ty {
            #[inline(always)]
            unsafe fn low(a: $register, b: $register) -> $register {
                // SAFETY: the CPU runs the instruction (the caller's promise).
                unsafe { $low(a, b) }
            }
            #[inline(always)]
            unsafe fn high(a: $register, b: $register) -> $register {
                // SAFETY: as for `low`.
                unsafe { $high(a, b) }
            }
        }
    )+};
}
pub(crate) use interleave_for;

interleave_for! {
    __m128i:
    u8: _mm_unpacklo_epi8, _mm_unpackhi_epi8;
    u16: _mm_unpacklo_epi16, _mm_unpackhi_epi16;
    u32: _mm_unpacklo_epi32, _mm_unpackhi_epi32;
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

/// `log2(N)` rounds of the perfect shuffle on `v` (each interleaving the first half of the
/// registers with the second, element by element), for registers of either width: after
/// them, register `k` holds destination lines `k * L / N ..` of the micro-block.
///
/// # Safety
///
/// As for [`Interleave::low`].
#[inline(always)]
pub(crate) unsafe fn shuffle_rounds<E: Interleave<R>, R: Copy, const N: usize>(
    v: [R; N],
) -> [R; N] {
    // Every round written out, on arrays indexed by constants only, so that the registers stay
    // registers: as loops (even counted ones) LLVM left the 16-register rounds of AVX-512 bytes
    // rolled, the array in memory and each round's copy a call to `memcpy`. No closures and no
    // `core::array::from_fn` either: LLVM does not always inline those into the AVX2 build.
    macro_rules! round {
        ($v:ident, $half:literal: $($i:literal)+) => {
            // SAFETY: passed on from the caller.
            unsafe { [$(E::low($v[$i], $v[$i + $half]), E::high($v[$i], $v[$i + $half])),+] }
        };
    }
    match N {
        16 => {
            let v: [R; 16] = resized(v);
            let v = round!(v, 8: 0 1 2 3 4 5 6 7);
            let v = round!(v, 8: 0 1 2 3 4 5 6 7);
            let v = round!(v, 8: 0 1 2 3 4 5 6 7);
            resized(round!(v, 8: 0 1 2 3 4 5 6 7))
        }
        8 => {
            let v: [R; 8] = resized(v);
            let v = round!(v, 4: 0 1 2 3);
            let v = round!(v, 4: 0 1 2 3);
            resized(round!(v, 4: 0 1 2 3))
        }
        4 => {
            let v: [R; 4] = resized(v);
            let v = round!(v, 2: 0 1);
            resized(round!(v, 2: 0 1))
        }
        2 => {
            let v: [R; 2] = resized(v);
            resized(round!(v, 1: 0))
        }
        1 => v,
        _ => unreachable!("micro-blocks of 1, 2, 4, 8 or 16 lines"),
    }
}

/// `v` as an array of `M` registers, where `M == N` (the arms of `shuffle_rounds`).
#[inline(always)]
fn resized<R: Copy, const N: usize, const M: usize>(v: [R; N]) -> [R; M] {
    let fixed: &[R; M] = v[..].try_into().expect("arrays of the same length");
    *fixed
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
            // registers live (the streaming order below spills, and halves the speed of
            // byte transposes that stay in cache).
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
        // doubles streaming throughput over storing block by block (docs/performance.md).
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
                    // worse (u8 flat->crouton2x2 7.1-8.2 against 11.8-12.4 GB/s).
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

/// A register of zero bits (of any width).
#[inline(always)]
pub(crate) fn zero<R: bytemuck::Zeroable>() -> R {
    R::zeroed()
}

/// The `size_of::<R>()` bytes of `src` from element `at`, read unaligned into a register of
/// type `R` as plain integers.
///
/// # Safety
///
/// `at + size_of::<R>() / size_of::<E>() <= src.len()`; the CPU runs loads of `R` (SSE2 for
/// `__m128i`, AVX for `__m256i`, AVX-512 F for `__m512i`).
#[inline(always)]
pub(crate) unsafe fn load_register<E: Pod, R>(src: &[E], at: usize) -> R {
    debug_assert!(
        at + size_of::<R>() / size_of::<E>() <= src.len(),
        "a source line inside the slice"
    );
    // SAFETY: the bytes lie inside `src` (the caller's promise); an unaligned read.
    unsafe { src.as_ptr().add(at).cast::<R>().read_unaligned() }
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

#[cfg(test)]
mod tests {
    use super::super::kernels::{planes, portable_planes};
    use super::super::plan::Listing;
    use super::*;
    use alloc::vec::Vec;

    /// Listed rows (source offsets counting up) and columns (destination offsets counting up)
    /// with gaps between lines, as a transpose of loops with padding sees them.
    fn listings(rows: usize, cols: usize, gap: usize) -> (Listing, Listing) {
        let row_pitch = cols + gap;
        let col_pitch = rows + 5;
        let rows = (0..rows).map(|r| (r, r * row_pitch)).collect();
        let cols = (0..cols).map(|c| (c * col_pitch, c)).collect();
        (rows, cols)
    }

    fn agrees_with_portable<E: avx512::Broad + core::fmt::Debug + PartialEq>(make: fn(usize) -> E) {
        let shapes = [
            (16, 16, 3),
            (33, 37, 3),
            (48, 64, 3),
            (20, 4, 3),
            (17, 8, 3),
            (64, 40, 3),
        ];
        // Gap 0: rows adjacent in the destination (a register's lines stored at once).
        let adjacent = [(32, 4, 0), (48, 8, 0), (16, 16, 0), (32, 32, 0)];
        for (n_rows, n_cols, gap) in shapes.into_iter().chain(adjacent) {
            let (rows, cols) = listings(n_rows, n_cols, gap);
            // Two tiles a call: the second one past the first on both sides.
            let (tile_src, tile_dst) = ((n_rows + 5) * n_cols + 7, n_rows * (n_cols + gap) + 9);
            let origins = [(0, 0), (tile_src, tile_dst)];
            let src: Vec<E> = (0..2 * tile_src).map(make).collect();
            let reach = Reach::of(&rows, &cols);
            // Rows `n_cols + gap` apart, as the plan finds them (packed blocks where there is
            // no gap; lines found by their pitch), and the same rows without the pitch (lines
            // found in the listing). The destination starts on a cache line and one element
            // past it, so that rows of whole lines are streamed in some calls and not in others.
            for (row_pitch, misalign) in [Some(n_cols + gap), None]
                .into_iter()
                .flat_map(|pitch| [(pitch, 0), (pitch, 1)])
            {
                let batch = TileBatch {
                    origins: &origins,
                    rows: &rows,
                    cols: &cols,
                    row_pitch,
                };
                let case = alloc::format!("{n_rows} x {n_cols}, pitch {row_pitch:?}, +{misalign}");
                each_build_agrees(&src, batch, reach, 2 * tile_dst, misalign, make, &case);
            }
        }
    }

    /// Runs `batch` through the portable tile and through the SSE2, AVX2 and AVX-512 builds
    /// with their blocks where the CPU runs them (under Miri only when compiled with
    /// `-C target-feature=+avx2` or `+avx512f,+avx512bw`, as .ci/run does), streamed and not,
    /// into destinations that start `misalign` elements past a cache line, and checks that
    /// they agree.
    fn each_build_agrees<E: avx512::Broad + core::fmt::Debug + PartialEq>(
        src: &[E],
        batch: TileBatch<'_>,
        reach: Reach,
        len: usize,
        misalign: usize,
        make: fn(usize) -> E,
        case: &str,
    ) {
        // A destination of `len` elements from `d`, where `d` is `misalign` elements past the
        // first cache line boundary of the buffer.
        let line = 64 / size_of::<E>();
        let buffer = || alloc::vec![make(0); len + 2 * line];
        let start = |buffer: &[E]| {
            let to_line = buffer.as_ptr().addr().next_multiple_of(64) - buffer.as_ptr().addr();
            to_line / size_of::<E>() + misalign
        };
        let mut want = buffer();
        let d = start(&want);
        portable_planes(&mut want, d, src, 1, batch, reach);
        let want = &want[d..d + len];
        let builds = [
            ("SSE2", true),
            ("AVX2", avx2::available()),
            ("AVX-512", avx512::available()),
        ];
        for (stream, (build, _)) in [false, true]
            .into_iter()
            .flat_map(|x| builds.iter().filter(|b| b.1).map(move |b| (x, b)))
        {
            let mut got = buffer();
            let d = start(&got);
            let dst = &mut got[..];
            // SAFETY: each build runs only where the CPU has its features (`builds`).
            unsafe {
                match (stream, *build) {
                    (true, "AVX-512") => {
                        planes::<E, avx512::Avx512Blocks<true>>(dst, d, src, 1, batch, reach)
                    }
                    (false, "AVX-512") => {
                        planes::<E, avx512::Avx512Blocks<false>>(dst, d, src, 1, batch, reach)
                    }
                    (true, "AVX2") => {
                        planes::<E, avx2::Avx2Blocks<true>>(dst, d, src, 1, batch, reach)
                    }
                    (false, "AVX2") => {
                        planes::<E, avx2::Avx2Blocks<false>>(dst, d, src, 1, batch, reach)
                    }
                    (true, _) => planes::<E, Sse2<true>>(dst, d, src, 1, batch, reach),
                    (false, _) => planes::<E, Sse2<false>>(dst, d, src, 1, batch, reach),
                }
            }
            assert_eq!(&got[d..d + len], want, "{case}, stream {stream}, {build}");
        }
    }

    /// Also a check of the blocks' stack frames: it runs on 1 MiB, half a test thread's stack.
    /// In a debug build, one width's AVX-512 plane takes ~0.35 MB; with every width inlined into
    /// one function it took 1.4 MB, and users' tests run on 2 MiB threads too.
    #[test]
    fn sse2_avx2_and_avx512_blocks_equal_the_portable_tile() {
        extern crate std;
        let each_type = || {
            agrees_with_portable::<u8>(|i| (i * 7) as u8);
            agrees_with_portable::<u16>(|i| (i * 7) as u16);
            agrees_with_portable::<u32>(|i| (i * 7) as u32);
        };
        let on_small_stack = std::thread::Builder::new().stack_size(1 << 20);
        on_small_stack.spawn(each_type).unwrap().join().unwrap();
    }

    #[test]
    fn tiles_of_one_block_stream_only_where_the_tuning_asks() {
        for tuning in [Tuning::INTEL, Tuning::AMD] {
            assert!(!tiles_stream(ROWS - 1, tuning));
            assert!(tiles_stream(ROWS + 1, tuning));
            assert_eq!(tiles_stream(ROWS, tuning), tuning.stream_one_block_tiles);
        }
    }
}

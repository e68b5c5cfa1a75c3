//! What the shared transpose blocks ([`micro_blocks`](super::micro_blocks)) and streamed row
//! copies ([`streamed_rows`](super::streamed_rows)) need of a vector ISA: its [`Register`], and
//! the element types a 128-bit lane holds ([`Lanes`]).

use crate::relayout::lines::{DST, Lines};
use bytemuck::Pod;

/// An ISA's vector register: `BYTES / 16` lanes of 128 bits (the span of its interleaves), each
/// holding one micro-block's source line.
pub(crate) trait Register: Copy {
    /// The register's width: 16 (SSE2, NEON), 32 (AVX2) or 64 bytes (AVX-512).
    const BYTES: usize;

    /// A 64-byte line as registers back to back: `[Self; 64 / BYTES]`.
    type Line: Copy + AsRef<[Self]> + AsMut<[Self]>;

    /// A register of zero bits.
    fn zero() -> Self;

    /// A line of zero registers.
    fn zero_line() -> Self::Line;

    /// The `BYTES` bytes of `src` from element `at`, unaligned.
    ///
    /// # Safety
    ///
    /// `at + BYTES / size_of::<E>() <= src.len()`; the CPU runs the register's instructions.
    unsafe fn load<E: Pod>(src: &[E], at: usize) -> Self;

    /// The 16 bytes of `src` from element `at[q]` in each lane `q` (the rest of `at` unread).
    ///
    /// # Safety
    ///
    /// `at[q] + 16 / size_of::<E>() <= src.len()` for each lane; the CPU runs the instructions.
    unsafe fn load_lanes<E: Pod>(src: &[E], at: [usize; 4]) -> Self;

    /// Writes the register to `dst` from element `at`, unaligned, through the caches.
    ///
    /// # Safety
    ///
    /// `at + BYTES / size_of::<E>() <= dst.len()`; the CPU runs the register's instructions.
    unsafe fn store<E: Pod>(dst: &mut [E], at: usize, register: Self);

    /// Writes `line` from element `at`: past the caches where `at` is on 64 bytes, else through.
    ///
    /// # Safety
    ///
    /// `at + 64 / size_of::<E>() <= dst.len()`; the CPU runs the register's instructions.
    unsafe fn stream_line<E: Pod>(dst: &mut [E], at: usize, line: &Self::Line);

    /// [`Register::stream_line`] of each `lines[k]` at element `at + rows.at(from + k)`.
    ///
    /// # Safety
    ///
    /// Each line's 64 bytes lie inside `dst`; the CPU runs the register's instructions.
    unsafe fn stream_lines<E: Pod, L: Lines<DST>>(
        dst: &mut [E],
        at: usize,
        rows: L,
        from: usize,
        lines: &[Self::Line],
    ) {
        for (k, line) in lines.iter().enumerate() {
            // SAFETY: passed on from the caller.
            unsafe { Self::stream_line(dst, at + rows.at(from + k), line) };
        }
    }
}

/// A register of one 128-bit lane, whose blocks also move micro-blocks narrower than it.
pub(crate) trait Register128: Register<Line = [Self; 4]> {
    /// The register's 16 bytes.
    fn bytes(self) -> [u8; 16];
}

/// A plain unsigned integer of 1, 2 or 4 bytes: `LANES` of them fill a 128-bit lane.
pub(crate) trait Lanes: Pod {
    /// Elements per 128-bit lane.
    const LANES: usize = 16 / size_of::<Self>();
}

impl Lanes for u8 {}
impl Lanes for u16 {}
impl Lanes for u32 {}

/// `Interleave<$register>` for unsigned types by their interleave instructions, between the
/// free reinterpretations `$to` and `$back` where given.
macro_rules! interleave_for {
    ($register:ty: $($ty:ty: $low:ident, $high:ident $(, $to:ident, $back:ident)?;)+) => {$(
        impl $crate::relayout::kernels::shuffle::Interleave<$register> for $ty {
            #[inline(always)]
            unsafe fn low(a: $register, b: $register) -> $register {
                // SAFETY: the CPU runs the instructions (the caller's promise).
                unsafe { $($back)?($low($($to)?(a), $($to)?(b))) }
            }
            #[inline(always)]
            unsafe fn high(a: $register, b: $register) -> $register {
                // SAFETY: as for `low`.
                unsafe { $($back)?($high($($to)?(a), $($to)?(b))) }
            }
        }
    )+};
}

pub(crate) use interleave_for;

/// [`Register`] for a vector register of `$bytes` bytes. Defaults: `zero`, `bytemuck`'s zeroed
/// register and line; `lanes`, the one lane from `at[0]`. `line` writes a line, passed `stream`
/// (the store past the caches) where given, which also serves `stores::store_lines` (x86-64).
macro_rules! register {
    (
        $register:ty: $bytes:literal bytes, $(zero: $zero:expr,)? load: $load:path,
        $(lanes: $lanes:path,)? store: $store:path, line: $line:path
        $(, stream: $stream:path)? $(,)?
    ) => {
        impl $crate::relayout::kernels::register::Register for $register {
            const BYTES: usize = $bytes;
            type Line = [Self; 64 / $bytes];

            #[inline(always)]
            fn zero() -> Self {
                $crate::relayout::kernels::register::register!(@ zero $($zero)?)
            }

            #[inline(always)]
            fn zero_line() -> Self::Line {
                $crate::relayout::kernels::register::register!(@ zero_line $($zero)?)
            }

            #[inline(always)]
            unsafe fn load<E: bytemuck::Pod>(src: &[E], at: usize) -> Self {
                // SAFETY: passed on from the caller.
                unsafe { $load(src, at) }
            }

            #[inline(always)]
            unsafe fn load_lanes<E: bytemuck::Pod>(src: &[E], at: [usize; 4]) -> Self {
                // SAFETY: passed on from the caller.
                unsafe {
                    $crate::relayout::kernels::register::register!(@ lanes src, at $(, $lanes)?)
                }
            }

            #[inline(always)]
            unsafe fn store<E: bytemuck::Pod>(dst: &mut [E], at: usize, register: Self) {
                // SAFETY: passed on from the caller.
                unsafe { $store(dst, at, register) }
            }

            #[inline(always)]
            unsafe fn stream_line<E: bytemuck::Pod>(dst: &mut [E], at: usize, line: &Self::Line) {
                // SAFETY: passed on from the caller; `$line` streams only lines on 64 bytes.
                unsafe { $line(dst, at, line $(, $stream)?) }
            }

            $(
                #[inline(always)]
                unsafe fn stream_lines<E, L>(
                    dst: &mut [E],
                    at: usize,
                    rows: L,
                    from: usize,
                    lines: &[Self::Line],
                ) where
                    E: bytemuck::Pod,
                    L: $crate::relayout::lines::Lines<{ $crate::relayout::lines::DST }>,
                {
                    use $crate::relayout::stores::store_lines;
                    // SAFETY: as for `stream_line`: `store_lines` streams only lines on 64 bytes.
                    unsafe { store_lines(dst, at, rows, from, lines, true, $stream) }
                }
            )?
        }
    };
    (@ zero $zero:expr) => {
        $zero
    };
    (@ zero_line $zero:expr) => {
        [Self::zero(); 64 / Self::BYTES]
    };
    (@ $zero_or_line:ident) => {
        bytemuck::Zeroable::zeroed()
    };
    (@ lanes $src:ident, $at:ident) => {
        Self::load($src, $at[0])
    };
    (@ lanes $src:ident, $at:ident, $lanes:path) => {
        $lanes($src, $at)
    };
}

pub(crate) use register;

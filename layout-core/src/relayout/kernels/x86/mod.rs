//! The x86-64 vector kernels: transposes in SSE2, AVX2 or AVX-512 blocks by what the CPU runs,
//! and row copies compiled for AVX2, streamed past the caches for plain types. SSE2 is part of
//! every x86-64 CPU (the module needs `target_feature = "sse2"`); the rest is detected.

/// What each wide build (AVX2, AVX-512) has: `available` (by `cpufeatures`, as `layout-core` is
/// `no_std`), the loops `plane` and `staged` compiled with its features, out of line so they
/// compile flat, and its blocks' [`PlaneMove`](tiles::PlaneMove). Paths are from its module.
macro_rules! isa_build {
    ($isa:literal, $features:tt, [$($cpuid:tt),+], $blocks:ident<$element:ident>, $staged:ty) => {
        cpufeatures::new!(cpuid, $($cpuid),+);

        #[doc = concat!("Whether this CPU runs ", $isa, " instructions: found on the first call,")]
        /// then cached in `cpufeatures`' atomic (a race between threads stores the same answer).
        #[inline]
        pub(crate) fn available() -> bool {
            cpuid::get()
        }

        super::super::transposes::transposes_fn! {
            #[doc = concat!("One width's transposes ([`width_body`]) compiled with ", $isa, ":")]
            #[doc = concat!("the [`PlaneMove::plane`] of [`", stringify!($blocks), "`].")]
            ///
            /// # Safety
            ///
            #[doc = concat!("The CPU runs ", $isa, " instructions ([`available`]).")]
            ///
            /// [`width_body`]: super::super::tiles::width_body
            /// [`PlaneMove::plane`]: super::super::tiles::PlaneMove::plane
            #[target_feature(enable = $features)]
            #[inline(never)]
            pub(crate) unsafe fn plane[
                T: Copy,
                B: super::super::tiles::PlaneMove<T>,
                const COLS: usize,
                const FEW_ROWS: bool,
            ](t: Transposes<T>) {
                super::super::tiles::width_body::<T, B, COLS, FEW_ROWS>(t);
            }
        }

        super::super::transposes::transposes_fn! {
            #[doc = concat!("[`staged_widths`] compiled with ", $isa, ", its blocks writing into")]
            /// its buffer.
            ///
            /// # Safety
            ///
            #[doc = concat!("The CPU runs ", $isa, " instructions ([`available`]); `stages` is")]
            /// [`Stages::of`] the batch.
            ///
            /// [`staged_widths`]: super::super::staged::staged_widths
            /// [`Stages::of`]: super::super::staged::Stages::of
            #[target_feature(enable = $features)]
            #[inline(never)]
            pub(crate) unsafe fn staged[E: $element](
                t: Transposes<E>,
                stages: super::super::staged::Stages,
            ) {
                use super::{super::staged::staged_widths, avx2::stream_run};
                // SAFETY: passed on from the caller; both builds run AVX2 (`stream_run`).
                unsafe { staged_widths::<E, $staged>(t, stages, stream_run) }
            }
        }

        impl<E, const STREAM: bool> super::super::tiles::PlaneMove<E> for $blocks<STREAM>
        where
            E: $element,
        {
            /// # Safety
            ///
            #[doc = concat!("The CPU runs ", $isa, " instructions.")]
            unsafe fn plane<const COLS: usize, const FEW_ROWS: bool>(
                t: super::super::transposes::Transposes<'_, E>,
            ) {
                // SAFETY: passed on from the caller.
                unsafe {
                    plane::<E, Self, COLS, FEW_ROWS>(t.dst, t.d, t.src, t.s, t.batch, t.reach)
                }
            }
        }
    };
}

/// `sweep_on`: [`evenly_spaced::sweep`](super::evenly_spaced::sweep) compiled with `$features`,
/// out of line so its loop compiles flat, declared beside its callers (AVX2 build, `pitched`)
/// to stay in their codegen unit. Paths are from its module.
macro_rules! sweep_on {
    ($isa:literal, $features:tt) => {
        #[doc = concat!("[`evenly_spaced::sweep`] compiled with ", $isa, ".")]
        ///
        /// # Safety
        ///
        #[doc = concat!("As [`evenly_spaced::sweep`]; the CPU runs ", $isa, ".")]
        ///
        /// [`evenly_spaced::sweep`]: super::super::evenly_spaced::sweep
        #[target_feature(enable = $features)]
        #[inline(never)]
        pub(crate) unsafe fn sweep_on<
            E: Copy,
            B: super::super::block_move::BlockMove<E>,
            const COLS: usize,
            const VISIT: usize,
            const STAGE: usize,
        >(
            dst: &mut [E],
            src: &[E],
            corner: super::super::evenly_spaced::Corner,
            rows: &[(usize, usize)],
            cols: usize,
        ) {
            use super::super::evenly_spaced::sweep;
            // SAFETY: passed on from the caller.
            unsafe { sweep::<E, B, COLS, VISIT, STAGE>(dst, src, corner, rows, cols) }
        }
    };
}

mod avx2;
mod avx512;
mod pitched;
mod short_rows;
mod shuffle;
mod split_planes;
mod sse2;

use super::element::{CopyRows, unit_elements};
use super::narrow::{self, Cached};
use super::staged::Stages;
use super::streamed_tiles::blocks_write_whole_lines;
use super::tiles;
use super::transposes::Transposes;
use crate::relayout::stores::end_streaming;
use avx512::StreamedPieces;
use bytemuck::{cast_slice, cast_slice_mut};
use split_planes::SplitPlanes;
use sse2::Sse2;

pub(super) use avx2::{available as avx2_available, run_with_avx2};

// Each unit type's x86-64 kernels: AVX2 row copies; for the plain integers, AVX2 rows
// streamed past the caches and (1 to 4 bytes) vector transposes ([`transpose_as`]).
unit_elements! {
    [
        fn row_copies() -> Option<CopyRows<Self>> {
            avx2::available().then_some(avx2::copy_rows::<Self>)
        }
    ],
    avx2::available().then_some(avx2::stream_rows::<Self>),
    transpose_as,
}

/// `tiles::transpose` of plain elements viewed as the unsigned integers `E` of their size.
fn transpose_as<E: avx512::Broad>(t: Transposes<'_, E>, stream: bool) {
    let (dst, d, src, s, batch, reach) = t.parts();
    let has_avx512 = avx512::available();
    // Narrow tiles (the blocks below would move them element by element): AVX-512 or portable.
    // SAFETY (all three): the AVX-512 builds only where the CPU runs AVX-512 F and BW (checked
    // first); plain copies run on any CPU.
    let narrow = unsafe {
        if !has_avx512 {
            narrow::narrow_transpose::<E, Cached>(Transposes::new(dst, d, src, s, batch, reach))
        } else if stream {
            avx512::narrow_transpose::<E, SplitPlanes<StreamedPieces>>(dst, d, src, s, batch, reach)
        } else {
            avx512::narrow_transpose::<E, SplitPlanes<Cached>>(dst, d, src, s, batch, reach)
        }
    };
    if narrow {
        if has_avx512 && stream {
            end_streaming();
        }
        return;
    }
    // Rows of bytes back to back, half a line to a line long: see `short_rows`.
    if has_avx512 && short_rows::takes::<E>(&batch) {
        // SAFETY: AVX-512 F and BW run (checked first); `E` is one byte (`takes`), so `u8`.
        unsafe { short_rows::transpose(cast_slice_mut(dst), d, cast_slice(src), s, batch, stream) };
        if stream {
            end_streaming();
        }
        return;
    }
    // Destination rows back to back but off the line grid: staged, so whole lines stream.
    if stream
        && (has_avx512 || avx2::available())
        && let Some(stages) = Stages::of::<E>(&batch)
    {
        // SAFETY (both): the CPU runs the instructions (checked above); `stages` are the batch's.
        unsafe {
            if has_avx512 {
                avx512::staged(dst, d, src, s, batch, reach, stages);
            } else {
                avx2::staged(dst, d, src, s, batch, reach, stages);
            }
        }
        end_streaming();
        return;
    }
    // Streaming needs whole destination lines (`blocks_write_whole_lines`).
    if stream && blocks_write_whole_lines::<E>(batch) {
        planes::<E, true>(Transposes::new(dst, d, src, s, batch, reach));
        end_streaming();
    } else {
        planes::<E, false>(Transposes::new(dst, d, src, s, batch, reach));
    }
}

/// [`tiles::planes`] with the widest blocks the CPU runs: AVX-512 F and BW (trying
/// [`pitched::pitched_plane`] first), AVX2 (cached bytes trying [`pitched::bytes_avx2`]) or SSE2.
fn planes<E: avx512::Broad, const STREAM: bool>(mut t: Transposes<'_, E>) {
    if avx512::available() {
        // SAFETY (both): the CPU runs AVX-512 F and BW instructions (checked just above).
        unsafe {
            if !pitched::pitched_plane::<E, STREAM>(t.reborrow()) {
                tiles::planes::<E, avx512::Avx512Blocks<STREAM>>(t)
            }
        }
    } else if avx2::available() {
        // SAFETY (both): the CPU runs AVX2 instructions (checked just above).
        unsafe {
            if STREAM || !pitched::bytes_avx2(t.reborrow()) {
                tiles::planes::<E, avx2::Avx2Blocks<STREAM>>(t)
            }
        }
    } else {
        // SAFETY: SSE2 is enabled (see the module docs).
        unsafe { tiles::planes::<E, Sse2<STREAM>>(t) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tiles::planes;
    use super::super::tiles::tests::{BLOCK_SHAPES, TwoTiles, blocks_agree};
    use super::*;
    use crate::relayout::test_layouts::under_miri;

    /// `#[test]` functions of kernels built for `avx2`, `avx512` or `vbmi`: ignored where the
    /// build script found the CPU lacks them; else each first checks the library finds so too.
    /// (Callers import it as `isa_test`, which each arm calls by that name.)
    macro_rules! isa_test {
        (avx2: $($test:tt)*) => {
            isa_test!(@ kernel_tests_avx2, "AVX2", "this CPU does not run AVX2",
                $crate::relayout::kernels::x86::avx2::available(), $($test)*);
        };
        (avx512: $($test:tt)*) => {
            isa_test!(@ kernel_tests_avx512, "AVX-512 F and BW",
                "this CPU does not run AVX-512 F and BW",
                $crate::relayout::kernels::x86::avx512::available(), $($test)*);
        };
        (vbmi: $($test:tt)*) => {
            isa_test!(@ kernel_tests_vbmi, "AVX-512 VBMI", "this CPU does not run AVX-512 VBMI",
                $crate::relayout::kernels::x86::split_planes::vbmi_available(), $($test)*);
        };
        (
            @ $cfg:ident, $isa:literal, $why:literal, $found:expr,
            $($(#[$attr:meta])* fn $name:ident() $body:block)*
        ) => {$(
            $(#[$attr])*
            #[test]
            #[cfg_attr(not($cfg), ignore = $why)]
            fn $name() {
                assert!($found, concat!("the build script found ", $isa, ", the library does not"));
                $body
            }
        )*};
    }

    pub(super) use isa_test;

    /// The ISA builds of the transpose blocks and sweeps, each tested on its own.
    #[derive(Clone, Copy, Debug)]
    pub(super) enum Build {
        Sse2,
        Avx2,
        Avx512,
    }

    /// [`BLOCK_SHAPES`](tiles::tests::BLOCK_SHAPES) through `build`'s blocks against the
    /// portable tile ([`blocks_agree`]); under Miri a sample that still reaches every path.
    fn agrees_with_portable<E: avx512::Broad + core::fmt::Debug + PartialEq>(
        make: fn(usize) -> E,
        build: Build,
    ) {
        let shapes = under_miri(&BLOCK_SHAPES, &[13, 1, 2, 3, 6, 8]);
        // SAFETY: each test runs its build only where the CPU has its features (`isa_test`).
        let blocks = |t: Transposes<'_, E>, stream| unsafe {
            match (stream, build) {
                (true, Build::Avx512) => planes::<E, avx512::Avx512Blocks<true>>(t),
                (false, Build::Avx512) => planes::<E, avx512::Avx512Blocks<false>>(t),
                (true, Build::Avx2) => planes::<E, avx2::Avx2Blocks<true>>(t),
                (false, Build::Avx2) => planes::<E, avx2::Avx2Blocks<false>>(t),
                (true, Build::Sse2) => planes::<E, Sse2<true>>(t),
                (false, Build::Sse2) => planes::<E, Sse2<false>>(t),
            }
        };
        blocks_agree(make, &shapes, true, &alloc::format!("{build:?}"), blocks);
    }

    /// Runs `test` on a thread of 1 MiB of stack, half a test thread's: enough for one width's
    /// AVX-512 [`PlaneMove::plane`](tiles::PlaneMove::plane) in a debug build, not every width's.
    fn on_small_stack(test: impl FnOnce() + Send + 'static) {
        extern crate std;
        let thread = std::thread::Builder::new().stack_size(1 << 20);
        thread.spawn(test).unwrap().join().unwrap();
    }

    /// Every element size through `build`'s blocks.
    fn each_type_agrees(build: Build) {
        on_small_stack(move || {
            agrees_with_portable::<u8>(|i| (i * 7) as u8, build);
            agrees_with_portable::<u16>(|i| (i * 7) as u16, build);
            agrees_with_portable::<u32>(|i| (i * 7) as u32, build);
        });
    }

    /// Staged transposes through `build` equal the portable tile: a column left past the
    /// blocks, an overlapping last block, rows past the last group, two tiles a call (the
    /// second off the line grid), each element size.
    fn staged_transposes_agree(build: Build) {
        fn check<E: avx512::Broad + core::fmt::Debug + PartialEq>(
            make: fn(usize) -> E,
            shapes: &[(usize, usize)],
            build: Build,
        ) {
            for &(n_rows, n_cols) in shapes {
                let tiles = TwoTiles::new(make, (n_rows, n_cols, 0), n_rows + 5);
                let batch = tiles.batch(Some(n_cols)).runs(Some(n_cols), None);
                let stages = Stages::of::<E>(&batch).expect("a staged batch");
                let staged = |t: Transposes<'_, E>, _| {
                    let (dst, d, src, s, batch, reach) = t.parts();
                    // SAFETY: each test runs its build only where the CPU has it (`isa_test`).
                    unsafe {
                        match build {
                            Build::Avx2 => avx2::staged(dst, d, src, s, batch, reach, stages),
                            Build::Avx512 => avx512::staged(dst, d, src, s, batch, reach, stages),
                            Build::Sse2 => unreachable!("SSE2 has no staged transposes"),
                        }
                    }
                    true
                };
                let case = alloc::format!("{}-byte {n_rows} x {n_cols}, {build:?}", size_of::<E>());
                tiles.agree(batch, 0, &case, &[false], staged);
            }
        }
        on_small_stack(move || {
            check::<u32>(|i| (i * 7) as u32, &[(35, 17), (40, 29), (35, 24)], build);
            check::<u16>(|i| (i * 7) as u16, &[(72, 7), (40, 6), (40, 48)], build);
            check::<u8>(|i| (i * 7) as u8, &[(72, 17), (70, 5)], build);
        });
    }

    #[test]
    fn sse2_blocks_equal_the_portable_tile() {
        each_type_agrees(Build::Sse2);
    }

    isa_test! {
        avx2:
        fn avx2_blocks_equal_the_portable_tile() {
            each_type_agrees(Build::Avx2);
        }
        fn avx2_staged_transposes_equal_the_portable_tile() {
            staged_transposes_agree(Build::Avx2);
        }
    }

    isa_test! {
        avx512:
        fn avx512_blocks_equal_the_portable_tile() {
            each_type_agrees(Build::Avx512);
        }
        fn avx512_staged_transposes_equal_the_portable_tile() {
            staged_transposes_agree(Build::Avx512);
        }
    }
}

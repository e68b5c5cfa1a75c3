//! The innermost copies of a relayout: row copies for loops contiguous on both sides ([`rows`]),
//! cache-blocked transposes for loops contiguous on different sides ([`tiles`], cut as
//! [`tile_shape`] says), and a strided loop for anything else ([`strided`]). Each takes both
//! sides as (slots, start) plus a stride or the plan's `(source, destination)` line offsets.
//!
//! These kernels are portable; element types bring faster ones by [`Element`]'s hooks: SSE2,
//! AVX2 and AVX-512 blocks on x86-64 (`x86`), NEON on aarch64 (`aarch64`), both left out by the
//! cargo feature `portable-kernels`.

#[cfg(neon_kernels)]
mod aarch64;
mod block_move;
mod element;
#[cfg(x86_kernels)]
mod evenly_spaced;
mod few_rows;
#[cfg(vector_kernels)]
mod micro_blocks;
mod narrow;
mod prefetch;
mod reach;
#[cfg(vector_kernels)]
mod register;
mod row_blocks;
mod rows;
#[cfg(vector_kernels)]
mod shuffle;
#[cfg(x86_kernels)]
mod staged;
#[cfg(vector_kernels)]
mod streamed_rows;
#[cfg(vector_kernels)]
mod streamed_tiles;
mod strided;
mod tile_batch;
mod tile_shape;
mod tiles;
mod transposes;
#[cfg(x86_kernels)]
mod x86;

pub(crate) use element::{Element, Opaque};
pub(crate) use reach::Reach;
pub(crate) use row_blocks::RowBlock;
pub(crate) use rows::{Destination, copy_row_block};
pub(crate) use strided::copy_strided;
pub(crate) use tile_batch::TileBatch;
pub(crate) use tile_shape::rows_go_whole;
pub(crate) use tiles::transpose;

/// Runs `body` compiled with AVX2 where the CPU has it (its inlined copies move 32 bytes a
/// register, not 16), else as it is.
#[inline(always)]
pub(crate) fn with_widest_copies<R>(body: impl FnOnce() -> R) -> R {
    #[cfg(x86_kernels)]
    if x86::avx2_available() {
        // SAFETY: the CPU runs AVX2 (just checked).
        return unsafe { x86::run_with_avx2(body) };
    }
    body()
}

//! Rows of three elements split into their planes by a kernel of their own where the CPU runs
//! one (x86-64 only): NHWC -> NCHW of an RGB image, bytes by [`vbmi::split_three`] (AVX-512
//! VBMI), 4-byte elements by [`split_dwords::split_three`] (AVX-512 F). The narrow kernels'
//! loops split the rest.

use super::super::narrow::Pieces;
use super::{avx512, split_dwords, vbmi};
use bytemuck::Pod;
use core::marker::PhantomData;

/// Narrow tiles' pieces written as `P` writes them, and rows of three elements split into
/// their planes by a kernel of their own where the CPU runs it: bytes by [`vbmi::split_three`]
/// (VBMI), 4-byte elements by [`split_dwords::split_three`] (AVX-512 F).
pub(crate) struct SplitPlanes<P>(PhantomData<P>);

impl<E: Pod, P: Pieces<E>> Pieces<E> for SplitPlanes<P> {
    const IN_PLACE: bool = P::IN_PLACE;
    const PAST_THE_CACHES: bool = P::PAST_THE_CACHES;

    #[inline(always)]
    unsafe fn put(out: &mut [E], piece: &[E]) {
        // SAFETY: passed on from the caller.
        unsafe { P::put(out, piece) }
    }

    #[inline(always)]
    unsafe fn split(input: &[E], planes: &mut [&mut [E]]) -> bool {
        let [red, green, blue] = planes else {
            return false;
        };
        match size_of::<E>() {
            1 if vbmi::available() => {
                let planes =
                    [red, green, blue].map(|plane| bytemuck::cast_slice_mut::<E, u8>(plane));
                // SAFETY: the CPU runs AVX-512 F, BW and VBMI (checked just above).
                unsafe { vbmi::split_three(bytemuck::cast_slice(input), planes) };
                true
            }
            4 if avx512::available() => {
                // SAFETY: the CPU runs AVX-512 F (checked just above), and `P`'s instructions
                // (the caller's promise).
                unsafe { split_dwords::split_three::<E, P>(input, [red, green, blue]) };
                true
            }
            _ => false,
        }
    }
}

//! Rows of three bytes split into their planes by a kernel of their own where the CPU runs
//! AVX-512 VBMI (x86-64 only): NHWC -> NCHW of an RGB image of bytes, by
//! [`vbmi::split_three`]. The narrow kernels' loops split the rest (other element sizes gain
//! nothing from a kernel of their own: docs/engine-measurements.md, "Kernel paths kept and
//! removed").

use super::super::narrow::Pieces;
use super::vbmi;
use bytemuck::Pod;
use core::marker::PhantomData;

/// Narrow tiles' pieces written as `P` writes them, and rows of three bytes split into their
/// planes by [`vbmi::split_three`] where the CPU runs VBMI.
pub(crate) struct SplitPlanes<P>(PhantomData<P>);

impl<E: Pod, P: Pieces<E>> Pieces<E> for SplitPlanes<P> {
    const IN_PLACE: bool = P::IN_PLACE;

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
        if size_of::<E>() != 1 || !vbmi::available() {
            return false;
        }
        let planes = [red, green, blue].map(|plane| bytemuck::cast_slice_mut::<E, u8>(plane));
        // SAFETY: the CPU runs AVX-512 F, BW and VBMI (checked just above).
        unsafe { vbmi::split_three(bytemuck::cast_slice(input), planes) };
        true
    }
}

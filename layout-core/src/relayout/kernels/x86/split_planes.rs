//! Rows of two to four bytes split into their planes by a kernel of their own where the CPU
//! runs AVX-512 VBMI (x86-64 only): NHWC -> NCHW of RGB and RGBA images of bytes, by
//! [`vbmi::split`]. The narrow kernels' loops split the rest (other element sizes gain
//! nothing from a kernel of their own: docs/engine-measurements.md, "Kernel paths kept and
//! removed").

use super::super::narrow::Pieces;
use super::vbmi;
use bytemuck::Pod;
use core::marker::PhantomData;

/// Narrow tiles' pieces written as `P` writes them, and rows of two to four bytes split into
/// their planes by [`vbmi::split`] where the CPU runs VBMI.
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
        if size_of::<E>() != 1 || !vbmi::available() {
            return false;
        }
        let input = bytemuck::cast_slice(input);
        fn bytes<'a, E: Pod>(plane: &'a mut &mut [E]) -> &'a mut [u8] {
            bytemuck::cast_slice_mut(plane)
        }
        // SAFETY (each arm): the CPU runs AVX-512 F, BW and VBMI (checked just above).
        unsafe {
            match planes {
                [a, b] => vbmi::split::<2>(input, [a, b].map(bytes)),
                [a, b, c] => vbmi::split::<3>(input, [a, b, c].map(bytes)),
                [a, b, c, d] => vbmi::split::<4>(input, [a, b, c, d].map(bytes)),
                _ => return false,
            }
        }
        true
    }
}

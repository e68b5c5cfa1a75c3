//! Plans made with the choices of each described machine (`CacheGeometry::DESCRIBED`), not
//! only this one's, run here: whatever visit order, tile shape, prefetch and stores another
//! machine's caches pick, the relayout moves the same elements.

use super::{Origin, RelayoutPlan};
use crate::relayout::test_layouts::{Crouton, Flat, NChw8c, NChw16c, Nchw, Nhwc};
use crate::relayout::{CacheGeometry, Choices, PlanChoices, Streaming};
use crate::{Layout, Tensor, layouts::SameRankAs};
use alloc::format;

/// `A -> B` of `dims`, planned with each described machine's choices and with its stores
/// past the caches as its model picks them, forced on and forced off: each run equals the
/// source, element by element.
fn each_machine_moves<T, A, B>(dims: [usize; 4], of: fn(usize) -> T)
where
    T: crate::tensors::Element + Default + PartialEq + core::fmt::Debug + Send + Sync + 'static,
    A: Layout<Index = [usize; 4]> + Default + PartialEq,
    B: SameRankAs<A>
        + crate::axes::RelayoutFrom<A>
        + Layout<Index = [usize; 4]>
        + Default
        + PartialEq,
{
    let src = Tensor::<T, A>::from_fn(dims, |[n, c, h, w]| of(((n * 31 + c) * 17 + h) * 13 + w));
    let want = src.to_row_major();
    for geometry in CacheGeometry::DESCRIBED {
        let choices = Choices::for_cache(geometry);
        for streaming in [None, Some(true), Some(false)] {
            let mut dst = Tensor::<T, B>::zeros(dims);
            let made_with = PlanChoices {
                choices,
                streaming: streaming.map(|on| Streaming::forced(on, &choices)),
            };
            let plan = RelayoutPlan::<T, A, B>::with(src.mapping(), dst.mapping(), |_| {
                (made_with, Origin::Model)
            })
            .unwrap();
            plan.run(&src, &mut dst).unwrap();
            let case = format!("{dims:?} on {geometry:?}, streamed {streaming:?}");
            assert_eq!(dst.to_row_major(), want, "{case}: {}", plan.explain());
        }
    }
}

/// The transposes (whole blocks, rows off the line grid, short byte rows, three channels),
/// the row copies (blocked into blocked) and the chunk moves (HTP croutons), each element size
/// with vector kernels.
#[test]
#[cfg_attr(
    miri,
    ignore = "the kernels' own tests run under Miri; these shapes take hours"
)]
fn plans_of_every_described_machine_move_what_relayout_moves() {
    each_machine_moves::<f32, Nchw, Nhwc>([2, 64, 12, 12], |i| i as f32);
    each_machine_moves::<f32, Nhwc, Nchw>([2, 24, 11, 11], |i| i as f32);
    each_machine_moves::<f32, Nhwc, Nchw>([1, 3, 20, 20], |i| i as f32);
    each_machine_moves::<u8, Nchw, Nhwc>([1, 64, 16, 16], |i| i as u8);
    each_machine_moves::<u8, Nhwc, Nchw>([2, 64, 7, 7], |i| i as u8);
    each_machine_moves::<u8, Nhwc, Nchw>([1, 3, 32, 32], |i| i as u8);
    each_machine_moves::<u16, Nchw, NChw16c>([1, 40, 9, 9], |i| i as u16);
    each_machine_moves::<f32, NChw8c, NChw16c>([1, 32, 8, 8], |i| i as f32);
    each_machine_moves::<u8, Flat, Crouton>([1, 16, 16, 64], |i| i as u8);
    each_machine_moves::<u8, Crouton, Flat>([1, 16, 16, 64], |i| i as u8);
}

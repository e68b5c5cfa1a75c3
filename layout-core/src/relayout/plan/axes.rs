//! What the plan asks of one side's axes: which matter, how far they reach, whether their
//! blocks nest exactly, and where a step of the destination moves the source.

use super::pair::{Renumbering, loops_reach};
use crate::{layouts::Axes, layouts::Axis, layouts::MAX_AXES};

/// `axes` with each axis's dimension `d` renumbered `to[d]`.
pub(super) fn renumbered(axes: &Axes, to: &Renumbering) -> Axes {
    Axes::collect(axes.iter().map(|axis| Axis {
        dim: to[axis.dim],
        ..*axis
    }))
}

/// Axes with more than one digit value (the others change nothing).
pub(super) fn significant(axes: &Axes) -> Axes {
    Axes::collect(axes.iter().filter(|a| a.extent > 1).copied())
}

/// One past the largest virtual coordinate of `d` the axes reach: its padded extent.
pub(crate) fn coverage(axes: &Axes, d: usize) -> usize {
    let of_d = axes.iter().filter(|a| a.dim == d);
    loops_reach(of_d.map(|a| (a.extent, a.step)))
}

/// Whether the axes of `d`, finest first, count it as one mixed-radix number: each step is the
/// span of the finer axis (so splitting them at each other's boundaries keeps offsets affine).
pub(super) fn exact_chain(axes: &Axes, d: usize) -> bool {
    let of_d = axes.iter().filter(|a| a.dim == d);
    let (of_d, n) = sorted::<_, MAX_AXES>(of_d.map(|a| (a.step, a.extent)));
    let next_span =
        |span, &(step, extent): &(usize, usize)| (step == span).then_some(step * extent);
    of_d[..n].iter().try_fold(1, next_span).is_some()
}

/// Whether all steps of `d` on both sides divide one another in order.
pub(super) fn steps_divide(a: &Axes, b: &Axes, d: usize) -> bool {
    let of_d = a.iter().chain(b.iter()).filter(|x| x.dim == d);
    let (steps, n) = sorted::<_, { 2 * MAX_AXES }>(of_d.map(|axis| axis.step));
    steps[..n].windows(2).all(|w| w[1] % w[0] == 0)
}

/// The values `of` yields, sorted into an array on the stack, and their count.
///
/// # Panics
///
/// Where `of` yields more than `N` values (a layout has at most `MAX_AXES` axes).
pub(super) fn sorted<T: Copy + Default + Ord, const N: usize>(
    of: impl Iterator<Item = T>,
) -> ([T; N], usize) {
    let (mut out, mut n) = ([T::default(); N], 0);
    for value in of {
        out[n] = value;
        n += 1;
    }
    out[..n].sort_unstable();
    (out, n)
}

/// Source offset advance of one step of `step` along `d`: from the source axis whose block
/// holds that step (0 when the source has no axis of `d`: the dim is 1).
pub(super) fn src_stride(src_axes: &Axes, d: usize, step: usize) -> usize {
    src_axes
        .iter()
        .filter(|a| a.dim == d && a.step <= step)
        .max_by_key(|a| a.step)
        .map_or(0, |a| a.stride * (step / a.step))
}

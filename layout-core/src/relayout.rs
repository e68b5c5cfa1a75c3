//! Relayout: copying logical elements from one layout into another.
//!
//! This is the simple, correct engine: it walks the source in memory order (runs, no per-element
//! division) and computes each destination offset with the destination layout's constant-folded
//! offset function. The cache-blocked engine replaces it behind the same calls.

use crate::{Layout, Mapping, TensorView};

/// Writes every logical element of `src` into `dst_slots`, laid out by `dst`. Padding slots of
/// the destination are not touched; `src` and `dst` have the same dims.
pub(crate) fn copy_logical<T: Copy, L: Layout, L2: Layout<Index = L::Index>>(
    src: &TensorView<'_, T, L>,
    dst_slots: &mut [T],
    dst: &Mapping<L2>,
) {
    debug_assert_eq!(src.dims(), dst.dims());
    let src_slots = src.as_raw();
    src.mapping().for_each_run(|run| {
        let mut index = run.index;
        for j in 0..run.len {
            dst_slots[dst.offset(index)] = src_slots[run.offset + j * run.stride];
            index[run.dim] += run.step;
        }
    });
}

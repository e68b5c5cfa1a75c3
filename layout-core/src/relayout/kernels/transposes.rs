//! One transpose call's arguments as the kernels hand them down from the walk to the blocks.

use super::reach::Reach;
use super::tile_batch::TileBatch;

/// The transposes of one call: every tile of `batch` from `src` (at `s`) into `dst` (at `d`),
/// `reach` bounding the offsets one tile's rows and columns reach. Passed between inlined
/// layers; a kernel function not inlined ([`transposes_fn!`]) takes the six as separate
/// arguments: the compiler then knows `dst` overlaps nothing else it reads (not so for a slice
/// in a struct argument), and callers do not build the struct on the stack.
pub(crate) struct Transposes<'a, T> {
    pub dst: &'a mut [T],
    pub d: usize,
    pub src: &'a [T],
    pub s: usize,
    pub batch: TileBatch<'a>,
    pub reach: Reach,
}

impl<'a, T> Transposes<'a, T> {
    /// Every tile of `batch` from `src` (at `s`) into `dst` (at `d`), within `reach`.
    #[inline(always)]
    pub(crate) fn new(
        dst: &'a mut [T],
        d: usize,
        src: &'a [T],
        s: usize,
        batch: TileBatch<'a>,
        reach: Reach,
    ) -> Self {
        Transposes {
            dst,
            d,
            src,
            s,
            batch,
            reach,
        }
    }

    /// The six as they are passed one by one.
    #[inline(always)]
    pub(crate) fn parts(self) -> (&'a mut [T], usize, &'a [T], usize, TileBatch<'a>, Reach) {
        (self.dst, self.d, self.src, self.s, self.batch, self.reach)
    }

    /// The same transposes, the destination lent for one call.
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> Transposes<'_, T> {
        self.with_batch(self.batch)
    }

    /// The transposes of `batch`, a part of this call's (so `reach` bounds it too), the
    /// destination lent for one call.
    #[inline(always)]
    pub(crate) fn with_batch<'b>(&'b mut self, batch: TileBatch<'b>) -> Transposes<'b, T> {
        Transposes {
            dst: self.dst,
            batch,
            ..*self
        }
    }
}

/// Declares a function taking the six parts of [`Transposes`] (see there why), then any further
/// arguments, its body run on them as `$t: Transposes<'_, $T>`; generics in square brackets:
/// `pub(crate) unsafe fn plane[T: Copy, const COLS: usize](t: Transposes<T>, more: bool) {..}`
/// declares `plane::<T, COLS>(dst, d, src, s, batch, reach, more)`. (`$unsafe`, never given,
/// lets the transcriber repeat the optional `unsafe`.)
macro_rules! transposes_fn {
    (
        $(#[$attr:meta])* $vis:vis $(unsafe $($unsafe:lifetime)?)? fn $name:ident
        [$($generics:tt)*]
        ($t:ident: Transposes<$T:ty> $(, $arg:ident: $arg_ty:ty)* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $(#[$attr])* $vis $(unsafe $($unsafe)?)? fn $name<$($generics)*>(
            dst: &mut [$T],
            d: usize,
            src: &[$T],
            s: usize,
            batch: $crate::relayout::kernels::tile_batch::TileBatch<'_>,
            reach: $crate::relayout::kernels::reach::Reach,
            $($arg: $arg_ty),*
        ) $(-> $ret)? {
            #[allow(unused_mut)]
            let mut $t = $crate::relayout::kernels::transposes::Transposes::new(
                dst, d, src, s, batch, reach,
            );
            $body
        }
    };
}

pub(crate) use transposes_fn;

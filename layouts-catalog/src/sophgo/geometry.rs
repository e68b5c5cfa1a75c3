//! [`LocalGeometry`]: a 4-D local layout bound to dims and a start address, and the arithmetic
//! every local layout shares (offsets, axes, what each NPU holds, the placement checks).

use super::address::LocalAddress;
use alloc::format;
use alloc::vec::Vec;
use core::ops::Range;
use layout_core::{LayoutError, layouts::Axes, layouts::Axis};

/// A 4-D local layout bound to dims `[N, C, H, W]`: strides, start, channels per NPU.
///
/// Offsets are in elements of the tensor's element type `T` within the whole local memory seen
/// as `NPUS * NPU_BYTES / size_of::<T>()` elements: channel `c` lives on NPU `(Q + c) % X` at
/// channel slot `(Q + c) / X`, and element `(n, c, h, w)` at
/// `npu * S / e + R / e + (n / P * Ns + slot * Cs + h * Hs + w * Ws) * P + n % P` for a tensor
/// starting at NPU `Q`, byte offset `R`, with `e`-byte elements packed `P` at a time (the storage
/// mode) and strides `[Ns, Cs, Hs, Ws]` in packed elements.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{EuAligned, LocalAddress, ExampleChip};
/// let m = Mapping::with_layout(EuAligned::<ExampleChip>::new(2048, 4), [2, 3, 4, 5]).unwrap();
/// let g = m.geometry();
/// assert_eq!(g.start(), LocalAddress { npu: 2, offset: 0 });
/// assert_eq!((g.channels_per_npu(), g.strides()), (2, [64, 32, 5, 1]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalGeometry {
    pub(crate) dims: [usize; 4],
    pub(crate) pack: usize,
    pub(crate) strides: [usize; 4],
    /// The strides in (unpacked) elements: `strides * pack`.
    pub(crate) element_strides: [usize; 4],
    pub(crate) start: LocalAddress,
    pub(crate) element_bytes: usize,
    pub(crate) npus: usize,
    pub(crate) npu_bytes: usize,
    /// `npu_bytes / element_bytes`.
    pub(crate) npu_elements: usize,
    /// `start.offset / element_bytes`.
    pub(crate) base: usize,
    pub(crate) channels_per_npu: usize,
    /// Columns of the last channel (a matrix whose width does not divide M); `W` otherwise.
    pub(crate) last_channel_width: usize,
}

impl LocalGeometry {
    /// The logical dims `[N, C, H, W]`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{EuAligned, FourN, ExampleChip};
    /// let m = Mapping::with_layout(EuAligned::<ExampleChip, FourN>::new(0, 1), [6, 5, 4, 5]).unwrap();
    /// assert_eq!(m.geometry().dims(), [6, 5, 4, 5]);
    /// ```
    pub fn dims(&self) -> [usize; 4] {
        self.dims
    }

    /// The dims in packed elements: `[ceil(N / P), C, H, W]` (the TPU-Kernel documentation's `(M, C, H, W)`).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{EuAligned, FourN, ExampleChip};
    /// let m = Mapping::with_layout(EuAligned::<ExampleChip, FourN>::new(0, 1), [6, 5, 4, 5]).unwrap();
    /// assert_eq!(m.geometry().packed_dims(), [2, 5, 4, 5]);
    /// ```
    pub fn packed_dims(&self) -> [usize; 4] {
        let [n, c, h, w] = self.dims;
        [n.div_ceil(self.pack), c, h, w]
    }

    /// Elements of dimension 0 per packed element (1, or the storage mode's 2 or 4).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Compact, ExampleChip, TwoN};
    /// let m = Mapping::with_layout(Compact::<ExampleChip, TwoN>::new(0, 2), [3, 5, 4, 5]).unwrap();
    /// assert_eq!(m.geometry().pack(), 2);
    /// ```
    pub fn pack(&self) -> usize {
        self.pack
    }

    /// The `[N, C, H, W]` strides in packed elements, as the TPU-Kernel documentation counts them (the C stride
    /// steps X channels).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Compact, ExampleChip};
    /// let m = Mapping::with_layout(Compact::<ExampleChip>::new(2048, 4), [2, 3, 4, 5]).unwrap();
    /// assert_eq!(m.geometry().strides(), [40, 20, 5, 1]);
    /// ```
    pub fn strides(&self) -> [usize; 4] {
        self.strides
    }

    /// The strides in elements of the unpacked type (`strides() * pack()`).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Compact, FourN, ExampleChip};
    /// let m = Mapping::with_layout(Compact::<ExampleChip, FourN>::new(0, 1), [6, 5, 4, 5]).unwrap();
    /// assert_eq!(m.geometry().element_strides(), [160, 80, 20, 4]);
    /// ```
    pub fn element_strides(&self) -> [usize; 4] {
        self.element_strides
    }

    /// Where the tensor starts: NPU `Q`, byte offset `R`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{FreeStrides, LocalAddress, ExampleChip};
    /// let m = Mapping::with_layout(FreeStrides::<ExampleChip>::new(1028, 4, [40, 20, 5, 1]), [1, 1, 1, 1]).unwrap();
    /// assert_eq!(m.geometry().start(), LocalAddress { npu: 1, offset: 4 });
    /// ```
    pub fn start(&self) -> LocalAddress {
        self.start
    }

    /// Channel slots per NPU: `ceil((Q + C) / X)`.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Compact, ExampleChip};
    /// let m = Mapping::with_layout(Compact::<ExampleChip>::new(3 * 1024, 4), [1, 6, 1, 1]).unwrap();
    /// assert_eq!(m.geometry().channels_per_npu(), 3);
    /// ```
    pub fn channels_per_npu(&self) -> usize {
        self.channels_per_npu
    }

    /// Bytes per (unpacked) element.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Compact, ExampleChip};
    /// let m = Mapping::with_layout(Compact::<ExampleChip>::new(0, 2), [1, 1, 1, 1]).unwrap();
    /// assert_eq!(m.geometry().element_bytes(), 2);
    /// ```
    pub fn element_bytes(&self) -> usize {
        self.element_bytes
    }

    /// The channel slots NPU `npu` gives this tensor (`None` when it holds no channel).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Compact, ExampleChip};
    /// // C = X + 2 = 6 channels from NPU 3: NPU 3 holds channels 0 and 4 (slots 0, 1),
    /// // NPU 0 holds channels 1 and 5 (slots 1, 2), NPU 2 only channel 3 (slot 1).
    /// let m = Mapping::with_layout(Compact::<ExampleChip>::new(3 * 1024, 4), [1, 6, 1, 1]).unwrap();
    /// assert_eq!(m.geometry().npu_slots(3), Some(0..2));
    /// assert_eq!(m.geometry().npu_slots(0), Some(1..3));
    /// assert_eq!(m.geometry().npu_slots(2), Some(1..2));
    /// ```
    pub fn npu_slots(&self, npu: usize) -> Option<Range<usize>> {
        if npu >= self.npus || self.dims[1] == 0 {
            return None;
        }
        // In u128: the last virtual channel Q + C - 1 may pass usize (absurd channel counts,
        // which fail the fit check, but with the right numbers). The slots fit in usize: the
        // last is at most (X - 1 + C - 1) / X.
        let (q, x, npu) = (self.start.npu as u128, self.npus as u128, npu as u128);
        let last = q + self.dims[1] as u128 - 1;
        let first_slot = q.saturating_sub(npu).div_ceil(x);
        let last_slot = last.checked_sub(npu)? / x;
        (first_slot <= last_slot).then_some(first_slot as usize..last_slot as usize + 1)
    }

    /// The NPU and channel slot of channel `channel`: `((Q + c) % X, (Q + c) / X)`; `None` past
    /// the last channel.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{Compact, ExampleChip};
    /// // The TPU-Kernel documentation: C = X + 2 = 6 channels from NPU 3 of 4.
    /// let m = Mapping::with_layout(Compact::<ExampleChip>::new(3 * 1024, 4), [1, 6, 1, 1]).unwrap();
    /// assert_eq!(m.geometry().channel_slot(0), Some((3, 0)));
    /// assert_eq!(m.geometry().channel_slot(5), Some((0, 2)));
    /// assert_eq!(m.geometry().channel_slot(6), None);
    /// ```
    pub fn channel_slot(&self, channel: usize) -> Option<(usize, usize)> {
        if channel >= self.dims[1] {
            return None;
        }
        // In u128, as in `npu_slots`: Q + c may pass usize for absurd channel counts.
        let virtual_channel = self.start.npu as u128 + channel as u128;
        let npus = self.npus as u128;
        Some((
            (virtual_channel % npus) as usize,
            (virtual_channel / npus) as usize,
        ))
    }

    /// How many of the tensor's elements NPU `npu` holds (dummy elements not counted): `N*H*W`
    /// per channel there, a matrix's last channel counting only its remaining columns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{ExampleChip, Matrix};
    /// // The TPU-Kernel documentation: a 2 x 40 matrix with W = 15 keeps 15 columns on NPUs 0 and 1, 10 on NPU 2.
    /// let m = Mapping::with_layout(Matrix::<ExampleChip>::new(0, 4, 15), [2, 40]).unwrap();
    /// let g = m.geometry().as_4d();
    /// assert_eq!((0..4).map(|npu| g.npu_element_count(npu)).collect::<Vec<_>>(), [30, 30, 20, 0]);
    /// ```
    pub fn npu_element_count(&self, npu: usize) -> usize {
        let [n, _, _, w] = self.dims;
        self.npu_count(npu, n, w, self.last_channel_width)
    }

    /// How many dummy elements (the tail of a storage mode's last pack) NPU `npu` holds:
    /// `(N rounded up to the pack - N) * H * W` per channel there.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{EuAligned, ExampleChip, FourN};
    /// // The TPU-Kernel documentation's 4N example: N = 6 int8 gets 2 dummies per (c, h, w).
    /// let m = Mapping::with_layout(EuAligned::<ExampleChip, FourN>::new(0, 1), [6, 5, 4, 5]).unwrap();
    /// assert_eq!(m.geometry().npu_dummy_count(0), 2 * 2 * 4 * 5); // channels 0 and 4
    /// assert_eq!(m.geometry().npu_dummy_count(1), 2 * 4 * 5);
    /// ```
    pub fn npu_dummy_count(&self, npu: usize) -> usize {
        let [n, _, h, w] = self.dims;
        let dummies = n.next_multiple_of(self.pack) - n;
        if dummies == 0 || h == 0 {
            return 0;
        }
        self.npu_count(npu, dummies, w, w)
    }

    /// `rows * H * (W per channel on npu)`, the last channel counting `last_w` columns.
    fn npu_count(&self, npu: usize, rows: usize, w: usize, last_w: usize) -> usize {
        let Some(slots) = self.npu_slots(npu) else {
            return 0;
        };
        if self.dims.contains(&0) {
            return 0;
        }
        let holds_last = self.channel_slot(self.dims[1] - 1) == Some((npu, slots.end - 1));
        let columns = slots.len() * w - if holds_last { w - last_w } else { 0 };
        // Placement checked that this NPU's elements fit in its bytes: no overflow.
        rows * self.dims[2] * columns
    }

    /// The bytes of NPU `npu` (offsets within that NPU) from the tensor's first slot there to
    /// its last, dummy elements included; `None` when the NPU holds none of it.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{EuAligned, ExampleChip};
    /// let m = Mapping::with_layout(EuAligned::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
    /// assert_eq!(m.geometry().npu_span(0), Some(0..(32 + 20) * 4));
    /// assert_eq!(m.geometry().npu_span(3), None);
    /// ```
    pub fn npu_span(&self, npu: usize) -> Option<Range<usize>> {
        if self.dims.contains(&0) {
            return None;
        }
        let slots = self.npu_slots(npu)?;
        let first = slots.start * self.element_strides[1];
        let last = self.last_element(npu, slots.end - 1)?;
        let e = self.element_bytes;
        Some(self.start.offset + first * e..self.start.offset + (last + 1) * e)
    }

    /// Bytes the tensor reserves on each NPU from its start offset: the outermost loop's
    /// extent times its stride (N x N stride for the compact and aligned layouts, the TPU-Kernel documentation's
    /// "blocks" a tensor takes in each NPU), trailing alignment included.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{EuAligned, ExampleChip};
    /// let m = Mapping::with_layout(EuAligned::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
    /// assert_eq!(m.geometry().reserved_bytes(), 2 * 32 * 4);
    /// ```
    pub fn reserved_bytes(&self) -> usize {
        self.middle_axes()
            .iter()
            .map(|a| a.extent * a.stride)
            .max()
            .unwrap_or(0)
            * self.element_bytes
    }

    /// Offset (elements of the unpacked type, whole memory) of `[n, c, h, w]`; `pack` and
    /// `npus` are the callers' compile-time constants, equal to the stored ones.
    #[inline(always)]
    pub(crate) fn offset(&self, [n, c, h, w]: [usize; 4], pack: usize, npus: usize) -> usize {
        let channel = self.start.npu + c;
        let [sn, sc, sh, sw] = self.element_strides;
        (channel % npus) * self.npu_elements
            + self.base
            + (n / pack) * sn
            + (channel / npus) * sc
            + h * sh
            + w * sw
            + n % pack
    }

    /// The axes between the NPU axis and the packed lane, unsorted: N, channel slot, H, W.
    fn middle_axes(&self) -> [Axis; 4] {
        let [n, _, h, w] = self.dims;
        let [sn, sc, sh, sw] = self.element_strides;
        [
            Axis {
                dim: 0,
                extent: n.div_ceil(self.pack),
                step: self.pack,
                stride: sn,
            },
            Axis {
                dim: 1,
                extent: self.channels_per_npu,
                step: self.npus,
                stride: sc,
            },
            Axis {
                dim: 2,
                extent: h,
                step: 1,
                stride: sh,
            },
            Axis {
                dim: 3,
                extent: w,
                step: 1,
                stride: sw,
            },
        ]
    }

    /// The storage walk: the NPU axis outermost, then N, channel slot, H and W in decreasing
    /// stride order, then the packed lane. Axes of extent 1 (which never count) go right after
    /// the NPU axis, whatever their stride, so that the innermost axis is one that moves.
    pub(crate) fn axes(&self) -> Axes {
        let mut middle = self.middle_axes();
        // Stable: equal strides (only on extent-1 axes, see `check_nesting`) keep N, C, H, W.
        middle
            .sort_by_key(|a| core::cmp::Reverse(if a.extent == 1 { usize::MAX } else { a.stride }));
        let mut axes = Vec::with_capacity(6);
        axes.push(Axis {
            dim: 1,
            extent: self.npus,
            step: 1,
            stride: self.npu_elements,
        });
        axes.extend_from_slice(&middle);
        if self.pack > 1 {
            axes.push(Axis {
                dim: 0,
                extent: self.pack,
                step: 1,
                stride: 1,
            });
        }
        Axes::from_slice(&axes)
    }

    /// Offset within its NPU (relative to the start offset, in elements) of the tensor's last
    /// slot on `npu`, whose last channel slot is `slot`.
    fn last_element(&self, npu: usize, slot: usize) -> Option<usize> {
        let [n, c, h, w] = self.dims;
        let [sn, sc, sh, sw] = self.element_strides;
        // Virtual channels in u128, as in `npu_slots`.
        let last_channel = self.start.npu as u128 + c as u128 - 1;
        let last_w = if npu as u128 + slot as u128 * self.npus as u128 == last_channel {
            self.last_channel_width - 1
        } else {
            w - 1
        };
        (n.div_ceil(self.pack) - 1)
            .checked_mul(sn)?
            .checked_add(slot.checked_mul(sc)?)?
            .checked_add((h - 1).checked_mul(sh)?)?
            .checked_add(last_w.checked_mul(sw)?)?
            .checked_add(self.pack - 1)
    }

    /// Refuses strides that let two elements share a slot: from the innermost axis out, each
    /// axis of extent above 1 must step past everything inside it. This also makes the axes,
    /// sorted by stride, count offsets upwards.
    pub(crate) fn check_nesting(
        &self,
        describe: impl Fn() -> alloc::string::String,
    ) -> Result<(), LayoutError> {
        let mut middle = self.middle_axes();
        middle.sort_by_key(|a| a.stride);
        let mut span = self.pack; // the packed lane: `pack` consecutive elements
        for axis in middle.iter().filter(|a| a.extent > 1) {
            if axis.stride < span {
                return Err(LayoutError::InvalidLayout {
                    layout: describe(),
                    reason: format!(
                        "strides {:?} (N, C, H, W, in packed elements) let two elements of dims \
                         {:?} share a slot: each stride must step past the loops inside it",
                        self.strides, self.dims
                    ),
                });
            }
            span = (axis.extent - 1)
                .checked_mul(axis.stride)
                .and_then(|reach| reach.checked_add(span))
                .ok_or_else(|| self.overflow())?;
        }
        Ok(())
    }

    /// Refuses a tensor that reaches past the end of an NPU it touches (naming the first such
    /// NPU).
    pub(crate) fn check_fits(&self) -> Result<(), LayoutError> {
        if self.dims.contains(&0) {
            return Ok(());
        }
        let available = self.npu_bytes - self.start.offset;
        for npu in 0..self.npus {
            let Some(slots) = self.npu_slots(npu) else {
                continue;
            };
            let needed = self
                .last_element(npu, slots.end - 1)
                .and_then(|last| (last + 1).checked_mul(self.element_bytes))
                .ok_or_else(|| self.overflow())?;
            if needed > available {
                return Err(LayoutError::NpuOverflow {
                    npu,
                    needed,
                    available,
                });
            }
        }
        Ok(())
    }

    /// Calls `visit` with the offset of every dummy element: the tail of the last pack when N
    /// is not a multiple of the pack.
    pub(crate) fn for_each_dummy(&self, visit: &mut dyn FnMut(usize)) {
        let [n, c, h, w] = self.dims;
        let padded = n.next_multiple_of(self.pack);
        if n == 0 {
            return;
        }
        for n in n..padded {
            for c in 0..c {
                for h in 0..h {
                    for w in 0..w {
                        visit(self.offset([n, c, h, w], self.pack, self.npus));
                    }
                }
            }
        }
    }

    fn overflow(&self) -> LayoutError {
        LayoutError::Overflow {
            dims: Vec::from(self.dims),
            element_size: None,
        }
    }
}

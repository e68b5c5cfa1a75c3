//! [`StridedForm`]: a mapping's storage as one strided array, the shape ndarray and DLPack take.

use crate::{Layout, LayoutError, Mapping, layouts::Axes, layouts::Axis, mappings::Coords};
use alloc::format;
use alloc::vec::Vec;

/// A tensor's storage described as one strided array: element `[i0, i1, ..]` of the array is
/// storage slot `offset + sum i_k * strides[k]`. This is what ndarray views and DLPack tensors
/// are made of.
///
/// - A plain layout (one stride per dimension: `Strided` views, `nchw`, `nhwc`, ...) has its
///   logical dims as the shape, in the layout's axis order, and those strides.
/// - A blocked layout (a chunk list with fixed entries) has its *blocked form*: first one axis per
///   logical dimension, in axis order, counting its blocks (its rest entry, `ceil(D / B)`), then
///   one axis per fixed entry, in the chunk list's order (outer to inner). `nChw16c` on
///   `[N, C, H, W]` is `[N, ceil(C / 16), H, W, 16]`, HTP's crouton on `[N, H, W, C]` is
///   `[N, ceil(H / 8), ceil(W / 8), ceil(C / 32), 8, 8, 32]`. Padding is included: the blocked
///   form covers every storage slot.
///
/// The form depends on the layout type, not on the dims: `nChw16c` has five axes even when
/// `C = 16`.
///
/// ```
/// use tensor_layout::prelude::*;
/// let m = Mapping::<onednn::nChw16c>::new([2, 17, 3, 5]).unwrap();
/// let form = m.strided_form().unwrap();
/// assert_eq!(form.shape, [2, 2, 3, 5, 16]);
/// assert_eq!(form.strides, [2 * 3 * 5 * 16, 3 * 5 * 16, 5 * 16, 16, 1]);
/// assert_eq!(form.offset, 0);
/// let plain = Mapping::<onednn::nhwc>::new([2, 3, 4, 5]).unwrap().strided_form().unwrap();
/// assert_eq!((plain.shape, plain.strides), (vec![2, 3, 4, 5], vec![60, 1, 15, 3]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StridedForm {
    /// Extent of each axis of the array.
    pub shape: Vec<usize>,
    /// Storage slots (elements, not bytes) one step along each axis moves.
    pub strides: Vec<usize>,
    /// Storage slot of the array's first element.
    pub offset: usize,
}

impl StridedForm {
    /// One more than the largest slot the array reaches, 0 when it is empty: the storage it needs.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, onednn::nchw>::zeros([1, 1, 4, 4]);
    /// let corner = t.slice(2, 1..3).unwrap();
    /// let form = corner.slice(3, 1..3).unwrap().mapping().strided_form().unwrap();
    /// assert_eq!((form.offset, form.span()), (5, 11));
    /// ```
    pub fn span(&self) -> usize {
        if self.shape.contains(&0) {
            return 0;
        }
        let reach: usize = self
            .shape
            .iter()
            .zip(&self.strides)
            .map(|(&extent, &stride)| (extent - 1) * stride)
            .sum();
        self.offset + reach + 1
    }
}

impl<L: Layout> Mapping<L> {
    /// This mapping's storage as one strided array (see [`StridedForm`]): the logical dims for
    /// a plain layout, the blocked form for a blocked one.
    ///
    /// # Errors
    /// [`LayoutError::NoStridedForm`] for a layout that is neither: one whose gaps belong to
    /// other data and whose offsets are not one stride per dimension on these dims (Sophgo local
    /// memory, where channels go round the NPUs), or one whose first element lies part-way into
    /// its storage walk. Such a tensor is handed over after a relayout to a plain layout.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 3, 5, 30]).unwrap();
    /// assert_eq!(m.strided_form().unwrap().shape, [1, 1, 1, 1, 8, 8, 32]);
    /// // 100 channels of f32 round the 64 NPUs of a BM1684X: two channel slots per NPU.
    /// let compact = sophgo::Compact::<sophgo::BM1684X>::new(0, 4);
    /// let local = Mapping::with_layout(compact, [1, 100, 2, 2]).unwrap();
    /// assert!(matches!(local.strided_form(), Err(LayoutError::NoStridedForm { .. })));
    /// ```
    pub fn strided_form(&self) -> Result<StridedForm, LayoutError> {
        let axes = self.axes();
        let rank = <L::Index as Coords>::RANK;
        let form = if (0..rank).all(|d| axes.iter().filter(|a| a.dim == d).count() == 1) {
            self.plain_form(&axes)
        } else if self.origin().as_ref().iter().any(|&o| o != 0) {
            self.fallback_form("its first element lies part-way into its storage walk")?
        } else if !self.layout().gaps_are_padding() {
            self.fallback_form(
                "the slots between its elements belong to other data, so its storage has no \
                 blocked form of its own",
            )?
        } else {
            self.blocked_form(&axes)
        };
        self.check_reach(form)
    }

    /// One axis per dimension: the logical dims with each axis's stride.
    fn plain_form(&self, axes: &Axes) -> StridedForm {
        let rank = <L::Index as Coords>::RANK;
        let origin = self.origin();
        let axis_of = |d: usize| {
            axes.iter()
                .find(|a| a.dim == d)
                .copied()
                .unwrap_or_default()
        };
        let strides: Vec<usize> = (0..rank).map(|d| axis_of(d).stride).collect();
        let offset = self.base_offset()
            + (0..rank)
                .map(|d| origin.as_ref()[d] * strides[d])
                .sum::<usize>();
        StridedForm {
            shape: Vec::from(self.dims().as_ref()),
            strides,
            offset,
        }
    }

    /// The most significant axis of each dimension, in axis order, then the others in list order.
    fn blocked_form(&self, axes: &Axes) -> StridedForm {
        let rank = <L::Index as Coords>::RANK;
        let outer: Vec<usize> = (0..rank)
            .map(|d| {
                let mut best: Option<usize> = None;
                for (i, axis) in axes.iter().enumerate().filter(|(_, a)| a.dim == d) {
                    if best.is_none_or(|b| axis.step > axes[b].step) {
                        best = Some(i);
                    }
                }
                best.expect("every dimension has an axis")
            })
            .collect();
        let inner = (0..axes.len()).filter(|i| !outer.contains(i));
        let order: Vec<Axis> = outer
            .iter()
            .copied()
            .chain(inner)
            .map(|i| axes[i])
            .collect();
        StridedForm {
            shape: order.iter().map(|a| a.extent).collect(),
            strides: order.iter().map(|a| a.stride).collect(),
            offset: self.base_offset(),
        }
    }

    /// The plain form when these dims happen to be one stride per dimension, else the error.
    fn fallback_form(&self, reason: &str) -> Result<StridedForm, LayoutError> {
        let strides = self.strides().filter(|_| !self.is_empty());
        let Some(strides) = strides else {
            return Err(self.no_form(reason));
        };
        let zero = L::Index::splat(0);
        Ok(StridedForm {
            shape: Vec::from(self.dims().as_ref()),
            strides: Vec::from(strides.as_ref()),
            offset: self.offset(zero),
        })
    }

    /// The form, once checked to stay inside the storage (a layout defined elsewhere that
    /// misdescribes its axes gets an error here, never a view past the end).
    fn check_reach(&self, form: StridedForm) -> Result<StridedForm, LayoutError> {
        let mut last = Some(form.offset);
        for (&extent, &stride) in form.shape.iter().zip(&form.strides) {
            let reach = extent.saturating_sub(1).checked_mul(stride);
            last = last.zip(reach).and_then(|(l, r)| l.checked_add(r));
        }
        let empty = form.shape.contains(&0);
        match last {
            Some(last) if empty || last < self.storage_len() => Ok(form),
            _ => Err(self.no_form("its axes reach past its storage")),
        }
    }

    fn no_form(&self, reason: &str) -> LayoutError {
        LayoutError::NoStridedForm {
            layout: format!("{}", self.layout()),
            dims: Vec::from(self.dims().as_ref()),
            reason: reason.into(),
        }
    }
}

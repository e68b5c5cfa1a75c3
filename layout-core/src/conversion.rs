//! Conversions of a tensor into another layout, by axis name: [`TensorBase::relayout`] and its
//! siblings move the data; [`TensorBase::with_axes`] only re-types it.

use crate::axis_names::{check_convertible, check_rank, positions};
use crate::relayout::{Renumbering, copy_into};
use crate::storage::{Storage, StorageMut};
use crate::tensors::Element;
use crate::{
    ChunkedMemoryLayout, Layout, LayoutError, Mapping, Tensor, axes::AxisNames, axes::AxisNaming,
    axes::RelayoutFrom, layouts::ChunkList, layouts::SameRankAs, layouts::Strided,
    mappings::Coords, tensors::TensorBase,
};
use crate::{quantized::ChannelZeros, quantized::Interface};
use alloc::vec::Vec;
use core::mem::MaybeUninit;

/// Where each axis of `src` lands in `dst`, by name.
fn renumbering<L1: Layout, L2: Layout>(src: &L1, dst: &L2) -> Result<Renumbering, LayoutError> {
    positions(&src.axis_word(), &dst.axis_word())
}

/// `dims` of a source, in the destination's order under `to`.
fn renumbered_dims<I: Coords>(dims: &I, to: &Renumbering) -> I {
    let mut out = I::splat(0);
    for d in 0..I::RANK {
        out[to[d]] = dims[d];
    }
    out
}

/// A tensor of `layout` to relayout a source of mapping `src` into: the source's dims in
/// `layout`'s order, every slot `pad`; and where each source axis lands in it.
pub(crate) fn new_destination<T, L1, L2, I>(
    src: &Mapping<L1>,
    layout: L2,
    pad: T,
    interface: I,
) -> Result<(Tensor<T, L2, I>, Renumbering), LayoutError>
where
    T: Element,
    L1: Layout,
    L2: SameRankAs<L1>,
    I: Interface,
{
    let to = renumbering(src.layout(), &layout)?;
    let mapping = Mapping::with_layout(layout, renumbered_dims(&src.dims(), &to))?;
    Ok((Tensor::uninitialised(mapping, pad, interface)?, to))
}

/// Where each axis of `src` (read through `src_interface`) lands in `dst` (read through
/// `dst_interface`), once the checks of [`TensorBase::relayout_into`] pass: the names, the
/// dims in `dst`'s order, the interfaces.
pub(crate) fn checked_renumbering<L1, L2, I>(
    src: &Mapping<L1>,
    src_interface: &I,
    dst: &Mapping<L2>,
    dst_interface: &I,
) -> Result<Renumbering, LayoutError>
where
    L1: Layout,
    L2: SameRankAs<L1>,
    I: Interface,
{
    let to = renumbering(src.layout(), dst.layout())?;
    let expected = renumbered_dims(&src.dims(), &to);
    if expected != dst.dims() {
        return Err(LayoutError::ShapeMismatch {
            source: Vec::from(expected.as_ref()),
            destination: Vec::from(dst.dims().as_ref()),
        });
    }
    if src_interface != dst_interface {
        return Err(LayoutError::InterfaceMismatch {
            source: alloc::format!("{src_interface:?}"),
            destination: alloc::format!("{dst_interface:?}"),
        });
    }
    Ok(to)
}

impl<S: Storage, L: Layout, I: ChannelZeros<S::Elem>> TensorBase<S, L, I> {
    /// Converts into a new tensor of layout `L2`, moving each element by axis name: `L2`'s axes
    /// are the same names in any order, its dims are this tensor's permuted into its order, its
    /// interface is this tensor's, and its padding holds this tensor's pad value (the stored
    /// zero). Layouts with other names (activations and
    /// weights, named and positional) do not compile.
    ///
    /// # Panics
    /// When the destination's storage overflows (see [`TensorBase::try_relayout`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let flat = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 3, 5, 30], |[_, h, w, c]| (h + w + c) as u8);
    /// let crouton = flat.relayout::<htp::R4CroutonLayout>();
    /// assert_eq!(crouton.to_row_major(), flat.to_row_major());
    /// assert_eq!(crouton.storage_len(), 2048);
    /// // HTP's height, width and channels land in oneDNN's h, w and c.
    /// let blocked = crouton.relayout::<onednn::nChw32c>();
    /// assert_eq!(blocked.dims(), [1, 30, 3, 5]);
    /// assert_eq!(blocked[[0, 29, 2, 4]], crouton[[0, 2, 4, 29]]);
    /// ```
    pub fn relayout<L2>(&self) -> Tensor<S::Elem, L2, I>
    where
        L2: SameRankAs<L> + RelayoutFrom<L> + Default,
        S::Elem: Send + Sync + 'static,
    {
        let () = const { check_convertible::<L::Names, L2::Names>(<L::Index as Coords>::RANK) };
        self.relayout_to(L2::default())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Converts into a new tensor of layout `L2` (see [`TensorBase::relayout`]).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when `L2`'s padded storage for these dims overflows;
    /// [`LayoutError::AxisNames`] when a layout whose names are known only at run time does not
    /// have this tensor's names.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 3, 5, 30]);
    /// assert_eq!(t.try_relayout::<htp::R4FlatMemoryLayout>().unwrap().storage_len(), 450);
    /// ```
    pub fn try_relayout<L2>(&self) -> Result<Tensor<S::Elem, L2, I>, LayoutError>
    where
        L2: SameRankAs<L> + RelayoutFrom<L> + Default,
        S::Elem: Send + Sync + 'static,
    {
        let () = const { check_convertible::<L::Names, L2::Names>(<L::Index as Coords>::RANK) };
        self.relayout_to(L2::default())
    }

    /// Writes this tensor's logical elements into `dst`, by axis name (see
    /// [`TensorBase::relayout`]), and `dst`'s own pad value (its stored zero) into every padding
    /// slot of `dst`.
    ///
    /// # Errors
    /// [`LayoutError::ShapeMismatch`] when `dst`'s dims are not this tensor's in `dst`'s axis
    /// order (the error gives this tensor's dims in that order); [`LayoutError::AxisNames`] as
    /// for [`TensorBase::try_relayout`]; [`LayoutError::InterfaceMismatch`] when `dst`'s
    /// interface has other parameters (stored values would change meaning). `dst` is then left
    /// untouched.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let src = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 2, 2, 2], |i| i.iter().sum::<usize>() as u8);
    /// let mut dst = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 2, 2, 2]);
    /// src.relayout_into(&mut dst).unwrap();
    /// assert_eq!(dst.to_row_major(), src.to_row_major());
    /// let mut wrong = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 2, 2, 3]);
    /// assert!(src.relayout_into(&mut wrong).is_err());
    /// ```
    pub fn relayout_into<S2, L2>(&self, dst: &mut TensorBase<S2, L2, I>) -> Result<(), LayoutError>
    where
        S2: StorageMut<Elem = S::Elem>,
        L2: SameRankAs<L> + RelayoutFrom<L>,
        S::Elem: Send + Sync + 'static,
    {
        let () = const { check_convertible::<L::Names, L2::Names>(<L::Index as Coords>::RANK) };
        self.write_by_name(dst)
    }

    /// [`TensorBase::try_relayout`] into the layout value `layout`, once the names were checked
    /// at compile time (each public conversion checks them itself, so that an error points at
    /// the caller's line); names known only at run time are checked here.
    pub(crate) fn relayout_to<L2>(&self, layout: L2) -> Result<Tensor<S::Elem, L2, I>, LayoutError>
    where
        L2: SameRankAs<L>,
        S::Elem: Send + Sync + 'static,
    {
        if !layout.gaps_are_padding() {
            // Slots the relayout does not reach keep the pad value they are filled with.
            let (mut out, to) = new_destination(
                self.mapping(),
                layout,
                self.pad_value(),
                self.interface().clone(),
            )?;
            self.copy_renumbered(&mut out, &to);
            return Ok(out);
        }
        let to = renumbering(self.mapping().layout(), &layout)?;
        let mapping = Mapping::with_layout(layout, renumbered_dims(&self.mapping().dims(), &to))?;
        let pad = self.pad_value();
        let write = |dst: &Mapping<L2>, slots: &mut [MaybeUninit<S::Elem>]| {
            copy_into(self.mapping(), self.as_raw(), dst, slots, pad, &to);
        };
        // SAFETY: every gap of the destination is padding, so the relayout writes every slot
        // (each element, and `pad` into each padding slot) and reads none of them.
        let mut out = unsafe { Tensor::written(mapping, pad, self.interface().clone(), write) }?;
        out.write_channel_padding();
        Ok(out)
    }

    /// [`TensorBase::relayout_into`] once the names were checked at compile time.
    fn write_by_name<S2, L2>(&self, dst: &mut TensorBase<S2, L2, I>) -> Result<(), LayoutError>
    where
        S2: StorageMut<Elem = S::Elem>,
        L2: SameRankAs<L>,
        S::Elem: Send + Sync + 'static,
    {
        let to = checked_renumbering(
            self.mapping(),
            self.interface(),
            dst.mapping(),
            dst.interface(),
        )?;
        self.copy_renumbered(dst, &to);
        Ok(())
    }

    /// Copies into `dst`, whose dims are this tensor's renumbered by `to`.
    pub(crate) fn copy_renumbered<S2, L2>(&self, dst: &mut TensorBase<S2, L2, I>, to: &Renumbering)
    where
        S2: StorageMut<Elem = S::Elem>,
        L2: SameRankAs<L>,
        S::Elem: Send + Sync + 'static,
    {
        let (mapping, pad) = (*dst.mapping(), dst.pad_value());
        copy_into(
            self.mapping(),
            self.as_raw(),
            &mapping,
            dst.as_raw_mut(),
            pad,
            to,
        );
        dst.write_channel_padding();
    }
}

impl<S: StorageMut, L: Layout, I: ChannelZeros<S::Elem>> TensorBase<S, L, I> {
    /// Overwrites this tensor with `src`'s logical elements, moved by axis name, and its padding
    /// with its pad value: [`TensorBase::relayout_into`] seen from the destination (the same
    /// call on every tensor kind).
    ///
    /// # Errors
    /// As for [`TensorBase::relayout_into`]; this tensor is then left untouched.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let src = Tensor::<u8, onednn::nchw>::from_fn([1, 3, 2, 2], |[_, c, h, w]| (c * 4 + h * 2 + w) as u8);
    /// let mut dst = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 2, 2, 3]);
    /// dst.relayout_from(&src).unwrap();
    /// assert_eq!(dst[[0, 1, 0, 2]], src[[0, 2, 1, 0]]);
    /// ```
    pub fn relayout_from<S0, L0>(&mut self, src: &TensorBase<S0, L0, I>) -> Result<(), LayoutError>
    where
        S0: Storage<Elem = S::Elem>,
        L0: Layout,
        L: SameRankAs<L0> + RelayoutFrom<L0>,
        S::Elem: Send + Sync + 'static,
    {
        let () = const { check_convertible::<L0::Names, L::Names>(<L0::Index as Coords>::RANK) };
        src.write_by_name(self)
    }
}

/// A layout whose axes can be given other names without moving any data: chunked and strided
/// layouts. The bound of [`TensorBase::with_axes`].
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::axes::Rename;
/// type Abcd = onednn_layout!("abcd");
/// let _: <Abcd as Rename>::Renamed<names::NCHW> = onednn::nchw::default();
/// ```
#[diagnostic::on_unimplemented(
    message = "the axes of `{Self}` cannot be renamed",
    label = "`with_axes` re-types chunked and strided layouts",
    note = "convert the data with `relayout` instead"
)]
pub trait Rename: Layout {
    /// This layout with axes named `N`: the same storage, other meanings.
    type Renamed<N: AxisNames>: Layout<Index = Self::Index, Geometry = Self::Geometry, Names = N>;

    /// This layout value with axes named `N` (the name of the same re-typing on tensors,
    /// [`TensorBase::with_axes`], on [`Strided`] and on [`DynLayout`](crate::DynLayout)).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::axes::Rename;
    /// let named = Rename::with_axes::<names::NCHW>(&<onednn_layout!("abcd")>::default());
    /// assert_eq!(named, onednn::nchw::default());
    /// ```
    fn with_axes<N: AxisNames>(&self) -> Self::Renamed<N>;

    /// Renamed [`Rename::with_axes`], the name the same re-typing has on tensors.
    #[deprecated(note = "renamed to `Rename::with_axes`")]
    fn renamed<N: AxisNames>(&self) -> Self::Renamed<N> {
        self.with_axes()
    }
}

impl<const RANK: usize, C: ChunkList, N0: AxisNames> Rename for ChunkedMemoryLayout<RANK, C, N0> {
    type Renamed<N: AxisNames> = ChunkedMemoryLayout<RANK, C, N>;

    fn with_axes<N: AxisNames>(&self) -> ChunkedMemoryLayout<RANK, C, N> {
        ChunkedMemoryLayout::default()
    }
}

impl<const RANK: usize, N0: AxisNames> Rename for Strided<RANK, N0> {
    type Renamed<N: AxisNames> = Strided<RANK, N>;

    fn with_axes<N: AxisNames>(&self) -> Strided<RANK, N> {
        Strided::with_axes(*self)
    }
}

impl<S: Storage, L: Rename, I: Interface> TensorBase<S, L, I> {
    /// The same tensor with its axes named `N` (or renamed): no data moves and nothing is
    /// copied, only the type says what each index means. For a buffer that you know holds, say,
    /// NCHW data in a positional layout; the names must have the layout's rank.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// fn takes_nchw(t: &Tensor<f32, onednn::nchw>) -> f32 { t[[0, 1, 0, 0]] }
    /// let abcd = Tensor::<f32, onednn_layout!("abcd")>::from_fn([1, 2, 1, 1], |[_, c, ..]| c as f32);
    /// assert_eq!(takes_nchw(&abcd.with_axes::<names::NCHW>()), 1.0);
    /// ```
    pub fn with_axes<N: AxisNames>(self) -> TensorBase<S, L::Renamed<N>, I> {
        let () = const {
            check_rank::<N>(<L::Index as Coords>::RANK);
            if matches!(N::NAMING, AxisNaming::AtRunTime) {
                panic!("`with_axes` names axes with names known at compile time");
            }
        };
        let position = self.channel_position();
        let (mapping, storage, pad, interface) = self.into_parts();
        let renamed = Mapping::from_parts(
            Rename::with_axes::<N>(mapping.layout()),
            mapping.dims(),
            *mapping.geometry(),
        );
        // A per-channel interface keeps its axis: the one at the same place, by its new name.
        let new_name = position.map(|p| renamed.layout().axis_word().letter(p));
        let interface = new_name.map_or(interface.clone(), |name| interface.on_axis(name));
        TensorBase::from_parts(renamed, storage, pad, interface)
    }
}

impl<S: Storage, const RANK: usize, C: ChunkList, N: AxisNames, I: Interface>
    TensorBase<S, ChunkedMemoryLayout<RANK, C, N>, I>
{
    /// The same tensor typed with another spelling of its chunk list: the tuple
    /// `(Chunk<0, 0>, ...)` written by hand and the type of
    /// [`catalog_lists`](crate::catalog_lists) the macros write for the same entries are two
    /// types of one layout. No data moves and nothing is copied; a list with other entries does
    /// not compile. The target is usually inferred from where the tensor goes.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// type ByHand = ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>,
    ///     Chunk<1, 8>, Chunk<2, 8>, Chunk<3, 32>), names::NHWC>;
    /// fn takes_croutons(t: &Tensor<u8, htp::R4CroutonLayout>) -> usize { t.storage_len() }
    /// let t = Tensor::<u8, ByHand>::zeros([1, 3, 5, 30]);
    /// assert_eq!(takes_croutons(&t.respelled()), 2048);
    /// ```
    pub fn respelled<C2>(self) -> TensorBase<S, ChunkedMemoryLayout<RANK, C2, N>, I>
    where
        C2: ChunkList<Spelling = C::Spelling>,
    {
        let (mapping, storage, pad, interface) = self.into_parts();
        let respelled = Mapping::from_parts(
            ChunkedMemoryLayout::default(),
            mapping.dims(),
            *mapping.geometry(),
        );
        TensorBase::from_parts(respelled, storage, pad, interface)
    }
}

//! Between chunk tables and contiguous storage: [`IndirectTensor::to_contiguous`],
//! [`TensorBase::to_indirect`](crate::tensors::TensorBase::to_indirect), and relayouts both ways.
//!
//! Chunks in the tensor's own pool lie end to end in chunk order, so a relayout moves them as
//! the contiguous tensor they form. The caller's chunks move through the table without a
//! contiguous copy of it (`relayout::chunk_table`): chunks
//! of 512 bytes or more one at a time, straight between the chunk and its box in the other
//! tensor, and smaller ones in bands of consecutive chunks that are whole blocks of the outer
//! dimensions, through a buffer that stays in the caches. The engine's kernels stay the ones of
//! contiguous tensors, and each element crosses memory once. Where the other layout has blocks
//! that straddle a chunk's or band's box, the whole table goes through one contiguous buffer
//! instead, as it does into a table whose interface is per channel.

use super::store::{OwnedChunks, TableAccess};
use super::{ChunkStorage, IndirectTensor};
use crate::conversion::{checked_renumbering, new_destination};
use crate::relayout::{Renumbering, TableMove, copy_table};
use crate::storage::{AlignedBuffer, Storage, StorageMut};
use crate::tensors::Element;
use crate::{
    Layout, LayoutError, Tensor, axes::RelayoutFrom, axes::check_convertible, layouts::SameRankAs,
    mappings::Coords, quantized::ChannelZeros, quantized::Interface, tensors::TensorBase,
};

impl<T: Element, L: Layout, I: Interface> IndirectTensor<T, L, I> {
    /// The same tensor in one contiguous allocation: the tensor's own pool as it is (no copy),
    /// the caller's chunks copied in chunk-number order (see [`IndirectTensor::to_contiguous`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 9, 8, 32], |[_, h, ..]| h as u8);
    /// let back: Tensor<u8, htp::R4CroutonLayout> = t.clone().into_indirect().into_contiguous();
    /// assert_eq!(back.as_raw(), t.as_raw());
    /// ```
    pub fn into_contiguous(self) -> Tensor<T, L, I> {
        match self.table.into_pool() {
            Ok(pool) => TensorBase::from_parts(self.mapping, pool, self.pad, self.interface),
            Err(table) => IndirectTensor { table, ..self }.to_contiguous(),
        }
    }
}

impl<T: Element, L: Layout, I: Interface, C: ChunkStorage<Elem = T>> IndirectTensor<T, L, I, C> {
    /// The same tensor in one contiguous allocation (the chunks copied in chunk-number order).
    ///
    /// # Panics
    /// When the allocator refuses the storage.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
    /// let c: Tensor<u8, htp::R4CroutonLayout> = t.to_contiguous();
    /// assert_eq!(c.storage_len(), 2 * 2048);
    /// ```
    pub fn to_contiguous(&self) -> Tensor<T, L, I> {
        let mut out = Tensor::uninitialised(self.mapping, self.pad, self.interface.clone())
            .unwrap_or_else(|e| panic!("{e}"));
        let volume = self.chunk_volume();
        let slots = out.as_raw_mut();
        for (n, chunk) in self.table.chunks().iter().enumerate() {
            slots[n * volume..(n + 1) * volume].copy_from_slice(chunk);
        }
        out
    }

    /// Converts into a new contiguous tensor of layout `L2`, moving each element by axis name
    /// as [`TensorBase::relayout`] does; the interface is kept.
    ///
    /// # Panics
    /// With the message of the [`LayoutError`] that [`IndirectTensor::try_relayout`] returns.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let flat = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 9, 8, 33], |i| i.iter().sum::<usize>() as u8);
    /// let table = flat.relayout::<htp::R4CroutonLayout>().to_indirect();
    /// assert_eq!(table.relayout::<onednn::nchw>()[[0, 32, 8, 7]], flat[[0, 8, 7, 32]]);
    /// ```
    pub fn relayout<L2>(&self) -> Tensor<T, L2, I>
    where
        L2: SameRankAs<L> + RelayoutFrom<L> + Default,
        T: Send + Sync + 'static,
        I: ChannelZeros<T>,
    {
        self.try_relayout().unwrap_or_else(|e| panic!("{e}"))
    }

    /// Converts into a new contiguous tensor of layout `L2`, moving each element by axis name
    /// as [`TensorBase::relayout`] does; the interface is kept.
    ///
    /// # Errors
    /// As for [`TensorBase::try_relayout`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let flat = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 9, 8, 33], |i| i.iter().sum::<usize>() as u8);
    /// let indirect = flat.relayout::<htp::R4CroutonLayout>().to_indirect();
    /// let blocked = indirect.try_relayout::<onednn::nChw16c>().unwrap();
    /// assert_eq!(blocked.to_row_major(), flat.relayout::<onednn::nChw16c>().to_row_major());
    /// ```
    pub fn try_relayout<L2>(&self) -> Result<Tensor<T, L2, I>, LayoutError>
    where
        L2: SameRankAs<L> + RelayoutFrom<L> + Default,
        T: Send + Sync + 'static,
        I: ChannelZeros<T>,
    {
        let () = const { check_convertible::<L::Names, L2::Names>(<L::Index as Coords>::RANK) };
        let (mut out, to) = new_destination(
            &self.mapping,
            L2::default(),
            self.pad,
            self.interface.clone(),
        )?;
        self.write_renumbered(&mut out, &to);
        Ok(out)
    }

    /// Writes this tensor's logical elements into `dst` by axis name, and `dst`'s stored zero
    /// into its padding (see [`TensorBase::relayout_into`]).
    ///
    /// # Errors
    /// As for [`TensorBase::relayout_into`]; `dst` is then left untouched.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let src = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 2, 2, 3]);
    /// let mut dst = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 2, 2, 3], |_| 9);
    /// src.relayout_into(&mut dst).unwrap();
    /// assert_eq!(dst.to_row_major(), [0; 12]);
    /// ```
    pub fn relayout_into<S2, L2>(&self, dst: &mut TensorBase<S2, L2, I>) -> Result<(), LayoutError>
    where
        S2: StorageMut<Elem = T>,
        L2: SameRankAs<L> + RelayoutFrom<L>,
        T: Send + Sync + 'static,
        I: ChannelZeros<T>,
    {
        let () = const { check_convertible::<L::Names, L2::Names>(<L::Index as Coords>::RANK) };
        let to = checked_renumbering(
            &self.mapping,
            &self.interface,
            dst.mapping(),
            dst.interface(),
        )?;
        self.write_renumbered(dst, &to);
        Ok(())
    }

    /// Writes into `dst`, whose dims are this tensor's renumbered by `to`: as a contiguous
    /// tensor where the chunks are the tensor's own pool, else straight from the chunks where
    /// the table moves that way, else from one contiguous copy of it.
    fn write_renumbered<S2, L2>(&self, dst: &mut TensorBase<S2, L2, I>, to: &Renumbering)
    where
        S2: StorageMut<Elem = T>,
        L2: SameRankAs<L>,
        T: Send + Sync + 'static,
        I: ChannelZeros<T>,
    {
        if let Some(slots) = self.table.pooled_slots() {
            let pool =
                TensorBase::from_parts(self.mapping, slots, self.pad, self.interface.clone());
            return pool.copy_renumbered(dst, to);
        }
        let (mapping, pad) = (*dst.mapping(), dst.pad_value());
        let moves = TableMove::Out {
            chunks: self.table.chunks(),
            dst_slots: dst.as_raw_mut(),
        };
        if copy_table(&self.mapping, &mapping, to, moves, pad, None) {
            dst.write_channel_padding();
        } else {
            self.to_contiguous().copy_renumbered(dst, to);
        }
    }

    /// Overwrites this tensor with `src`'s logical elements, moved by axis name, and its padding
    /// with the stored zero: a relayout into the chunk table.
    ///
    /// # Errors
    /// As for [`TensorBase::relayout_into`] with this tensor as the destination; it is then
    /// left untouched.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let src = Tensor::<u8, onednn::nchw>::from_fn([1, 3, 2, 2], |[_, c, h, w]| (c * 4 + h * 2 + w) as u8);
    /// let mut dst = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 2, 2, 3]);
    /// dst.relayout_from(&src).unwrap();
    /// assert_eq!(dst[[0, 1, 0, 2]], src[[0, 2, 1, 0]]);
    /// ```
    pub fn relayout_from<S0, L0>(&mut self, src: &TensorBase<S0, L0, I>) -> Result<(), LayoutError>
    where
        S0: Storage<Elem = T>,
        L0: Layout,
        L: SameRankAs<L0> + RelayoutFrom<L0>,
        T: Send + Sync + 'static,
        I: ChannelZeros<T>,
    {
        let () = const { check_convertible::<L0::Names, L::Names>(<L0::Index as Coords>::RANK) };
        let to = checked_renumbering(
            src.mapping(),
            src.interface(),
            &self.mapping,
            &self.interface,
        )?;
        let pad = self.pad;
        if let Some(slots) = self.table.pooled_slots_mut() {
            let interface = self.interface.clone();
            let mut pool = TensorBase::from_parts(self.mapping, slots, pad, interface);
            src.copy_renumbered(&mut pool, &to);
            return Ok(());
        }
        // A per-channel interface's padding is written on a whole tensor, so such tables take
        // the contiguous buffer.
        let per_channel = self.interface.channel_axis().is_some();
        if !per_channel {
            let moves = TableMove::In {
                src_slots: src.as_raw(),
                chunks: self.table.chunks_mut(),
            };
            if copy_table(src.mapping(), &self.mapping, &to, moves, pad, None) {
                return Ok(());
            }
        }
        let mut staged = Tensor::uninitialised(self.mapping, self.pad, self.interface.clone())?;
        src.copy_renumbered(&mut staged, &to);
        let volume = self.chunk_volume();
        for (n, chunk) in self.table.chunks_mut().each_mut().enumerate() {
            chunk.copy_from_slice(&staged.as_raw()[n * volume..(n + 1) * volume]);
        }
        Ok(())
    }
}

impl<T: Element, L: Layout, I: Interface> Tensor<T, L, I> {
    /// The same tensor with its chunks behind a table, its storage the table's pool: no copy
    /// (see [`IndirectTensor`]).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 9, 8, 32], |[_, h, ..]| h as u8);
    /// let table = t.into_indirect();
    /// assert_eq!((table.chunk_count(), table[[0, 8, 3, 3]]), (2, 8));
    /// ```
    pub fn into_indirect(self) -> IndirectTensor<T, L, I> {
        let (mapping, storage, pad, interface) = self.into_parts();
        IndirectTensor {
            mapping,
            table: OwnedChunks::pool(storage, mapping.chunk_volume()),
            pad,
            interface,
        }
    }
}

impl<S: Storage, L: Layout, I: Interface> TensorBase<S, L, I> {
    /// The same tensor with its chunks behind a table, in a pool of their own (see
    /// [`IndirectTensor`]).
    ///
    /// # Panics
    /// When the allocator refuses the pool.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 9, 8, 32], |[_, h, ..]| h as u8);
    /// let indirect = t.to_indirect();
    /// assert_eq!((indirect.chunk_count(), indirect[[0, 8, 3, 3]]), (2, 8));
    /// ```
    pub fn to_indirect(&self) -> IndirectTensor<S::Elem, L, I> {
        let mapping = *self.mapping();
        let volume = mapping.chunk_volume();
        let slots = &self.as_raw()[..mapping.storage_len()];
        IndirectTensor {
            mapping,
            table: OwnedChunks::pool(AlignedBuffer::from_slice(slots), volume),
            pad: self.pad_value(),
            interface: self.interface().clone(),
        }
    }
}

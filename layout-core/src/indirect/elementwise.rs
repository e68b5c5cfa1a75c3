//! Element-wise work on a chunk table, over logical elements only, as on a contiguous tensor:
//! padding is never read by `f` nor written by it.

use super::store::{OwnedChunks, TableAccess};
use super::{ChunkStorage, IndirectTensor};
use crate::interface::contract::channel_position;
use crate::tensor::padding::PaddingRule;
use crate::tensors::Element;
use crate::tensors::IterMut;
use crate::{
    Layout, LayoutError, quantized::ChannelZeros, quantized::Interface, quantized::Plain,
    quantized::RealValues,
};
use alloc::vec::Vec;

impl<T: Element, L: Layout, I: Interface, C: ChunkStorage<Elem = T>> IndirectTensor<T, L, I, C> {
    /// The logical elements in row-major order (last dim fastest), writable; padding is not
    /// visited.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let mut t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 1, 2, 2]);
    /// for (k, v) in t.iter_mut().enumerate() {
    ///     *v = 200 + k as u8;
    /// }
    /// assert_eq!(t.to_row_major(), [200, 201, 202, 203]);
    /// assert_eq!(t.chunk(0)[2], 0); // padding untouched
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, T, L> {
        IterMut::of_chunks(self.mapping, self.table.chunks_mut())
    }

    /// A plain chunk table of `f` applied to each logical element, of this tensor's dims, its
    /// chunks in a pool of its own; its padding holds `U::default()`.
    ///
    /// # Panics
    /// When the allocator refuses the pool.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 1, 3], |[.., c]| c as u8).to_indirect();
    /// let doubled = t.map(|v| u16::from(v) * 2 + 1);
    /// assert_eq!(doubled.to_row_major(), [1, 3, 5]);
    /// assert_eq!(doubled.chunk(0)[3], 0); // padding: not f(0) = 1
    /// ```
    pub fn map<U: Element + Default>(&self, mut f: impl FnMut(T) -> U) -> IndirectTensor<U, L> {
        let mut out = IndirectTensor::filled(self.mapping, U::default(), Plain)
            .unwrap_or_else(|e| panic!("{e}"));
        self.each_logical(&mut out.table, |_, _, x| f(x));
        out
    }

    /// `f` applied to each logical element's real value, stored back through the same
    /// interface (rounded, saturated); padding holds the stored zero.
    ///
    /// # Panics
    /// As for [`IndirectTensor::map`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let q = ScaleOffset::new(0.5, 128);
    /// let t = Tensor::<u8, htp::R4CroutonLayout, _>::try_from_real_fn([1, 1, 1, 3], q, |[.., c]| c as f32 - 1.0).unwrap();
    /// let relu = t.to_indirect().map_real(|x| x.max(0.0) + 0.5);
    /// assert_eq!(relu.to_row_major(), [129, 129, 131]);
    /// assert_eq!(relu.chunk(0)[3], 128); // padding stays real 0, not relu(0) + 0.5
    /// ```
    pub fn map_real(&self, mut f: impl FnMut(f32) -> f32) -> IndirectTensor<T, L, I>
    where
        I: RealValues<T> + ChannelZeros<T>,
    {
        let mut out = IndirectTensor::filled(self.mapping, self.pad, self.interface.clone())
            .unwrap_or_else(|e| panic!("{e}"));
        let (interface, axes) = (&self.interface, self.mapping.layout().axis_word());
        let channel = channel_position(interface, &axes);
        self.each_logical(&mut out.table, |index, _, x| {
            let c = channel.map_or(0, |axis| index[axis]);
            interface.stored(f(interface.real(x, c)), c)
        });
        // The pool holds the pad value everywhere: per channel, padding slots differ.
        if channel.is_some() {
            out.write_interface_padding();
        }
        out
    }

    /// A plain chunk table of `f(a, b)` over the logical elements of this table and `other`
    /// (of the same layout type and dims); padding holds `V::default()`.
    ///
    /// # Errors
    /// [`LayoutError::ShapeMismatch`] when the dims differ.
    ///
    /// # Panics
    /// As for [`IndirectTensor::map`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let a = Tensor::<u8, htp::R4CroutonLayout>::from_fn([1, 1, 2, 3], |[.., w, c]| (w * 3 + c) as u8).to_indirect();
    /// let b = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 1, 2, 3]);
    /// let sum = a.zip_with(&b, |x, y| u16::from(x) + u16::from(y) + 10).unwrap();
    /// assert_eq!(sum.to_row_major(), [10, 11, 12, 13, 14, 15]);
    /// let other = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 1, 2, 2]);
    /// assert!(a.zip_with(&other, |x, y| x + y).is_err());
    /// ```
    pub fn zip_with<U: Element, I2: Interface, C2: ChunkStorage<Elem = U>, V: Element + Default>(
        &self,
        other: &IndirectTensor<U, L, I2, C2>,
        mut f: impl FnMut(T, U) -> V,
    ) -> Result<IndirectTensor<V, L>, LayoutError> {
        if self.dims() != other.dims() {
            return Err(LayoutError::ShapeMismatch {
                source: Vec::from(other.dims().as_ref()),
                destination: Vec::from(self.dims().as_ref()),
            });
        }
        let mut out = IndirectTensor::filled(self.mapping, V::default(), Plain)?;
        let same_offsets = self.mapping.same_function_as(&other.mapping);
        self.each_logical(&mut out.table, |index, at, x| {
            let from = if same_offsets {
                at
            } else {
                other.mapping.offset(*index)
            };
            f(x, *other.table.slot(from))
        });
        Ok(out)
    }

    /// Writes `f(index, slot, element)` into `out`'s slot of each logical element, `out` a
    /// table of this tensor's mapping.
    fn each_logical<U: Element>(
        &self,
        out: &mut OwnedChunks<U>,
        mut f: impl FnMut(&L::Index, usize, T) -> U,
    ) {
        self.mapping.for_each_element(|index, at| {
            *out.slot_mut(at) = f(index, at, *self.table.slot(at));
        });
    }

    /// Writes into every padding slot what the interface says it holds.
    pub(super) fn write_interface_padding(&mut self)
    where
        I: ChannelZeros<T>,
    {
        let rule = PaddingRule::new(&self.mapping, &self.interface, self.pad);
        let table = &mut self.table;
        rule.write(|n, value| *table.slot_mut(n) = value);
    }
}

#[cfg(test)]
mod tests {
    use crate::{Mapping, tensors::IndirectTensor};
    use alloc::boxed::Box;
    use alloc::vec::Vec;

    /// Chunks of 2x4 (rows by channels) of NHWC data.
    type Small = crate::chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,2, 3,4];

    #[test]
    fn iter_mut_over_the_callers_chunks_writes_each_element_once() {
        let dims = [1, 3, 2, 5];
        let m = Mapping::<Small>::new(dims).unwrap();
        let count = m.storage_len() / m.chunk_volume();
        // Chunks made last first, so that they lie out of order in memory.
        let mut chunks: Vec<Box<[u8]>> = (0..count)
            .rev()
            .map(|_| alloc::vec![0xEE; 8].into_boxed_slice())
            .collect();
        chunks.reverse();
        let mut t = IndirectTensor::<u8, Small>::from_chunks(dims, chunks).unwrap();
        for (k, v) in t.iter_mut().enumerate() {
            *v = k as u8;
        }
        let want: Vec<u8> = (0..30).collect();
        assert_eq!(t.to_row_major(), want);
        let pads = t.chunk_slices().flatten().filter(|&&v| v == 0xEE).count();
        assert_eq!(pads, m.storage_len() - 30);
        let sums = t
            .zip_with(&t.map(|v| v), |a, b| u16::from(a) + u16::from(b))
            .unwrap();
        assert_eq!(
            sums.to_row_major(),
            (0..30).map(|k| 2 * k).collect::<Vec<u16>>()
        );
    }
}

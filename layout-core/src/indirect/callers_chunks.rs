//! Chunk tables over the caller's own chunks ([`IndirectTensor::from_chunks`],
//! [`IndirectTensor::from_chunks_with`]), and the chunks handed back
//! ([`IndirectTensor::into_chunks`]).

use super::store::ChunkStore;
use super::{IndirectTensor, chunk_count};
use crate::Element;
use crate::tensor::padding::PaddingRule;
use crate::{ChannelZeros, Interface, Layout, LayoutError, Mapping, Padding, Plain, RealValues};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt::Debug;

impl<T: Element + Default, L: Layout + Default> IndirectTensor<T, L> {
    /// A tensor over chunks the caller supplies, in chunk-number order, wherever they lie in
    /// memory (they stay where they are); their padding is trusted as it is, and the pad value
    /// (written by relayouts into this tensor) is `T::default()`. For quantized chunks, or to
    /// fill or check their padding, see [`IndirectTensor::from_chunks_with`].
    ///
    /// # Errors
    /// [`LayoutError::Length`] when the table does not hold [`IndirectTensor::chunk_count`]
    /// chunks, or [`LayoutError::ChunkLength`] naming the first chunk whose length is not the
    /// chunk volume; [`LayoutError::Overflow`] for dims whose storage overflows. The chunks are
    /// dropped.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::IndirectTensor;
    /// let chunks = vec![vec![1u8; 2048].into_boxed_slice(), vec![2u8; 2048].into_boxed_slice()];
    /// let t = IndirectTensor::<u8, htp::R4CroutonLayout>::from_chunks([1, 9, 8, 32], chunks).unwrap();
    /// assert_eq!((t[[0, 7, 7, 31]], t[[0, 8, 0, 0]]), (1, 2));
    /// let short = vec![vec![0u8; 2048].into_boxed_slice(), vec![0u8; 100].into_boxed_slice()];
    /// let err = IndirectTensor::<u8, htp::R4CroutonLayout>::from_chunks([1, 9, 8, 32], short).unwrap_err();
    /// assert_eq!(err.to_string(), "chunk 1 holds 100 elements; every chunk of this layout holds 2048");
    /// ```
    pub fn from_chunks(dims: L::Index, chunks: Vec<Box<[T]>>) -> Result<Self, LayoutError> {
        let mapping = Mapping::new(dims)?;
        let table = checked_table(&mapping, chunks)?;
        Ok(Self {
            mapping,
            table,
            pad: T::default(),
            interface: Plain,
        })
    }
}

impl<T, L, I> IndirectTensor<T, L, I>
where
    T: Element + PartialEq + Debug,
    L: Layout + Default,
    I: RealValues<T> + ChannelZeros<T>,
{
    /// A tensor over chunks the caller supplies (as [`IndirectTensor::from_chunks`]), read
    /// through `interface`; their padding filled with the stored zero, checked or trusted as
    /// `padding` says (the tensor owns the chunks, so filling is allowed).
    ///
    /// # Errors
    /// As for [`IndirectTensor::from_chunks`]; [`LayoutError::Interface`] when the interface
    /// does not fit the dims; [`LayoutError::Padding`] (with [`Padding::Check`]) naming the
    /// first padding slot (its number counting chunk after chunk) that does not hold the
    /// stored zero. The chunks are dropped.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::IndirectTensor;
    /// let q = ScaleOffset::new(0.5, 128);
    /// let chunks = || vec![vec![0u8; 2048].into_boxed_slice()];
    /// let err = IndirectTensor::<u8, htp::R4CroutonLayout, _>::from_chunks_with([1, 1, 1, 30], chunks(), q, Padding::Check)
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("slot 30"));
    /// let t = IndirectTensor::<u8, htp::R4CroutonLayout, _>::from_chunks_with([1, 1, 1, 30], chunks(), q, Padding::Fill)
    ///     .unwrap();
    /// assert_eq!((t.chunk(0)[29], t.chunk(0)[30]), (0, 128)); // the element kept, padding real 0
    /// assert_eq!(t.real([0, 0, 0, 29]), -64.0);
    /// ```
    pub fn from_chunks_with(
        dims: L::Index,
        chunks: Vec<Box<[T]>>,
        interface: I,
        padding: Padding,
    ) -> Result<Self, LayoutError> {
        let mapping = Mapping::<L>::new(dims)?;
        let table = checked_table(&mapping, chunks)?;
        interface.check(&mapping.layout().axis_word(), mapping.dims().as_ref())?;
        let pad = interface.stored_zero(0);
        let mut tensor = Self {
            mapping,
            table,
            pad,
            interface,
        };
        match padding {
            Padding::Fill => tensor.write_interface_padding(),
            Padding::Check => {
                let rule = PaddingRule::new(&tensor.mapping, &tensor.interface, pad);
                rule.check(|n| *tensor.table.slot(n))?;
            }
            Padding::Trust => {}
        }
        Ok(tensor)
    }
}

impl<T: Element, L: Layout, I: Interface> IndirectTensor<T, L, I> {
    /// The chunks as boxes, in chunk-number order: those given to
    /// [`IndirectTensor::from_chunks`] handed back as they are, those of the tensor's own pool
    /// copied out.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = tensor_layout::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
    /// assert_eq!(t.into_chunks().len(), 2);
    /// ```
    pub fn into_chunks(self) -> Vec<Box<[T]>> {
        self.table.into_boxes()
    }
}

/// The caller's `chunks` as the table of `mapping`.
///
/// # Errors
/// [`LayoutError::Length`] for another number of chunks than the mapping's, or
/// [`LayoutError::ChunkLength`] naming the first chunk of another length than its volume.
fn checked_table<T: Element, L: Layout>(
    mapping: &Mapping<L>,
    chunks: Vec<Box<[T]>>,
) -> Result<ChunkStore<T>, LayoutError> {
    let volume = mapping.chunk_volume();
    let count = chunk_count(mapping);
    if chunks.len() != count {
        return Err(LayoutError::Length {
            expected: count,
            found: chunks.len(),
        });
    }
    if let Some(chunk) = chunks.iter().position(|c| c.len() != volume) {
        return Err(LayoutError::ChunkLength {
            chunk,
            expected: volume,
            found: chunks[chunk].len(),
        });
    }
    Ok(ChunkStore::from_boxes(chunks, volume))
}

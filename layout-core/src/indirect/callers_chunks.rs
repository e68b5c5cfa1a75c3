//! Chunk tables over the caller's own chunks: handed over as boxes
//! ([`IndirectTensor::from_chunks`], [`IndirectTensor::from_chunks_with`]) and handed back
//! ([`IndirectTensor::into_chunks`]), or lent as `&mut [T]`s
//! ([`IndirectTensorMut::from_chunk_slices`]) or as a runtime's table of chunk pointers
//! ([`IndirectTensorMut::from_chunk_ptrs`]).

use super::store::{BorrowedChunks, OwnedChunks, TableAccess};
use super::{ChunkStorage, IndirectTensor, IndirectTensorMut, chunk_count};
use crate::tensor::padding::PaddingRule;
use crate::tensors::Element;
use crate::{
    Layout, LayoutError, Mapping, quantized::ChannelZeros, quantized::Interface, quantized::Plain,
    quantized::RealValues, tensors::Padding,
};
use alloc::boxed::Box;
use alloc::format;
use alloc::vec::Vec;
use core::fmt::Debug;
use core::ptr::NonNull;

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
    /// use tensor_layout::tensors::IndirectTensor;
    /// let chunks = vec![vec![1u8; 2048].into_boxed_slice(), vec![2u8; 2048].into_boxed_slice()];
    /// let t = IndirectTensor::<u8, htp::R4CroutonLayout>::from_chunks([1, 9, 8, 32], chunks).unwrap();
    /// assert_eq!((t[[0, 7, 7, 31]], t[[0, 8, 0, 0]]), (1, 2));
    /// let short = vec![vec![0u8; 2048].into_boxed_slice(), vec![0u8; 100].into_boxed_slice()];
    /// let err = IndirectTensor::<u8, htp::R4CroutonLayout>::from_chunks([1, 9, 8, 32], short).unwrap_err();
    /// assert_eq!(err.to_string(), "chunk 1 holds 100 elements; every chunk of this layout holds 2048");
    /// ```
    pub fn from_chunks(dims: L::Index, chunks: Vec<Box<[T]>>) -> Result<Self, LayoutError> {
        Self::plain(dims, |mapping| owned_table(mapping, chunks))
    }
}

impl<'a, T: Element + Default, L: Layout + Default> IndirectTensorMut<'a, T, L> {
    /// A tensor over chunks the caller owns and lends for `'a`, in chunk-number order,
    /// wherever they lie in memory: nothing is copied, and the chunks are the caller's again
    /// when the tensor drops. Their padding is trusted as it is, and the pad value (written by
    /// relayouts into this tensor) is `T::default()`; for quantized chunks, or to fill or check
    /// their padding, see [`IndirectTensorMut::from_chunk_slices_with`].
    ///
    /// # Errors
    /// As for [`IndirectTensor::from_chunks`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::tensors::IndirectTensorMut;
    /// let mut a = vec![1u8; 2048];
    /// let mut b = vec![2u8; 2048];
    /// let mut t = IndirectTensorMut::<u8, htp::R4CroutonLayout>::from_chunk_slices([1, 9, 8, 32], [&mut a[..], &mut b[..]]).unwrap();
    /// assert_eq!((t[[0, 7, 7, 31]], t[[0, 8, 0, 0]]), (1, 2));
    /// let src = Tensor::<u8, htp::R4FlatMemoryLayout>::from_fn([1, 9, 8, 32], |[_, h, ..]| h as u8);
    /// t.relayout_from(&src).unwrap(); // straight into the caller's chunks
    /// drop(t);
    /// assert_eq!((a[7 * 256], b[0], b[256]), (7, 8, 0)); // b's second row is padding
    /// ```
    pub fn from_chunk_slices(
        dims: L::Index,
        chunks: impl IntoIterator<Item = &'a mut [T]>,
    ) -> Result<Self, LayoutError> {
        Self::plain(dims, |mapping| borrowed_table(mapping, chunks))
    }

    /// A tensor over the chunks that `chunks` point to, in chunk-number order (a runtime's
    /// table of chunk pointers, as the Qualcomm HTP SDK's indirect tensors hand over): nothing
    /// is copied, and the chunks are the caller's again when the tensor drops. Padding and pad
    /// value as for [`IndirectTensorMut::from_chunk_slices`].
    ///
    /// # Safety
    /// For the whole of `'a` (which the caller chooses: bind it to the owner of the chunks):
    /// - each pointer is valid for reads and writes of [`IndirectTensor::chunk_volume`]
    ///   elements of `T` (one allocation, initialised, not freed during `'a`);
    /// - the chunks do not overlap one another;
    /// - nothing else reads or writes the chunks while the tensor lives (no other pointer,
    ///   reference or thread touches them), as if the tensor held a `&'a mut [T]` of each.
    ///
    /// What can be checked is: the count, null pointers, alignment for `T`, and that no chunk
    /// starts inside another (an `Err` then, before any chunk is read).
    ///
    /// # Errors
    /// [`LayoutError::Length`] when the table does not hold [`IndirectTensor::chunk_count`]
    /// pointers; [`LayoutError::ChunkPointer`] naming the first pointer that is null or
    /// misaligned, or a chunk that starts inside another; [`LayoutError::Overflow`] for dims
    /// whose storage overflows.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::tensors::IndirectTensorMut;
    /// let mut pool = vec![0u8; 3 * 2048]; // a runtime's pool; the table names two of its chunks
    /// let base = pool.as_mut_ptr();
    /// let table = [base.wrapping_add(2 * 2048), base];
    /// // SAFETY: both chunks lie in `pool`, apart, and only `t` touches `pool` while it lives.
    /// let mut t = unsafe { IndirectTensorMut::<u8, htp::R4CroutonLayout>::from_chunk_ptrs([1, 9, 8, 32], &table) }.unwrap();
    /// t[[0, 8, 0, 3]] = 9; // chunk 1
    /// drop(t);
    /// assert_eq!(pool[3], 9);
    /// let null = [base, core::ptr::null_mut()];
    /// // SAFETY: refused before any chunk is read.
    /// let err = unsafe { IndirectTensorMut::<u8, htp::R4CroutonLayout>::from_chunk_ptrs([1, 9, 8, 32], &null) };
    /// assert_eq!(err.unwrap_err().to_string(), "chunk 1's pointer 0x0 is null");
    /// ```
    pub unsafe fn from_chunk_ptrs(dims: L::Index, chunks: &[*mut T]) -> Result<Self, LayoutError> {
        // SAFETY: the caller's promise, passed on.
        Self::plain(dims, |mapping| unsafe { raw_table(mapping, chunks) })
    }
}

impl<T: Element + Default, L: Layout + Default, C: ChunkStorage<Elem = T>>
    IndirectTensor<T, L, Plain, C>
{
    /// A plain tensor of `dims` over the table `table` makes of the caller's chunks (checking
    /// them against the mapping), whose padding is trusted and pad value `T::default()`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] for dims whose storage overflows; `table`'s errors.
    fn plain(
        dims: L::Index,
        table: impl FnOnce(&Mapping<L>) -> Result<C, LayoutError>,
    ) -> Result<Self, LayoutError> {
        let mapping = Mapping::new(dims)?;
        Ok(Self {
            table: table(&mapping)?,
            mapping,
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
    /// use tensor_layout::tensors::Padding;
    /// use tensor_layout::tensors::IndirectTensor;
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
        Self::with_interface(
            dims,
            |mapping| owned_table(mapping, chunks),
            interface,
            padding,
        )
    }
}

impl<'a, T, L, I> IndirectTensorMut<'a, T, L, I>
where
    T: Element + PartialEq + Debug,
    L: Layout + Default,
    I: RealValues<T> + ChannelZeros<T>,
{
    /// A tensor over chunks the caller lends (as [`IndirectTensorMut::from_chunk_slices`]),
    /// read through `interface`; their padding filled with the stored zero (the tensor may
    /// write the chunks), checked or trusted as `padding` says.
    ///
    /// # Errors
    /// As for [`IndirectTensor::from_chunks_with`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::tensors::Padding;
    /// use tensor_layout::tensors::IndirectTensorMut;
    /// let q = ScaleOffset::new(0.5, 128);
    /// let mut chunk = vec![0u8; 2048];
    /// let t = IndirectTensorMut::<u8, htp::R4CroutonLayout, _>::from_chunk_slices_with([1, 1, 1, 30], [&mut chunk[..]], q, Padding::Fill)
    ///     .unwrap();
    /// assert_eq!(t.real([0, 0, 0, 29]), -64.0);
    /// drop(t);
    /// assert_eq!((chunk[29], chunk[30]), (0, 128)); // the element kept, padding real 0
    /// ```
    pub fn from_chunk_slices_with(
        dims: L::Index,
        chunks: impl IntoIterator<Item = &'a mut [T]>,
        interface: I,
        padding: Padding,
    ) -> Result<Self, LayoutError> {
        Self::with_interface(
            dims,
            |mapping| borrowed_table(mapping, chunks),
            interface,
            padding,
        )
    }

    /// A tensor over the chunks that `chunks` point to (as
    /// [`IndirectTensorMut::from_chunk_ptrs`]), read through `interface`, its padding filled,
    /// checked or trusted as `padding` says.
    ///
    /// # Safety
    /// As for [`IndirectTensorMut::from_chunk_ptrs`].
    ///
    /// # Errors
    /// As for [`IndirectTensorMut::from_chunk_ptrs`] and [`IndirectTensor::from_chunks_with`].
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::tensors::Padding;
    /// use tensor_layout::tensors::IndirectTensorMut;
    /// let q = ScaleOffset::new(0.5, 128);
    /// let mut chunk = vec![7u8; 2048];
    /// let table = [chunk.as_mut_ptr()];
    /// // SAFETY: one chunk of 2048 bytes, touched only by the tensor while it lives.
    /// let err = unsafe { IndirectTensorMut::<u8, htp::R4CroutonLayout, _>::from_chunk_ptrs_with([1, 1, 1, 30], &table, q, Padding::Check) };
    /// assert!(err.unwrap_err().to_string().contains("slot 30"));
    /// ```
    pub unsafe fn from_chunk_ptrs_with(
        dims: L::Index,
        chunks: &[*mut T],
        interface: I,
        padding: Padding,
    ) -> Result<Self, LayoutError> {
        // SAFETY: the caller's promise, passed on.
        let table = |mapping: &Mapping<L>| unsafe { raw_table(mapping, chunks) };
        Self::with_interface(dims, table, interface, padding)
    }
}

impl<T, L, I, C> IndirectTensor<T, L, I, C>
where
    T: Element + PartialEq + Debug,
    L: Layout + Default,
    I: RealValues<T> + ChannelZeros<T>,
    C: ChunkStorage<Elem = T>,
{
    /// A tensor of `dims` over the table `table` makes of the caller's chunks (checking them
    /// against the mapping), read through `interface`; its padding filled with the stored
    /// zero, checked or trusted as `padding` says.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] for dims whose storage overflows; `table`'s errors;
    /// [`LayoutError::Interface`] when the interface does not fit the dims;
    /// [`LayoutError::Padding`] (with [`Padding::Check`]) naming the first padding slot that
    /// does not hold the stored zero.
    fn with_interface(
        dims: L::Index,
        table: impl FnOnce(&Mapping<L>) -> Result<C, LayoutError>,
        interface: I,
        padding: Padding,
    ) -> Result<Self, LayoutError> {
        let mapping = Mapping::new(dims)?;
        let table = table(&mapping)?;
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
    /// let t = tensor_layout::tensors::IndirectTensor::<u8, htp::R4CroutonLayout>::zeros([1, 9, 8, 32]);
    /// assert_eq!(t.into_chunks().len(), 2);
    /// ```
    pub fn into_chunks(self) -> Vec<Box<[T]>> {
        self.table.into_boxes()
    }
}

/// The caller's `chunks` as the table of `mapping`.
///
/// # Errors
/// As for [`checked_lengths`].
fn owned_table<T: Element, L: Layout>(
    mapping: &Mapping<L>,
    chunks: Vec<Box<[T]>>,
) -> Result<OwnedChunks<T>, LayoutError> {
    let volume = checked_lengths(mapping, chunks.iter().map(|chunk| chunk.len()))?;
    Ok(OwnedChunks::from_boxes(chunks, volume))
}

/// The caller's `chunks`, lent for `'a`, as the table of `mapping`.
///
/// # Errors
/// As for [`checked_lengths`].
fn borrowed_table<'a, T: Element, L: Layout>(
    mapping: &Mapping<L>,
    chunks: impl IntoIterator<Item = &'a mut [T]>,
) -> Result<BorrowedChunks<'a, T>, LayoutError> {
    let chunks: Vec<&'a mut [T]> = chunks.into_iter().collect();
    let volume = checked_lengths(mapping, chunks.iter().map(|chunk| chunk.len()))?;
    Ok(BorrowedChunks::from_slices(chunks, volume))
}

/// The chunks that `chunks` point to as the table of `mapping`, once their count, nulls,
/// alignment and starts are checked.
///
/// # Errors
/// [`LayoutError::Length`] for another number of pointers than the mapping's chunks;
/// [`LayoutError::ChunkPointer`] naming the first null or misaligned pointer, or a chunk
/// that starts inside another.
///
/// # Safety
/// As for [`IndirectTensorMut::from_chunk_ptrs`].
unsafe fn raw_table<'a, T: Element, L: Layout>(
    mapping: &Mapping<L>,
    chunks: &[*mut T],
) -> Result<BorrowedChunks<'a, T>, LayoutError> {
    let volume = mapping.chunk_volume();
    checked_count(mapping, chunks.len())?;
    let bad = |chunk: usize, reason: alloc::string::String| LayoutError::ChunkPointer {
        chunk,
        address: chunks[chunk].addr(),
        reason,
    };
    let mut starts = Vec::with_capacity(chunks.len());
    for (n, &start) in chunks.iter().enumerate() {
        let Some(start) = NonNull::new(start) else {
            return Err(bad(n, "is null".into()));
        };
        if !start.is_aligned() {
            return Err(bad(
                n,
                format!(
                    "is not aligned for {}, which needs a multiple of {} bytes",
                    core::any::type_name::<T>(),
                    align_of::<T>()
                ),
            ));
        }
        starts.push(start);
    }
    // Chunks of zero-sized elements take no memory, and may all start at one address.
    let bytes = volume.saturating_mul(size_of::<T>());
    if bytes > 0 {
        let mut order: Vec<usize> = (0..chunks.len()).collect();
        order.sort_unstable_by_key(|&n| (chunks[n].addr(), n));
        for pair in order.windows(2) {
            let (low, high) = (pair[0], pair[1]);
            if chunks[high].addr() - chunks[low].addr() < bytes {
                return Err(bad(
                    high,
                    format!(
                        "lies inside chunk {low} (at {:#x}, {bytes} bytes long)",
                        chunks[low].addr()
                    ),
                ));
            }
        }
    }
    // SAFETY: the caller's promise (`from_chunk_ptrs`); the pointers are not null and aligned.
    Ok(unsafe { BorrowedChunks::from_starts(starts, volume) })
}

/// The mapping's chunk volume, once `lengths` (the caller's chunks' lengths, in order) are
/// checked against its chunks.
///
/// # Errors
/// [`LayoutError::Length`] for another number of chunks than the mapping's, or
/// [`LayoutError::ChunkLength`] naming the first chunk of another length than its volume.
fn checked_lengths<L: Layout>(
    mapping: &Mapping<L>,
    lengths: impl ExactSizeIterator<Item = usize>,
) -> Result<usize, LayoutError> {
    let volume = mapping.chunk_volume();
    checked_count(mapping, lengths.len())?;
    for (chunk, found) in lengths.enumerate() {
        if found != volume {
            return Err(LayoutError::ChunkLength {
                chunk,
                expected: volume,
                found,
            });
        }
    }
    Ok(volume)
}

/// # Errors
/// [`LayoutError::Length`] when `found` chunks are not the mapping's number of chunks.
fn checked_count<L: Layout>(mapping: &Mapping<L>, found: usize) -> Result<(), LayoutError> {
    let expected = chunk_count(mapping);
    if found == expected {
        Ok(())
    } else {
        Err(LayoutError::Length { expected, found })
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        LayoutError, Tensor, quantized::ScaleOffset, tensors::IndirectTensor,
        tensors::IndirectTensorMut, tensors::Padding,
    };
    use alloc::string::ToString;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Chunks of 2x4 (rows by channels) of NHWC data: 8 elements.
    type Small = crate::chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0, 1,2, 3,4];
    /// Flat NHWC.
    type Flat = crate::chunked_layout![NHWC; 0,0, 1,0, 2,0, 3,0];

    const DIMS: [usize; 4] = [1, 3, 2, 5];
    /// `DIMS` in `Small`: 2 row blocks, 2 columns, 2 channel blocks.
    const COUNT: usize = 8;

    fn sample() -> Tensor<u16, Flat> {
        Tensor::from_fn(DIMS, |[_, h, w, c]: [usize; 4]| {
            (h * 100 + w * 10 + c) as u16
        })
    }

    #[test]
    fn lent_slices_are_read_written_and_relayouted_in_place() {
        // One pool of the caller's, its chunks handed over last first.
        let mut pool = [0xEEEEu16; COUNT * 8 + 3];
        let mut chunks: Vec<&mut [u16]> = pool[3..].chunks_exact_mut(8).collect();
        chunks.reverse();
        let places: Vec<*const u16> = chunks.iter().map(|c| c.as_ptr()).collect();
        let mut t = IndirectTensorMut::<u16, Small>::from_chunk_slices(DIMS, chunks).unwrap();
        let seen: Vec<*const u16> = t.chunk_slices().map(<[u16]>::as_ptr).collect();
        assert_eq!(seen, places, "the caller's chunks, not copies");

        let want = sample();
        t.relayout_from(&want).unwrap();
        assert_eq!(t.to_row_major(), want.to_row_major());
        assert_eq!(t.relayout::<Flat>().as_raw(), want.as_raw());
        let mut into = Tensor::<u16, Flat>::zeros(DIMS);
        t.relayout_into(&mut into).unwrap();
        assert_eq!(into.as_raw(), want.as_raw());
        assert_eq!(
            t.to_contiguous().as_raw(),
            want.relayout::<Small>().as_raw()
        );

        t[[0, 2, 1, 4]] = 1;
        *t.get_mut([0, 0, 0, 0]).unwrap() = 2;
        t.chunk_mut(0)[1] = 3; // [0, 0, 0, 1]
        t.chunk_view_mut(0).unwrap()[[0, 1, 0, 0]] = 4; // [0, 1, 0, 0]
        *t.iter_mut().nth(1).unwrap() += 10; // [0, 0, 0, 1]
        assert_eq!(t.get([0, 2, 1, 4]), Some(&1));
        assert_eq!(
            (t[[0, 0, 0, 0]], t[[0, 0, 0, 1]], t[[0, 1, 0, 0]]),
            (2, 13, 4)
        );
        let twice = t.map(|v| u32::from(v) * 2);
        assert_eq!(twice[[0, 1, 0, 0]], 8);
        let sums = t.zip_with(&t.to_contiguous().into_indirect(), |a, b| a + b);
        assert_eq!(
            sums.unwrap().to_row_major(),
            twice
                .to_row_major()
                .iter()
                .map(|&v| v as u16)
                .collect::<Vec<_>>()
        );
        drop(t);
        // Written where the caller keeps them: [0, 0, 0, 0] in chunk 0, the pool's last chunk.
        assert_eq!(pool[3 + 7 * 8], 2);
        assert_eq!(&pool[..3], [0xEEEE; 3]);
        // The 34 padding slots written with the pad value by relayout_from, the elements none.
        assert_eq!(
            pool[3..].iter().filter(|&&v| v == 0).count(),
            COUNT * 8 - 30
        );
    }

    #[test]
    fn lent_slices_of_another_count_or_length_are_refused() {
        let mut pool = [0u8; COUNT * 8];
        let few = pool.chunks_exact_mut(8).take(COUNT - 1);
        let err = IndirectTensorMut::<u8, Small>::from_chunk_slices(DIMS, few).unwrap_err();
        assert_eq!(
            err,
            LayoutError::Length {
                expected: COUNT,
                found: COUNT - 1
            }
        );
        let mut chunks: Vec<&mut [u8]> = pool.chunks_mut(8).collect();
        chunks[5] = &mut [];
        let err = IndirectTensorMut::<u8, Small>::from_chunk_slices(DIMS, chunks).unwrap_err();
        assert_eq!(
            err,
            LayoutError::ChunkLength {
                chunk: 5,
                expected: 8,
                found: 0
            }
        );
    }

    #[test]
    fn lent_slices_with_an_interface_fill_or_check_their_padding() {
        let q = ScaleOffset::new(0.5, 7);
        let mut pool = [0u8; COUNT * 8];
        let chunks = pool.chunks_exact_mut(8);
        let err = IndirectTensorMut::<u8, Small, _>::from_chunk_slices_with(
            DIMS,
            chunks,
            q,
            Padding::Check,
        );
        assert!(matches!(err.unwrap_err(), LayoutError::Padding { .. }));
        let chunks = pool.chunks_exact_mut(8);
        let t = IndirectTensorMut::<u8, Small, _>::from_chunk_slices_with(
            DIMS,
            chunks,
            q,
            Padding::Fill,
        )
        .unwrap();
        assert_eq!((t.pad_value(), t.real([0, 0, 0, 0])), (7, -3.5));
        drop(t);
        // 64 slots, 30 elements: the 34 padding slots hold the stored zero.
        assert_eq!(pool.iter().filter(|&&v| v == 7).count(), 34);
        let chunks = pool.chunks_exact_mut(8);
        assert!(
            IndirectTensorMut::<u8, Small, _>::from_chunk_slices_with(
                DIMS,
                chunks,
                q,
                Padding::Check
            )
            .is_ok()
        );
    }

    #[test]
    fn raw_tables_are_read_written_and_relayouted_in_place() {
        let mut pool = vec![0u32; (COUNT + 1) * 8];
        let base = pool.as_mut_ptr();
        // Chunk n at block n * 5 % 9 of the pool: scattered, one block left out.
        let table: Vec<*mut u32> = (0..COUNT)
            .map(|n| base.wrapping_add((n * 5 % 9) * 8))
            .collect();
        // SAFETY: the chunks lie apart in `pool`, which only `t` touches while it lives.
        let mut t =
            unsafe { IndirectTensorMut::<u32, Small>::from_chunk_ptrs(DIMS, &table) }.unwrap();
        let want = Tensor::<u32, Flat>::from_fn(DIMS, |[_, h, w, c]| (h * 100 + w * 10 + c) as u32);
        t.relayout_from(&want).unwrap();
        assert_eq!(t.relayout::<Flat>().as_raw(), want.as_raw());
        for v in t.iter_mut() {
            *v += 1000;
        }
        t.chunk_slices_mut().for_each(|chunk| chunk[7] = 9); // padding or not, written in place
        let chunk1 = t.chunk(1).to_vec();
        drop(t);
        assert_eq!(&pool[5 * 8..6 * 8], chunk1);
        // The block no chunk names (block 4: n * 5 % 9 skips it for n below 8) stays as it was.
        let named: Vec<usize> = (0..COUNT).map(|n| n * 5 % 9).collect();
        let unused = (0..9).find(|b| !named.contains(b)).unwrap();
        assert!(pool[unused * 8..unused * 8 + 8].iter().all(|&v| v == 0));
    }

    #[test]
    fn raw_tables_refuse_bad_counts_nulls_misalignment_and_overlaps() {
        let mut pool = vec![0u32; COUNT * 8 + 1];
        let base = pool.as_mut_ptr();
        let good: Vec<*mut u32> = (0..COUNT).map(|n| base.wrapping_add(n * 8)).collect();
        let refused = |table: &[*mut u32]| {
            // SAFETY: every table here is refused before any chunk is read.
            unsafe { IndirectTensorMut::<u32, Small>::from_chunk_ptrs(DIMS, table) }.unwrap_err()
        };
        assert_eq!(
            refused(&good[1..]),
            LayoutError::Length {
                expected: COUNT,
                found: COUNT - 1
            }
        );
        let mut null = good.clone();
        null[3] = core::ptr::null_mut();
        assert_eq!(refused(&null).to_string(), "chunk 3's pointer 0x0 is null");
        let mut odd = good.clone();
        odd[2] = base.cast::<u8>().wrapping_add(2 * 32 + 1).cast();
        let err = refused(&odd);
        assert!(matches!(err, LayoutError::ChunkPointer { chunk: 2, .. }));
        assert!(
            err.to_string()
                .ends_with("is not aligned for u32, which needs a multiple of 4 bytes"),
            "{err}"
        );
        let mut overlapping = good.clone();
        overlapping[6] = base.wrapping_add(2 * 8 + 7); // the last slot of chunk 2
        let err = refused(&overlapping);
        assert!(matches!(err, LayoutError::ChunkPointer { chunk: 6, .. }));
        assert!(err.to_string().contains("lies inside chunk 2"), "{err}");
        let mut twice = good;
        twice[0] = twice[7];
        assert!(matches!(
            refused(&twice),
            LayoutError::ChunkPointer { chunk: 7, .. }
        ));
    }

    #[test]
    fn raw_tables_of_zero_sized_elements_may_share_one_address() {
        let mut units = [(); 8];
        let table = [units.as_mut_ptr(); COUNT];
        // SAFETY: zero-sized elements take no memory: any aligned, non-null pointer serves.
        let mut t =
            unsafe { IndirectTensorMut::<(), Small>::from_chunk_ptrs(DIMS, &table) }.unwrap();
        t[[0, 2, 1, 4]] = ();
        assert_eq!(t.iter().count(), 30);
    }

    #[test]
    fn owned_and_lent_tables_read_alike() {
        let contiguous = sample().relayout::<Small>();
        let owned: IndirectTensor<u16, Small> = contiguous.to_indirect();
        let mut storage = contiguous.clone().into_parts().1;
        let lent =
            IndirectTensorMut::<u16, Small>::from_chunk_slices(DIMS, storage.chunks_exact_mut(8))
                .unwrap();
        assert_eq!(lent.to_row_major(), owned.to_row_major());
        assert_eq!(
            lent.chunk_views().map(|c| c.origin()).collect::<Vec<_>>(),
            owned.chunk_views().map(|c| c.origin()).collect::<Vec<_>>()
        );
        assert_eq!(
            lent.chunk_view_at([0, 2, 1, 4]).unwrap().1,
            owned.chunk_view_at([0, 2, 1, 4]).unwrap().1
        );
    }

    #[test]
    fn lent_tables_answer_the_shared_face() {
        use crate::{tensors::TensorRead, tensors::TensorWrite};
        fn bump<X: TensorWrite<Elem = u16, Index = [usize; 4]>>(x: &mut X) -> (usize, u16) {
            let old = x.value([0, 2, 1, 4]);
            x.set([0, 2, 1, 4], old + 1);
            (x.storage_len(), x.value([0, 2, 1, 4]))
        }
        let contiguous = sample().relayout::<Small>();
        let mut owned: IndirectTensor<u16, Small> = contiguous.to_indirect();
        let mut storage = contiguous.clone().into_parts().1;
        let mut lent =
            IndirectTensorMut::<u16, Small>::from_chunk_slices(DIMS, storage.chunks_exact_mut(8))
                .unwrap();
        assert_eq!(bump(&mut lent), bump(&mut owned));
        assert_eq!(TensorRead::padded_dims(&lent), [1, 4, 2, 8]);
        assert_eq!(lent.to_row_major(), owned.to_row_major());
    }
}

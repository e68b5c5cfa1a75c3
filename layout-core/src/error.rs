//! The error type of every fallible call in tensor-layout, [`LayoutError`] (also at the
//! crate's root). What [`DynTensor::into_typed`](crate::DynTensor::into_typed) returns, which
//! hands the tensor back, is [`IntoTypedError`](crate::dynamic::IntoTypedError).
//!
//! ```
//! use layout_core::error::LayoutError;
//! let err = layout_core::dynamic::DynLayout::parse("4: 0,0 9,0").unwrap_err();
//! assert!(matches!(err, LayoutError::InvalidLayout { .. }), "{err:?}");
//! ```

mod display;

use alloc::string::String;
use alloc::vec::Vec;

/// What went wrong when binding a layout to dims, building a tensor or addressing an element.
///
/// Every API that takes user input returns `Result<_, LayoutError>`; the panicking conveniences
/// (`Tensor::zeros`, `t[idx]`, ...) panic with this type's message. The enum is non-exhaustive:
/// later releases add variants (parse errors, local-memory placement) without a breaking change.
///
/// ```
/// use layout_core::{LayoutError, Mapping, ChunkedMemoryLayout, Chunk};
/// type Flat2 = ChunkedMemoryLayout<2, (Chunk<0, 0>, Chunk<1, 0>)>;
/// let err = Mapping::<Flat2>::new([usize::MAX, 2]).unwrap_err();
/// assert!(matches!(err, LayoutError::Overflow { .. }));
/// assert_eq!(
///     err.to_string(),
///     format!("the storage of dims [{}, 2] overflows usize (counting elements)", usize::MAX)
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayoutError {
    /// The storage size of `dims` does not fit in `usize` (counted in elements when `element_size`
    /// is `None`, in bytes for elements of `element_size` bytes otherwise), or exceeds what one
    /// allocation may hold (`isize::MAX` bytes).
    Overflow {
        /// The logical dims that were asked for.
        dims: Vec<usize>,
        /// `Some(bytes per element)` when the byte count overflowed, `None` for the element count.
        element_size: Option<usize>,
    },
    /// The allocator could not provide storage of this size (the size itself is valid).
    Allocation {
        /// The number of bytes asked for.
        bytes: usize,
    },
    /// A slice handed to a constructor has the wrong number of elements.
    Length {
        /// How many elements the call needs.
        expected: usize,
        /// How many it was given.
        found: usize,
    },
    /// A logical index lies outside the tensor's dims.
    IndexOutOfBounds {
        /// The index that was asked for.
        index: Vec<usize>,
        /// The logical dims it was checked against.
        dims: Vec<usize>,
    },
    /// Dims or an index with another number of coordinates than the layout's rank.
    Rank {
        /// The layout's rank.
        expected: usize,
        /// The number of coordinates given.
        found: usize,
    },
    /// Text that does not read as what it was given for: a layout, or relayout wisdom.
    Parse {
        /// What the text was read as: `"layout"` or `"wisdom"`.
        what: &'static str,
        /// The text.
        input: String,
        /// The character position (0-based) of the first problem.
        position: usize,
        /// What was expected there, and what was found.
        expected: String,
    },
    /// A chunk list that breaks the rules of a chunk list ([`ChunkedMemoryLayout`](crate::ChunkedMemoryLayout)).
    InvalidLayout {
        /// The layout, in the long form.
        layout: String,
        /// Every rule it breaks (the first eight), separated by `; `.
        reason: String,
    },
    /// A view that needs plain strides (permute, slice) was asked of a blocked layout.
    NotStrided {
        /// The layout.
        layout: String,
    },
    /// An axis order that is not a permutation of the dims.
    BadPermutation {
        /// The order given.
        order: Vec<usize>,
    },
    /// A slice range that does not lie within its dimension.
    SliceOutOfRange {
        /// The dimension sliced.
        dim: usize,
        /// The range's start.
        start: usize,
        /// The range's end (exclusive).
        end: usize,
        /// The dimension's extent (0 when `dim` is out of range).
        extent: usize,
    },
    /// A tensor's layout is not the one asked for (as a function on its dims).
    Mismatch {
        /// The layout asked for.
        expected: String,
        /// The tensor's layout.
        found: String,
    },
    /// Two layouts whose axes do not have the same names, so that no element of one has a place
    /// in the other (a conversion moves elements by axis name).
    AxisNames {
        /// The axis word of the tensor read from.
        source: String,
        /// The axis word of the tensor written to, or of the layout asked for.
        destination: String,
    },
    /// Text that is not an axis word.
    InvalidAxisWord {
        /// The text.
        word: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Two tensors that must have the same logical dims do not.
    ShapeMismatch {
        /// The dims of the tensor read from.
        source: Vec<usize>,
        /// The dims of the tensor written to.
        destination: Vec<usize>,
    },
    /// A local-memory address at or past the end of the memory (Sophgo TPUs: `NPUs * bytes per
    /// NPU`).
    AddressOutOfRange {
        /// The address asked for, in bytes.
        address: usize,
        /// The size of the whole memory in bytes (valid addresses lie below it).
        memory_bytes: usize,
    },
    /// A tensor's start address is not a multiple of the alignment its layout demands.
    Misaligned {
        /// The start address, in bytes.
        address: usize,
        /// The alignment the layout demands, in bytes.
        alignment: usize,
    },
    /// A tensor placed in local memory reaches past the end of one NPU's memory.
    NpuOverflow {
        /// The first NPU (in NPU order) that the tensor overflows.
        npu: usize,
        /// Bytes the tensor needs on that NPU, counted from its start offset.
        needed: usize,
        /// Bytes the NPU has from the start offset to its end.
        available: usize,
    },
    /// A name read at run time (a Sophgo chip, storage mode or local layout) that names nothing
    /// of its kind.
    ///
    /// ```
    /// use tensor_layout::LayoutError;
    /// let err = LayoutError::UnknownName {
    ///     kind: "Sophgo chip".into(),
    ///     found: "BM1690".into(),
    ///     expected: "BM1684, BM1684X, BM1688 or ExampleChip".into(),
    /// };
    /// assert_eq!(err.to_string(), "unknown Sophgo chip `BM1690`: expected BM1684, BM1684X, BM1688 or ExampleChip");
    /// ```
    UnknownName {
        /// What kind of thing the name should name.
        kind: String,
        /// The name given.
        found: String,
        /// The names there are.
        expected: String,
    },
    /// A mapping in which two logical indices share a storage slot (a strided view with stride 0,
    /// or strides that reach one slot two ways), asked for writable storage: a write to one
    /// element would change another. Read-only views may overlap.
    ///
    /// ```
    /// use tensor_layout::{LayoutError, Mapping, layouts::Strided, TensorViewMut};
    /// let diagonal = Mapping::with_layout(Strided::new([1, 1], 0), [2, 2]).unwrap();
    /// let err = TensorViewMut::from_slice(diagonal, &mut [0u8; 3]).unwrap_err();
    /// assert!(matches!(err, LayoutError::StridesOverlap { .. }));
    /// assert!(err.to_string().contains("indices [0, 1] and [1, 0] share a storage slot"));
    /// ```
    StridesOverlap {
        /// The strides per dimension, in elements (empty for a mapping that has none).
        strides: Vec<usize>,
        /// The logical dims.
        dims: Vec<usize>,
        /// One index of a pair that shares a slot.
        first: Vec<usize>,
        /// The other index of the pair.
        second: Vec<usize>,
    },
    /// An element size that does not match what a storage mode or a placed layout holds.
    ElementSize {
        /// What holds elements of `expected` bytes (a storage mode, a layout).
        what: String,
        /// The element size it holds, in bytes.
        expected: usize,
        /// The element size it was given, in bytes.
        found: usize,
    },
    /// An interface that does not fit a tensor (a per-channel interface along an axis the
    /// layout does not have, or with another number of channels).
    Interface {
        /// What does not fit.
        reason: String,
    },
    /// Two tensors whose stored values mean different real values (other scales or offsets), so
    /// copying stored values between them would change the numbers.
    InterfaceMismatch {
        /// The interface of the tensor read from.
        source: String,
        /// The interface of the tensor written to.
        destination: String,
    },
    /// A padding slot of a caller's buffer that does not hold the stored zero, found by a view
    /// built with [`Padding::Check`](crate::tensors::Padding::Check).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::tensors::Padding;
    /// let m = Mapping::<htp::R4CroutonLayout>::new([1, 1, 1, 30]).unwrap();
    /// let mut buffer = vec![128u8; 2048];
    /// buffer[40] = 7;
    /// let err = TensorView::from_slice_with(m, &buffer, ScaleOffset::new(0.1, 128), Padding::Check)
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "padding slot 40 (padded index [0, 0, 1, 8]) holds 7, expected the stored zero 128");
    /// ```
    Padding {
        /// The slot's offset in the storage.
        slot: usize,
        /// The slot's index in the padded dims.
        index: Vec<usize>,
        /// The value found there.
        found: String,
        /// The stored zero it should hold.
        expected: String,
    },
    /// [`Padding::Fill`](crate::tensors::Padding::Fill) asked of a read-only view, which cannot write.
    ReadOnlyPadding,
    /// A chunk handed to a chunk table ([`IndirectTensor::from_chunks`](crate::tensors::IndirectTensor::from_chunks))
    /// whose length is not the layout's chunk volume.
    ChunkLength {
        /// The chunk's number (its place in the table).
        chunk: usize,
        /// Elements every chunk of the layout holds.
        expected: usize,
        /// Elements this chunk holds.
        found: usize,
    },
    /// A chunk pointer handed to a chunk table
    /// ([`IndirectTensorMut::from_chunk_ptrs`](crate::tensors::IndirectTensorMut::from_chunk_ptrs)) that
    /// cannot point to a chunk: null, not aligned for the element type, or reaching into another
    /// chunk of the table.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::tensors::IndirectTensorMut;
    /// let mut pool = vec![0u8; 2 * 2048];
    /// let base = pool.as_mut_ptr();
    /// let overlapping = [base, base.wrapping_add(100)];
    /// // SAFETY: refused before any chunk is read.
    /// let err = unsafe { IndirectTensorMut::<u8, htp::R4CroutonLayout>::from_chunk_ptrs([1, 9, 8, 32], &overlapping) }
    ///     .unwrap_err();
    /// assert!(matches!(err, LayoutError::ChunkPointer { chunk: 1, .. }));
    /// assert!(err.to_string().contains("lies inside chunk 0"));
    /// ```
    ChunkPointer {
        /// The chunk's number (its place in the table).
        chunk: usize,
        /// The pointer's address.
        address: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A chunk number at or past the tensor's number of chunks.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 8, 8, 64]);
    /// let err = t.chunk_view(2).unwrap_err();
    /// assert_eq!(err.to_string(), "chunk 2 does not exist: the tensor has 2 chunks, numbered 0 to 1");
    /// ```
    ChunkOutOfRange {
        /// The chunk number asked for.
        chunk: usize,
        /// How many chunks the tensor has.
        count: usize,
    },
    /// A view that keeps a blocked layout, asked to start or end inside a block: the view's
    /// padding would be the tensor's data. Its start must be a multiple of the block, its end
    /// too or the dimension's end.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, htp::R4CroutonLayout>::zeros([1, 20, 8, 32]);
    /// let err = t.slice_blocks(1, 4..16).unwrap_err();
    /// assert!(matches!(err, LayoutError::SliceCutsBlock { block: 8, .. }));
    /// ```
    SliceCutsBlock {
        /// The dimension sliced.
        dim: usize,
        /// The range's start.
        start: usize,
        /// The range's end (exclusive).
        end: usize,
        /// The dimension's block: the view's start and end must be multiples of it.
        block: usize,
        /// The dimension's extent (an end there is allowed too).
        extent: usize,
    },
    /// A view that keeps a layout without blocks, asked to leave gaps between its elements: such
    /// a layout promises dense storage (`Layout::IS_ALWAYS_EXHAUSTIVE`), so the view is a strided
    /// one (`slice`).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let t = Tensor::<u8, onednn::nchw>::zeros([2, 3, 4, 4]);
    /// assert!(t.slice_blocks(0, 1..2).is_ok()); // one image: contiguous
    /// let err = t.slice_blocks(1, 1..2).unwrap_err(); // one channel of two images: gaps
    /// assert!(matches!(err, LayoutError::ViewNotDense { dim: 1, .. }));
    /// assert!(t.slice(1, 1..2).is_ok());
    /// ```
    ViewNotDense {
        /// The layout.
        layout: String,
        /// The dimension sliced.
        dim: usize,
        /// The range's start.
        start: usize,
        /// The range's end (exclusive).
        end: usize,
    },
    /// A tensor whose storage is not one strided array, asked for as one (an ndarray view, a
    /// DLPack tensor): neither one stride per dimension nor a blocked form of its own storage.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let local = Mapping::with_layout(sophgo::Compact::<sophgo::BM1684X>::new(0, 4), [1, 100, 2, 2]).unwrap();
    /// let err = local.strided_form().unwrap_err();
    /// assert!(err.to_string().contains("has no strided form"));
    /// ```
    NoStridedForm {
        /// The layout.
        layout: String,
        /// The logical dims.
        dims: Vec<usize>,
        /// Why no strided form exists.
        reason: String,
    },
    /// A blocked layout asked for a fixed-rank ndarray view
    /// (`TensorBase::as_ndarray_fixed`, feature `ndarray`): its strided form is its blocked
    /// form, with more axes than dims. The blocked form is had at dynamic rank
    /// (`TensorBase::as_ndarray`).
    BlockedForm {
        /// The layout.
        layout: String,
        /// The rank asked for: the layout's number of dims.
        rank: usize,
        /// The blocked form's shape.
        shape: Vec<usize>,
    },
    /// A byte buffer whose length is not that of the elements asked for.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let m = Mapping::<onednn::nchw>::new([1, 1, 2, 2]).unwrap();
    /// let err = TensorView::<u16, _>::from_bytes(m, &[0u8; 7]).unwrap_err();
    /// assert_eq!(err.to_string(), "expected 8 bytes (4 elements of 2 bytes), found 7 bytes");
    /// ```
    ByteLength {
        /// The number of bytes needed.
        expected: usize,
        /// The size of one element in bytes.
        element_size: usize,
        /// The number of bytes given.
        found: usize,
    },
    /// A byte buffer that does not start on a multiple of its element type's alignment.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// let bytes = [0u32; 3];
    /// let bytes: &[u8] = tensor_layout::bytemuck::cast_slice(&bytes);
    /// let m = Mapping::<onednn::nchw>::new([1, 1, 1, 2]).unwrap();
    /// let err = TensorView::<u32, _>::from_bytes(m, &bytes[1..9]).unwrap_err();
    /// assert!(matches!(err, LayoutError::ByteAlignment { alignment: 4, .. }));
    /// ```
    ByteAlignment {
        /// The address of the buffer's first byte.
        address: usize,
        /// The alignment the element type needs, in bytes.
        alignment: usize,
        /// The element type.
        element: String,
    },
    /// A DLPack tensor that cannot be exported or imported as asked (its device, element type,
    /// rank or strides), or a descriptor DLPack's own checks refuse.
    Dlpack {
        /// What is wrong, and what was expected.
        reason: String,
    },
}

impl core::error::Error for LayoutError {}

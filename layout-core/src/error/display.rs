//! The messages of [`LayoutError`]: what a user reads when a call fails or a convenience
//! panics, naming the values involved.

use super::LayoutError;
use alloc::vec::Vec;
use core::fmt;

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Overflow {
                dims,
                element_size: None,
            } => {
                write!(
                    f,
                    "the storage of dims {dims:?} overflows usize (counting elements)"
                )
            }
            Self::Overflow {
                dims,
                element_size: Some(size),
            } => write!(
                f,
                "the storage of dims {dims:?} in {size}-byte elements exceeds the largest \
                 allocation (isize::MAX bytes)"
            ),
            Self::Allocation { bytes } => write!(f, "could not allocate {bytes} bytes of storage"),
            Self::Length { expected, found } => {
                write!(f, "expected {expected} elements, found {found}")
            }
            Self::IndexOutOfBounds { index, dims } => {
                write!(f, "index {index:?} is out of bounds for dims {dims:?}")
            }
            Self::NotStrided { layout } => write!(
                f,
                "{layout} is blocked: no strided view of it exists (relayout to a plain layout first)"
            ),
            Self::BadPermutation { order } => {
                write!(
                    f,
                    "{order:?} is not a permutation of the tensor's dimensions"
                )
            }
            Self::SliceOutOfRange {
                dim,
                start,
                end,
                extent,
            } => write!(
                f,
                "slice {start}..{end} of dimension {dim} does not lie within its extent {extent}"
            ),
            Self::Mismatch { expected, found } => {
                write!(f, "layout mismatch: expected {expected}, found {found}")
            }
            Self::Rank { expected, found } => {
                write!(
                    f,
                    "expected {expected} coordinates (the layout's rank), found {found}"
                )
            }
            Self::Parse {
                what,
                input,
                position,
                expected,
            } => {
                write!(
                    f,
                    "cannot read {what} {input:?}: at character {position}, {expected}"
                )
            }
            Self::InvalidLayout { layout, reason } => {
                write!(f, "invalid layout {layout}: {reason}")
            }
            Self::AxisNames {
                source,
                destination,
            } => write!(
                f,
                "axes {source} and {destination} do not have the same names: elements move by axis name"
            ),
            Self::InvalidAxisWord { word, reason } => {
                write!(f, "`{word}` is not an axis word: {reason}")
            }
            Self::ShapeMismatch {
                source,
                destination,
            } => write!(
                f,
                "source dims {source:?} differ from destination dims {destination:?}"
            ),
            Self::AddressOutOfRange {
                address,
                memory_bytes,
            } => write!(
                f,
                "local-memory address {address} is out of range: the memory has {memory_bytes} \
                 bytes, so addresses lie below {memory_bytes}"
            ),
            Self::Misaligned { address, alignment } => write!(
                f,
                "local-memory address {address} is not a multiple of {alignment} bytes, as the \
                 layout demands"
            ),
            Self::NpuOverflow {
                npu,
                needed,
                available,
            } => write!(
                f,
                "the tensor needs {needed} bytes on NPU {npu} from its start offset, but only \
                 {available} bytes are left there"
            ),
            Self::UnknownName {
                kind,
                found,
                expected,
            } => write!(f, "unknown {kind} `{found}`: expected {expected}"),
            Self::StridesOverlap {
                strides,
                dims,
                first,
                second,
            } => {
                if strides.is_empty() {
                    write!(f, "the mapping overlaps on dims {dims:?}")?;
                } else {
                    write!(f, "the strides {strides:?} overlap on dims {dims:?}")?;
                }
                write!(
                    f,
                    ": indices {first:?} and {second:?} share a storage slot (they differ in "
                )?;
                write_dimensions(f, first, second)?;
                write!(
                    f,
                    "), so writing one element would change the other; only a read-only view \
                     may overlap"
                )
            }
            Self::ElementSize {
                what,
                expected,
                found,
            } => write!(
                f,
                "{what} holds {expected}-byte elements, found {found}-byte elements"
            ),
            Self::Interface { reason } => f.write_str(reason),
            Self::InterfaceMismatch {
                source,
                destination,
            } => write!(
                f,
                "the source's stored values mean {source}, the destination's {destination}: \
                 copying stored values would change the real ones (convert through real values)"
            ),
            Self::Padding {
                slot,
                index,
                found,
                expected,
            } => write!(
                f,
                "padding slot {slot} (padded index {index:?}) holds {found}, expected the stored \
                 zero {expected}"
            ),
            Self::ChunkLength {
                chunk,
                expected,
                found,
            } => write!(
                f,
                "chunk {chunk} holds {found} elements; every chunk of this layout holds {expected}"
            ),
            Self::ReadOnlyPadding => f.write_str(
                "a read-only view cannot fill its padding: check it (Padding::Check) or trust it \
                 (Padding::Trust), or build a writable view",
            ),
            Self::ChunkPointer {
                chunk,
                address,
                reason,
            } => write!(f, "chunk {chunk}'s pointer {address:#x} {reason}"),
            Self::ChunkOutOfRange { chunk, count: 0 } => {
                write!(f, "chunk {chunk} does not exist: the tensor has no chunks")
            }
            Self::ChunkOutOfRange { chunk, count } => write!(
                f,
                "chunk {chunk} does not exist: the tensor has {count} chunks, numbered 0 to {}",
                count - 1
            ),
            Self::SliceCutsBlock {
                dim,
                start,
                end,
                block,
                extent,
            } => write!(
                f,
                "slice {start}..{end} of dimension {dim} cuts through a block of {block}: a view \
                 that keeps the blocked layout starts at a multiple of {block} and ends at one or \
                 at the dimension's end ({extent}); `slice` gives a strided view where one exists, \
                 or relayout first"
            ),
            Self::ViewNotDense {
                layout,
                dim,
                start,
                end,
            } => write!(
                f,
                "slice {start}..{end} of dimension {dim} would leave gaps between the view's \
                 elements, and {layout} has no blocks and promises dense storage: `slice` gives \
                 this view as a strided one"
            ),
            Self::NoStridedForm {
                layout,
                dims,
                reason,
            } => write!(
                f,
                "{layout} on dims {dims:?} has no strided form (what ndarray and DLPack \
                 describe): {reason}; relayout to a plain or blocked layout first"
            ),
            Self::BlockedForm {
                layout,
                rank,
                shape,
            } => write!(
                f,
                "{layout} is blocked: its strided form is its blocked form {shape:?}, of rank \
                 {}, not one axis per dimension (rank {rank}); take the blocked form at dynamic \
                 rank (as_ndarray), or relayout to a plain layout first",
                shape.len()
            ),
            Self::ByteLength {
                expected,
                element_size,
                found,
            } => write!(
                f,
                "expected {expected} bytes ({} elements of {element_size} bytes), found {found} \
                 bytes",
                expected.checked_div(*element_size).unwrap_or(0)
            ),
            Self::ByteAlignment {
                address,
                alignment,
                element,
            } => write!(
                f,
                "a byte buffer at address {address:#x} is not aligned for {element}, which needs \
                 a multiple of {alignment} bytes"
            ),
            Self::Dlpack { reason } => write!(f, "DLPack: {reason}"),
        }
    }
}

/// `dimension 1`, `dimensions 0 and 1`, `dimensions 0, 2 and 3`: where two indices differ.
fn write_dimensions(f: &mut fmt::Formatter<'_>, a: &[usize], b: &[usize]) -> fmt::Result {
    let differ: Vec<usize> = (0..a.len().min(b.len()))
        .filter(|&d| a[d] != b[d])
        .collect();
    f.write_str(if differ.len() == 1 {
        "dimension "
    } else {
        "dimensions "
    })?;
    for (i, d) in differ.iter().enumerate() {
        let separator = match differ.len() - i {
            _ if i == 0 => "",
            1 => " and ",
            _ => ", ",
        };
        write!(f, "{separator}{d}")?;
    }
    Ok(())
}

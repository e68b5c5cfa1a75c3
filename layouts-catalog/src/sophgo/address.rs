//! Addresses in local memory: (NPU, byte offset) and back.

use alloc::vec;
use layout_core::LayoutError;

/// A place in local memory: byte `offset` of NPU `npu`.
///
/// ```
/// use tensor_layout::sophgo::{LocalAddress, SeedChip};
/// let a = SeedChip::split(3088).unwrap();
/// assert_eq!(a, LocalAddress { npu: 3, offset: 16 });
/// assert_eq!(SeedChip::join(a.npu, a.offset).unwrap(), 3088);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalAddress {
    /// The NPU (seed 003's Q for a tensor's start).
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::SeedChip::split(2300).unwrap().npu, 2);
    /// ```
    pub npu: usize,
    /// Byte offset within the NPU's memory (seed 003's R).
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::SeedChip::split(2300).unwrap().offset, 252);
    /// ```
    pub offset: usize,
}

impl LocalAddress {
    /// `address` on a memory of `npus` NPUs of `npu_bytes` bytes.
    ///
    /// # Errors
    /// [`LayoutError::AddressOutOfRange`] when `address >= npus * npu_bytes`.
    ///
    /// ```
    /// use tensor_layout::sophgo::LocalAddress;
    /// assert_eq!(LocalAddress::split(340, 4, 1024).unwrap(), LocalAddress { npu: 0, offset: 340 });
    /// ```
    pub fn split(address: usize, npus: usize, npu_bytes: usize) -> Result<Self, LayoutError> {
        let memory_bytes = npus.saturating_mul(npu_bytes);
        if address >= memory_bytes {
            return Err(LayoutError::AddressOutOfRange {
                address,
                memory_bytes,
            });
        }
        Ok(Self {
            npu: address / npu_bytes,
            offset: address % npu_bytes,
        })
    }

    /// The unified address `npu * npu_bytes + offset`.
    ///
    /// # Errors
    /// [`LayoutError::IndexOutOfBounds`] (index `[npu, offset]`, dims `[npus, npu_bytes]`) when
    /// the NPU or the offset does not exist.
    ///
    /// ```
    /// use tensor_layout::sophgo::LocalAddress;
    /// assert_eq!(LocalAddress { npu: 1, offset: 448 }.join(4, 1024).unwrap(), 1472);
    /// assert!(LocalAddress { npu: 0, offset: 1024 }.join(4, 1024).is_err());
    /// ```
    pub fn join(self, npus: usize, npu_bytes: usize) -> Result<usize, LayoutError> {
        if self.npu < npus && self.offset < npu_bytes {
            // Both are in range, so the sum is below npus * npu_bytes: no overflow if the memory
            // itself has a size (checked by the chip).
            Ok(self.npu * npu_bytes + self.offset)
        } else {
            Err(LayoutError::IndexOutOfBounds {
                index: vec![self.npu, self.offset],
                dims: vec![npus, npu_bytes],
            })
        }
    }
}

/// `ceil((start_npu + channels) / npus)`; zero for a tensor without channels.
pub(crate) fn channels_per_npu(start_npu: usize, channels: usize, npus: usize) -> usize {
    if channels == 0 {
        0
    } else {
        start_npu.saturating_add(channels).div_ceil(npus)
    }
}

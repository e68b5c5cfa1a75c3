//! Addresses in local memory: (NPU, byte offset) and back.

use alloc::vec;
use layout_core::LayoutError;

/// A place in local memory: byte `offset` of NPU `npu`.
///
/// ```
/// use tensor_layout::sophgo::{LocalAddress, ExampleChip};
/// let a = ExampleChip::split(3088).unwrap();
/// assert_eq!(a, LocalAddress { npu: 3, offset: 16 });
/// assert_eq!(ExampleChip::join(a.npu, a.offset).unwrap(), 3088);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalAddress {
    /// The NPU (the TPU-Kernel documentation's Q for a tensor's start).
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::ExampleChip::split(2300).unwrap().npu, 2);
    /// ```
    pub npu: usize,
    /// Byte offset within the NPU's memory (the TPU-Kernel documentation's R).
    ///
    /// ```
    /// assert_eq!(tensor_layout::sophgo::ExampleChip::split(2300).unwrap().offset, 252);
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
        // A memory larger than `usize` holds every address.
        if let Some(memory_bytes) = npus.checked_mul(npu_bytes).filter(|&m| address >= m) {
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
    /// the NPU or the offset does not exist; [`LayoutError::Overflow`] (dims
    /// `[npus, npu_bytes]`) when they exist but the address does not fit in `usize` (a memory
    /// larger than `usize`: never on a [`Chip`](super::Chip), whose size is checked).
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::LocalAddress;
    /// assert_eq!(LocalAddress { npu: 1, offset: 448 }.join(4, 1024).unwrap(), 1472);
    /// assert!(LocalAddress { npu: 0, offset: 1024 }.join(4, 1024).is_err());
    /// let far = LocalAddress { npu: 1 << 40, offset: 0 };
    /// assert!(matches!(far.join(1 << 41, 1 << 40), Err(LayoutError::Overflow { .. })));
    /// ```
    pub fn join(self, npus: usize, npu_bytes: usize) -> Result<usize, LayoutError> {
        if self.npu < npus && self.offset < npu_bytes {
            // Below npus * npu_bytes, which may itself lie past usize: checked.
            self.npu
                .checked_mul(npu_bytes)
                .and_then(|start| start.checked_add(self.offset))
                .ok_or_else(|| LayoutError::Overflow {
                    dims: vec![npus, npu_bytes],
                    element_size: None,
                })
        } else {
            Err(LayoutError::IndexOutOfBounds {
                index: vec![self.npu, self.offset],
                dims: vec![npus, npu_bytes],
            })
        }
    }
}

/// `ceil((start_npu + channels) / npus)`; zero for a tensor without channels.
///
/// Exact even when `start_npu + channels` passes `usize` (absurd channel counts, refused later
/// with the right numbers); `usize::MAX` only if the quotient itself does not fit.
pub(crate) fn channels_per_npu(start_npu: usize, channels: usize, npus: usize) -> usize {
    if channels == 0 {
        0
    } else {
        let slots = (start_npu as u128 + channels as u128).div_ceil(npus as u128);
        usize::try_from(slots).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a memory larger than `usize` (possible through `LocalAddress::join`'s own `npus` and
    /// `npu_bytes`) an NPU and offset that both exist have no address: `join` says so with an
    /// error, rather than overflowing the multiplication (a panic in debug builds, a wrong
    /// address in release).
    #[test]
    fn join_past_usize_is_an_overflow_error() {
        let at = LocalAddress {
            npu: 1 << 40,
            offset: 5,
        };
        assert_eq!(
            at.join(1 << 41, 1 << 40),
            Err(LayoutError::Overflow {
                dims: vec![1 << 41, 1 << 40],
                element_size: None
            })
        );
        let last = LocalAddress {
            npu: usize::MAX / 2,
            offset: 1,
        };
        assert_eq!(last.join(usize::MAX, 2), Ok(usize::MAX));
        let past = LocalAddress {
            npu: usize::MAX / 2,
            offset: 1,
        };
        assert!(past.join(usize::MAX, 3).is_err());
    }

    /// The same memory: every `usize` address lies in it, so `split` refuses none (it used to
    /// saturate the size and refuse `usize::MAX`), and join gives each back.
    #[test]
    fn split_on_a_memory_past_usize() {
        let at = LocalAddress::split(usize::MAX, 1 << 41, 1 << 40).unwrap();
        assert_eq!(at.join(1 << 41, 1 << 40), Ok(usize::MAX));
        assert_eq!(
            LocalAddress::split(8, 2, 4),
            Err(LayoutError::AddressOutOfRange {
                address: 8,
                memory_bytes: 8
            })
        );
        assert!(LocalAddress::split(0, 0, 4).is_err());
        assert!(LocalAddress::split(0, 4, 0).is_err());
    }
}

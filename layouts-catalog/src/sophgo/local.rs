//! [`Local`]: the 4-D local layouts (compact, EU-aligned, line-aligned, free strides), each
//! with a storage mode.

use super::address::{LocalAddress, channels_per_npu};
use super::chip::{ChipSpec, chip_name};
use super::geometry::LocalGeometry;
use super::local_layout::{LocalLayout, sealed};
use super::storage_mode::{Normal, StorageMode};
use super::strides::{
    CompactStrides, EuAlignedStrides, LineAlignedStrides, StrideRule, UserStrides,
};
use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use layout_core::{Layout, LayoutError, layouts::Axes};

/// A 4-D tensor `[N, C, H, W]` in the local memory of chip `C`, its strides following rule `R`,
/// stored in mode `M`. Use it through its aliases [`Compact`], [`EuAligned`], [`LineAligned`]
/// and [`FreeStrides`].
///
/// The value carries the start address (bytes, `0..NPUS * NPU_BYTES`), the element size in
/// bytes (of the unpacked type: 1 for 4N's int8) and, for free strides, the strides. Offsets are
/// in elements within the *whole* local memory (`NPUS * NPU_BYTES / element size` slots):
/// channel `c` lives on NPU `(Q + c) % X`, channel slot `(Q + c) / X`, for a tensor starting at
/// NPU `Q`. Binding it to dims (`Mapping::with_layout`) checks the placement: address in range
/// and aligned as the rule and the mode demand, element size as the mode demands, every element
/// inside its NPU.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{EuAligned, ExampleChip};
/// // The TPU-Kernel documentation: (2, 3, 4, 5) fp32, aligned, starting at NPU 2: channel 2 is on NPU 0, slot 1.
/// let m = Mapping::with_layout(EuAligned::<ExampleChip>::new(2 * 1024, 4), [2, 3, 4, 5]).unwrap();
/// assert_eq!(m.offset([0, 2, 0, 0]), 32);            // NPU 0, C stride 32
/// assert_eq!(m.offset([1, 0, 0, 0]), 2 * 256 + 64);  // NPU 2, N stride 64
/// assert_eq!(m.origin(), [0, 2, 0, 0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Local<C: ChipSpec, R: StrideRule, M: StorageMode = Normal> {
    address: usize,
    element_bytes: usize,
    params: R::Params,
    types: PhantomData<(C, R, M)>,
}

/// The TPU-Kernel documentation's compact layout (strides `[C stride x channels per NPU, H*W, W, 1]`, address a
/// multiple of 4 bytes), in storage mode `M`.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{Compact, ExampleChip};
/// let m = Mapping::with_layout(Compact::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
/// assert_eq!(m.offset([1, 2, 3, 4]), 2 * 256 + 20 + 15 + 4);
/// ```
pub type Compact<C, M = Normal> = Local<C, CompactStrides, M>;

/// The EU-aligned layout (the TPU-Kernel documentation's "128-byte aligned" on BM1684): C stride `H*W` rounded up
/// to one execution unit of elements, address a multiple of the EU width; in storage mode `M`.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{EuAligned, ExampleChip};
/// let m = Mapping::with_layout(EuAligned::<ExampleChip>::new(0, 4), [2, 3, 4, 5]).unwrap();
/// assert_eq!(m.offset([1, 0, 0, 0]), 32);
/// ```
pub type EuAligned<C, M = Normal> = Local<C, EuAlignedStrides, M>;

/// The line-aligned layout: H stride `W` rounded up to one execution unit of elements, address
/// a multiple of the EU width; in storage mode `M`.
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{LineAligned, ExampleChip};
/// let m = Mapping::with_layout(LineAligned::<ExampleChip>::new(0, 4), [1, 1, 3, 5]).unwrap();
/// assert_eq!(m.offset([0, 0, 2, 1]), 2 * 32 + 1);
/// ```
pub type LineAligned<C, M = Normal> = Local<C, LineAlignedStrides, M>;

/// Free strides `[N, C, H, W]` given by the user, address a multiple of the element size; in
/// storage mode `M` (strides then count packed elements, as the TPU-Kernel documentation says).
///
/// ```
/// use tensor_layout::prelude::*;
/// use tensor_layout::sophgo::{FreeStrides, ExampleChip};
/// let layout = FreeStrides::<ExampleChip>::new(0, 4, [120, 56, 16, 2]);
/// let m = Mapping::with_layout(layout, [2, 5, 3, 4]).unwrap();
/// assert_eq!(m.offset([1, 4, 2, 3]), 120 + 56 + 32 + 6); // NPU 0, slot 1
/// ```
pub type FreeStrides<C, M = Normal> = Local<C, UserStrides, M>;

impl<C: ChipSpec, M: StorageMode> Local<C, CompactStrides, M> {
    /// A compact tensor at byte `address` with `element_bytes`-byte elements.
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, ExampleChip};
    /// let layout = Compact::<ExampleChip>::new(1472, 4);
    /// assert_eq!((layout.address(), layout.element_bytes()), (1472, 4));
    /// ```
    pub fn new(address: usize, element_bytes: usize) -> Self {
        Self::with_params(address, element_bytes, ())
    }
}

impl<C: ChipSpec, M: StorageMode> Local<C, EuAlignedStrides, M> {
    /// An EU-aligned tensor at byte `address` with `element_bytes`-byte elements.
    ///
    /// ```
    /// use tensor_layout::sophgo::{EuAligned, FourN, ExampleChip};
    /// let layout = EuAligned::<ExampleChip, FourN>::new(0, 1);
    /// assert_eq!(layout.to_string(), "EuAligned<Chip<4, 1024, 128>, 4N> at address 0, 1-byte elements");
    /// ```
    pub fn new(address: usize, element_bytes: usize) -> Self {
        Self::with_params(address, element_bytes, ())
    }
}

impl<C: ChipSpec, M: StorageMode> Local<C, LineAlignedStrides, M> {
    /// A line-aligned tensor at byte `address` with `element_bytes`-byte elements.
    ///
    /// ```
    /// use tensor_layout::sophgo::{BM1684X, LineAligned};
    /// let layout = LineAligned::<BM1684X>::new(64, 2);
    /// assert_eq!(layout.to_string(), "LineAligned<BM1684X> at address 64, 2-byte elements");
    /// ```
    pub fn new(address: usize, element_bytes: usize) -> Self {
        Self::with_params(address, element_bytes, ())
    }
}

impl<C: ChipSpec, M: StorageMode> Local<C, UserStrides, M> {
    /// A tensor at byte `address` with `element_bytes`-byte elements and strides `[N, C, H, W]`
    /// in (packed) elements, the C stride stepping X channels.
    ///
    /// ```
    /// use tensor_layout::sophgo::{FreeStrides, ExampleChip};
    /// let layout = FreeStrides::<ExampleChip>::new(1024, 4, [120, 0, 0, 2]);
    /// assert_eq!(layout.strides(), [120, 0, 0, 2]);
    /// ```
    pub fn new(address: usize, element_bytes: usize, strides: [usize; 4]) -> Self {
        Self::with_params(address, element_bytes, strides)
    }

    /// The strides `[N, C, H, W]` given at construction.
    ///
    /// ```
    /// use tensor_layout::sophgo::{FreeStrides, ExampleChip};
    /// assert_eq!(FreeStrides::<ExampleChip>::new(0, 4, [120, 56, 16, 2]).strides(), [120, 56, 16, 2]);
    /// ```
    pub fn strides(&self) -> [usize; 4] {
        self.params
    }
}

impl<C: ChipSpec, R: StrideRule, M: StorageMode> Local<C, R, M> {
    pub(crate) fn with_params(address: usize, element_bytes: usize, params: R::Params) -> Self {
        Self {
            address,
            element_bytes,
            params,
            types: PhantomData,
        }
    }

    /// The start address in bytes.
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, ExampleChip};
    /// assert_eq!(Compact::<ExampleChip>::new(3088, 4).address(), 3088);
    /// ```
    pub fn address(&self) -> usize {
        self.address
    }

    /// Bytes per element of the unpacked type (1 for 4N's int8).
    ///
    /// ```
    /// use tensor_layout::sophgo::{Compact, ExampleChip, TwoN};
    /// assert_eq!(Compact::<ExampleChip, TwoN>::new(0, 2).element_bytes(), 2);
    /// ```
    pub fn element_bytes(&self) -> usize {
        self.element_bytes
    }

    /// The same tensor seen in packed elements (the TPU-Kernel documentation's int8x4, int16x2, fp32x2): the same
    /// rule and address in mode [`Normal`], elements `PACK` times larger; bind it to
    /// [`LocalGeometry::packed_dims`]. For [`Normal`] it is the layout itself.
    ///
    /// ```
    /// use tensor_layout::prelude::*;
    /// use tensor_layout::sophgo::{EuAligned, FourN, ExampleChip};
    /// let int8 = EuAligned::<ExampleChip, FourN>::new(0, 1);
    /// let int8x4 = int8.packed();
    /// assert_eq!(int8x4.element_bytes(), 4);
    /// let m8 = Mapping::with_layout(int8, [6, 5, 4, 5]).unwrap();
    /// let m32 = Mapping::with_layout(int8x4, [2, 5, 4, 5]).unwrap();
    /// assert_eq!(m8.offset([5, 1, 2, 3]), m32.offset([1, 1, 2, 3]) * 4 + 1);
    /// ```
    pub fn packed(&self) -> Local<C, R, Normal> {
        Local::with_params(self.address, self.element_bytes * M::PACK, self.params)
    }

    /// The alignment in bytes the start address must have: the rule's, rounded up to a
    /// multiple of the packed element (see [`LocalLayout::alignment`]). Saturates at
    /// `usize::MAX` for element sizes no placement accepts.
    ///
    /// ```
    /// use tensor_layout::sophgo::{BM1688, FourN, FreeStrides, LineAligned};
    /// assert_eq!(LineAligned::<BM1688>::new(0, 4).alignment(), 16);
    /// assert_eq!(FreeStrides::<BM1688, FourN>::new(0, 1, [1, 1, 1, 1]).alignment(), 4); // int8x4
    /// ```
    pub fn alignment(&self) -> usize {
        let packed_bytes = self.element_bytes.saturating_mul(M::PACK);
        lcm(R::alignment(C::EU_BYTES), packed_bytes)
    }

    /// Binds the layout to 4-D `dims`; a matrix passes the columns of its last channel.
    pub(crate) fn build(
        &self,
        dims: [usize; 4],
        last_channel_width: usize,
    ) -> Result<LocalGeometry, LayoutError> {
        let element_bytes = self.element_bytes;
        let invalid = |reason: alloc::string::String| LayoutError::InvalidLayout {
            layout: self.to_string(),
            reason,
        };
        let overflow = || LayoutError::Overflow {
            dims: Vec::from(dims),
            element_size: Some(element_bytes),
        };
        if element_bytes == 0 {
            return Err(invalid("its elements have 0 bytes".into()));
        }
        if let Some(expected) = M::ELEMENT_BYTES.filter(|&bytes| bytes != element_bytes) {
            return Err(LayoutError::ElementSize {
                what: format!("storage mode {} ({})", M::NAME, M::TYPES),
                expected,
                found: element_bytes,
            });
        }
        let start = LocalAddress::split(self.address, C::NPUS, C::NPU_BYTES)?;
        let packed_bytes = element_bytes.checked_mul(M::PACK).ok_or_else(overflow)?;
        if !C::NPU_BYTES.is_multiple_of(packed_bytes) {
            return Err(invalid(format!(
                "an NPU's {} bytes are not a whole number of {packed_bytes}-byte elements",
                C::NPU_BYTES
            )));
        }
        if R::USES_EU && !C::EU_BYTES.is_multiple_of(packed_bytes) {
            return Err(invalid(format!(
                "a {}-byte execution unit is not a whole number of {packed_bytes}-byte elements",
                C::EU_BYTES
            )));
        }
        let alignment = self.alignment();
        if !self.address.is_multiple_of(alignment) {
            return Err(LayoutError::Misaligned {
                address: self.address,
                alignment,
            });
        }
        let cpn = channels_per_npu(start.npu, dims[1], C::NPUS);
        let [n, c, h, w] = dims;
        let packed_dims = [n.div_ceil(M::PACK), c, h, w];
        // An empty tensor (a zero dim) has no element to place, whatever its other dims: strides
        // those dims (or free strides times the pack) would overflow are 0 then, not an error.
        let empty = dims.contains(&0);
        let strides = match R::strides(&self.params, packed_dims, cpn, C::EU_BYTES / packed_bytes) {
            Some(strides) => strides,
            None if empty => [0; 4],
            None => return Err(overflow()),
        };
        let mut element_strides = [0; 4];
        for (scaled, &stride) in element_strides.iter_mut().zip(&strides) {
            *scaled = match stride.checked_mul(M::PACK) {
                Some(scaled) => scaled,
                None if empty => 0,
                None => return Err(overflow()),
            };
        }
        let geometry = LocalGeometry {
            dims,
            pack: M::PACK,
            strides,
            element_strides,
            start,
            element_bytes,
            npus: C::NPUS,
            npu_bytes: C::NPU_BYTES,
            npu_elements: C::NPU_BYTES / element_bytes,
            base: start.offset / element_bytes,
            channels_per_npu: cpn,
            last_channel_width,
        };
        if !empty {
            geometry.check_nesting(|| self.to_string())?;
            geometry.check_fits()?;
        }
        Ok(geometry)
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Least common multiple of two numbers, saturating at `usize::MAX` (0 when `b` is 0).
fn lcm(a: usize, b: usize) -> usize {
    match gcd(a, b) {
        0 => 0,
        g => (a / g).saturating_mul(b),
    }
}

impl<C: ChipSpec, R: StrideRule, M: StorageMode> fmt::Display for Local<C, R, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}<", R::NAME)?;
        chip_name::<C>(f)?;
        if M::PACK > 1 {
            write!(f, ", {}", M::NAME)?;
        }
        f.write_str(">")?;
        R::write_params(&self.params, f)?;
        write!(
            f,
            " at address {}, {}-byte elements",
            self.address, self.element_bytes
        )
    }
}

impl<C: ChipSpec, R: StrideRule, M: StorageMode> Layout for Local<C, R, M> {
    type Index = [usize; 4];
    type Geometry = LocalGeometry;
    type Names = M::Names;

    /// Binding refuses strides that let two elements share a slot and tensors that pass the end
    /// of an NPU's memory, so every mapping is unique. Exhaustive and strided depend on the
    /// placement (a start offset, channels wrapping around the NPUs): the mapping answers.
    const IS_ALWAYS_UNIQUE: bool = true;

    /// Checks the placement (see [`Local`]) and derives the strides.
    fn geometry(&self, dims: &[usize; 4]) -> Result<LocalGeometry, LayoutError> {
        self.build(*dims, dims[3])
    }

    /// N rounded up to a whole number of packs (the dummy elements); the others as they are.
    fn padded_dims(&self, geometry: &LocalGeometry) -> [usize; 4] {
        let [n, c, h, w] = geometry.dims;
        [n.next_multiple_of(M::PACK), c, h, w]
    }

    /// The whole local memory, in elements.
    fn storage_len(&self, geometry: &LocalGeometry) -> usize {
        C::NPUS * geometry.npu_elements
    }

    #[inline]
    fn offset(&self, geometry: &LocalGeometry, index: &[usize; 4]) -> usize {
        geometry.offset(*index, M::PACK, C::NPUS)
    }

    /// The NPU axis (channels `0, 1, .., X-1` of the virtual channel count) outermost, then N,
    /// channel slot, H and W by decreasing stride (those of extent 1 first), then the packed
    /// lane.
    fn axes(&self, geometry: &LocalGeometry) -> Axes {
        geometry.axes()
    }

    /// NPU 0, the tensor's start offset: where the axes' digits are all zero.
    fn base_offset(&self, geometry: &LocalGeometry) -> usize {
        geometry.base
    }

    /// The start NPU in the channel coordinate: channel `c` is virtual channel `Q + c`.
    fn origin(&self, geometry: &LocalGeometry) -> [usize; 4] {
        [0, geometry.start.npu, 0, 0]
    }

    /// The gaps between a tensor's elements belong to other tensors.
    fn gaps_are_padding(&self) -> bool {
        false
    }
}

impl<C: ChipSpec, R: StrideRule, M: StorageMode> sealed::Sealed for Local<C, R, M> {}

impl<C: ChipSpec, R: StrideRule, M: StorageMode> LocalLayout for Local<C, R, M> {
    type Chip = C;

    fn address(&self) -> usize {
        Local::address(self)
    }

    fn element_bytes(&self) -> usize {
        Local::element_bytes(self)
    }

    fn alignment(&self) -> usize {
        Local::alignment(self)
    }

    fn local_geometry(&self, geometry: &LocalGeometry) -> LocalGeometry {
        *geometry
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BM1684, ExampleChip, FourN};
    use super::*;
    use layout_core::Mapping;

    /// A zero dim is an empty tensor whatever the others: it is placed even where its other dims
    /// (or free strides times the pack) would overflow the strides, which are then 0
    /// (docs/reliability.md).
    #[test]
    fn an_empty_tensor_is_placed_whatever_its_other_dims() {
        let free = FreeStrides::<ExampleChip, FourN>::new(0, 1, [0, 0, 0, 1 << 62]);
        let m = Mapping::with_layout(free, [0, 0, 0, 0]).unwrap();
        assert_eq!(m.len(), 0);
        assert_eq!(m.geometry().element_strides(), [0, 0, 0, 0]);
        let compact = Compact::<ExampleChip>::new(3 * 1024, 1);
        assert!(Mapping::with_layout(compact, [0, 1, usize::MAX, 2]).is_ok());
        let line = LineAligned::<BM1684>::new(0, 4);
        assert!(Mapping::with_layout(line, [0, 2, usize::MAX, usize::MAX]).is_ok());
        // With every dim non-zero the same strides are still an overflow.
        assert!(matches!(
            Mapping::with_layout(compact, [1, 1, usize::MAX, 2]),
            Err(LayoutError::Overflow { .. })
        ));
        let free = FreeStrides::<ExampleChip, FourN>::new(0, 1, [0, 0, 0, 1 << 62]);
        assert!(matches!(
            Mapping::with_layout(free, [1, 1, 1, 2]),
            Err(LayoutError::Overflow { .. })
        ));
    }

    /// With C close to `usize::MAX` the last virtual channel `Q + C - 1` passes `usize`; the
    /// numbers of `NpuOverflow` are still exact (2^58 + 1 bytes here, not a saturated count).
    #[test]
    fn overflow_numbers_are_exact_for_absurd_channel_counts() {
        // At NPU 2 of 64: channel MAX - 1 is virtual channel 2^64, NPU 0's slot 2^58.
        let compact = Compact::<BM1684>::new(2 * 512 * 1024, 1);
        assert_eq!(
            Mapping::with_layout(compact, [1, usize::MAX, 1, 1]).unwrap_err(),
            LayoutError::NpuOverflow {
                npu: 0,
                needed: (1 << 58) + 1,
                available: 512 * 1024
            }
        );
        assert_eq!(ExampleChip::channels_per_npu(3, usize::MAX), (1 << 62) + 1);
    }
}

//! Calling the library for a random case: one generic function per operation, dispatched on
//! the case's chip, element type and storage mode by the `with_*!` macros; each test thread keeps
//! one memory per chip.

use super::inputs::{Case, MAX_ELEMENTS, Rule};
use bytemuck::Pod;
use proptest::test_runner::TestCaseError;
use std::cell::RefCell;
use std::sync::OnceLock;
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    BM1684, BM1684X, BM1688, ChipSpec, Compact, EuAligned, ExampleChip, FourN, FreeStrides,
    LineAligned, Local, LocalAddress, LocalLayout, LocalMemory, LocalTensor, Matrix, Normal,
    StorageMode, StrideRule, TwoIC, TwoN,
};
use tensor_layout::{mappings::Coords, mappings::RowMajorIndices};

/// Element types the memory can hold.
pub(crate) trait Elem:
    Pod + tensor_layout::tensors::Element + Default + Send + Sync + 'static
{
}
impl<T: Pod + tensor_layout::tensors::Element + Default + Send + Sync + 'static> Elem for T {}

/// A random element from `salt` and its row-major position.
pub(crate) fn value<T: Elem>(salt: u64, k: usize) -> T {
    let mut v = T::zeroed();
    let mut state = salt ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for byte in bytemuck::bytes_of_mut(&mut v) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        *byte = (z ^ (z >> 31)) as u8;
    }
    v
}

/// The byte every memory holds before a case stores anything.
pub(crate) const FILL: u8 = 0xEE;

/// `FILL` bytes, as many as the largest memory.
pub(crate) fn pristine() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| vec![FILL; BM1684::MEMORY_BYTES])
}

/// A chip whose memory each test thread keeps (filled with `FILL` between cases).
pub(crate) trait Pooled: ChipSpec {
    fn with_memory<R>(
        f: impl FnOnce(&mut LocalMemory<Self>) -> Result<R, TestCaseError>,
    ) -> Result<R, TestCaseError>;
}

macro_rules! pooled {
    ($($chip:ty => $slot:ident),* $(,)?) => {$(
        thread_local! {
            /// The memory, and whether a failed case may have left bytes in it.
            static $slot: RefCell<Option<(LocalMemory<$chip>, bool)>> = const { RefCell::new(None) };
        }
        impl Pooled for $chip {
            fn with_memory<R>(
                f: impl FnOnce(&mut LocalMemory<Self>) -> Result<R, TestCaseError>,
            ) -> Result<R, TestCaseError> {
                $slot.with(|slot| {
                    let mut slot = slot.borrow_mut();
                    let (memory, dirty) = slot.get_or_insert_with(|| {
                        let mut memory = LocalMemory::<$chip>::new();
                        memory.bytes_mut().fill(FILL);
                        (memory, false)
                    });
                    if *dirty {
                        memory.bytes_mut().fill(FILL);
                    }
                    *dirty = true; // until `f` returns Ok (a panic leaves it set)
                    let out = f(memory);
                    *dirty = out.is_err();
                    out
                })
            }
        }
    )*};
}

pooled!(ExampleChip => EXAMPLE, BM1684 => MEM_BM1684, BM1684X => MEM_BM1684X, BM1688 => MEM_BM1688);

/// Runs `$body` with `$Alias` naming the type that the variant of `$value` stands for.
macro_rules! with_alias {
    ($value:expr, $Alias:ident => $body:expr; $($variant:path => $ty:ty),+ $(,)?) => {
        match $value {
            $($variant => {
                type $Alias = $ty;
                $body
            })+
        }
    };
}

/// Runs `$body` with `$C` naming the chip type of a `ChipId`.
macro_rules! with_chip {
    ($chip:expr, $C:ident => $body:expr) => {{
        use $crate::property::inputs::ChipId;
        use tensor_layout::sophgo::{BM1684, BM1684X, BM1688, ExampleChip};
        with_alias!($chip, $C => $body;
            ChipId::Example => ExampleChip, ChipId::Bm1684 => BM1684,
            ChipId::Bm1684x => BM1684X, ChipId::Bm1688 => BM1688)
    }};
}

/// Runs `$body` with `$T` naming the element type of a `Ty`.
macro_rules! with_type {
    ($ty:expr, $T:ident => $body:expr) => {{
        use $crate::property::inputs::Ty;
        with_alias!($ty, $T => $body;
            Ty::U8 => u8, Ty::I8 => i8, Ty::U16 => u16, Ty::I16 => i16,
            Ty::F32 => f32, Ty::F64 => f64, Ty::V16 => [u32; 4])
    }};
}

/// Runs `$body` with `$M` naming the storage-mode type of a `Mode`.
macro_rules! with_mode {
    ($mode:expr, $M:ident => $body:expr) => {{
        use $crate::property::inputs::Mode;
        use tensor_layout::sophgo::{FourN, Normal, TwoIC, TwoN};
        with_alias!($mode, $M => $body;
            Mode::Normal => Normal, Mode::FourN => FourN, Mode::TwoN => TwoN, Mode::TwoIC => TwoIC)
    }};
}

/// What `place` answered, and what the placed tensor reports.
pub(crate) struct Placed {
    /// The layout's `Display`.
    pub(crate) display: String,
    pub(crate) result: Result<Report, LayoutError>,
}

pub(crate) struct Report {
    /// `location(index)` and `address_of(index)` of every element, row-major.
    pub(crate) locations: Vec<(LocalAddress, usize)>,
    /// `location` of an index outside the dims (the dims themselves).
    pub(crate) outside: Result<LocalAddress, LayoutError>,
    /// The packed view (storage modes): its dims and every packed element's location,
    /// row-major; its error if `packed::<[T; PACK]>()` refused.
    pub(crate) packed: Option<PackedLocations>,
    /// `packed::<[u8; 3]>()` (never the packed element's size): refused.
    pub(crate) packed_wrong: Option<Result<(), LayoutError>>,
}

/// A packed view's dims and the location of every packed element (row-major), or its error.
pub(crate) type PackedLocations = Result<([usize; 4], Vec<LocalAddress>), LayoutError>;

/// The packed view of a tensor in storage mode `Self` (nothing for `Normal`).
pub(crate) trait PackedView: StorageMode {
    fn packed_report<T, C: ChipSpec, R: StrideRule>(
        t: &LocalTensor<T, Local<C, R, Self>>,
    ) -> Option<PackedLocations>;

    fn packed_wrong<T, C: ChipSpec, R: StrideRule>(
        t: &LocalTensor<T, Local<C, R, Self>>,
    ) -> Option<Result<(), LayoutError>> {
        (Self::PACK > 1).then(|| t.packed::<[u8; 3]>().map(|_| ()))
    }
}

fn packed_locations<P, L: LocalLayout<Index = [usize; 4]>>(
    packed: Result<LocalTensor<P, L>, LayoutError>,
) -> Option<PackedLocations> {
    Some(packed.map(|p| {
        let locations = RowMajorIndices::new(p.dims())
            .map(|i| p.location(i).expect("inside the packed dims"))
            .collect();
        (p.dims(), locations)
    }))
}

impl PackedView for Normal {
    fn packed_report<T, C: ChipSpec, R: StrideRule>(
        _: &LocalTensor<T, Local<C, R, Self>>,
    ) -> Option<PackedLocations> {
        None
    }
}

impl PackedView for FourN {
    fn packed_report<T, C: ChipSpec, R: StrideRule>(
        t: &LocalTensor<T, Local<C, R, Self>>,
    ) -> Option<PackedLocations> {
        packed_locations(t.packed::<[T; 4]>())
    }
}

impl PackedView for TwoN {
    fn packed_report<T, C: ChipSpec, R: StrideRule>(
        t: &LocalTensor<T, Local<C, R, Self>>,
    ) -> Option<PackedLocations> {
        packed_locations(t.packed::<[T; 2]>())
    }
}

impl PackedView for TwoIC {
    fn packed_report<T, C: ChipSpec, R: StrideRule>(
        t: &LocalTensor<T, Local<C, R, Self>>,
    ) -> Option<PackedLocations> {
        packed_locations(t.packed::<[T; 2]>())
    }
}

/// Places the case's tensor and reads back what it reports (up to `MAX_ELEMENTS` elements).
pub(crate) fn place(case: &Case) -> Placed {
    with_chip!(case.chip, C => with_type!(case.ty, T => place_on::<C, T>(case)))
}

fn place_on<C: Pooled, T: Elem>(case: &Case) -> Placed {
    let (a, e) = (case.address, case.element_bytes);
    if case.rule == Rule::Matrix {
        let layout = Matrix::<C>::new(a, e, case.width);
        return report::<T, _>(layout, case.dims2(), |_| (None, None));
    }
    with_mode!(case.mode, M => place_local::<C, T, M>(case))
}

fn place_local<C: Pooled, T: Elem, M: PackedView>(case: &Case) -> Placed {
    let (a, e, dims) = (case.address, case.element_bytes, case.dims4());
    match case.rule {
        Rule::Compact => report::<T, _>(Compact::<C, M>::new(a, e), dims, packed_of),
        Rule::EuAligned => report::<T, _>(EuAligned::<C, M>::new(a, e), dims, packed_of),
        Rule::LineAligned => report::<T, _>(LineAligned::<C, M>::new(a, e), dims, packed_of),
        Rule::Free => report::<T, _>(
            FreeStrides::<C, M>::new(a, e, case.strides),
            dims,
            packed_of,
        ),
        Rule::Matrix => unreachable!("placed by place_on"),
    }
}

type PackedReport = (Option<PackedLocations>, Option<Result<(), LayoutError>>);

fn packed_of<T, C: ChipSpec, R: StrideRule, M: PackedView>(
    t: &LocalTensor<T, Local<C, R, M>>,
) -> PackedReport {
    (M::packed_report(t), M::packed_wrong(t))
}

fn report<T: Elem, L>(
    layout: L,
    dims: L::Index,
    packed: impl Fn(&LocalTensor<T, L>) -> PackedReport,
) -> Placed
where
    L: LocalLayout,
    L::Chip: Pooled,
{
    let display = layout.to_string();
    let result = <L::Chip as Pooled>::with_memory(|memory| Ok(memory.place::<T, L>(layout, dims)))
        .expect("placing writes nothing");
    let result = result.map(|t| {
        let small = dims.volume().is_some_and(|v| v <= MAX_ELEMENTS);
        let locations = if small {
            RowMajorIndices::new(dims)
                .map(|i| {
                    let location = t.location(i).expect("inside the dims");
                    let address = t.address_of(i).expect("inside the dims");
                    (location, address)
                })
                .collect()
        } else {
            Vec::new()
        };
        let (packed, packed_wrong) = if small { packed(&t) } else { (None, None) };
        Report {
            locations,
            outside: t.location(dims),
            packed,
            packed_wrong,
        }
    });
    Placed { display, result }
}

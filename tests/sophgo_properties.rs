//! Property tests of the Sophgo local-memory model (`tensor_layout::sophgo`) against a reference
//! written here from `docs/sophgo.md`, over random chips (the documentation's toy chip and the three
//! presets), random small dims (zeros and ones included), every local layout (compact,
//! EU-aligned, line-aligned, free strides, matrix), every storage mode (4N, 2N, 2IC), several
//! element types and random start addresses (so random start NPUs):
//!
//! - every element's location is the documented formula's, lies inside its NPU, and no two
//!   elements (dummies included) share a byte; the packed view agrees; a placement that fails
//!   fails with the documented error and numbers;
//! - store then load gives back exactly the tensor stored, writes zero into the dummies and no
//!   byte that is not the tensor's; a store or load of other dims changes nothing;
//! - address split and join are inverse, and refuse what does not exist;
//! - bad input gives the documented error variant (`AddressOutOfRange`, `Misaligned`,
//!   `NpuOverflow`, `ElementSize`, ...) with its numbers, never a panic.
//!
//! `PROPTEST_CASES=N` sets the number of cases per property (defaults: 1000 for the locations,
//! 1000 for the store/load round trip, 2000 + 2000 for split/join, 1000 for bad input).

use bytemuck::Pod;
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use std::cell::RefCell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    BM1684, BM1684X, BM1688, Chip, ChipSpec, Compact, EuAligned, ExampleChip, FourN, FreeStrides,
    LineAligned, Local, LocalAddress, LocalLayout, LocalMemory, LocalTensor, Matrix, Normal,
    StorageMode, StrideRule, TwoIC, TwoN,
};
use tensor_layout::{Coords, RowMajorIndices};

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `test` on `cases` values of `strategy`, panicking with proptest's report (the minimal
/// failing input) on failure. A runner rather than `proptest!` so that the closures can share
/// the per-thread memories below.
fn run<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>) {
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        max_local_rejects: 1_000_000,
        ..ProptestConfig::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// The random inputs

/// The chips of the module, with their numbers as docs/sophgo.md gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChipId {
    Example,
    Bm1684,
    Bm1684x,
    Bm1688,
}

impl ChipId {
    /// (X NPUs, S bytes per NPU, EU bytes).
    fn numbers(self) -> (usize, usize, usize) {
        match self {
            ChipId::Example => (4, 1024, 128),
            ChipId::Bm1684 => (64, 512 * 1024, 128),
            ChipId::Bm1684x => (64, 256 * 1024, 64),
            ChipId::Bm1688 => (32, 128 * 1024, 16),
        }
    }
}

fn chip() -> impl Strategy<Value = ChipId> {
    // The toy chip most: its 1 KiB NPUs make overflows and wrapped channels common.
    prop_oneof![
        4 => Just(ChipId::Example),
        1 => Just(ChipId::Bm1684),
        1 => Just(ChipId::Bm1684x),
        1 => Just(ChipId::Bm1688),
    ]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    Compact,
    EuAligned,
    LineAligned,
    Free,
    Matrix,
}

impl Rule {
    const ALL: [Rule; 5] = [
        Rule::Compact,
        Rule::EuAligned,
        Rule::LineAligned,
        Rule::Free,
        Rule::Matrix,
    ];

    /// The start-address alignment of the table in docs/sophgo.md, before rounding up to the
    /// (packed) element.
    fn alignment(self, eu: usize) -> usize {
        match self {
            Rule::Compact => 4,
            Rule::EuAligned | Rule::LineAligned | Rule::Matrix => eu,
            Rule::Free => 1,
        }
    }

    fn uses_eu(self) -> bool {
        matches!(self, Rule::EuAligned | Rule::LineAligned | Rule::Matrix)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Normal,
    FourN,
    TwoN,
    TwoIC,
}

impl Mode {
    /// (pack, element bytes the mode holds, the `what` of its `ElementSize` error).
    fn info(self) -> (usize, Option<usize>, &'static str) {
        match self {
            Mode::Normal => (1, None, ""),
            Mode::FourN => (4, Some(1), "storage mode 4N (int8 or uint8)"),
            Mode::TwoN => (2, Some(2), "storage mode 2N (int16 or uint16)"),
            Mode::TwoIC => (2, Some(4), "storage mode 2IC (fp32)"),
        }
    }
}

/// Element types: every size from 1 to 16 bytes, signed and unsigned, float and not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    U8,
    I8,
    U16,
    I16,
    F32,
    F64,
    V16,
}

impl Ty {
    const ALL: [Ty; 7] = [Ty::U8, Ty::I8, Ty::U16, Ty::I16, Ty::F32, Ty::F64, Ty::V16];

    fn bytes(self) -> usize {
        match self {
            Ty::U8 | Ty::I8 => 1,
            Ty::U16 | Ty::I16 => 2,
            Ty::F32 => 4,
            Ty::F64 => 8,
            Ty::V16 => 16,
        }
    }
}

/// The (mode, element type) pairs that a storage mode accepts.
const VALID_MODE_TYPES: [(Mode, Ty); 12] = [
    (Mode::Normal, Ty::U8),
    (Mode::Normal, Ty::I8),
    (Mode::Normal, Ty::U16),
    (Mode::Normal, Ty::I16),
    (Mode::Normal, Ty::F32),
    (Mode::Normal, Ty::F64),
    (Mode::Normal, Ty::V16),
    (Mode::FourN, Ty::I8),
    (Mode::FourN, Ty::U8),
    (Mode::TwoN, Ty::I16),
    (Mode::TwoN, Ty::U16),
    (Mode::TwoIC, Ty::F32),
];

/// How free strides are drawn: nested (innermost first in `order`, each stride stepping past
/// the loops inside it by `gaps`), with `filler` for loops of extent 1; or `raw` as they come.
#[derive(Clone, Copy, Debug)]
struct FreeParams {
    order: [usize; 4],
    gaps: [usize; 4],
    filler: [usize; 4],
    raw: Option<[usize; 4]>,
}

/// One placement to try.
#[derive(Clone, Debug)]
struct Case {
    chip: ChipId,
    rule: Rule,
    mode: Mode,
    ty: Ty,
    /// The layout's element size (normally `ty`'s).
    element_bytes: usize,
    address: usize,
    /// `[N, C, H, W]`, or `[N, M]` for a matrix.
    dims: Vec<usize>,
    free: FreeParams,
    /// Free strides, derived from `free`, the dims and the start NPU by `Case::finalize`.
    strides: [usize; 4],
    /// A matrix's channel width.
    width: usize,
    salt: u64,
}

impl Case {
    fn dims4(&self) -> [usize; 4] {
        self.dims.as_slice().try_into().expect("4-D dims")
    }

    fn dims2(&self) -> [usize; 2] {
        self.dims.as_slice().try_into().expect("matrix dims")
    }

    /// The alignment docs/sophgo.md demands of the start address.
    fn alignment(&self) -> usize {
        let (_, _, eu) = self.chip.numbers();
        let (pack, _, _) = self.mode.info();
        lcm(self.rule.alignment(eu), self.element_bytes * pack)
    }

    /// Computes the free strides: nested over the extents these dims have at this start NPU.
    fn finalize(&mut self) {
        if self.rule != Rule::Free {
            return;
        }
        if let Some(raw) = self.free.raw {
            self.strides = raw;
            return;
        }
        let (x, s, _) = self.chip.numbers();
        let (pack, _, _) = self.mode.info();
        let [n, c, h, w] = self.dims4();
        let q = (self.address / s).min(x - 1);
        let extents = [n.div_ceil(pack), channels_per_npu(q, c, x), h, w];
        // In packed elements: the lane is one packed element.
        let mut span = 1usize;
        for &axis in &self.free.order {
            if extents[axis] <= 1 {
                self.strides[axis] = self.free.filler[axis];
                continue;
            }
            let stride = span + self.free.gaps[axis];
            self.strides[axis] = stride;
            span += (extents[axis] - 1) * stride;
        }
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: usize, b: usize) -> usize {
    a / gcd(a, b) * b
}

/// `ceil((q + c) / x)` channel slots, none without channels (docs/sophgo.md).
fn channels_per_npu(q: usize, c: usize, x: usize) -> usize {
    if c == 0 { 0 } else { (q + c).div_ceil(x) }
}

/// A small dim: 0 now and then, 1 often.
fn small(max: usize) -> impl Strategy<Value = usize> {
    prop_oneof![1 => Just(0usize), 8 => Just(1usize), 30 => 1..=max]
}

/// Everything random that a case is made of, before it is fitted to a chip.
#[derive(Clone, Debug)]
struct Raw {
    chip: ChipId,
    rule: Rule,
    mode_type: (Mode, Ty),
    n: usize,
    c_small: usize,
    c_wraps: usize,
    h: usize,
    w: usize,
    columns: usize,
    width_pick: usize,
    npu_pick: usize,
    offset_units: usize,
    from_the_end: bool,
    free: FreeParams,
    salt: u64,
}

fn free_params() -> impl Strategy<Value = FreeParams> {
    (
        Just(vec![0usize, 1, 2, 3]).prop_shuffle(),
        prop::array::uniform4(prop_oneof![3 => Just(0usize), 1 => 1usize..=3]),
        prop::array::uniform4(0usize..=40),
    )
        .prop_map(|(order, gaps, filler)| FreeParams {
            order: order.try_into().unwrap(),
            gaps,
            filler,
            raw: None,
        })
}

fn raw() -> impl Strategy<Value = Raw> {
    (
        (
            chip(),
            prop::sample::select(Rule::ALL.to_vec()),
            prop::sample::select(VALID_MODE_TYPES.to_vec()),
        ),
        (
            small(9),
            small(6),
            prop_oneof![3 => Just(0usize), 1 => 1usize..=2],
            small(4),
            small(12),
        ),
        (
            prop_oneof![1 => Just(0usize), 8 => 1usize..=200],
            any::<usize>(),
            any::<usize>(),
            prop_oneof![4 => 0usize..=3, 1 => 0usize..=64],
            prop::bool::weighted(0.15),
        ),
        free_params(),
        any::<u64>(),
    )
        .prop_map(
            |(
                (chip, rule, mode_type),
                (n, c_small, c_wraps, h, w),
                (columns, width_pick, npu_pick, offset_units, from_the_end),
                free,
                salt,
            )| Raw {
                chip,
                rule,
                mode_type,
                n,
                c_small,
                c_wraps,
                h,
                w,
                columns,
                width_pick,
                npu_pick,
                offset_units,
                from_the_end,
                free,
                salt,
            },
        )
}

/// Most elements a generated tensor has: keeps debug runs fast.
const MAX_ELEMENTS: usize = 2500;

/// A valid-looking case (the placement may still not fit: the reference says).
fn case_from(raw: &Raw) -> Case {
    let (x, s, _) = raw.chip.numbers();
    let (mut mode, ty) = raw.mode_type;
    if raw.rule == Rule::Matrix {
        mode = Mode::Normal; // a matrix has no storage mode
    }
    let (mut dims, width) = if raw.rule == Rule::Matrix {
        let m = raw.columns;
        let width = if m == 0 {
            1 + raw.width_pick % 8
        } else {
            1 + raw.width_pick % m
        };
        (vec![raw.n.min(5), m], width)
    } else {
        let c = raw.c_small + raw.c_wraps * x;
        (vec![raw.n, c, raw.h, raw.w], 0)
    };
    // Keep the element count small: halve the largest dim but C.
    while dims.iter().product::<usize>() > MAX_ELEMENTS {
        let i = (0..dims.len())
            .filter(|&i| dims.len() == 2 || i != 1)
            .max_by_key(|&i| dims[i])
            .unwrap();
        if dims[i] <= 1 {
            dims[1] /= 2;
        } else {
            dims[i] /= 2;
        }
    }
    let mut case = Case {
        chip: raw.chip,
        rule: raw.rule,
        mode,
        ty,
        element_bytes: ty.bytes(),
        address: 0,
        dims,
        free: raw.free,
        strides: [0; 4],
        width,
        salt: raw.salt,
    };
    if case.rule == Rule::Matrix {
        let m = case.dims[1];
        if m > 0 {
            case.width = 1 + raw.width_pick % m;
        }
    }
    let align = case.alignment();
    let units = s / align;
    let npu = raw.npu_pick % x;
    let offset = if raw.from_the_end {
        units.saturating_sub(1 + raw.offset_units % units) * align
    } else {
        (raw.offset_units % units) * align
    };
    case.address = npu * s + offset;
    case.finalize();
    case
}

/// Shrinks a valid-looking case until it fits its chip (the reference decides), so that most
/// round trips have something to move.
fn fitted(mut case: Case) -> Case {
    for _ in 0..64 {
        let expected = reference(&case, "");
        if expected.faults.is_empty() {
            return case;
        }
        let (_, s, _) = case.chip.numbers();
        let largest = (0..case.dims.len())
            .filter(|&i| case.dims[i] > 1)
            .max_by_key(|&i| case.dims[i]);
        match largest {
            Some(i) => case.dims[i] = case.dims[i].div_ceil(2),
            None => case.address -= case.address % s, // start at the NPU's first byte
        }
        if case.rule == Rule::Matrix {
            let m = case.dims[1];
            case.width = case.width.clamp(1, m.max(1));
        }
        case.finalize();
    }
    case
}

fn placements() -> impl Strategy<Value = Case> {
    prop_oneof![
        1 => raw().prop_map(|r| case_from(&r)),
        2 => raw().prop_map(|r| fitted(case_from(&r))),
    ]
}

/// The bad input a case of `bad_placements` aims at (the reference decides what it got).
#[derive(Clone, Copy, Debug)]
enum Target {
    None,
    AddressOutOfRange,
    Misaligned,
    NpuOverflow,
    NpuOverflowByOneElement,
    ElementSizeOfType,
    ElementSizeOfMode,
    OverlappingStrides,
    MatrixWidth,
    Absurd,
}

fn bad_placements() -> impl Strategy<Value = (Target, Case)> {
    let target = prop::sample::select(vec![
        Target::None,
        Target::AddressOutOfRange,
        Target::Misaligned,
        Target::NpuOverflow,
        Target::NpuOverflowByOneElement,
        Target::ElementSizeOfType,
        Target::ElementSizeOfMode,
        Target::OverlappingStrides,
        Target::MatrixWidth,
        Target::Absurd,
    ]);
    (
        target,
        raw(),
        any::<usize>(),
        any::<usize>(),
        prop::array::uniform4(prop_oneof![
            4 => 0usize..=64,
            1 => any::<usize>(),
        ]),
    )
        .prop_map(|(target, raw, pick, big, raw_strides)| {
            let mut case = fitted(case_from(&raw));
            let (x, s, _) = case.chip.numbers();
            match target {
                Target::None => {}
                Target::AddressOutOfRange => {
                    case.address = match pick % 3 {
                        0 => x * s,
                        1 => x * s + big % (4 * x * s),
                        _ => usize::MAX - big % 1024,
                    };
                }
                Target::Misaligned => {
                    let align = case.alignment();
                    if align == 1 {
                        // Free strides of 1-byte elements: any address is aligned.
                        case.rule = Rule::Compact;
                    }
                    let align = case.alignment();
                    case.address -= case.address % align;
                    case.address = (case.address + 1 + pick % (align - 1)) % (x * s);
                    case.finalize();
                }
                Target::NpuOverflow => {
                    // One long dim: from a fraction of an NPU to several NPUs' worth.
                    let e = case.element_bytes * case.mode.info().0;
                    let long = 1 + big % (3 * s / e);
                    let last = case.dims.len() - 1;
                    case.dims[last] = long;
                    if case.rule == Rule::Matrix {
                        case.width = 1 + pick % long;
                    }
                    case.finalize();
                }
                Target::NpuOverflowByOneElement => {
                    // A row ending exactly at the NPU's end, or one element past it.
                    case.rule = if pick % 2 == 0 {
                        Rule::Compact
                    } else {
                        Rule::Free
                    };
                    case.mode = Mode::Normal;
                    case.address -= case.address % case.alignment();
                    let e = case.element_bytes;
                    let room = (s - case.address % s) / e;
                    case.dims = vec![1, 1, 1, (room + big % 2).max(1)];
                    case.free = FreeParams {
                        gaps: [0; 4],
                        raw: None,
                        ..case.free
                    };
                    case.finalize();
                }
                Target::ElementSizeOfType => {
                    let others: Vec<Ty> = Ty::ALL
                        .into_iter()
                        .filter(|t| t.bytes() != case.element_bytes)
                        .collect();
                    case.ty = others[pick % others.len()];
                }
                Target::ElementSizeOfMode => {
                    if case.rule == Rule::Matrix {
                        case.rule = Rule::EuAligned;
                        case.dims = vec![case.dims[0], 1, 1, case.dims[1]];
                    }
                    let modes = [Mode::FourN, Mode::TwoN, Mode::TwoIC];
                    case.mode = modes[pick % 3];
                    let (_, bytes, _) = case.mode.info();
                    let others: Vec<Ty> = [Ty::U8, Ty::I16, Ty::F32, Ty::F64]
                        .into_iter()
                        .filter(|t| Some(t.bytes()) != bytes)
                        .collect();
                    case.ty = others[big % others.len()];
                    case.element_bytes = case.ty.bytes();
                    case.address -= case.address % case.alignment();
                    case.finalize();
                }
                Target::OverlappingStrides => {
                    if case.rule == Rule::Matrix {
                        case.rule = Rule::Free;
                        case.dims = vec![case.dims[0], 1, 1, case.dims[1]];
                    }
                    case.rule = Rule::Free;
                    case.free.raw = Some(raw_strides);
                    case.address -= case.address % case.alignment();
                    case.finalize();
                }
                Target::MatrixWidth => {
                    case.rule = Rule::Matrix;
                    case.mode = Mode::Normal;
                    let n = case.dims[0];
                    let m = case.dims.iter().skip(1).product::<usize>().min(300);
                    case.dims = vec![n, m];
                    case.width = if pick % 2 == 0 { 0 } else { m + 1 + big % 8 };
                    case.address -= case.address % case.alignment();
                }
                Target::Absurd => {
                    let huge = [usize::MAX, usize::MAX / 2 + 1, usize::MAX / 3, 1 << 40];
                    let i = pick % case.dims.len();
                    case.dims[i] = huge[big % huge.len()];
                    if case.rule == Rule::Matrix {
                        case.width = 1 + (pick >> 8) % case.dims[1].max(1);
                    }
                    if case.rule == Rule::Free && case.free.raw.is_none() {
                        // Nested strides for absurd extents would overflow while drawn.
                        case.free.raw = Some(raw_strides);
                    }
                    case.finalize();
                }
            }
            (target, case)
        })
}

// ---------------------------------------------------------------------------------------------
// The reference: docs/sophgo.md, written out

/// An error the reference expects, exactly or by variant.
#[derive(Clone, Debug)]
enum Fault {
    Exact(LayoutError),
    Invalid,
    Overflow,
}

impl Fault {
    fn matches(&self, e: &LayoutError) -> bool {
        match self {
            Fault::Exact(expected) => expected == e,
            Fault::Invalid => matches!(e, LayoutError::InvalidLayout { .. }),
            Fault::Overflow => matches!(e, LayoutError::Overflow { .. }),
        }
    }

    fn variant_matches(&self, e: &LayoutError) -> bool {
        match (self, e) {
            (Fault::Exact(expected), e) => {
                std::mem::discriminant(expected) == std::mem::discriminant(e)
            }
            _ => self.matches(e),
        }
    }
}

/// A placement as the reference computes it, in u128 so that nothing wraps.
#[derive(Clone, Debug)]
struct Geo {
    x: usize,
    s: usize,
    e: usize,
    pack: usize,
    q: usize,
    r: usize,
    /// The 4-D view: `[N, C, H, W]` (a matrix's `[N, ceil(M / W), 1, W]`).
    dims4: [usize; 4],
    /// Columns of the last channel (a matrix's); W otherwise.
    last_width: usize,
    /// `[N, C, H, W]` strides in packed elements.
    strides: [u128; 4],
    matrix_width: Option<usize>,
}

impl Geo {
    /// NPU and byte offset of element `[n, c, h, w]` of the 4-D view (the documentation's formula).
    fn location(&self, [n, c, h, w]: [usize; 4]) -> (usize, u128) {
        let v = self.q + c;
        let (npu, slot) = (v % self.x, v / self.x);
        let [sn, sc, sh, sw] = self.strides;
        let packed =
            (n / self.pack) as u128 * sn + slot as u128 * sc + h as u128 * sh + w as u128 * sw;
        let element = packed * self.pack as u128 + (n % self.pack) as u128;
        (npu, self.r as u128 + element * self.e as u128)
    }

    /// The 4-D index of a logical index.
    fn index4(&self, index: &[usize]) -> [usize; 4] {
        match self.matrix_width {
            Some(w) => [index[0], index[1] / w, 0, index[1] % w],
            None => index.try_into().unwrap(),
        }
    }

    /// Bytes the tensor needs on `npu` from the start offset: one past its last element
    /// (dummies included); `None` when the NPU holds none of it.
    fn needed(&self, npu: usize) -> Option<u128> {
        let [n, c, h, _] = self.dims4.map(|d| d as u128);
        let (x, q, npu) = (self.x as u128, self.q as u128, npu as u128);
        let last_virtual = q + c - 1;
        if last_virtual < npu {
            return None;
        }
        let v = npu + (last_virtual - npu) / x * x; // the NPU's last channel, virtually
        if v < q {
            return None;
        }
        let width = if v == last_virtual {
            self.last_width
        } else {
            self.dims4[3]
        } as u128;
        let pack = self.pack as u128;
        // Saturating: anything past usize is an overflow anyway.
        let [sn, sc, sh, sw] = self.strides;
        let packed = (n.div_ceil(pack) - 1)
            .saturating_mul(sn)
            .saturating_add((v / x).saturating_mul(sc))
            .saturating_add((h - 1).saturating_mul(sh))
            .saturating_add((width - 1).saturating_mul(sw));
        let last = packed.saturating_mul(pack).saturating_add(pack - 1);
        Some(last.saturating_add(1).saturating_mul(self.e as u128))
    }

    /// Unified byte addresses of the elements (row-major over the logical dims) and of the
    /// dummies.
    fn addresses(&self, dims: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let unified = |(npu, offset): (usize, u128)| npu * self.s + offset as usize;
        let mut elements = Vec::new();
        if dims.len() == 2 {
            for_each_index(dims, |index: &[usize; 2]| {
                elements.push(unified(self.location(self.index4(index))))
            });
        } else {
            for_each_index(dims, |index: &[usize; 4]| {
                elements.push(unified(self.location(self.index4(index))))
            });
        }
        let mut dummies = Vec::new();
        let [n, c, h, w] = self.dims4;
        if !self.dims4.contains(&0) {
            for n in n..n.next_multiple_of(self.pack) {
                for_each_index(&[c, h, w], |&[c, h, w]| {
                    dummies.push(unified(self.location([n, c, h, w])))
                });
            }
        }
        (elements, dummies)
    }
}

/// Row-major walk of `dims`, written here (not the library's).
fn for_each_index<const R: usize>(dims: &[usize], mut visit: impl FnMut(&[usize; R])) {
    let dims: [usize; R] = dims.try_into().unwrap();
    if dims.contains(&0) {
        return;
    }
    let mut index = [0usize; R];
    loop {
        visit(&index);
        let mut d = R;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            index[d] += 1;
            if index[d] < dims[d] {
                break;
            }
            index[d] = 0;
        }
    }
}

struct Expected {
    /// Every documented error the input deserves (the library reports one of them).
    faults: Vec<Fault>,
    /// The placement, when the address and element sizes allow computing it.
    geo: Option<Geo>,
}

/// What docs/sophgo.md says `place` does with `case`; `display` is the layout's `Display`
/// (the `what` of a type mismatch).
fn reference(case: &Case, display: &str) -> Expected {
    let (x, s, eu) = case.chip.numbers();
    let e = case.element_bytes;
    let (pack, mode_bytes, mode_what) = case.mode.info();
    let mut faults = Vec::new();
    let expected = |faults| Expected { faults, geo: None };
    if case.ty.bytes() != e {
        faults.push(Fault::Exact(LayoutError::ElementSize {
            what: display.to_string(),
            expected: e,
            found: case.ty.bytes(),
        }));
    }
    // A matrix is its 4-D view (N, ceil(M / W), 1, W), the width in 1..=M.
    let mut view = None;
    if case.rule == Rule::Matrix {
        let [n, m] = case.dims2();
        let w = case.width;
        if w == 0 || (m > 0 && w > m) {
            faults.push(Fault::Invalid);
        } else {
            let channels = m.div_ceil(w);
            view = Some(([n, channels, 1, w], m - w * channels.saturating_sub(1)));
        }
    } else {
        let dims = case.dims4();
        view = Some((dims, dims[3]));
    }
    if e == 0 {
        faults.push(Fault::Invalid);
        return expected(faults);
    }
    if let Some(bytes) = mode_bytes.filter(|&b| b != e) {
        faults.push(Fault::Exact(LayoutError::ElementSize {
            what: mode_what.to_string(),
            expected: bytes,
            found: e,
        }));
    }
    if case.address >= x * s {
        faults.push(Fault::Exact(LayoutError::AddressOutOfRange {
            address: case.address,
            memory_bytes: x * s,
        }));
        return expected(faults);
    }
    let packed = e * pack;
    if s % packed != 0 || (case.rule.uses_eu() && eu % packed != 0) {
        faults.push(Fault::Invalid);
        return expected(faults);
    }
    let alignment = case.alignment();
    if !case.address.is_multiple_of(alignment) {
        faults.push(Fault::Exact(LayoutError::Misaligned {
            address: case.address,
            alignment,
        }));
    }
    let Some((dims4, last_width)) = view else {
        return expected(faults);
    };
    let (q, r) = (case.address / s, case.address % s);
    let [n, c, h, w] = dims4;
    let cpn = if c == 0 {
        0
    } else {
        (q as u128 + c as u128).div_ceil(x as u128)
    };
    let eu_elements = (eu / packed) as u128;
    let round_up = |v: u128, unit: u128| v.div_ceil(unit).saturating_mul(unit);
    let (h, w) = (h as u128, w as u128);
    let strides: [u128; 4] = match case.rule {
        Rule::Compact => [(h * w).saturating_mul(cpn), h * w, w, 1],
        Rule::EuAligned | Rule::Matrix => {
            let cs = round_up(h * w, eu_elements);
            [cs.saturating_mul(cpn), cs, w, 1]
        }
        Rule::LineAligned => {
            let hs = round_up(w, eu_elements);
            let cs = h.saturating_mul(hs);
            [cs.saturating_mul(cpn), cs, hs, 1]
        }
        Rule::Free => case.strides.map(|s| s as u128),
    };
    let geo = Geo {
        x,
        s,
        e,
        pack,
        q,
        r,
        dims4,
        last_width,
        strides,
        matrix_width: (case.rule == Rule::Matrix).then_some(case.width),
    };
    if dims4.contains(&0) {
        // An empty tensor: nothing to check past the address.
        return Expected {
            faults,
            geo: Some(geo),
        };
    }
    let big = |v: u128| v > usize::MAX as u128;
    if strides.iter().any(|&s| big(s.saturating_mul(pack as u128))) {
        faults.push(Fault::Overflow);
        return expected(faults);
    }
    // Each stride (of a loop that counts) steps past the loops inside it.
    let mut loops = [
        (n.div_ceil(pack) as u128, strides[0] * pack as u128),
        (cpn, strides[1] * pack as u128),
        (h, strides[2] * pack as u128),
        (w, strides[3] * pack as u128),
    ];
    loops.sort_by_key(|&(_, stride)| stride);
    let mut span = pack as u128;
    for (extent, stride) in loops.into_iter().filter(|&(extent, _)| extent > 1) {
        if stride < span {
            faults.push(Fault::Invalid);
            break;
        }
        span = span.saturating_add((extent - 1).saturating_mul(stride));
        if big(span) {
            faults.push(Fault::Overflow);
            break;
        }
    }
    // Every NPU's last element inside the NPU: the first that overflows is named.
    let available = s - r;
    for npu in 0..x {
        let Some(needed) = geo.needed(npu) else {
            continue;
        };
        if big(needed) {
            faults.push(Fault::Overflow);
            break;
        }
        if needed > available as u128 {
            faults.push(Fault::Exact(LayoutError::NpuOverflow {
                npu,
                needed: needed as usize,
                available,
            }));
            break;
        }
    }
    Expected {
        faults,
        geo: Some(geo),
    }
}

// ---------------------------------------------------------------------------------------------
// Calling the library: one generic function per operation, dispatched on the case

/// Element types the memory can hold.
trait Elem: Pod + Default + Send + Sync + 'static {}
impl<T: Pod + Default + Send + Sync + 'static> Elem for T {}

/// A random element from `salt` and its row-major position.
fn value<T: Elem>(salt: u64, k: usize) -> T {
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
const FILL: u8 = 0xEE;

/// `FILL` bytes, as many as the largest memory.
fn pristine() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| vec![FILL; BM1684::MEMORY_BYTES])
}

/// A chip whose memory each test thread keeps (filled with `FILL` between cases).
trait Pooled: ChipSpec {
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

macro_rules! with_chip {
    ($chip:expr, $C:ident => $body:expr) => {
        with_alias!($chip, $C => $body;
            ChipId::Example => ExampleChip, ChipId::Bm1684 => BM1684,
            ChipId::Bm1684x => BM1684X, ChipId::Bm1688 => BM1688)
    };
}

macro_rules! with_type {
    ($ty:expr, $T:ident => $body:expr) => {
        with_alias!($ty, $T => $body;
            Ty::U8 => u8, Ty::I8 => i8, Ty::U16 => u16, Ty::I16 => i16,
            Ty::F32 => f32, Ty::F64 => f64, Ty::V16 => [u32; 4])
    };
}

macro_rules! with_mode {
    ($mode:expr, $M:ident => $body:expr) => {
        with_alias!($mode, $M => $body;
            Mode::Normal => Normal, Mode::FourN => FourN, Mode::TwoN => TwoN, Mode::TwoIC => TwoIC)
    };
}

/// What `place` answered, and what the placed tensor reports.
struct Placed {
    /// The layout's `Display`.
    display: String,
    result: Result<Report, LayoutError>,
}

struct Report {
    /// `location(index)` and `address_of(index)` of every element, row-major.
    locations: Vec<(LocalAddress, usize)>,
    /// `location` of an index outside the dims (the dims themselves).
    outside: Result<LocalAddress, LayoutError>,
    /// The packed view (storage modes): its dims and every packed element's location,
    /// row-major; its error if `packed::<[T; PACK]>()` refused.
    packed: Option<PackedLocations>,
    /// `packed::<[u8; 3]>()` (never the packed element's size): refused.
    packed_wrong: Option<Result<(), LayoutError>>,
}

/// A packed view's dims and the location of every packed element (row-major), or its error.
type PackedLocations = Result<([usize; 4], Vec<LocalAddress>), LayoutError>;

/// The packed view of a tensor in storage mode `Self` (nothing for `Normal`).
trait PackedView: StorageMode {
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
fn place(case: &Case) -> Placed {
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

// ---------------------------------------------------------------------------------------------
// The checks

/// `place` against the reference: the same error, or the same locations (inside their NPUs,
/// no two sharing a byte, the packed view agreeing). Returns whether the case was placed, and
/// the documented error variant it got when it had exactly one fault.
fn check_place(case: &Case) -> Result<(bool, Option<&'static str>), TestCaseError> {
    let placed = place(case);
    let expected = reference(case, &placed.display);
    match (&placed.result, expected.faults.as_slice()) {
        (Ok(report), []) => {
            check_locations(case, expected.geo.as_ref().unwrap(), report)?;
            Ok((true, None))
        }
        (Ok(_), faults) => Err(TestCaseError::fail(format!(
            "{} placed {:?}, but docs/sophgo.md expects {faults:?}",
            placed.display, case.dims
        ))),
        (Err(e), []) => Err(TestCaseError::fail(format!(
            "{} refused {:?}: {e:?}",
            placed.display, case.dims
        ))),
        (Err(e), [fault]) => {
            prop_assert!(
                fault.matches(e),
                "{} {:?}: expected {fault:?}, got {e:?}",
                placed.display,
                case.dims
            );
            // The message names the numbers.
            let message = e.to_string();
            prop_assert!(!message.is_empty());
            if let LayoutError::NpuOverflow { npu, needed, .. } = e {
                check_overflow_by_enumeration(case, expected.geo.as_ref().unwrap(), *npu, *needed)?;
            }
            Ok((false, documented_variant(e)))
        }
        (Err(e), faults) => {
            prop_assert!(
                faults.iter().any(|f| f.variant_matches(e)),
                "{} {:?}: expected one of {faults:?}, got {e:?}",
                placed.display,
                case.dims
            );
            Ok((false, None))
        }
    }
}

fn documented_variant(e: &LayoutError) -> Option<&'static str> {
    match e {
        LayoutError::AddressOutOfRange { .. } => Some("AddressOutOfRange"),
        LayoutError::Misaligned { .. } => Some("Misaligned"),
        LayoutError::NpuOverflow { .. } => Some("NpuOverflow"),
        LayoutError::ElementSize { .. } => Some("ElementSize"),
        _ => None,
    }
}

fn check_locations(case: &Case, geo: &Geo, report: &Report) -> Result<(), TestCaseError> {
    let (x, s, _) = case.chip.numbers();
    let e = case.element_bytes;
    let dims = &case.dims;
    // An index outside the dims is an error naming it.
    prop_assert_eq!(
        report.outside.clone().unwrap_err(),
        LayoutError::IndexOutOfBounds {
            index: dims.clone(),
            dims: dims.clone(),
        }
    );
    let volume = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
    if volume.is_none_or(|v| v > MAX_ELEMENTS) {
        return Ok(()); // placed, but too many elements to walk here
    }
    let (elements, dummies) = geo.addresses(dims);
    prop_assert_eq!(report.locations.len(), elements.len());
    for ((location, address), &expected) in report.locations.iter().zip(&elements) {
        prop_assert!(location.npu < x, "NPU {} of {x}", location.npu);
        prop_assert!(
            location.offset + e <= s,
            "{location:?} + {e} bytes past {s}"
        );
        prop_assert_eq!(*address, location.npu * s + location.offset);
        prop_assert_eq!(*address, expected, "{:?}", location);
    }
    // No two elements, dummies included, share a byte.
    let mut all: Vec<usize> = elements.iter().chain(&dummies).copied().collect();
    all.sort_unstable();
    for pair in all.windows(2) {
        prop_assert!(
            pair[1] >= pair[0] + e,
            "bytes {} and {} overlap",
            pair[0],
            pair[1]
        );
    }
    for &dummy in &dummies {
        prop_assert!(dummy % s + e <= s, "dummy at {dummy} past its NPU");
    }
    // The packed view: element (n, c, h, w) is lane n % P of packed element (n / P, c, h, w),
    // and the lanes past N are the dummies.
    if let Some(packed) = &report.packed {
        let (packed_dims, packed_locations) = packed.as_ref().map_err(|e| {
            TestCaseError::fail(format!("packed view of {:?} refused: {e}", case.dims))
        })?;
        let [n, c, h, w] = case.dims4();
        let pack = geo.pack;
        prop_assert_eq!(*packed_dims, [n.div_ceil(pack), c, h, w]);
        let packed_at = |[pn, c, h, w]: [usize; 4]| {
            let [_, pc, ph, pw] = *packed_dims;
            let l = packed_locations[((pn * pc + c) * ph + h) * pw + w];
            l.npu * s + l.offset
        };
        let mut k = 0;
        for_each_index(&case.dims, |&[n, c, h, w]: &[usize; 4]| {
            let expected = packed_at([n / pack, c, h, w]) + (n % pack) * e;
            assert_eq!(
                elements[k],
                expected,
                "element {:?} in its pack",
                [n, c, h, w]
            );
            k += 1;
        });
        let mut dummy_k = 0;
        if !case.dims4().contains(&0) {
            for n in n..n.next_multiple_of(pack) {
                for_each_index(&[c, h, w], |&[c, h, w]: &[usize; 3]| {
                    let expected = packed_at([n / pack, c, h, w]) + (n % pack) * e;
                    assert_eq!(dummies[dummy_k], expected, "dummy {:?}", [n, c, h, w]);
                    dummy_k += 1;
                });
            }
        }
    }
    if let Some(wrong) = &report.packed_wrong {
        prop_assert!(
            matches!(wrong, Err(LayoutError::ElementSize { found: 3, .. })),
            "{wrong:?}"
        );
    }
    Ok(())
}

/// An overflow the library reports, checked by walking every element and dummy: the named NPU
/// is the first whose last byte lies past its end, `needed` bytes from the start offset.
fn check_overflow_by_enumeration(
    case: &Case,
    geo: &Geo,
    npu: usize,
    needed: usize,
) -> Result<(), TestCaseError> {
    let padded: Option<usize> = geo.dims4.iter().enumerate().try_fold(1usize, |a, (i, &d)| {
        a.checked_mul(if i == 0 {
            d.next_multiple_of(geo.pack)
        } else {
            d
        })
    });
    if padded.is_none_or(|p| p > 200_000) {
        return Ok(()); // too many to walk
    }
    let mut end = vec![0u128; geo.x];
    let [n, c, h, w] = geo.dims4;
    let n_padded = n.next_multiple_of(geo.pack);
    for_each_index(&[n_padded, c, h, w], |&[n, c, h, w]: &[usize; 4]| {
        let is_matrix_tail =
            geo.matrix_width.is_some() && c == geo.dims4[1] - 1 && w >= geo.last_width;
        if is_matrix_tail {
            return;
        }
        let (p, offset) = geo.location([n, c, h, w]);
        end[p] = end[p].max(offset + geo.e as u128 - geo.r as u128);
    });
    let available = (geo.s - geo.r) as u128;
    let first = end.iter().position(|&b| b > available);
    prop_assert_eq!(first, Some(npu), "{:?}: ends {:?}", case.dims, end);
    prop_assert_eq!(end[npu], needed as u128);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Store and load

/// Stores a random tensor into the placed case, loads it back three ways, and checks the
/// memory byte by byte; first, a store and a load of other dims must change nothing.
fn round_trip(case: &Case) -> Result<(), TestCaseError> {
    let expected = reference(case, "");
    prop_assert!(expected.faults.is_empty(), "{:?}", expected.faults);
    let geo = expected.geo.unwrap();
    let (elements, dummies) = geo.addresses(&case.dims);
    let e = case.element_bytes;
    let moved = with_chip!(case.chip, C => match (case.mode, case.ty) {
        (Mode::Normal, ty) => with_type!(ty, T => move_on::<C, T, Normal>(case)),
        (Mode::FourN, Ty::I8) => move_on::<C, i8, FourN>(case),
        (Mode::FourN, Ty::U8) => move_on::<C, u8, FourN>(case),
        (Mode::TwoN, Ty::I16) => move_on::<C, i16, TwoN>(case),
        (Mode::TwoN, Ty::U16) => move_on::<C, u16, TwoN>(case),
        (Mode::TwoIC, Ty::F32) => move_on::<C, f32, TwoIC>(case),
        (mode, ty) => unreachable!("{mode:?} does not hold {ty:?}"),
    })?;
    let Moved {
        stored,
        memory,
        loads,
    } = &moved;
    // Every element's bytes are where its location says; every dummy is zero.
    for (k, &address) in elements.iter().enumerate() {
        prop_assert_eq!(
            &memory[k * e..(k + 1) * e],
            &stored[k * e..(k + 1) * e],
            "element {} at address {}",
            k,
            address
        );
    }
    for (k, _) in dummies.iter().enumerate() {
        let at = (elements.len() + k) * e;
        prop_assert!(
            memory[at..at + e].iter().all(|&b| b == 0),
            "dummy {k} not zero"
        );
    }
    for (how, loaded) in loads {
        prop_assert!(loaded == stored, "{how} differs from the tensor stored");
    }
    Ok(())
}

/// What a round trip saw: the stored tensor's bytes (row-major), the memory's bytes at each
/// element then each dummy (as the reference places them), and each load's bytes (row-major).
struct Moved {
    stored: Vec<u8>,
    memory: Vec<u8>,
    loads: Vec<(&'static str, Vec<u8>)>,
}

fn move_on<C: Pooled, T: Elem, M: PackedView>(case: &Case) -> Result<Moved, TestCaseError> {
    let (a, e) = (case.address, case.element_bytes);
    match case.rule {
        Rule::Compact => move_4d::<T, _>(Compact::<C, M>::new(a, e), case),
        Rule::EuAligned => move_4d::<T, _>(EuAligned::<C, M>::new(a, e), case),
        Rule::LineAligned => move_4d::<T, _>(LineAligned::<C, M>::new(a, e), case),
        Rule::Free => move_4d::<T, _>(FreeStrides::<C, M>::new(a, e, case.strides), case),
        Rule::Matrix => move_matrix::<T, C>(Matrix::<C>::new(a, e, case.width), case),
    }
}

fn row_major_bytes<T: Elem>(values: Vec<T>) -> Vec<u8> {
    bytemuck::cast_slice(&values).to_vec()
}

/// After a store: reads the memory at the reference's element and dummy addresses, puts
/// `FILL` back there, and checks that no other byte changed.
fn take_back(
    bytes: &mut [u8],
    geo: &Geo,
    dims: &[usize],
    e: usize,
) -> Result<Vec<u8>, TestCaseError> {
    let (elements, dummies) = geo.addresses(dims);
    let mut seen = Vec::with_capacity((elements.len() + dummies.len()) * e);
    for &address in elements.iter().chain(&dummies) {
        seen.extend_from_slice(&bytes[address..address + e]);
        bytes[address..address + e].fill(FILL);
    }
    check_untouched(bytes, "a store")?;
    Ok(seen)
}

fn check_untouched(bytes: &[u8], what: &str) -> Result<(), TestCaseError> {
    if bytes != &pristine()[..bytes.len()] {
        let first = bytes.iter().position(|&b| b != FILL).unwrap();
        return Err(TestCaseError::fail(format!(
            "{what} wrote byte {first}, which is none of the tensor's"
        )));
    }
    Ok(())
}

fn move_4d<T: Elem, L>(layout: L, case: &Case) -> Result<Moved, TestCaseError>
where
    L: LocalLayout<Index = [usize; 4]>,
    L::Chip: Pooled,
{
    let dims = case.dims4();
    let geo = reference(case, "").geo.unwrap();
    let row_major = tensor_layout::row_major_strides(&dims);
    let at = |i: [usize; 4]| i.iter().zip(&row_major).map(|(a, b)| a * b).sum::<usize>();
    let src = Tensor::<T, Plain<L::Names>>::from_fn(dims, |i| value(case.salt, at(i)));
    <L::Chip as Pooled>::with_memory(|memory| {
        let t = memory.place::<T, L>(layout, dims).map_err(fail)?;
        // Other dims: refused, nothing written, the destination untouched.
        let mut other = dims;
        other[0] += 1;
        let wrong = Tensor::<T, Plain<L::Names>>::from_fn(other, |_| value(case.salt, 1));
        let refused = memory.store(&wrong, &t);
        prop_assert!(
            matches!(refused, Err(LayoutError::ShapeMismatch { .. })),
            "{refused:?}"
        );
        check_untouched(memory.bytes(), "a refused store")?;
        let mut wrong_dst =
            Tensor::<T, ChannelsLast<L::Names>>::from_fn(other, |_| value(case.salt, 2));
        let before = row_major_bytes(wrong_dst.as_raw().to_vec());
        let refused = memory.load(&t, &mut wrong_dst);
        prop_assert!(
            matches!(refused, Err(LayoutError::ShapeMismatch { .. })),
            "{refused:?}"
        );
        prop_assert!(
            row_major_bytes(wrong_dst.as_raw().to_vec()) == before,
            "a refused load wrote"
        );

        memory.store(&src, &t).map_err(fail)?;
        let view = row_major_bytes(memory.view(&t).to_row_major());
        let nchw: Tensor<T, Plain<L::Names>> = memory.load_new(&t).map_err(fail)?;
        let mut nhwc = Tensor::<T, ChannelsLast<L::Names>>::zeros(dims);
        memory.load(&t, &mut nhwc).map_err(fail)?;
        let in_memory = take_back(memory.bytes_mut(), &geo, &case.dims, case.element_bytes)?;
        Ok(Moved {
            stored: row_major_bytes(src.to_row_major()),
            memory: in_memory,
            loads: vec![
                ("view", view),
                ("load_new (nchw)", row_major_bytes(nchw.to_row_major())),
                ("load (nhwc)", row_major_bytes(nhwc.to_row_major())),
            ],
        })
    })
}

type RowMajor2 = chunked_layout![2; 0,0, 1,0];
/// Plain `[N, C, H, W]` (or `[I, O, H, W]` for 2IC weights) with the local layout's axis names.
type Plain<N> = ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<1, 0>, Chunk<2, 0>, Chunk<3, 0>), N>;
/// Dimension 1 fastest, with the local layout's axis names.
type ChannelsLast<N> =
    ChunkedMemoryLayout<4, (Chunk<0, 0>, Chunk<2, 0>, Chunk<3, 0>, Chunk<1, 0>), N>;
type ColumnMajor2 = chunked_layout![2; 1,0, 0,0];

fn move_matrix<T: Elem, C: Pooled>(layout: Matrix<C>, case: &Case) -> Result<Moved, TestCaseError> {
    let dims = case.dims2();
    let geo = reference(case, "").geo.unwrap();
    let src = Tensor::<T, RowMajor2>::from_fn(dims, |[n, m]| value(case.salt, n * dims[1] + m));
    C::with_memory(|memory| {
        let t = memory.place::<T, _>(layout, dims).map_err(fail)?;
        let other = [dims[0] + 1, dims[1]];
        let wrong = Tensor::<T, RowMajor2>::from_fn(other, |_| value(case.salt, 1));
        let refused = memory.store(&wrong, &t);
        prop_assert!(
            matches!(refused, Err(LayoutError::ShapeMismatch { .. })),
            "{refused:?}"
        );
        check_untouched(memory.bytes(), "a refused store")?;

        memory.store(&src, &t).map_err(fail)?;
        let view = row_major_bytes(memory.view(&t).to_row_major());
        let rows: Tensor<T, RowMajor2> = memory.load_new(&t).map_err(fail)?;
        let mut columns = Tensor::<T, ColumnMajor2>::zeros(dims);
        memory.load(&t, &mut columns).map_err(fail)?;
        let in_memory = take_back(memory.bytes_mut(), &geo, &case.dims, case.element_bytes)?;
        Ok(Moved {
            stored: row_major_bytes(src.to_row_major()),
            memory: in_memory,
            loads: vec![
                ("view", view),
                ("load_new (row-major)", row_major_bytes(rows.to_row_major())),
                (
                    "load (column-major)",
                    row_major_bytes(columns.to_row_major()),
                ),
            ],
        })
    })
}

fn fail(e: LayoutError) -> TestCaseError {
    TestCaseError::fail(format!("{e}"))
}

// ---------------------------------------------------------------------------------------------
// The properties

#[test]
fn every_element_lies_in_its_npu_and_no_two_share_a_byte() {
    let placed = AtomicUsize::new(0);
    let n = cases(1000);
    run(n, placements(), |case| {
        if check_place(&case)?.0 {
            placed.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    });
    let placed = placed.load(Ordering::Relaxed);
    if n >= 200 {
        // Most cases are shrunk to fit: the locations are checked on at least half.
        assert!(
            placed * 2 >= n as usize,
            "only {placed} of {n} cases placed"
        );
    }
}

#[test]
fn store_then_load_returns_the_tensor_stored() {
    run(
        cases(1000),
        raw()
            .prop_map(|r| fitted(case_from(&r)))
            .prop_filter("fits after shrinking", |case| {
                reference(case, "").faults.is_empty()
            }),
        |case| round_trip(&case),
    );
}

/// Address split and join on a chip `Chip<X, S, EU>`.
fn split_join_on<const X: usize, const S: usize, const EU: usize>(
    address: usize,
    npu: usize,
    offset: usize,
) -> Result<(), TestCaseError> {
    let memory = X * S;
    match Chip::<X, S, EU>::split(address) {
        Ok(at) => {
            prop_assert!(address < memory);
            prop_assert!(at.npu < X && at.offset < S, "{at:?}");
            prop_assert_eq!(at.npu * S + at.offset, address);
            prop_assert_eq!(Chip::<X, S, EU>::join(at.npu, at.offset), Ok(address));
            prop_assert_eq!(at.join(X, S), Ok(address));
        }
        Err(e) => {
            prop_assert_eq!(
                e,
                LayoutError::AddressOutOfRange {
                    address,
                    memory_bytes: memory
                }
            );
        }
    }
    match Chip::<X, S, EU>::join(npu, offset) {
        Ok(address) => {
            prop_assert!(npu < X && offset < S);
            prop_assert_eq!(address, npu * S + offset);
            prop_assert_eq!(
                Chip::<X, S, EU>::split(address),
                Ok(LocalAddress { npu, offset })
            );
        }
        Err(e) => {
            prop_assert!(npu >= X || offset >= S);
            prop_assert_eq!(
                e,
                LayoutError::IndexOutOfBounds {
                    index: vec![npu, offset],
                    dims: vec![X, S]
                }
            );
        }
    }
    Ok(())
}

#[test]
fn address_split_and_join_round_trip() {
    let near = |limit: usize| {
        prop_oneof![
            4 => 0..limit,
            1 => limit..limit * 2,
            1 => (0usize..64).prop_map(move |k| limit.saturating_sub(32) + k),
            1 => any::<usize>(),
        ]
    };
    run(
        cases(2000),
        (
            chip(),
            any::<usize>(),
            any::<usize>(),
            any::<usize>(),
            any::<bool>(),
        ),
        |(chip, a, p, o, edge)| {
            let (x, s, _) = chip.numbers();
            // Addresses over the memory and past it; NPUs and offsets in range, at the edge
            // and past it.
            let address = if edge {
                x * s - 1 + a % 3
            } else {
                a % (2 * x * s)
            };
            let npu = if edge { x - 1 + p % 3 } else { p % (2 * x) };
            let offset = if edge { s - 1 + o % 3 } else { o % (2 * s) };
            match chip {
                ChipId::Example => split_join_on::<4, 1024, 128>(address, npu, offset),
                ChipId::Bm1684 => split_join_on::<64, { 512 * 1024 }, 128>(address, npu, offset),
                ChipId::Bm1684x => split_join_on::<64, { 256 * 1024 }, 64>(address, npu, offset),
                ChipId::Bm1688 => split_join_on::<32, { 128 * 1024 }, 16>(address, npu, offset),
            }
        },
    );
    // Any memory shape, any numbers: never a panic, and split then join gives the address.
    run(
        cases(2000),
        (
            near(1 << 12),
            near(1 << 20),
            any::<usize>(),
            any::<usize>(),
            any::<usize>(),
        ),
        |(npus, npu_bytes, address, npu, offset)| {
            let memory = npus as u128 * npu_bytes as u128;
            match LocalAddress::split(address, npus, npu_bytes) {
                Ok(at) => {
                    prop_assert!((address as u128) < memory);
                    prop_assert!(at.npu < npus && at.offset < npu_bytes, "{at:?}");
                    prop_assert_eq!(at.join(npus, npu_bytes), Ok(address));
                }
                Err(e) => {
                    prop_assert!(address as u128 >= memory);
                    prop_assert_eq!(
                        e,
                        LayoutError::AddressOutOfRange {
                            address,
                            memory_bytes: memory as usize
                        }
                    );
                }
            }
            let at = LocalAddress {
                npu: npu % npus.max(1).saturating_mul(2),
                offset: offset % npu_bytes.max(1).saturating_mul(2),
            };
            match at.join(npus, npu_bytes) {
                Ok(address) => {
                    prop_assert!(at.npu < npus && at.offset < npu_bytes);
                    prop_assert_eq!(LocalAddress::split(address, npus, npu_bytes), Ok(at));
                }
                Err(LayoutError::IndexOutOfBounds { index, dims }) => {
                    prop_assert!(at.npu >= npus || at.offset >= npu_bytes);
                    prop_assert_eq!(index, vec![at.npu, at.offset]);
                    prop_assert_eq!(dims, vec![npus, npu_bytes]);
                }
                Err(LayoutError::Overflow { dims, .. }) => {
                    // Both exist, but the address lies past usize (regression: this panicked).
                    prop_assert!(at.npu < npus && at.offset < npu_bytes);
                    let address = at.npu as u128 * npu_bytes as u128 + at.offset as u128;
                    prop_assert!(address > usize::MAX as u128);
                    prop_assert_eq!(dims, vec![npus, npu_bytes]);
                }
                Err(e) => prop_assert!(false, "{at:?} on {npus} x {npu_bytes}: {e:?}"),
            }
            Ok(())
        },
    );
}

#[test]
fn bad_input_gives_the_documented_error() {
    let seen: [AtomicUsize; 4] = Default::default();
    let names = [
        "AddressOutOfRange",
        "Misaligned",
        "NpuOverflow",
        "ElementSize",
    ];
    let n = cases(1000);
    run(n, bad_placements(), |(_target, case)| {
        let (_, variant) = check_place(&case)?;
        if let Some(variant) = variant {
            let k = names.iter().position(|&v| v == variant).unwrap();
            seen[k].fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    });
    if n >= 200 {
        // Each documented error was met on its own (with its exact numbers) several times.
        for (name, count) in names.iter().zip(&seen) {
            let count = count.load(Ordering::Relaxed);
            assert!(count >= 5, "{name} met {count} times");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions: the smallest inputs these properties failed on, as named tests

/// `LocalAddress::join` multiplied unchecked: on a memory larger than `usize` an NPU and an
/// offset that both exist panicked ("attempt to multiply with overflow") in debug builds and
/// wrapped in release. Now `Overflow`.
#[test]
fn join_past_usize_is_an_error_not_a_panic() {
    let at = LocalAddress {
        npu: 1 << 40,
        offset: 0,
    };
    assert_eq!(
        at.join(1 << 41, 1 << 40),
        Err(LayoutError::Overflow {
            dims: vec![1 << 41, 1 << 40],
            element_size: None
        })
    );
}

/// An empty tensor whose free strides times the pack overflow was refused with `Overflow`
/// naming dims `[0, 0, 0, 0]`; a zero dim is an empty tensor whatever the rest.
#[test]
fn empty_tensor_with_overflowing_strides_is_placed() {
    let memory = LocalMemory::<ExampleChip>::new();
    let free = FreeStrides::<ExampleChip, FourN>::new(0, 1, [0, 0, 0, 1 << 62]);
    let t = memory.place::<i8, _>(free, [0, 0, 0, 0]).unwrap();
    assert_eq!(t.mapping().len(), 0);
    let compact = Compact::<ExampleChip>::new(0, 1);
    assert!(
        memory
            .place::<u8, _>(compact, [0, 1, usize::MAX, 2])
            .is_ok()
    );
}

/// With C near `usize::MAX` the last virtual channel saturated and `NpuOverflow` reported one
/// channel slot too few bytes.
#[test]
fn npu_overflow_numbers_for_absurd_channel_counts() {
    let memory = LocalMemory::<BM1684>::new();
    let compact = Compact::<BM1684>::new(1 << 20, 1); // NPU 2
    assert_eq!(
        memory
            .place::<u8, _>(compact, [1, usize::MAX, 1, 1])
            .unwrap_err(),
        LayoutError::NpuOverflow {
            npu: 0,
            needed: (1 << 58) + 1,
            available: 512 * 1024
        }
    );
}

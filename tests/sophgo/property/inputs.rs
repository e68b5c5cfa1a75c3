//! The random placements: chips, layouts, storage modes, element types, dims and start
//! addresses, drawn small so that overflows, wrapped channels and dummies are common.

use super::reference::reference;
use proptest::prelude::*;

/// The chips of the module, with their numbers as docs/sophgo.md gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChipId {
    Example,
    Bm1684,
    Bm1684x,
    Bm1688,
}

impl ChipId {
    /// (X NPUs, S bytes per NPU, EU bytes).
    pub(crate) fn numbers(self) -> (usize, usize, usize) {
        match self {
            ChipId::Example => (4, 1024, 128),
            ChipId::Bm1684 => (64, 512 * 1024, 128),
            ChipId::Bm1684x => (64, 256 * 1024, 64),
            ChipId::Bm1688 => (32, 128 * 1024, 16),
        }
    }
}

pub(crate) fn chip() -> impl Strategy<Value = ChipId> {
    // The toy chip most: its 1 KiB NPUs make overflows and wrapped channels common.
    prop_oneof![
        4 => Just(ChipId::Example),
        1 => Just(ChipId::Bm1684),
        1 => Just(ChipId::Bm1684x),
        1 => Just(ChipId::Bm1688),
    ]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    Compact,
    EuAligned,
    LineAligned,
    Free,
    Matrix,
}

impl Rule {
    pub(crate) const ALL: [Rule; 5] = [
        Rule::Compact,
        Rule::EuAligned,
        Rule::LineAligned,
        Rule::Free,
        Rule::Matrix,
    ];

    /// The start-address alignment of the table in docs/sophgo.md, before rounding up to the
    /// (packed) element.
    pub(crate) fn alignment(self, eu: usize) -> usize {
        match self {
            Rule::Compact => 4,
            Rule::EuAligned | Rule::LineAligned | Rule::Matrix => eu,
            Rule::Free => 1,
        }
    }

    pub(crate) fn uses_eu(self) -> bool {
        matches!(self, Rule::EuAligned | Rule::LineAligned | Rule::Matrix)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Normal,
    FourN,
    TwoN,
    TwoIC,
}

impl Mode {
    /// (pack, element bytes the mode holds, the `what` of its `ElementSize` error).
    pub(crate) fn info(self) -> (usize, Option<usize>, &'static str) {
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
pub(crate) enum Ty {
    U8,
    I8,
    U16,
    I16,
    F32,
    F64,
    V16,
}

impl Ty {
    pub(crate) const ALL: [Ty; 7] = [Ty::U8, Ty::I8, Ty::U16, Ty::I16, Ty::F32, Ty::F64, Ty::V16];

    pub(crate) fn bytes(self) -> usize {
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
pub(crate) const VALID_MODE_TYPES: [(Mode, Ty); 12] = [
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
pub(crate) struct FreeParams {
    pub(crate) order: [usize; 4],
    pub(crate) gaps: [usize; 4],
    pub(crate) filler: [usize; 4],
    pub(crate) raw: Option<[usize; 4]>,
}

/// One placement to try.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub(crate) chip: ChipId,
    pub(crate) rule: Rule,
    pub(crate) mode: Mode,
    pub(crate) ty: Ty,
    /// The layout's element size (normally `ty`'s).
    pub(crate) element_bytes: usize,
    pub(crate) address: usize,
    /// `[N, C, H, W]`, or `[N, M]` for a matrix.
    pub(crate) dims: Vec<usize>,
    pub(crate) free: FreeParams,
    /// Free strides, derived from `free`, the dims and the start NPU by `Case::finalize`.
    pub(crate) strides: [usize; 4],
    /// A matrix's channel width.
    pub(crate) width: usize,
    pub(crate) salt: u64,
}

impl Case {
    pub(crate) fn dims4(&self) -> [usize; 4] {
        self.dims.as_slice().try_into().expect("4-D dims")
    }

    pub(crate) fn dims2(&self) -> [usize; 2] {
        self.dims.as_slice().try_into().expect("matrix dims")
    }

    /// The alignment docs/sophgo.md demands of the start address.
    pub(crate) fn alignment(&self) -> usize {
        let (_, _, eu) = self.chip.numbers();
        let (pack, _, _) = self.mode.info();
        lcm(self.rule.alignment(eu), self.element_bytes * pack)
    }

    /// Computes the free strides: nested over the extents these dims have at this start NPU.
    pub(crate) fn finalize(&mut self) {
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
pub(crate) fn channels_per_npu(q: usize, c: usize, x: usize) -> usize {
    if c == 0 { 0 } else { (q + c).div_ceil(x) }
}

/// A small dim: 0 now and then, 1 often.
fn small(max: usize) -> impl Strategy<Value = usize> {
    prop_oneof![1 => Just(0usize), 8 => Just(1usize), 30 => 1..=max]
}

/// Everything random that a case is made of, before it is fitted to a chip.
#[derive(Clone, Debug)]
pub(crate) struct Raw {
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

pub(crate) fn raw() -> impl Strategy<Value = Raw> {
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
pub(crate) const MAX_ELEMENTS: usize = 2500;

/// A valid-looking case (the placement may still not fit: the reference says).
pub(crate) fn case_from(raw: &Raw) -> Case {
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
pub(crate) fn fitted(mut case: Case) -> Case {
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

pub(crate) fn placements() -> impl Strategy<Value = Case> {
    prop_oneof![
        1 => raw().prop_map(|r| case_from(&r)),
        2 => raw().prop_map(|r| fitted(case_from(&r))),
    ]
}

//! The reference: what `docs/sophgo.md` says `place` does, written out independently of the
//! library's placement code, in `u128` so that nothing wraps.

use super::inputs::{Case, Rule};
use tensor_layout::mappings::for_each_row_major_index;
use tensor_layout::prelude::*;

/// An error the reference expects, exactly or by variant.
#[derive(Clone, Debug)]
pub(crate) enum Fault {
    Exact(LayoutError),
    Invalid,
    Overflow,
}

impl Fault {
    pub(crate) fn matches(&self, e: &LayoutError) -> bool {
        match self {
            Fault::Exact(expected) => expected == e,
            Fault::Invalid => matches!(e, LayoutError::InvalidLayout { .. }),
            Fault::Overflow => matches!(e, LayoutError::Overflow { .. }),
        }
    }

    pub(crate) fn variant_matches(&self, e: &LayoutError) -> bool {
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
pub(crate) struct Geo {
    pub(crate) x: usize,
    pub(crate) s: usize,
    pub(crate) e: usize,
    pub(crate) pack: usize,
    pub(crate) q: usize,
    pub(crate) r: usize,
    /// The 4-D view: `[N, C, H, W]` (a matrix's `[N, ceil(M / W), 1, W]`).
    pub(crate) dims4: [usize; 4],
    /// Columns of the last channel (a matrix's); W otherwise.
    pub(crate) last_width: usize,
    /// `[N, C, H, W]` strides in packed elements.
    pub(crate) strides: [u128; 4],
    pub(crate) matrix_width: Option<usize>,
}

impl Geo {
    /// NPU and byte offset of element `[n, c, h, w]` of the 4-D view (the documentation's formula).
    pub(crate) fn location(&self, [n, c, h, w]: [usize; 4]) -> (usize, u128) {
        let v = self.q + c;
        let (npu, slot) = (v % self.x, v / self.x);
        let [sn, sc, sh, sw] = self.strides;
        let packed =
            (n / self.pack) as u128 * sn + slot as u128 * sc + h as u128 * sh + w as u128 * sw;
        let element = packed * self.pack as u128 + (n % self.pack) as u128;
        (npu, self.r as u128 + element * self.e as u128)
    }

    /// The 4-D index of a logical index.
    pub(crate) fn index4(&self, index: &[usize]) -> [usize; 4] {
        match self.matrix_width {
            Some(w) => [index[0], index[1] / w, 0, index[1] % w],
            None => index.try_into().unwrap(),
        }
    }

    /// Bytes the tensor needs on `npu` from the start offset: one past its last element
    /// (dummies included); `None` when the NPU holds none of it.
    pub(crate) fn needed(&self, npu: usize) -> Option<u128> {
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
    pub(crate) fn addresses(&self, dims: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let unified = |(npu, offset): (usize, u128)| npu * self.s + offset as usize;
        let mut elements = Vec::new();
        for_each_row_major_index(dims, |_, index| {
            elements.push(unified(self.location(self.index4(index))))
        });
        let mut dummies = Vec::new();
        let [n, c, h, w] = self.dims4;
        if !self.dims4.contains(&0) {
            for n in n..n.next_multiple_of(self.pack) {
                for_each_row_major_index(&[c, h, w], |_, chw| {
                    dummies.push(unified(self.location([n, chw[0], chw[1], chw[2]])))
                });
            }
        }
        (elements, dummies)
    }
}

/// What the reference expects of a case.
pub(crate) struct Expected {
    /// Every documented error the input deserves (the library reports one of them).
    pub(crate) faults: Vec<Fault>,
    /// The placement, when the address and element sizes allow computing it.
    pub(crate) geo: Option<Geo>,
}

/// What docs/sophgo.md says `place` does with `case`; `display` is the layout's `Display`
/// (the `what` of a type mismatch).
pub(crate) fn reference(case: &Case, display: &str) -> Expected {
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

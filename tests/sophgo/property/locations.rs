//! Every element's location against the reference: the documented formula, inside its NPU,
//! no two elements (dummies included) sharing a byte, the packed view of a storage mode
//! agreeing; and a placement the reference refuses fails with the documented error.

use super::inputs::{Case, MAX_ELEMENTS, placements};
use super::library::{Report, place};
use super::reference::{Geo, reference};
use super::{cases, run};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::sync::atomic::{AtomicUsize, Ordering};
use tensor_layout::mappings::RowMajorIndices;
use tensor_layout::prelude::*;

/// `place` against the reference: the same error, or the same locations (inside their NPUs,
/// no two sharing a byte, the packed view agreeing). Returns whether the case was placed, and
/// the documented error variant it got when it had exactly one fault.
pub(crate) fn check_place(case: &Case) -> Result<(bool, Option<&'static str>), TestCaseError> {
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
        for (k, [n, c, h, w]) in RowMajorIndices::new(case.dims4()).enumerate() {
            let expected = packed_at([n / pack, c, h, w]) + (n % pack) * e;
            prop_assert_eq!(
                elements[k],
                expected,
                "element {:?} in its pack",
                [n, c, h, w]
            );
        }
        let mut dummy_k = 0;
        if !case.dims4().contains(&0) {
            for n in n..n.next_multiple_of(pack) {
                for [c, h, w] in RowMajorIndices::new([c, h, w]) {
                    let expected = packed_at([n / pack, c, h, w]) + (n % pack) * e;
                    prop_assert_eq!(dummies[dummy_k], expected, "dummy {:?}", [n, c, h, w]);
                    dummy_k += 1;
                }
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
    for [n, c, h, w] in RowMajorIndices::new([n_padded, c, h, w]) {
        let is_matrix_tail =
            geo.matrix_width.is_some() && c == geo.dims4[1] - 1 && w >= geo.last_width;
        if is_matrix_tail {
            continue;
        }
        let (p, offset) = geo.location([n, c, h, w]);
        end[p] = end[p].max(offset + geo.e as u128 - geo.r as u128);
    }
    let available = (geo.s - geo.r) as u128;
    let first = end.iter().position(|&b| b > available);
    prop_assert_eq!(first, Some(npu), "{:?}: ends {:?}", case.dims, end);
    prop_assert_eq!(end[npu], needed as u128);
    Ok(())
}

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

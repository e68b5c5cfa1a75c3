//! Local layouts chosen at run time (`DynLocalLayout`: layout, chip and storage mode by name):
//! the same placement and the same offsets as the typed layouts, the same errors, and the
//! per-NPU counts (`npu_element_count`, `npu_dummy_count`) against a count of every element.

use crate::helpers::documented_location;
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    BM1688, ChipName, Compact, DynLocalLayout, EuAligned, ExampleChip, FourN, FreeStrides,
    LineAligned, LocalKind, LocalMemory, Matrix, StorageModeName, TwoIC, TwoN,
};
use tensor_layout::{mappings::AnyMapping, mappings::RowMajorIndices};

/// Every index of `dims` at the same offset in both mappings, and the same storage.
fn assert_same(dynamic: &dyn AnyMapping, typed: &dyn AnyMapping) {
    assert_eq!(dynamic.dims(), typed.dims());
    assert_eq!(dynamic.storage_len(), typed.storage_len());
    assert_eq!(dynamic.layout_text(), typed.layout_text());
    let dims: [usize; 4] = typed.dims().try_into().unwrap();
    for index in RowMajorIndices::new(dims) {
        assert_eq!(dynamic.offset(&index), typed.offset(&index), "{index:?}");
    }
}

#[test]
fn names_read_back_the_typed_layouts() {
    let dims = [6, 5, 4, 5];
    let dynamic = |kind, mode, bytes, dims: [usize; 4]| {
        DynLocalLayout::new(kind, ChipName::ExampleChip, 2048, bytes)
            .with_mode(mode)
            .bind(&dims)
            .unwrap()
    };
    let four_n = dynamic(LocalKind::EuAligned, StorageModeName::FourN, 1, dims);
    let typed = Mapping::with_layout(EuAligned::<ExampleChip, FourN>::new(2048, 1), dims).unwrap();
    assert_same(four_n.mapping(), &typed);
    assert_eq!(*four_n.local_geometry(), *typed.geometry());
    let two_n = dynamic(LocalKind::Compact, StorageModeName::TwoN, 2, dims);
    let typed = Mapping::with_layout(Compact::<ExampleChip, TwoN>::new(2048, 2), dims).unwrap();
    assert_same(two_n.mapping(), &typed);
    let weights = [3, 6, 2, 3];
    let two_ic = dynamic(LocalKind::LineAligned, StorageModeName::TwoIC, 4, weights);
    let typed =
        Mapping::with_layout(LineAligned::<ExampleChip, TwoIC>::new(2048, 4), weights).unwrap();
    assert_same(two_ic.mapping(), &typed);
    assert_eq!(two_ic.mapping().axis_word().as_str(), "IOHW");

    let free = DynLocalLayout::new(LocalKind::FreeStrides, ChipName::BM1688, 64, 4)
        .with_strides([120, 56, 16, 2])
        .bind(&[2, 5, 3, 4])
        .unwrap();
    let typed = Mapping::with_layout(
        FreeStrides::<BM1688>::new(64, 4, [120, 56, 16, 2]),
        [2, 5, 3, 4],
    )
    .unwrap();
    assert_same(free.mapping(), &typed);
    assert_eq!(free.alignment(), typed.layout().alignment());
}

#[test]
fn a_matrix_by_name_is_the_typed_matrix() {
    let m = DynLocalLayout::new(LocalKind::Matrix, ChipName::ExampleChip, 0, 4)
        .with_width(15)
        .bind(&[2, 40])
        .unwrap();
    let typed = LocalMemory::<ExampleChip>::new()
        .place::<f32, _>(Matrix::new(0, 4, 15), [2, 40])
        .unwrap();
    for index in RowMajorIndices::new([2, 40]) {
        assert_eq!(m.location(&index).unwrap(), typed.location(index).unwrap());
    }
    assert_eq!(*m.local_geometry(), typed.local_geometry());
    assert_eq!(m.alignment(), 128);
}

#[test]
fn locations_follow_the_documented_formula() {
    // The documentation's (2, 3, 4, 5) fp32 tensor, aligned, at NPU 2.
    let m = DynLocalLayout::new(LocalKind::EuAligned, ChipName::ExampleChip, 2048, 4)
        .bind(&[2, 3, 4, 5])
        .unwrap();
    for index in RowMajorIndices::new([2, 3, 4, 5]) {
        assert_eq!(
            m.location(&index).unwrap(),
            documented_location(2, 0, [64, 32, 5, 1], 4, 1, index)
        );
    }
    assert!(m.location(&[2, 0, 0, 0]).is_err());
    assert!(m.location(&[0, 0, 0]).is_err());
}

#[test]
fn bad_names_and_parameters_are_errors_naming_what_exists() {
    assert_eq!(
        ChipName::parse("BM1690").unwrap_err(),
        LayoutError::UnknownName {
            kind: "Sophgo chip".into(),
            found: "BM1690".into(),
            expected: "BM1684, BM1684X, BM1688 or ExampleChip".into(),
        }
    );
    assert!(StorageModeName::parse("3N").is_err());
    assert!(LocalKind::parse("sophgo::Continuous").is_err());
    let base = DynLocalLayout::new(LocalKind::FreeStrides, ChipName::ExampleChip, 0, 4);
    let invalid = |layout: DynLocalLayout, dims: &[usize]| match layout.bind(dims) {
        Err(LayoutError::InvalidLayout { reason, .. }) => reason,
        other => panic!("{layout}: {other:?}"),
    };
    assert!(invalid(base, &[1, 1, 1, 1]).contains("need the N, C, H, W strides"));
    let compact = DynLocalLayout {
        kind: LocalKind::Compact,
        ..base
    };
    assert!(invalid(compact.with_strides([1, 1, 1, 1]), &[1, 1, 1, 1]).contains("only free"));
    assert!(invalid(compact.with_width(2), &[1, 1, 1, 1]).contains("only a matrix"));
    let matrix = DynLocalLayout {
        kind: LocalKind::Matrix,
        ..base
    };
    assert!(invalid(matrix, &[1, 1]).contains("needs its channel width"));
    let four_n = matrix.with_width(1).with_mode(StorageModeName::FourN);
    assert!(invalid(four_n, &[1, 1]).contains("no storage mode"));
    assert_eq!(
        compact.bind(&[1, 1, 1]).unwrap_err(),
        LayoutError::Rank {
            expected: 4,
            found: 3
        }
    );
    // The placement's own errors come through unchanged.
    let four_n_f32 = DynLocalLayout::new(LocalKind::EuAligned, ChipName::ExampleChip, 0, 4)
        .with_mode(StorageModeName::FourN);
    assert!(matches!(
        four_n_f32.bind(&[4, 1, 1, 1]),
        Err(LayoutError::ElementSize { expected: 1, .. })
    ));
    let far = DynLocalLayout::new(LocalKind::Compact, ChipName::ExampleChip, 4096, 4);
    assert!(matches!(
        far.bind(&[1, 1, 1, 1]),
        Err(LayoutError::AddressOutOfRange { .. })
    ));
}

/// Counts, by visiting every index of the padded dims, what each NPU holds: elements and
/// dummies.
fn counted(m: &dyn AnyMapping, npus: usize, npu_elements: usize) -> Vec<(usize, usize)> {
    let mut counts = vec![(0, 0); npus];
    let dims = m.dims().to_vec();
    for offset in 0..m.storage_len() {
        if let Some(index) = m.padded_index_of(offset) {
            let npu = offset / npu_elements;
            if index.iter().zip(&dims).all(|(i, d)| i < d) {
                counts[npu].0 += 1;
            } else if index[1..].iter().zip(&dims[1..]).all(|(i, d)| i < d) {
                counts[npu].1 += 1; // past N only: a dummy
            }
        }
    }
    counts
}

#[test]
fn per_npu_counts_match_a_count_of_every_slot() {
    for (kind, mode, bytes, address, dims) in [
        (
            LocalKind::EuAligned,
            StorageModeName::FourN,
            1,
            0,
            vec![6, 5, 4, 5],
        ),
        (
            LocalKind::Compact,
            StorageModeName::TwoN,
            2,
            3 * 1024,
            vec![3, 6, 2, 3],
        ),
        (
            LocalKind::Compact,
            StorageModeName::Normal,
            4,
            1024 + 4,
            vec![2, 7, 1, 3],
        ),
        (
            LocalKind::Matrix,
            StorageModeName::Normal,
            4,
            0,
            vec![2, 40],
        ),
    ] {
        let mut layout =
            DynLocalLayout::new(kind, ChipName::ExampleChip, address, bytes).with_mode(mode);
        if kind == LocalKind::Matrix {
            layout = layout.with_width(15);
        }
        let m = layout.bind(&dims).unwrap();
        let g = m.local_geometry();
        let expected = counted(m.mapping(), 4, 1024 / bytes);
        let found: Vec<(usize, usize)> = (0..4)
            .map(|npu| (g.npu_element_count(npu), g.npu_dummy_count(npu)))
            .collect();
        assert_eq!(found, expected, "{layout}");
        let total: usize = found.iter().map(|c| c.0).sum();
        assert_eq!(total, dims.iter().product::<usize>(), "{layout}");
    }
}

/// The example of docs/sophgo.md ("Chosen at run time"): the documentation's 4N tensor by name.
#[test]
fn the_documented_4n_tensor_by_name() -> Result<(), LayoutError> {
    let layout = DynLocalLayout::new(LocalKind::EuAligned, ChipName::parse("ExampleChip")?, 0, 1)
        .with_mode(StorageModeName::parse("4N")?);
    let m = layout.bind(&[6, 5, 4, 5])?;
    assert_eq!(m.local_geometry().packed_dims(), [2, 5, 4, 5]);
    assert_eq!(
        m.location(&[5, 4, 3, 4])?,
        tensor_layout::sophgo::LocalAddress {
            npu: 0,
            offset: 461
        }
    );
    Ok(())
}

//! Placements that cannot be: each error names its numbers (address out of range, misaligned
//! start, NPU overflow, element size, overlapping strides, matrix width), absurd dims are errors
//! and not panics, and an empty tensor is placed anywhere the address is valid.

use crate::helpers::{S, X};
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    BM1684, Compact, EuAligned, ExampleChip, FourN, FreeStrides, LineAligned, LocalMemory, Matrix,
    TwoIC, TwoN,
};

#[test]
fn an_address_past_the_memory_is_out_of_range() {
    let memory = LocalMemory::<ExampleChip>::new();
    let err = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(4096, 4), [1, 1, 1, 1])
        .unwrap_err();
    assert_eq!(
        err,
        LayoutError::AddressOutOfRange {
            address: 4096,
            memory_bytes: 4096
        }
    );
}

/// The aligned layouts want the EU width, compact 4 bytes, free strides the element size, a
/// storage mode its packed element.
#[test]
fn a_misaligned_start_names_the_alignment_the_layout_demands() {
    let memory = LocalMemory::<ExampleChip>::new();
    let misaligned = |err: LayoutError| match err {
        LayoutError::Misaligned { address, alignment } => (address, alignment),
        other => panic!("expected Misaligned, got {other:?}"),
    };
    let e = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(1028, 4), [2, 3, 4, 5])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "local-memory address 1028 is not a multiple of 128 bytes, as the layout demands"
    );
    assert_eq!(misaligned(e), (1028, 128));
    let e = memory
        .place::<f32, _>(LineAligned::<ExampleChip>::new(64, 4), [1, 1, 1, 1])
        .unwrap_err();
    assert_eq!(misaligned(e), (64, 128));
    let e = memory
        .place::<f32, _>(Matrix::<ExampleChip>::new(4, 4, 8), [2, 40])
        .unwrap_err();
    assert_eq!(misaligned(e), (4, 128));
    let e = memory
        .place::<u8, _>(Compact::<ExampleChip>::new(2, 1), [1, 1, 1, 1])
        .unwrap_err();
    assert_eq!(misaligned(e), (2, 4));
    let e = memory
        .place::<u16, _>(
            FreeStrides::<ExampleChip>::new(3, 2, [1, 1, 1, 1]),
            [1, 1, 1, 1],
        )
        .unwrap_err();
    assert_eq!(misaligned(e), (3, 2));
    let e = memory
        .place::<f32, _>(
            FreeStrides::<ExampleChip, TwoIC>::new(4, 4, [1, 1, 1, 1]),
            [1, 1, 1, 1],
        )
        .unwrap_err();
    assert_eq!(misaligned(e), (4, 8)); // an fp32x2 is 8 bytes
    assert!(
        memory
            .place::<u16, _>(
                FreeStrides::<ExampleChip>::new(2, 2, [1, 1, 1, 1]),
                [1, 1, 1, 1]
            )
            .is_ok()
    );
}

#[test]
fn a_tensor_that_does_not_fit_names_the_npu_and_the_bytes() {
    let memory = LocalMemory::<ExampleChip>::new();
    // (2, 3, 30, 30) fp32 aligned needs (928 + 900) * 4 bytes on NPU 0.
    let e = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(0, 4), [2, 3, 30, 30])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::NpuOverflow {
            npu: 0,
            needed: (928 + 900) * 4,
            available: 1024
        }
    );
    assert_eq!(
        e.to_string(),
        "the tensor needs 7312 bytes on NPU 0 from its start offset, but only 1024 bytes are left there"
    );
    // The start offset counts: 10 fp32 from offset 1000 need 40 bytes, 24 are left.
    let e = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(1000, 4), [1, 1, 1, 10])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::NpuOverflow {
            npu: 0,
            needed: 40,
            available: 24
        }
    );
    // The NPU named is the one that overflows, not the start NPU: 6 channels from NPU 3 give
    // NPU 0 the third slot (channel 5), 300 + 100 - 100 = 300 fp32 in.
    let e = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(3 * S, 4), [1, 6, 1, 100])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::NpuOverflow {
            npu: 0,
            needed: 300 * 4,
            available: 1024
        }
    );
    // The same tensor fits from NPU 0 (two slots).
    assert!(
        memory
            .place::<f32, _>(Compact::<ExampleChip>::new(0, 4), [1, 6, 1, 100])
            .is_ok()
    );
    // Dummies count: 4N (5, 1, 1, 255) int8 compact needs 2 packs of 255 int8x4 = 2040 bytes.
    let e = memory
        .place::<i8, _>(Compact::<ExampleChip, FourN>::new(0, 1), [5, 1, 1, 255])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::NpuOverflow {
            npu: 0,
            needed: 2040,
            available: 1024
        }
    );
    // Exactly full is fine: 256 fp32 on one NPU.
    assert!(
        memory
            .place::<f32, _>(Compact::<ExampleChip>::new(0, 4), [1, 1, 1, 256])
            .is_ok()
    );
    assert!(
        memory
            .place::<f32, _>(Compact::<ExampleChip>::new(4, 4), [1, 1, 1, 256])
            .is_err()
    );
}

#[test]
fn element_size_against_the_storage_mode_and_the_element_type() {
    let memory = LocalMemory::<ExampleChip>::new();
    let e = memory
        .place::<f32, _>(EuAligned::<ExampleChip, FourN>::new(0, 4), [4, 1, 1, 1])
        .unwrap_err();
    assert_eq!(
        e,
        LayoutError::ElementSize {
            what: "storage mode 4N (int8 or uint8)".into(),
            expected: 1,
            found: 4
        }
    );
    assert_eq!(
        e.to_string(),
        "storage mode 4N (int8 or uint8) holds 1-byte elements, found 4-byte elements"
    );
    let e = memory
        .place::<i8, _>(EuAligned::<ExampleChip, TwoN>::new(0, 1), [4, 1, 1, 1])
        .unwrap_err();
    assert!(matches!(
        e,
        LayoutError::ElementSize {
            expected: 2,
            found: 1,
            ..
        }
    ));
    let e = memory
        .place::<f64, _>(EuAligned::<ExampleChip, TwoIC>::new(0, 8), [4, 1, 1, 1])
        .unwrap_err();
    assert!(matches!(
        e,
        LayoutError::ElementSize {
            expected: 4,
            found: 8,
            ..
        }
    ));
    let e = memory
        .place::<f32, _>(Compact::<ExampleChip>::new(0, 2), [1, 1, 1, 1])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Compact<Chip<4, 1024, 128>> at address 0, 2-byte elements holds 2-byte elements, found 4-byte elements"
    );
    let t = memory
        .place::<i8, _>(Compact::<ExampleChip, FourN>::new(0, 1), [4, 1, 1, 1])
        .unwrap();
    assert!(matches!(
        t.packed::<i16>().unwrap_err(),
        LayoutError::ElementSize {
            expected: 4,
            found: 2,
            ..
        }
    ));
}

#[test]
fn overlapping_strides_and_matrix_widths_outside_1_to_m_are_invalid() {
    let memory = LocalMemory::<ExampleChip>::new();
    // Free strides that let two elements share a slot; matrix widths outside 1..=M.
    let e = memory
        .place::<f32, _>(
            FreeStrides::<ExampleChip>::new(0, 4, [120, 56, 3, 1]),
            [2, 5, 3, 4],
        )
        .unwrap_err();
    assert!(matches!(e, LayoutError::InvalidLayout { .. }), "{e}");
    assert!(e.to_string().contains("share a slot"), "{e}");
    for w in [0, 41] {
        let e = memory
            .place::<f32, _>(Matrix::<ExampleChip>::new(0, 4, w), [2, 40])
            .unwrap_err();
        assert!(e.to_string().contains("width must lie in 1..=40"), "{e}");
    }
    // The checks are the mapping's: no Mapping exists for a tensor that cannot be placed.
    assert!(Mapping::with_layout(EuAligned::<ExampleChip>::new(1028, 4), [1, 1, 1, 1]).is_err());
}

#[test]
fn absurd_dims_are_errors_not_panics() {
    let memory = LocalMemory::<ExampleChip>::new();
    for q in 0..X {
        for dims in [
            [1, usize::MAX, 1, 1],
            [usize::MAX, 1, 1, 1],
            [1, 1, usize::MAX, 2],
            [2, usize::MAX / 2, 3, 1],
            [usize::MAX, usize::MAX, usize::MAX, usize::MAX],
        ] {
            assert!(
                memory
                    .place::<u8, _>(Compact::<ExampleChip>::new(q * S, 1), dims)
                    .is_err()
            );
            assert!(
                memory
                    .place::<i8, _>(EuAligned::<ExampleChip, FourN>::new(q * S, 1), dims)
                    .is_err()
            );
            assert!(
                memory
                    .place::<u8, _>(
                        FreeStrides::<ExampleChip>::new(q * S, 1, [usize::MAX, 1, 1, 1]),
                        dims
                    )
                    .is_err()
            );
        }
        assert!(
            memory
                .place::<u8, _>(Matrix::<ExampleChip>::new(q * S, 1, 1), [2, usize::MAX])
                .is_err()
        );
    }
    // Empty tensors are fine anywhere the address is valid.
    let t = memory
        .place::<f32, _>(EuAligned::<ExampleChip>::new(3 * S, 4), [0, 5, 4, 5])
        .unwrap();
    assert_eq!(t.npu_span(3), None);
    assert_eq!(t.address_of([0, 0, 0, 0]).ok(), None);
}

/// A zero dim makes an empty tensor whatever the rest: free strides whose product with the pack
/// overflows, or an absurd height, do not make its placement fail.
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

/// With C near `usize::MAX`, `NpuOverflow` still names the exact bytes needed: the last
/// virtual channel is computed without saturating, so no channel slot goes missing.
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

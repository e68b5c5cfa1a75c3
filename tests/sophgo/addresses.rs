//! Addresses in local memory (the TPU-Kernel documentation's "Address of Tensor in Local
//! Memory"): A = Q * S + R, the four addresses of its figure, the chip presets, and split/join
//! as a property over every chip.

use crate::helpers::{S, X};
use crate::property::inputs::{ChipId, chip};
use crate::property::{cases, run};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    BM1684, BM1684X, BM1688, Chip, ChipSpec, EuAligned, ExampleChip, LocalAddress, LocalMemory,
};

#[test]
fn addresses_a_b_c_d_of_the_documentation() {
    // A = Q * S + R with X = 4, S = 1024; each block of the documentation's figure is 4 bytes.
    let cases = [
        (340, 0, 340, 85),
        (1472, 1, 448, 112),
        (2300, 2, 252, 63),
        (3088, 3, 16, 4),
    ];
    for (address, npu, offset, block) in cases {
        let at = ExampleChip::split(address).unwrap();
        assert_eq!(at, LocalAddress { npu, offset }, "address {address}");
        assert_eq!(at.offset / 4, block);
        assert_eq!(ExampleChip::join(npu, offset).unwrap(), address);
    }
    // Valid addresses are [0, X * S - 1].
    assert_eq!(
        ExampleChip::split(X * S - 1).unwrap(),
        LocalAddress {
            npu: 3,
            offset: 1023
        }
    );
    let err = ExampleChip::split(X * S).unwrap_err();
    assert_eq!(
        err,
        LayoutError::AddressOutOfRange {
            address: 4096,
            memory_bytes: 4096
        }
    );
    assert_eq!(
        err.to_string(),
        "local-memory address 4096 is out of range: the memory has 4096 bytes, so addresses lie below 4096"
    );
    assert!(ExampleChip::join(4, 0).is_err());
    assert!(ExampleChip::join(0, 1024).is_err());
}

#[test]
fn chip_presets() {
    assert_eq!(
        (BM1684::NPUS, BM1684::NPU_BYTES, BM1684::EU_BYTES),
        (64, 512 * 1024, 128)
    );
    assert_eq!(
        (BM1684X::NPUS, BM1684X::NPU_BYTES, BM1684X::EU_BYTES),
        (64, 256 * 1024, 64)
    );
    assert_eq!(
        (BM1688::NPUS, BM1688::NPU_BYTES, BM1688::EU_BYTES),
        (32, 128 * 1024, 16)
    );
    assert_eq!(
        (
            ExampleChip::NPUS,
            ExampleChip::NPU_BYTES,
            ExampleChip::EU_BYTES
        ),
        (4, 1024, 128)
    );
    // The EU width sets the aligned C stride: 9 fp32 rounded up to 32, 16 and 4 elements.
    fn c_stride<C: ChipSpec>() -> usize {
        let layout = EuAligned::<C>::new(0, 4);
        Mapping::with_layout(layout, [1, 3, 3, 3])
            .unwrap()
            .geometry()
            .strides()[1]
    }
    assert_eq!(c_stride::<BM1684>(), 32);
    assert_eq!(c_stride::<BM1684X>(), 16);
    assert_eq!(c_stride::<BM1688>(), 12);
    // 64 NPUs: channel 63 of a tensor at NPU 1 wraps to NPU 0, slot 1.
    let memory = LocalMemory::<BM1684>::new();
    let t = memory
        .place::<f32, _>(EuAligned::<BM1684>::new(512 * 1024, 4), [1, 64, 3, 3])
        .unwrap();
    assert_eq!(
        t.location([0, 63, 0, 0]).unwrap(),
        LocalAddress {
            npu: 0,
            offset: 32 * 4
        }
    );
    assert_eq!(BM1684::channels_per_npu(1, 64), 2);
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
                    // Both exist, but the address lies past usize: an error, not a panic.
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

/// On a memory larger than `usize`, an NPU and an offset that both exist may still lie past
/// `usize`: joining them is an `Overflow` error, never a panic or a wrapped address.
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

//! Bad input on purpose: each case aims at one documented error (address out of range,
//! misaligned, NPU overflow, element size, overlapping strides, matrix width, absurd dims), and
//! the library must answer with the error the reference expects, never a panic.

use super::inputs::{Case, FreeParams, Mode, Rule, Ty, case_from, fitted, raw};
use super::locations::check_place;
use super::{cases, run};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

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

//! Store then load against the reference: a random tensor stored into a placed case lies byte
//! by byte where the reference puts it, the dummies hold zero, no other byte changes, and three
//! ways of reading it back give the tensor stored; a store or load of other dims changes nothing.

use super::inputs::{Case, Mode, Rule, Ty, case_from, fitted, raw};
use super::library::{Elem, FILL, PackedView, Pooled, pristine, value};
use super::reference::{Geo, reference};
use super::{cases, run};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use tensor_layout::prelude::*;
use tensor_layout::sophgo::{
    Compact, EuAligned, FourN, FreeStrides, LineAligned, LocalLayout, Matrix, Normal, TwoIC, TwoN,
};

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

impl Moved {
    /// After `case`'s tensor was stored (`stored`, row-major) and loaded back (`loads`): the
    /// memory `bytes` taken back at the reference's addresses (see [`take_back`]).
    fn taken_back(
        bytes: &mut [u8],
        case: &Case,
        stored: Vec<u8>,
        loads: Vec<(&'static str, Vec<u8>)>,
    ) -> Result<Self, TestCaseError> {
        let geo = reference(case, "").geo.unwrap();
        let memory = take_back(bytes, &geo, &case.dims, case.element_bytes)?;
        Ok(Moved {
            stored,
            memory,
            loads,
        })
    }
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

/// A store or load of other dims: refused as a shape mismatch.
fn check_refused(result: Result<(), LayoutError>) -> Result<(), TestCaseError> {
    prop_assert!(
        matches!(result, Err(LayoutError::ShapeMismatch { .. })),
        "{result:?}"
    );
    Ok(())
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
    let row_major = tensor_layout::mappings::row_major_strides(&dims);
    let at = |i: [usize; 4]| i.iter().zip(&row_major).map(|(a, b)| a * b).sum::<usize>();
    let src = Tensor::<T, Plain<L::Names>>::from_fn(dims, |i| value(case.salt, at(i)));
    <L::Chip as Pooled>::with_memory(|memory| {
        let t = memory.place::<T, L>(layout, dims).map_err(fail)?;
        // Other dims: refused, nothing written, the destination untouched.
        let mut other = dims;
        other[0] += 1;
        let wrong = Tensor::<T, Plain<L::Names>>::from_fn(other, |_| value(case.salt, 1));
        check_refused(memory.store(&wrong, &t))?;
        check_untouched(memory.bytes(), "a refused store")?;
        let mut wrong_dst =
            Tensor::<T, ChannelsLast<L::Names>>::from_fn(other, |_| value(case.salt, 2));
        let before = row_major_bytes(wrong_dst.as_raw().to_vec());
        check_refused(memory.load(&t, &mut wrong_dst))?;
        prop_assert!(
            row_major_bytes(wrong_dst.as_raw().to_vec()) == before,
            "a refused load wrote"
        );

        memory.store(&src, &t).map_err(fail)?;
        let view = row_major_bytes(memory.view(&t).to_row_major());
        let nchw: Tensor<T, Plain<L::Names>> = memory.load_new(&t).map_err(fail)?;
        let mut nhwc = Tensor::<T, ChannelsLast<L::Names>>::zeros(dims);
        memory.load(&t, &mut nhwc).map_err(fail)?;
        let loads = vec![
            ("view", view),
            ("load_new (nchw)", row_major_bytes(nchw.to_row_major())),
            ("load (nhwc)", row_major_bytes(nhwc.to_row_major())),
        ];
        let stored = row_major_bytes(src.to_row_major());
        Moved::taken_back(memory.bytes_mut(), case, stored, loads)
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
    let src = Tensor::<T, RowMajor2>::from_fn(dims, |[n, m]| value(case.salt, n * dims[1] + m));
    C::with_memory(|memory| {
        let t = memory.place::<T, _>(layout, dims).map_err(fail)?;
        let other = [dims[0] + 1, dims[1]];
        let wrong = Tensor::<T, RowMajor2>::from_fn(other, |_| value(case.salt, 1));
        check_refused(memory.store(&wrong, &t))?;
        check_untouched(memory.bytes(), "a refused store")?;

        memory.store(&src, &t).map_err(fail)?;
        let view = row_major_bytes(memory.view(&t).to_row_major());
        let rows: Tensor<T, RowMajor2> = memory.load_new(&t).map_err(fail)?;
        let mut columns = Tensor::<T, ColumnMajor2>::zeros(dims);
        memory.load(&t, &mut columns).map_err(fail)?;
        let loads = vec![
            ("view", view),
            ("load_new (row-major)", row_major_bytes(rows.to_row_major())),
            (
                "load (column-major)",
                row_major_bytes(columns.to_row_major()),
            ),
        ];
        let stored = row_major_bytes(src.to_row_major());
        Moved::taken_back(memory.bytes_mut(), case, stored, loads)
    })
}

fn fail(e: LayoutError) -> TestCaseError {
    TestCaseError::fail(format!("{e}"))
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

//! Property tests over random valid chunk lists and random dims (zeros and ones included).
//!
//! `PROPTEST_CASES=N` sets the number of cases per property (default 10,000 for the list
//! properties, as CI runs them).

mod common;
use common::{Reference, chunk_list, storage_slots};
use proptest::prelude::*;
use std::collections::HashSet;
use tensor_layout::prelude::*;
use tensor_layout::{
    DynLayout, DynTensor, axes::RelayoutFrom, layouts::ChunkEntry, mappings::RowMajorIndices,
    mappings::for_each_row_major_index,
};

fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Dims for a list, each 0 to 9, kept to at most 4096 storage slots.
fn list_and_dims() -> impl Strategy<Value = (usize, Vec<ChunkEntry>, Vec<usize>)> {
    chunk_list()
        .prop_flat_map(|(rank, entries)| {
            (
                Just(rank),
                Just(entries),
                prop::collection::vec(0usize..=9, rank),
            )
        })
        .prop_filter("storage small enough to enumerate", |(_, entries, dims)| {
            storage_slots(entries, dims).is_some_and(|s| s <= 4096)
        })
}

fn all_indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![];
    for_each_row_major_index(dims, |_, index| out.push(index.to_vec()));
    out
}

proptest! {
    #![proptest_config(cases(10_000))]

    /// Offsets are a bijection from logical indices onto the non-padding slots, within
    /// storage_len; padding slots number storage_len - len; the chunk-list formula agrees.
    #[test]
    fn offsets_are_a_bijection_onto_the_data_slots((rank, entries, dims) in list_and_dims()) {
        let layout = DynLayout::new(rank, &entries).unwrap();
        let m = layout.bind(&dims).unwrap();
        let pairs: Vec<(usize, usize)> = entries.iter().map(|e| (e.dim, e.size)).collect();
        let reference = Reference::new(&pairs, &dims);
        prop_assert_eq!(m.storage_len(), reference.storage_len);
        prop_assert_eq!(m.padded_dims(), reference.padded.clone());
        let mut used = HashSet::new();
        let indices = all_indices(&dims);
        for index in &indices {
            let offset = m.offset(index);
            prop_assert_eq!(offset, reference.offset(index));
            prop_assert!(offset < m.storage_len());
            prop_assert!(used.insert(offset));
        }
        prop_assert_eq!(m.storage_len() - used.len(), m.storage_len() - indices.len());
        prop_assert_eq!(DynLayout::parse(&layout.to_string()).unwrap(), layout);
    }

    /// A run-time tensor round-trips its row-major data, keeps padding zero, and converts to
    /// itself through a layout equal as a function without changing a byte.
    #[test]
    fn dyn_tensors_round_trip((rank, entries, dims) in list_and_dims()) {
        let layout = DynLayout::new(rank, &entries).unwrap();
        let len: usize = dims.iter().product();
        let data: Vec<u32> = (1..=len as u32).collect();
        let t = DynTensor::from_row_major(layout.clone(), &dims, &data).unwrap();
        prop_assert_eq!(t.to_row_major(), data);
        let nonzero = t.as_raw().iter().filter(|&&v| v != 0).count();
        prop_assert_eq!(nonzero, len); // every padding slot is zero
        // The same list with a block of 1 appended on dimension 0 is the same function.
        let mut longer = entries.clone();
        longer.push(ChunkEntry { dim: 0, size: 1 });
        if longer.len() <= 24 {
            let same = DynLayout::new(rank, &longer).unwrap().bind(&dims).unwrap();
            prop_assert_eq!(same.storage_len(), t.mapping().storage_len());
            prop_assert_eq!(same.axes().canonical(), t.mapping().axes().canonical());
        }
    }
}

/// Relayout between typed catalog layouts on random dims: A -> B -> A is the identity and
/// padding stays zero, and the typed and run-time mappings agree.
fn relayout_round_trip<A, B>(dims: [usize; 4]) -> Result<(), TestCaseError>
where
    A: Layout<Index = [usize; 4]> + RelayoutFrom<B> + Default,
    B: Layout<Index = [usize; 4]> + RelayoutFrom<A> + Default,
{
    let a = Tensor::<u16, A>::from_fn(dims, |[n, c, h, w]| {
        (1 + n * 1000 + c * 100 + h * 10 + w) as u16
    });
    let b = a.relayout::<B>();
    let back = b.relayout::<A>();
    prop_assert_eq!(back.as_raw(), a.as_raw());
    let mut padding = vec![false; b.storage_len()];
    b.mapping()
        .for_each_padding(|range| padding[range].fill(true));
    for (&is_padding, &v) in padding.iter().zip(b.as_raw()) {
        prop_assert_eq!(is_padding, v == 0);
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(500))]

    #[test]
    fn relayout_between_catalog_layouts_is_invertible(dims in prop::array::uniform4(0usize..=17)) {
        relayout_round_trip::<htp::R4FlatMemoryLayout, htp::R4CroutonLayout>(dims)?;
        // Chunk lists of activations, named as weights, against the weight layouts.
        relayout_round_trip::<chunked_layout![HWIO; 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2], htp::R4ConvWeightLayout>(dims)?;
        relayout_round_trip::<chunked_layout![OIHW; 0,0, 1,0, 2,0, 3,0, 1,8], onednn::OIhw4i16o4i>(dims)?;
        // Across systems, by axis name.
        relayout_round_trip::<htp::R4CroutonLayout, onednn::nChw32c>(dims)?;
        relayout_round_trip::<htp::R4ConvWeightLayout, onednn::OIhw16i16o>(dims)?;
        relayout_round_trip::<megengine::CHWN4, onednn::NChw16n16c>(dims)?;
    }

    #[test]
    fn typed_and_dyn_mappings_agree(dims in prop::array::uniform4(0usize..=12)) {
        let typed = Mapping::<htp::R4Crouton4x1Layout>::new(dims).unwrap();
        let dynamic = htp::R4Crouton4x1Layout::default().to_dyn().bind(&dims).unwrap();
        prop_assert!(dynamic.same_function_as(&typed));
        for index in RowMajorIndices::new(dims) {
            prop_assert_eq!(dynamic.offset(&index), typed.offset(index));
        }
    }
}

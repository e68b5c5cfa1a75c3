//! The run-time mapping and the typed one answer alike through the one face both implement
//! (`AnyMapping`), with the same method names and meanings: `offset` expects an index within
//! the dims, `checked_offset` and `try_offset` say when it is not; and both describe themselves
//! to oneDNN with the same blocking descriptor.

use tensor_layout::prelude::*;
use tensor_layout::{
    DynLayout, interop::DynBlockingDesc, mappings::AnyMapping, mappings::RowMajorIndices,
};

/// Every query of the face, slot by slot and index by index, on two mappings that must agree.
fn same_answers(typed: &dyn AnyMapping, dynamic: &dyn AnyMapping) {
    let what = typed.layout_text();
    assert_eq!(typed.layout_text(), dynamic.layout_text());
    assert_eq!(typed.axis_word(), dynamic.axis_word(), "{what}");
    assert_eq!(typed.dims(), dynamic.dims(), "{what}");
    assert_eq!(typed.padded_dims(), dynamic.padded_dims(), "{what}");
    assert_eq!(typed.storage_len(), dynamic.storage_len(), "{what}");
    assert_eq!(typed.chunk_volume(), dynamic.chunk_volume(), "{what}");
    assert_eq!(typed.len(), dynamic.len(), "{what}");
    assert!(typed.same_function_as_any(dynamic), "{what}");
    for offset in 0..=typed.storage_len() {
        assert_eq!(
            typed.padded_index_of(offset),
            dynamic.padded_index_of(offset),
            "{what} slot {offset}"
        );
        assert_eq!(typed.index_of(offset), dynamic.index_of(offset), "{what}");
        assert_eq!(
            typed.is_padding(offset),
            dynamic.is_padding(offset),
            "{what}"
        );
    }
    // Outside the dims by one in each dimension, and with a coordinate too many or too few.
    let dims = typed.dims().to_vec();
    for d in 0..dims.len() {
        let mut outside = vec![0; dims.len()];
        outside[d] = dims[d];
        assert_eq!(typed.checked_offset(&outside), None, "{what}");
        assert_eq!(dynamic.checked_offset(&outside), None, "{what}");
        assert_eq!(
            typed.try_offset(&outside).unwrap_err(),
            dynamic.try_offset(&outside).unwrap_err()
        );
    }
    for wrong in [vec![0; dims.len() + 1], vec![0; dims.len() - 1]] {
        assert_eq!(typed.checked_offset(&wrong), None);
        assert_eq!(dynamic.checked_offset(&wrong), None);
        assert_eq!(
            typed.try_offset(&wrong).unwrap_err(),
            dynamic.try_offset(&wrong).unwrap_err()
        );
    }
    assert_eq!(
        typed.memory_order_text(true, 50),
        dynamic.memory_order_text(true, 50),
        "{what}"
    );
}

fn typed_and_dyn<L: Layout<Index = [usize; R]> + Default, const R: usize>(dims: [usize; R])
where
    Mapping<L>: AnyMapping,
{
    let typed = Mapping::<L>::new(dims).unwrap();
    let dynamic = DynLayout::parse(&L::default().to_string())
        .unwrap()
        .bind(&dims)
        .unwrap();
    same_answers(&typed, &dynamic);
    for index in RowMajorIndices::new(dims) {
        let offset = typed.offset(index);
        assert_eq!(dynamic.offset(&index), offset);
        assert_eq!(dynamic.checked_offset(&index), Some(offset));
        assert_eq!(dynamic.try_offset(&index), Ok(offset));
        assert_eq!(AnyMapping::offset(&typed, &index), offset);
        assert_eq!(dynamic.index_of(offset), Some(index.to_vec()));
    }
}

#[test]
fn run_time_and_typed_mappings_answer_alike() {
    for dims in [[1, 3, 5, 30], [2, 17, 9, 3], [1, 1, 1, 1], [1, 0, 2, 2]] {
        typed_and_dyn::<htp::R4CroutonLayout, 4>(dims);
        typed_and_dyn::<htp::R4Crouton2x2Layout, 4>(dims);
        typed_and_dyn::<htp::R4ConvWeightLayout, 4>(dims);
        typed_and_dyn::<onednn::nChw8c, 4>(dims);
        typed_and_dyn::<onednn::OIhw4i16o4i, 4>(dims);
        typed_and_dyn::<megengine::CHWN4, 4>(dims);
        typed_and_dyn::<onednn_layout!("aBcd16b"), 4>(dims);
    }
    typed_and_dyn::<onednn::gOIhw16i16o, 5>([2, 17, 20, 3, 3]);
    typed_and_dyn::<onednn::nCw16c, 3>([2, 33, 3]);
}

#[test]
fn offset_outside_the_dims_panics_naming_index_and_dims() {
    let m = DynLayout::parse("nchw")
        .unwrap()
        .bind(&[1, 2, 3, 4])
        .unwrap();
    let outside = std::panic::catch_unwind(|| m.offset(&[0, 2, 0, 0])).unwrap_err();
    assert_eq!(
        outside.downcast_ref::<String>().unwrap(),
        "index [0, 2, 0, 0] is out of bounds for dims [1, 2, 3, 4]"
    );
    let short = std::panic::catch_unwind(|| m.offset(&[0, 1, 0])).unwrap_err();
    assert_eq!(
        short.downcast_ref::<String>().unwrap(),
        "expected 4 coordinates (the layout's rank), found 3"
    );
    let typed = Mapping::<onednn::nchw>::new([1, 2, 3, 4]).unwrap();
    let through_face = std::panic::catch_unwind(|| AnyMapping::offset(&typed, &[0, 0, 3, 0]));
    assert!(through_face.is_err());
}

/// The descriptor read off the definition: per dimension, the stride of its rest entry (the
/// product of the extents of every entry after it); the fixed entries, in order, as inner
/// blocks.
fn descriptor_by_definition(layout: &DynLayout, dims: &[usize]) -> DynBlockingDesc {
    let entries = layout.entries();
    let block = |d: usize| -> usize {
        entries
            .iter()
            .filter(|e| e.dim == d && e.size > 0)
            .map(|e| e.size)
            .product()
    };
    let padded: Vec<usize> = (0..dims.len())
        .map(|d| dims[d].div_ceil(block(d)) * block(d))
        .collect();
    let extent = |k: usize| {
        let e = entries[k];
        if e.size > 0 {
            e.size
        } else {
            padded[e.dim] / block(e.dim)
        }
    };
    let mut strides = vec![0; dims.len()];
    for (k, e) in entries.iter().enumerate() {
        if e.size == 0 {
            strides[e.dim] = (k + 1..entries.len()).map(extent).product();
        }
    }
    let fixed = entries.iter().filter(|e| e.size > 0);
    DynBlockingDesc {
        dims: dims.to_vec(),
        padded_dims: padded,
        strides,
        inner_blks: fixed.clone().map(|e| e.size).collect(),
        inner_idxs: fixed.map(|e| e.dim).collect(),
    }
}

#[test]
fn blocking_descriptors_of_run_time_layouts_match_the_typed_ones_and_the_definition() {
    for entry in tensor_layout::registry::all() {
        let layout = entry.layout();
        let dims: Vec<usize> = (0..layout.rank())
            .map(|d| [3, 17, 5, 33, 2][d % 5])
            .collect();
        let desc = layout.bind(&dims).unwrap().blocking_desc();
        assert_eq!(desc, descriptor_by_definition(&layout, &dims), "{layout}");
    }
    let dims = [2, 17, 3, 5];
    assert_eq!(
        DynLayout::parse("OIhw8i16o2i")
            .unwrap()
            .bind(&dims)
            .unwrap()
            .blocking_desc(),
        DynBlockingDesc::from(
            Mapping::<onednn::OIhw8i16o2i>::new(dims)
                .unwrap()
                .blocking_desc()
        )
    );
    // A layout no catalog names has a descriptor all the same.
    let odd = DynLayout::parse("5: 4,0 0,0 1,0 2,0 3,0 1,3 4,2 1,5").unwrap();
    let dims = [2, 31, 3, 4, 5];
    assert_eq!(
        odd.bind(&dims).unwrap().blocking_desc(),
        descriptor_by_definition(&odd, &dims)
    );
}

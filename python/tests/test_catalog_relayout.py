"""Every catalog layout, relayouted by the package, holds what NumPy computes for it."""

import numpy as np
import pytest

import tensor_layout as tl
from reference import numbered, row_major, storage_of, small_dims

CATALOG = tl.catalog()


def test_the_catalog_is_listed():
    assert "htp::R4CroutonLayout" in CATALOG and "onednn::nChw16c" in CATALOG
    assert len(CATALOG) == len(set(CATALOG)) > 40


@pytest.mark.parametrize("name", CATALOG)
def test_relayout_into_each_catalog_layout(name):
    layout = tl.Layout(name)
    dims = small_dims(layout)
    logical = numbered(dims, np.float32)
    tensor = tl.relayout(logical, row_major(layout), layout)
    assert tensor.layout == layout
    assert tensor.dims == dims
    expected = storage_of(logical, layout.entries)
    np.testing.assert_array_equal(tensor.storage(), expected)
    assert tensor.storage_len == expected.size
    np.testing.assert_array_equal(tensor.to_numpy(), logical)


@pytest.mark.parametrize("name", CATALOG)
def test_relayout_out_of_each_catalog_layout(name):
    layout = tl.Layout(name)
    dims = small_dims(layout)
    logical = numbered(dims, np.int16)
    storage = storage_of(logical, layout.entries)
    back = tl.relayout(storage, name, row_major(layout), dims=dims)
    np.testing.assert_array_equal(back.storage(), logical.reshape(-1))


@pytest.mark.parametrize("dims", [(1, 3, 5, 30), (2, 9, 17, 33), (1, 8, 8, 32)])
def test_crouton_on_htp_example_dims(dims):
    logical = numbered(dims, np.uint8)
    crouton = tl.relayout(logical, "htp::R4FlatMemoryLayout", "htp.R4CroutonLayout")
    entries = [(0, 0), (1, 0), (2, 0), (3, 0), (1, 8), (2, 8), (3, 32)]
    np.testing.assert_array_equal(crouton.storage(), storage_of(logical, entries))


def test_elements_move_by_axis_name_between_systems():
    nhwc = numbered((2, 3, 5, 20), np.float32)  # HTP's flat layout: N, H, W, C
    blocked = tl.relayout(nhwc, "htp::R4FlatMemoryLayout", "onednn::nChw16c")
    assert blocked.dims == (2, 20, 3, 5)  # oneDNN's N, C, H, W
    np.testing.assert_array_equal(blocked.to_numpy(), nhwc.transpose(0, 3, 1, 2))


def test_a_tensor_relayouts_again_and_keeps_its_values():
    logical = numbered((1, 20, 3, 3), np.float32)
    t = tl.relayout(logical, "nchw", "nChw8c")
    u = t.relayout("nChw16c").relayout(tl.Layout("nhwc"))
    np.testing.assert_array_equal(u.to_numpy(), logical)
    np.testing.assert_array_equal(tl.relayout(t, "nChw8c", "nchw").to_numpy(), logical)


def test_a_logical_view_of_nhwc_storage_reads_as_nhwc():
    storage = numbered((2, 4, 5, 3), np.float32)  # N, H, W, C in memory
    logical = storage.transpose(0, 3, 1, 2)  # N, C, H, W: oneDNN's nhwc axis order
    t = tl.relayout(logical, "nhwc", "nchw")
    np.testing.assert_array_equal(t.storage(), np.ascontiguousarray(logical).reshape(-1))


def test_padding_is_zero_after_a_relayout():
    logical = np.full((1, 3, 2, 2), 7, np.uint8)
    t = tl.relayout(logical, "nchw", "nChw16c")
    storage = t.storage().reshape(2, 2, 16)
    assert (storage[..., :3] == 7).all() and (storage[..., 3:] == 0).all()
    assert t.padded_dims == (1, 16, 2, 2)


def test_zero_sized_dims_give_an_empty_tensor():
    t = tl.relayout(np.zeros((0, 3, 2, 2), np.float32), "nchw", "nChw16c")
    assert t.storage_len == 0 and t.to_numpy().shape == (0, 3, 2, 2)


def test_tensor_wraps_storage():
    logical = numbered((1, 5, 2, 2), np.float32)
    storage = storage_of(logical, tl.Layout("nChw4c").entries)
    t = tl.Tensor("nChw4c", [1, 5, 2, 2], storage)
    np.testing.assert_array_equal(t.to_numpy(), logical)
    storage[0] = -1  # a copy: the tensor keeps its own storage
    assert t.storage()[0] == logical[0, 0, 0, 0]

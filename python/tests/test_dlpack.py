"""DLPack both ways: tensors handed to NumPy without a copy, DLPack objects read as sources."""

import numpy as np
import pytest

import tensor_layout as tl
from reference import numbered, storage_of


class DlpackOnly:
    """An object that has only the DLPack protocol (as a PyTorch or JAX array has)."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


def test_numpy_reads_a_plain_tensor_as_its_logical_array():
    logical = numbered((2, 3, 4, 5), np.float32)
    t = tl.relayout(logical, "nchw", "nhwc")
    seen = np.from_dlpack(t)
    assert seen.shape == (2, 3, 4, 5)
    assert seen.strides == (4 * 60, 4, 4 * 15, 4 * 3)  # NHWC memory, NCHW axes
    np.testing.assert_array_equal(seen, logical)


def test_numpy_reads_a_blocked_tensor_in_blocked_form():
    logical = numbered((1, 17, 2, 3), np.int8)
    t = tl.relayout(logical, "nchw", "nChw16c")
    seen = np.from_dlpack(t)
    assert seen.shape == (1, 2, 2, 3, 16)
    np.testing.assert_array_equal(seen.reshape(-1), storage_of(logical, tl.Layout("nChw16c").entries))


def test_the_export_is_the_tensors_memory():
    t = tl.relayout(numbered((1, 2, 2, 2), np.uint16), "nchw", "nhwc")
    seen = np.from_dlpack(t)
    seen[0, 1, 1, 1] = 999
    assert t.storage()[7] == 999
    assert t.to_numpy()[0, 1, 1, 1] == 999


def test_an_export_outlives_its_tensor():
    t = tl.relayout(numbered((1, 2, 3, 3), np.int32), "nchw", "nhwc")
    expected = t.to_numpy()
    seen = np.from_dlpack(t)
    del t
    np.testing.assert_array_equal(seen, expected)


def test_versioned_and_legacy_capsules():
    t = tl.relayout(numbered((1, 2, 2, 2), np.float32), "nchw", "nhwc")
    assert "dltensor_versioned" in repr(t.__dlpack__(max_version=(1, 0)))
    assert '"dltensor"' in repr(t.__dlpack__())
    assert t.__dlpack_device__() == (1, 0)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "uint8", "int16", "uint16", "int32", "uint32"])
def test_round_trip_through_dlpack(dtype):
    logical = numbered((2, 5, 3, 2), dtype)
    t = tl.relayout(DlpackOnly(logical), "nchw", "nChw4c")
    again = tl.relayout(DlpackOnly(np.from_dlpack(t)), "nChw4c", "nchw", dims=t.dims)
    assert again.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(again.to_numpy(), logical)


def test_a_dlpack_source_is_read_without_a_copy_of_its_own():
    storage = numbered((1, 4, 4, 3), np.float32)
    t = tl.relayout(DlpackOnly(storage.transpose(0, 3, 1, 2)), "nhwc", "nchw")
    np.testing.assert_array_equal(t.to_numpy(), storage.transpose(0, 3, 1, 2))


def test_storage_is_a_view_that_keeps_the_tensor_alive():
    t = tl.relayout(numbered((1, 3, 1, 1), np.float32), "nchw", "nChw4c")
    view = t.storage()
    view[3] = 5.0  # a padding slot
    assert t.storage()[3] == 5.0
    del t
    assert view[3] == 5.0 and view.shape == (4,)

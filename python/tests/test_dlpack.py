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


class LegacyOnly:
    """A producer of the first DLPack protocol: `__dlpack__` takes no arguments."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self):
        return self._array.__dlpack__()


def test_a_producer_whose_dlpack_takes_no_arguments():
    logical = numbered((1, 3, 2, 2), np.int16)
    t = tl.relayout(LegacyOnly(logical), "nchw", "nChw4c")
    np.testing.assert_array_equal(t.to_numpy(), logical)


def test_bfloat16_from_a_dlpack_producer():
    # NumPy neither exports nor reads bfloat16 through DLPack; the package reads the capsule
    # itself, so any producer of bfloat16 (here the package's own export) is a source.
    ml_dtypes = pytest.importorskip("ml_dtypes")
    logical = numbered((2, 33, 2, 3), np.float32).astype(ml_dtypes.bfloat16)
    t = tl.relayout(logical, "nchw", "nhwc")
    with pytest.raises((BufferError, RuntimeError, TypeError)):
        np.from_dlpack(t)  # what the package no longer relies on
    for producer in (DlpackOnly(t), LegacyOnly(t)):
        again = tl.relayout(producer, "nhwc", "nChw16c")
        assert again.dtype == np.dtype(ml_dtypes.bfloat16)
        np.testing.assert_array_equal(again.to_numpy().view(np.uint16), logical.view(np.uint16))
    blocked = tl.relayout(logical, "nchw", "nChw16c")
    storage = tl.relayout(DlpackOnly(blocked), "nChw16c", "nchw", dims=blocked.dims)
    np.testing.assert_array_equal(storage.to_numpy().view(np.uint16), logical.view(np.uint16))


def test_other_dlpack_types_are_type_errors_naming_the_type():
    with pytest.raises(TypeError, match="unsupported dtype float64"):
        tl.relayout(DlpackOnly(np.zeros((1, 2, 2, 2))), "nchw", "nhwc")
    with pytest.raises(TypeError, match="unsupported dtype bool"):
        tl.relayout(DlpackOnly(np.zeros((1, 2, 2, 2), bool)), "nchw", "nhwc")


def test_an_imported_source_outlives_its_producer():
    t = tl.relayout(numbered((1, 4, 3, 3), np.uint8), "nchw", "nhwc")
    expected = t.to_numpy()
    producer = DlpackOnly(t)
    del t
    np.testing.assert_array_equal(tl.relayout(producer, "nhwc", "nchw").to_numpy(), expected)


def test_the_versioned_protocol_and_its_arguments():
    # What NumPy 2 and PyTorch pass: max_version, stream=None on the CPU, copy, dl_device.
    t = tl.relayout(numbered((1, 2, 3, 4), np.float32), "nchw", "nhwc")
    assert "dltensor_versioned" in repr(t.__dlpack__(max_version=(1, 0)))
    assert "dltensor_versioned" in repr(t.__dlpack__(max_version=(1, 3), stream=None, copy=False))
    assert '"dltensor"' in repr(t.__dlpack__(max_version=(0, 8)))  # an older consumer
    assert "dltensor_versioned" in repr(t.__dlpack__(max_version=(1, 0), dl_device=(1, 0)))
    with pytest.raises(BufferError, match="zero-copy"):
        t.__dlpack__(max_version=(1, 0), copy=True)
    with pytest.raises(BufferError, match="cross-device"):
        t.__dlpack__(max_version=(1, 0), dl_device=(2, 0))
    seen = np.from_dlpack(t, copy=False)
    assert seen.ctypes.data == t.storage().ctypes.data
    np.testing.assert_array_equal(seen, t.to_numpy())


def test_torch_reads_a_tensor_without_a_copy():
    torch = pytest.importorskip("torch")
    logical = numbered((2, 3, 4, 5), np.float32)
    t = tl.relayout(logical, "nchw", "nhwc")
    seen = torch.from_dlpack(t)
    assert tuple(seen.shape) == (2, 3, 4, 5)
    assert seen.stride() == (60, 1, 15, 3)  # NHWC memory, NCHW axes, in elements
    assert seen.data_ptr() == t.storage().ctypes.data
    np.testing.assert_array_equal(seen.numpy(), logical)
    seen[0, 1, 1, 1] = -1.0
    assert t.to_numpy()[0, 1, 1, 1] == -1.0
    blocked = torch.from_dlpack(tl.relayout(logical, "nchw", "nChw16c"))
    assert tuple(blocked.shape) == (2, 1, 4, 5, 16)


def test_torch_bfloat16_both_ways():
    torch = pytest.importorskip("torch")
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = torch.arange(2 * 33 * 2 * 2, dtype=torch.float32).reshape(2, 33, 2, 2).to(torch.bfloat16)
    t = tl.relayout(x, "nchw", "nChw16c")  # PyTorch as the producer
    assert t.dtype == np.dtype(ml_dtypes.bfloat16)
    bits = x.view(torch.int16).numpy().view(np.uint16)
    np.testing.assert_array_equal(t.to_numpy().view(np.uint16), bits)
    back = torch.from_dlpack(t.relayout("nchw"))  # PyTorch as the consumer
    assert back.dtype == torch.bfloat16
    assert torch.equal(back, x)

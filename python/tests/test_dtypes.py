"""Every supported element type moves unchanged; every other one is a TypeError naming it."""

import numpy as np
import pytest

import tensor_layout as tl
from reference import numbered, storage_of

SUPPORTED = ["float32", "float16", "int8", "uint8", "int16", "uint16", "int32", "uint32"]


@pytest.mark.parametrize("dtype", SUPPORTED)
def test_supported_types_move_bit_for_bit(dtype):
    logical = numbered((2, 19, 3, 4), dtype)
    t = tl.relayout(logical, "nchw", "nChw8c")
    assert t.dtype == np.dtype(dtype)
    assert t.storage().dtype == np.dtype(dtype)
    np.testing.assert_array_equal(t.storage(), storage_of(logical, tl.Layout("nChw8c").entries))
    np.testing.assert_array_equal(t.to_numpy(), logical)


def test_bfloat16_from_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    logical = numbered((1, 33, 2, 2), np.float32).astype(ml_dtypes.bfloat16)
    t = tl.relayout(logical, "nchw", "nChw32c")
    assert t.dtype == logical.dtype
    np.testing.assert_array_equal(t.to_numpy().view(np.uint16), logical.view(np.uint16))
    assert "bfloat16" in tl.dtypes()


@pytest.mark.parametrize("dtype", ["float64", "int64", "uint64", "bool", "complex64"])
def test_other_types_are_type_errors_naming_the_type(dtype):
    with pytest.raises(TypeError, match=f"unsupported dtype {dtype}"):
        tl.relayout(np.zeros((1, 2, 2, 2), dtype), "nchw", "nhwc")


def test_strings_and_objects_are_refused():
    with pytest.raises(TypeError, match="expected a NumPy array or an object with __dlpack__"):
        tl.relayout([[1, 2], [3, 4]], "ab", "ba")

"""Relayouts into a tensor made beforehand (`out=`), as NumPy's `copyto` writes into an array."""

import numpy as np
import pytest

import tensor_layout as tl
from reference import numbered, storage_of


def blocked_zeros(dims, dtype):
    return tl.relayout(np.zeros(dims, dtype), "nchw", "nChw16c")


def test_out_is_written_and_returned():
    logical = numbered((2, 19, 3, 4), np.float32)
    out = blocked_zeros((2, 19, 3, 4), np.float32)
    out.storage()[:] = -1  # padding too: the relayout writes zeros there
    same = tl.relayout(logical, "nchw", "nChw16c", out=out)
    assert same is out
    np.testing.assert_array_equal(out.storage(), storage_of(logical, tl.Layout("nChw16c").entries))


def test_a_tensor_relayouts_into_out():
    logical = numbered((1, 5, 2, 3), np.uint8)
    t = tl.relayout(logical, "nchw", "nhwc")
    out = blocked_zeros((1, 5, 2, 3), np.uint8)
    assert t.relayout("nChw16c", out=out) is out
    np.testing.assert_array_equal(out.to_numpy(), logical)
    assert tl.relayout(t, "nhwc", "nChw16c", out=out) is out


def test_out_of_another_layout_dims_or_type_is_refused():
    logical = numbered((1, 3, 2, 2), np.float32)
    with pytest.raises(ValueError, match=r"out's layout is .*<NCHW, 0,0, 1,0, 2,0, 3,0, 1,16> but dst is .*<NCHW, 0,0, 2,0, 3,0, 1,0>"):
        tl.relayout(logical, "nchw", "nhwc", out=blocked_zeros((1, 3, 2, 2), np.float32))
    with pytest.raises(ValueError, match=r"source dims \[1, 3, 2, 2\] differ from destination dims \[1, 4, 2, 2\]"):
        tl.relayout(logical, "nchw", "nChw16c", out=blocked_zeros((1, 4, 2, 2), np.float32))
    with pytest.raises(TypeError, match="out holds int32 but the source holds float32"):
        tl.relayout(logical, "nchw", "nChw16c", out=blocked_zeros((1, 3, 2, 2), np.int32))


def test_out_that_is_the_source_is_refused():
    t = blocked_zeros((1, 3, 2, 2), np.float32)
    with pytest.raises(ValueError, match="the array is out's own storage"):
        tl.relayout(t.storage(), "nChw16c", "nChw16c", dims=[1, 3, 2, 2], out=t)
    with pytest.raises(ValueError, match="out is the tensor itself"):
        t.relayout("nChw16c", out=t)

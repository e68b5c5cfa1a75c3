"""Relayouts to and from Sophgo local-memory layouts: a store into the chip's local memory (a
tensor whose storage is the whole memory), and a load out of it, as the Rust
`LocalMemory::store` and `load` do."""

import itertools

import numpy as np
import pytest

import tensor_layout as tl
from reference import numbered


def memory_of(logical, mapping, fill=0):
    """The local memory (as elements) holding `logical` at the mapping's offsets, computed
    one element at a time from `Mapping.offset`."""
    memory = np.full(mapping.storage_len, fill, logical.dtype)
    for index in itertools.product(*map(range, logical.shape)):
        memory[mapping.offset(list(index))] = logical[index]
    return memory


def test_a_store_places_each_element_where_the_mapping_says():
    # The TPU-Kernel documentation's (2, 3, 4, 5) fp32 tensor, aligned, at NPU 2.
    layout = tl.Layout("sophgo::EuAligned", chip="ExampleChip", address=2048)
    logical = numbered((2, 3, 4, 5), np.float32)
    t = tl.relayout(logical, "nchw", layout)
    assert t.layout == layout and t.dims == (2, 3, 4, 5)
    assert t.storage_len == 1024  # the chip's whole memory, 4096 bytes, as fp32
    assert layout.bind([2, 3, 4, 5]).offset([1, 2, 3, 4]) == 115  # the documentation's block
    assert t.storage()[115] == logical[1, 2, 3, 4]
    np.testing.assert_array_equal(t.storage(), memory_of(logical, layout.bind([2, 3, 4, 5])))
    assert np.from_dlpack(t).shape == (1024,)  # DLPack sees the memory, as storage() does


@pytest.mark.parametrize(
    "text, options, dtype, dims",
    [
        ("sophgo::Compact", dict(address=340), np.float32, (3, 5, 2, 3)),
        ("sophgo::LineAligned", dict(address=1024), np.float16, (1, 5, 2, 3)),
        ("sophgo::FreeStrides", dict(address=1024, strides=[16, 8, 3, 1]), np.float32, (3, 5, 2, 3)),
        ("sophgo::EuAligned", dict(mode="4N", address=0), np.int8, (6, 5, 2, 3)),
        ("sophgo::Compact", dict(mode="2N", address=8), np.uint16, (3, 5, 2, 3)),
    ],
)
def test_store_and_load_round_trips(text, options, dtype, dims):
    layout = tl.Layout(text, chip="ExampleChip", dtype=dtype, **options)
    logical = numbered(dims, dtype)
    t = tl.relayout(logical, "nchw", layout)
    np.testing.assert_array_equal(t.storage(), memory_of(logical, layout.bind(list(dims))))
    np.testing.assert_array_equal(t.to_numpy(), logical)  # a load into NCHW
    nhwc = t.relayout("nhwc")
    np.testing.assert_array_equal(nhwc.to_numpy(), logical)
    # The memory as an array (read from a file, a simulator, a dump) with the logical dims.
    again = tl.relayout(t.storage().copy(), layout, "nChw4c", dims=list(dims))
    np.testing.assert_array_equal(again.to_numpy(), logical)


def test_a_store_writes_only_the_tensors_elements_and_its_dummies():
    # The Rust `LocalMemory::store` example: 3 int8 batches in 4N at address 0 of a memory
    # filled with 0xEE; the fourth lane of the pack is a dummy, written zero.
    layout = tl.Layout("sophgo::EuAligned", chip="ExampleChip", dtype="uint8", mode="4N")
    memory = tl.Tensor(layout, [3, 1, 1, 1], np.full(4096, 0xEE, np.uint8))
    result = tl.relayout(np.array([1, 2, 3], np.uint8).reshape(3, 1, 1, 1), "nchw", layout, out=memory)
    assert result is memory
    assert list(memory.storage()[:5]) == [1, 2, 3, 0, 0xEE]
    assert (memory.storage()[4:] == 0xEE).all()


def test_two_tensors_in_one_memory():
    a_layout = tl.Layout("sophgo::Compact", chip="ExampleChip", address=0, dtype="int16")
    b_layout = tl.Layout("sophgo::Compact", chip="ExampleChip", address=512, dtype="int16")
    a, b = numbered((1, 6, 2, 3), np.int16), -numbered((2, 3, 2, 2), np.int16)
    first = tl.relayout(a, "nchw", a_layout)
    both = tl.Tensor(b_layout, [2, 3, 2, 2], first.storage())  # the same memory, b's view
    tl.relayout(b, "nchw", b_layout, out=both)
    np.testing.assert_array_equal(both.to_numpy(), b)
    np.testing.assert_array_equal(tl.relayout(both.storage(), a_layout, "nchw", dims=[1, 6, 2, 3]).to_numpy(), a)


def test_a_load_into_out_gives_the_padding_zero():
    layout = tl.Layout("sophgo::EuAligned", chip="ExampleChip", address=1024)
    logical = numbered((1, 5, 2, 2), np.float32)
    t = tl.relayout(logical, "nchw", layout)
    out = tl.relayout(np.full((1, 5, 2, 2), 7, np.float32), "nchw", "nChw4c")
    t.relayout("nChw4c", out=out)
    np.testing.assert_array_equal(out.to_numpy(), logical)
    assert (out.storage().reshape(1, 2, 2, 2, 4)[0, 1, :, :, 1:] == 0).all()


def test_a_matrix_and_two_ic_weights_move_by_axis_name():
    matrix = tl.Layout("sophgo::Matrix", chip="ExampleChip", width=15)
    m = numbered((2, 40), np.float32)
    t = tl.relayout(m, "ab", matrix)
    np.testing.assert_array_equal(t.storage(), memory_of(m, matrix.bind([2, 40])))
    np.testing.assert_array_equal(t.to_numpy(), m)
    # 2IC's weights have axes IOHW: OIHW weights move into them by name, dims reordered.
    weights = tl.Layout("sophgo::Compact", chip="ExampleChip", mode="2IC")
    assert weights.axes == "IOHW"
    oihw = numbered((3, 5, 2, 2), np.float32)
    w = tl.relayout(oihw, "oihw", weights)
    assert w.dims == (5, 3, 2, 2)
    np.testing.assert_array_equal(w.to_numpy(), oihw.transpose(1, 0, 2, 3))
    np.testing.assert_array_equal(w.relayout("oihw").to_numpy(), oihw)


def test_local_errors():
    layout = tl.Layout("sophgo::EuAligned", chip="ExampleChip")
    with pytest.raises(TypeError, match='places 4-byte elements, and these are 1-byte int8: give the layout dtype="int8"'):
        tl.relayout(np.zeros((1, 1, 1, 1), np.int8), "nchw", layout)
    with pytest.raises(ValueError, match="cannot relayout .* the tensor needs .* bytes on NPU 0"):
        tl.relayout(np.zeros((1, 1, 30, 30), np.float32), "nchw", layout)
    with pytest.raises(ValueError, match="its storage is the chip's whole local memory, so pass that memory"):
        tl.relayout(np.zeros((1, 1, 1, 1), np.float32), layout, "nchw")
    with pytest.raises(ValueError, match="stores 1024 .the chip's whole local memory."):
        tl.relayout(np.zeros(1000, np.float32), layout, "nchw", dims=[1, 1, 1, 1])
    with pytest.raises(ValueError, match="axes NCHW and IOHW do not have the same names"):
        tl.relayout(np.zeros((2, 1, 1, 1), np.float32), "nchw", tl.Layout("sophgo::Compact", chip="ExampleChip", mode="2IC"))

"""Layouts read by name: their axes, their mappings, the `layout` command's text and pictures."""

import numpy as np
import pytest

import tensor_layout as tl
from reference import small_dims


@pytest.mark.parametrize("name", tl.catalog())
def test_each_catalog_layout_prints_a_form_that_reads_back(name):
    layout = tl.Layout(name)
    assert tl.Layout(str(layout)) == layout
    assert repr(layout) == f'Layout("{layout}")'
    assert layout.rank == len(layout.axes)
    assert hash(tl.Layout(str(layout))) == hash(layout)


@pytest.mark.parametrize("name", tl.catalog())
def test_each_catalog_layout_draws_for_jupyter(name):
    svg = tl.Layout(name)._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")


def test_the_spellings_of_one_layout_agree():
    crouton = tl.Layout("htp.R4CroutonLayout")
    assert crouton == tl.Layout("htp::R4CroutonLayout") == tl.Layout("R4CroutonLayout")
    assert crouton == tl.Layout("ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>")
    assert crouton == tl.Layout("NHWC: 0,0 1,0 2,0 3,0 1,8 2,8 3,32")
    assert crouton.axes == "NHWC" and crouton.rank == 4
    assert tl.Layout("nChw16c") == tl.Layout("onednn::nChw16c")
    assert tl.Layout("aBcd16b").axes == "abcd"
    assert tl.Layout("nChw16c") != tl.Layout("aBcd16b")


def test_a_mapping_gives_padded_dims_storage_and_offsets():
    m = tl.Layout("nChw8c").bind([2, 17, 3, 5])
    assert m.dims == [2, 17, 3, 5]
    assert m.padded_dims == [2, 24, 3, 5]
    assert m.storage_len == 2 * 24 * 3 * 5
    assert m.offset([1, 9, 2, 4]) == 24 * 15 + 120 + 2 * 40 + 4 * 8 + 1
    crouton = tl.Layout("htp.R4CroutonLayout").bind([1, 3, 5, 30])
    assert crouton.storage_len == 2048 and crouton.offset([0, 2, 4, 29]) == 2 * 256 + 4 * 32 + 29


def test_explain_is_the_commands_text():
    text = tl.Layout("R4CroutonLayout").explain([1, 3, 5, 30], dtype="uint8")
    assert text.startswith("layout         ChunkedMemoryLayout<NHWC, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>\n")
    assert "padded dims    1x8x8x32\n" in text
    assert "storage        2048 elements, 2048 bytes (1-byte elements)\n" in text
    assert tl.Layout("nchw").bind([1, 2, 3, 4]).explain() == tl.Layout("nchw").explain([1, 2, 3, 4])


def test_draw_writes_the_commands_svg(tmp_path):
    path = tmp_path / "nChw4c.svg"
    said = tl.Layout("nChw4c").draw([1, 6, 2, 3], str(path), color_by="C")
    assert said.startswith(f"wrote {path}")
    svg = path.read_text()
    assert svg.startswith("<svg") and "url(#hatch)" in svg  # padding is hatched
    assert tl.Layout("nChw4c").bind([1, 6, 2, 3])._repr_svg_().startswith("<svg")


def test_sophgo_local_layouts_with_a_chip():
    layout = tl.Layout("sophgo::EuAligned", chip="ExampleChip", address=2048)
    assert str(layout) == "sophgo::EuAligned<ExampleChip> at address 2048, 4-byte elements"
    assert tl.Layout(str(layout)) == layout
    assert layout.is_local and layout.axes == "NCHW" and layout.entries is None
    m = layout.bind([2, 3, 4, 5])
    assert m.offset([1, 2, 3, 4]) * 4 == 460  # NPU 0, byte 460: the TPU-Kernel documentation
    assert "EuAligned<ExampleChip>" in m.explain()
    assert m._repr_svg_().startswith("<svg")
    four_n = tl.Layout("sophgo::Compact", chip="BM1684X", mode="4N", dtype="int8")
    assert str(four_n) == "sophgo::Compact<BM1684X, 4N> at address 0, 1-byte elements"
    matrix = tl.Layout("sophgo::Matrix", chip="ExampleChip", width=15)
    assert matrix.rank == 2 and matrix.bind([2, 40]).offset([0, 15]) == 256
    free = tl.Layout("FreeStrides<ExampleChip>(strides [120, 56, 16, 2])")
    assert free.bind([2, 5, 3, 4]).offset([1, 4, 2, 3]) == 120 + 56 + 32 + 6


def test_tensor_reports_its_layout_and_mapping():
    t = tl.relayout(np.zeros((1, 3, 2, 2), np.float32), "nchw", "nChw16c")
    assert t.layout == tl.Layout("nChw16c")
    assert t.mapping.padded_dims == [1, 16, 2, 2]
    assert repr(t).startswith('Tensor(Layout("ChunkedMemoryLayout<NCHW, 0,0, 1,0, 2,0, 3,0, 1,16>"), dims=1x3x2x2')


def test_small_dims_pad_each_blocked_axis():
    assert small_dims(tl.Layout("nChw16c")) == (2, 17, 5, 4)

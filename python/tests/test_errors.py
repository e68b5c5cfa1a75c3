"""Bad input is a Python exception naming what was wrong, never a crash."""

import numpy as np
import pytest

import tensor_layout as tl
from reference import numbered


def test_a_misspelled_name_gives_the_position_and_a_suggestion():
    with pytest.raises(ValueError, match=r"at character 0, .*did you mean htp::R4CroutonLayout"):
        tl.Layout("R4CrotonLayout")
    with pytest.raises(ValueError, match=r'"htp.R4CrotonLayout": at character 4, .*did you mean htp::R4CroutonLayout'):
        tl.Layout("htp.R4CrotonLayout")


def test_a_broken_long_form_gives_the_position_and_what_was_expected():
    with pytest.raises(ValueError, match=r"at character 29, expected `,` and the size of the entry, found `>`"):
        tl.Layout("ChunkedMemoryLayout<4, 0,0, 1>")
    with pytest.raises(ValueError, match="dimension 2 has no"):
        tl.Layout("NCHW: 0,0 1,0")


def test_dims_of_another_rank_name_both():
    with pytest.raises(ValueError, match=r"dims 1x2x3 have 3 coordinates but .* has rank 4 \(axes NCHW\)"):
        tl.Layout("nChw16c").bind([1, 2, 3])


def test_a_storage_of_the_wrong_length_names_both_lengths():
    with pytest.raises(ValueError, match=r"holds 12 elements but ChunkedMemoryLayout<NCHW, .*, 1,16> on dims 1x3x2x2 stores 64"):
        tl.relayout(np.zeros(12, np.float32), "nChw16c", "nchw", dims=[1, 3, 2, 2])
    with pytest.raises(ValueError, match="holds 12 elements"):
        tl.Tensor("nChw16c", [1, 3, 2, 2], np.zeros(12, np.float32))


def test_a_non_contiguous_storage_is_refused():
    storage = np.zeros(128, np.float32)[::2]
    with pytest.raises(ValueError, match="must be C-contiguous"):
        tl.relayout(storage, "nChw16c", "nchw", dims=[1, 3, 2, 2])


def test_a_logical_array_with_another_layouts_strides_is_refused():
    nchw = numbered((1, 3, 4, 5), np.float32)
    with pytest.raises(ValueError, match=r"not .*<NCHW, 0,0, 2,0, 3,0, 1,0>'s storage on dims 1x3x4x5: .* order NHWC"):
        tl.relayout(nchw, "nhwc", "nchw")


def test_a_blocked_source_needs_its_dims():
    with pytest.raises(ValueError, match="stores blocks, so an array's shape does not give its logical dims"):
        tl.relayout(np.zeros((1, 1, 2, 2, 16), np.float32), "nChw16c", "nchw")
    with pytest.raises(ValueError, match=r"the array has 1 axes \(shape \[64\]\) but .* has rank 4"):
        tl.relayout(np.zeros(64, np.float32), "nchw", "nhwc")


def test_layouts_with_other_axis_names_name_both():
    with pytest.raises(ValueError, match=r"cannot relayout .*<NCHW, .* into .*<OIHW, .*: axes NCHW and OIHW"):
        tl.relayout(numbered((1, 2, 2, 2), np.float32), "nchw", "oihw")
    with pytest.raises(ValueError, match="cannot relayout"):
        tl.relayout(numbered((1, 2, 2, 2), np.float32), "nchw", "ncdhw")


def test_a_tensor_read_as_another_layout_names_both():
    t = tl.relayout(numbered((1, 2, 2, 2), np.float32), "nchw", "nhwc")
    with pytest.raises(ValueError, match=r"the tensor's layout is .*<NCHW, 0,0, 2,0, 3,0, 1,0> but src is .*<NCHW, 0,0, 1,0, 2,0, 3,0>"):
        tl.relayout(t, "nchw", "nChw8c")
    with pytest.raises(ValueError, match=r"the tensor's dims are 1x2x2x2 but dims= gives 1x2x2x3"):
        tl.relayout(t, "nhwc", "nchw", dims=[1, 2, 2, 3])


def test_an_index_outside_the_dims_names_both():
    with pytest.raises(ValueError, match=r"index \[0, 3, 0, 0\] is out of bounds for dims \[1, 3, 2, 2\]"):
        tl.Layout("nChw16c").bind([1, 3, 2, 2]).offset([0, 3, 0, 0])


def test_sophgo_layouts_need_a_chip_and_a_fitting_place():
    with pytest.raises(ValueError, match="lives in the local memory of a chip"):
        tl.Layout("sophgo::EuAligned")
    with pytest.raises(ValueError, match="unknown Sophgo chip `BM1690`"):
        tl.Layout("sophgo::EuAligned", chip="BM1690")
    layout = tl.Layout("sophgo::EuAligned", chip="ExampleChip", address=1028)
    with pytest.raises(ValueError, match="1028"):
        layout.bind([2, 3, 4, 5])
    with pytest.raises(ValueError, match="place a Sophgo local-memory layout, and nchw is not one"):
        tl.Layout("nchw", chip="BM1684X")
    with pytest.raises(ValueError, match="the tensor needs .* bytes on NPU 0 from its start offset"):
        tl.relayout(np.zeros((1, 1, 256, 257), np.float32), "nchw", tl.Layout("sophgo::Compact", chip="BM1684X"))


def test_sophgo_text_that_does_not_read_names_the_position():
    with pytest.raises(ValueError, match="at character 36, expected a whole number"):
        tl.Layout("sophgo::Compact<BM1684X> at address twelve")
    with pytest.raises(ValueError, match="the layout's text gives chip"):
        tl.Layout("sophgo::Compact<BM1684X>", chip="BM1688")


def test_a_drawing_of_too_much_storage_is_refused(tmp_path):
    with pytest.raises(ValueError, match="a drawing shows at most 16384"):
        tl.Layout("nchw").bind([1, 64, 64, 64]).draw(tmp_path / "never-written.svg")
    with pytest.raises(ValueError, match=r'color_by "Q" is not an axis of this layout: its axes are NCHW'):
        tl.Layout("nchw").bind([1, 2, 2, 2]).draw(tmp_path / "never-written.svg", color_by="Q")

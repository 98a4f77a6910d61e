"""The vision ops against onnxruntime: Resize in each mode, coordinate mapping and rounding,
with its scales / sizes / roi as constants (static output dims) and as run-time inputs
(run-time dims); its numpy form (constant folding's) too; and what it refuses."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper
from onnx.helper import np_dtype_to_tensor_dtype

import infer
from infer.dialects import graph as G
from infer.dialects.graph.evaluate import evaluate
from infer.errors import InferError
from infer.frontend.onnx_import import import_model

from .helpers import check_against_onnxruntime, make_model, node_model, run_onnxruntime

X_SHAPE = [2, 3, 13, 17]


class Resize(NamedTuple):
    attrs: dict[str, object]
    scales: list[float] | None = None
    sizes: list[int] | None = None
    roi: list[float] | None = None
    opset: int = 19
    dtype: type = np.float32


RESIZE = {
    "nearest_up_asymmetric_floor": Resize(
        {"coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"},
        scales=[1, 1, 2, 3]),
    "nearest_down_round_prefer_ceil": Resize(
        {"nearest_mode": "round_prefer_ceil"}, sizes=[2, 3, 7, 5]),
    "nearest_ceil_align_corners_u8": Resize(
        {"coordinate_transformation_mode": "align_corners", "nearest_mode": "ceil"},
        sizes=[2, 3, 20, 9], dtype=np.uint8),
    "linear_half_pixel": Resize({"mode": "linear"}, scales=[1, 1, 1.7, 0.6]),
    "linear_align_corners": Resize(
        {"mode": "linear", "coordinate_transformation_mode": "align_corners"},
        sizes=[2, 3, 5, 31]),
    "linear_pytorch_half_pixel": Resize(
        {"mode": "linear", "coordinate_transformation_mode": "pytorch_half_pixel"},
        sizes=[2, 3, 1, 8]),
    "cubic_exclude_outside": Resize(
        {"mode": "cubic", "cubic_coeff_a": -0.5, "exclude_outside": 1},
        scales=[1, 1, 2.5, 0.8]),
    "cubic_asymmetric": Resize(
        {"mode": "cubic", "coordinate_transformation_mode": "asymmetric"},
        scales=[1, 1, 0.5, 1.5]),
    "crop_and_resize": Resize(
        {"mode": "linear", "coordinate_transformation_mode": "tf_crop_and_resize",
         "extrapolation_value": 7.0},
        sizes=[2, 3, 9, 11], roi=[0, 0, -0.2, 0.3, 1, 1, 0.7, 1.4]),
    "linear_antialias": Resize({"mode": "linear", "antialias": 1}, scales=[1, 1, 0.4, 0.7]),
    "cubic_antialias_axes": Resize(
        {"mode": "cubic", "antialias": 1, "axes": [3, 2]}, scales=[0.3, 0.5]),
    "sizes_not_larger_axes": Resize(
        {"mode": "linear", "axes": [3, 2], "keep_aspect_ratio_policy": "not_larger"},
        sizes=[30, 20]),
    "opset10_linear": Resize({"mode": "linear"}, scales=[1, 1, 2.0, 1.5], opset=10),
}


def _resize_model(case: Resize, runtime: bool):
    """Resize reading X and its scales / sizes (and roi), as inputs when `runtime`, else as
    initializers."""
    given = {"roi": case.roi, "scales": case.scales, "sizes": case.sizes}
    dtypes = {"roi": np.float32, "scales": np.float32, "sizes": np.int64}
    if case.opset == 10:
        given = {"scales": case.scales}
    values = {k: np.array(v, dtypes[k]) for k, v in given.items() if v is not None}
    names = ["x", *[k if k in values else "" for k in given]]
    while names[-1] == "":
        names.pop()
    tp = np_dtype_to_tensor_dtype(np.dtype(case.dtype))
    inputs = [("x", tp, X_SHAPE)]
    if runtime:
        inputs += [(k, np_dtype_to_tensor_dtype(v.dtype), list(v.shape)) for k, v in values.items()]
    model = node_model("Resize", inputs, case.attrs, {} if runtime else values, case.opset,
                       node_inputs=names)
    rng = np.random.default_rng(0)
    x = (rng.integers(0, 255, X_SHAPE) if case.dtype == np.uint8
         else rng.uniform(-3, 3, X_SHAPE)).astype(case.dtype)
    feeds = {"x": x, **(values if runtime else {})}
    return model, feeds


# Run-time scales / sizes / roi take another path to the output dims: a few of each kind.
RUNTIME = ["nearest_down_round_prefer_ceil", "linear_half_pixel", "crop_and_resize",
           "linear_antialias", "sizes_not_larger_axes"]


@pytest.mark.slow
@pytest.mark.parametrize("name, runtime", [(n, False) for n in RESIZE]
                         + [(n, True) for n in RUNTIME])
def test_resize_matches_onnxruntime(name: str, runtime: bool) -> None:
    case = RESIZE[name]
    model, feeds = _resize_model(case, runtime)
    check_against_onnxruntime(model, feeds)
    if not runtime:  # the numpy form, as constant folding would use it
        (op,) = [o for o in import_model(model).walk() if isinstance(o, G.ResizeOp)]
        target = G.constant_value(op.operands[1])
        extra = [G.constant_value(r) for r in op.operands[2:]]
        (got,) = evaluate(op, [feeds["x"], target, *extra])
        np.testing.assert_allclose(got, run_onnxruntime(model, feeds)[0], rtol=1e-4, atol=1e-5)


def test_resize_keeps_a_dynamic_batch_dim() -> None:
    model = node_model("Resize", [("x", TP.FLOAT, ["N", 3, 8, 8])], {"mode": "linear"},
                       {"scales": np.array([1, 1, 2, 2], np.float32)}, 19,
                       node_inputs=["x", "", "scales"])
    rng = np.random.default_rng(1)
    check_against_onnxruntime(
        model, [{"x": rng.standard_normal([n, 3, 8, 8]).astype(np.float32)} for n in (1, 3)])


def test_resize_v10_refuses_nearest_with_runtime_scales() -> None:
    model, _ = _resize_model(Resize({}, scales=[1, 1, 2, 2], opset=10), runtime=True)
    with pytest.raises(InferError, match="nearest Resize-10 with run-time scales"):
        infer.compile(model)


CONV_TRANSPOSE = {
    "2d_strided_padded": ([2, 4, 7, 9], [4, 3, 3, 4], {"strides": [2, 3], "pads": [1, 0, 2, 1]}),
    "2d_output_padding_dilations": (
        [1, 3, 6, 5], [3, 2, 3, 3],
        {"strides": [3, 2], "output_padding": [2, 1], "dilations": [2, 1]}),
    "2d_group_bias": ([2, 6, 5, 5], [6, 2, 3, 3], {"group": 3, "strides": [2, 2]}),
    "2d_output_shape": ([1, 2, 5, 6], [2, 3, 4, 4], {"strides": [2, 2], "output_shape": [11, 13]}),
    "2d_same_lower": ([1, 2, 5, 6], [2, 3, 3, 3], {"strides": [2, 2], "auto_pad": "SAME_LOWER"}),
    "1d": ([2, 3, 10], [3, 5, 4], {"strides": [3], "pads": [2, 1]}),
    "3d": ([1, 2, 3, 4, 5], [2, 2, 2, 3, 2], {"strides": [2, 1, 2], "pads": [0, 1, 0, 1, 0, 1]}),
}


@pytest.mark.parametrize("name", list(CONV_TRANSPOSE))
def test_conv_transpose_matches_onnxruntime(name: str) -> None:
    x_shape, w_shape, attrs = CONV_TRANSPOSE[name]
    rng = np.random.default_rng(2)
    w = rng.standard_normal(w_shape).astype(np.float32)
    inits = {"w": w}
    if name.endswith("bias"):
        inits["b"] = rng.standard_normal([w_shape[1] * attrs["group"]]).astype(np.float32)
    model = node_model("ConvTranspose", [("x", TP.FLOAT, x_shape)], attrs, inits)
    x = rng.standard_normal(x_shape).astype(np.float32)
    check_against_onnxruntime(model, {"x": x})
    (op,) = [o for o in import_model(model).walk() if isinstance(o, G.ConvTransposeOp)]
    (got,) = evaluate(op, [x, *inits.values()])  # the numpy form
    np.testing.assert_allclose(got, run_onnxruntime(model, {"x": x})[0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode, padding, align", [
    ("linear", "zeros", 0), ("linear", "border", 1), ("nearest", "reflection", 0),
    ("nearest", "zeros", 1), ("cubic", "border", 0), ("cubic", "reflection", 1),
])
def test_grid_sample_matches_onnxruntime(mode: str, padding: str, align: int) -> None:
    x_shape, grid_shape = [2, 3, 7, 9], [2, 5, 6, 2]
    model = node_model(
        "GridSample", [("x", TP.FLOAT, x_shape), ("grid", TP.FLOAT, grid_shape)],
        {"mode": mode, "padding_mode": padding, "align_corners": align}, opset=20)
    rng = np.random.default_rng(3)
    feeds = {"x": rng.standard_normal(x_shape).astype(np.float32),
             # past [-1, 1] too, so every padding mode is exercised
             "grid": rng.uniform(-1.6, 1.6, grid_shape).astype(np.float32)}
    check_against_onnxruntime(model, feeds)


@pytest.mark.parametrize("attrs", [
    {"kernel_shape": [3, 2], "p": 3, "strides": [2, 1], "pads": [1, 0, 1, 1]},
    {"kernel_shape": [2, 3], "auto_pad": "SAME_UPPER"},
    {"kernel_shape": [3, 3], "p": 1, "dilations": [2, 1], "ceil_mode": 1, "strides": [2, 2]},
])
def test_lp_pool_matches_onnxruntime(attrs: dict[str, object]) -> None:
    shape = [2, 3, 9, 11]
    model = node_model("LpPool", [("x", TP.FLOAT, shape)], attrs, opset=18)
    x = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    check_against_onnxruntime(model, {"x": x})


@pytest.mark.parametrize(("p", "opset"), [(1, 2), (2, 2), (3, 2)])
def test_global_lp_pool_matches_onnxruntime(p: float, opset: int) -> None:
    m = node_model("GlobalLpPool", [("x", TP.FLOAT, ["N", 3, 5, "W"])], {"p": p}, opset=opset)
    rng = np.random.default_rng(3)
    check_against_onnxruntime(m, [{"x": rng.standard_normal((n, 3, 5, w)).astype(np.float32)}
                                  for n, w in ((1, 4), (2, 7))])


@pytest.mark.parametrize("scale", [1.0, 0.25])
def test_max_roi_pool_matches_onnxruntime(scale: float) -> None:
    """Rois inside, across and outside the image (empty bins give 0), of both images, at
    two roi counts from one compile; a batch index past the images fails the run."""
    m = node_model("MaxRoiPool", [("x", TP.FLOAT, [2, 3, 8, 10]), ("rois", TP.FLOAT, ["R", 5])],
                   {"pooled_shape": [3, 2], "spatial_scale": scale})
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 3, 8, 10)).astype(np.float32)
    rois = np.array([[0, 1, 1, 6, 5], [1, 0, 0, 9, 7], [1, 5.5, 2.5, 30, 20],
                     [0, 20, 20, 40, 40], [1, 3, 3, 3, 3]], np.float32) / [1, scale, scale,
                                                                           scale, scale]
    rois = rois.astype(np.float32)
    compiled = check_against_onnxruntime(m, [{"x": x, "rois": rois}, {"x": x, "rois": rois[:2]}])
    bad = rois[:1].copy()
    bad[0, 0] = 2
    with pytest.raises(infer.ShapeError, match="out of range"):
        compiled.run({"x": x, "rois": bad})


@pytest.mark.parametrize("runtime", [False, True], ids=["constant", "runtime"])
def test_col2im_matches_onnxruntime(runtime: bool) -> None:
    image, block = np.array([9, 8], np.int64), np.array([3, 2], np.int64)
    attrs = {"strides": [2, 1], "pads": [1, 0, 2, 1], "dilations": [1, 2]}
    blocks = (9 + 3 - 3) // 2 + 1, (8 + 1 - 3) // 1 + 1
    shape = [2, 3 * 6, blocks[0] * blocks[1]]
    shapes = {"image": image, "block": block}
    inputs = [("x", TP.FLOAT, shape)] + (
        [(k, TP.INT64, [2]) for k in shapes] if runtime else [])
    model = node_model("Col2Im", inputs, attrs, {} if runtime else shapes, opset=18,
                       node_inputs=["x", "image", "block"])
    feeds = {"x": np.random.default_rng(5).standard_normal(shape).astype(np.float32)}
    check_against_onnxruntime(model, {**feeds, **(shapes if runtime else {})})


def test_max_unpool_of_max_pool_matches_onnxruntime() -> None:
    pool = {"kernel_shape": [3, 2], "strides": [2, 2], "pads": [1, 0, 1, 0]}
    pooling = make_model([helper.make_node("MaxPool", ["x"], ["p", "i"], **pool)],
                         [("x", TP.FLOAT, [2, 3, 9, 8])],
                         [("p", TP.FLOAT, [2, 3, 5, 4]), ("i", TP.INT64, [2, 3, 5, 4])],
                         opset=11)
    x = np.random.default_rng(6).standard_normal([2, 3, 9, 8]).astype(np.float32)
    p, i = run_onnxruntime(pooling, {"x": x})  # the indices MaxUnpool takes
    model = node_model("MaxUnpool", [("p", TP.FLOAT, [2, 3, 5, 4]),
                                     ("i", TP.INT64, [2, 3, 5, 4])], pool, opset=11)
    check_against_onnxruntime(model, {"p": p, "i": i})


def test_max_unpool_refuses_an_index_outside_at_run_time() -> None:
    model = node_model("MaxUnpool", [("x", TP.FLOAT, [1, 1, 2, 2]), ("i", TP.INT64, [1, 1, 2, 2])],
                       {"kernel_shape": [2, 2], "strides": [2, 2]}, opset=11)
    compiled = infer.compile(model)
    x = np.ones([1, 1, 2, 2], np.float32)
    with pytest.raises(InferError, match="out of range|outside|index"):
        compiled.run({"x": x, "i": np.array([0, 5, 16, 3], np.int64).reshape(1, 1, 2, 2)})


@pytest.mark.parametrize("attrs", [
    {"output_height": 3, "output_width": 4, "spatial_scale": 0.5},
    {"output_height": 2, "output_width": 3, "sampling_ratio": 2, "mode": "max",
     "coordinate_transformation_mode": "output_half_pixel"},
])
def test_roi_align_matches_onnxruntime(attrs: dict[str, object]) -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal([2, 3, 10, 12]).astype(np.float32)
    # corners inside, past the image and reversed (an empty roi)
    rois = np.array([[1.0, 2.0, 15.0, 9.5], [-4.0, 0.5, 6.0, 30.0], [20.0, 12.0, 3.0, 2.0],
                     [0.0, 0.0, 23.0, 19.0]], np.float32)
    batch = np.array([0, 1, 1, 0], np.int64)
    model = node_model("RoiAlign", [("x", TP.FLOAT, [2, 3, 10, 12]), ("rois", TP.FLOAT, [4, 4]),
                                    ("b", TP.INT64, [4])], attrs, opset=16)
    check_against_onnxruntime(model, {"x": x, "rois": rois, "b": batch})


@pytest.mark.parametrize("align, runtime", [(0, False), (1, True)])
def test_affine_grid_matches_onnxruntime(align: int, runtime: bool) -> None:
    size = np.array([2, 3, 5, 7], np.int64)
    theta = np.random.default_rng(8).standard_normal([2, 2, 3]).astype(np.float32)
    inputs = [("theta", TP.FLOAT, [2, 2, 3])] + ([("size", TP.INT64, [4])] if runtime else [])
    model = node_model("AffineGrid", inputs, {"align_corners": align},
                       {} if runtime else {"size": size}, opset=20)
    check_against_onnxruntime(model, {"theta": theta, **({"size": size} if runtime else {})})


def test_affine_grid_checks_sizes_batch_at_run_time() -> None:
    """size's N, read at run time, must be theta's N (a dynamic batch): a shape error,
    not a grid of theta's batch that ignores it."""
    model = make_model([helper.make_node("AffineGrid", ["theta", "size"], ["g"])],
                       [("theta", TP.FLOAT, ["n", 2, 3]), ("size", TP.INT64, [4])],
                       [("g", TP.FLOAT, ["n", "h", "w", 2])], opset=20)
    compiled = infer.compile(model)
    theta = np.tile(np.array([[1, 0, 0], [0, 1, 0]], np.float32), (2, 1, 1))
    assert compiled.run({"theta": theta, "size": np.array([2, 1, 3, 4])})["g"].shape == (
        2, 3, 4, 2)
    with pytest.raises(InferError, match="theta's and size's N differ: 2 and 3"):
        compiled.run({"theta": theta, "size": np.array([3, 1, 3, 4])})


def test_upsample_is_resize_10() -> None:
    """Upsample-7 (scales an attribute) and -9 (scales an input, here a run-time one)."""
    x = np.random.default_rng(3).standard_normal((1, 2, 3, 4)).astype(np.float32)
    v7 = make_model([helper.make_node("Upsample", ["x"], ["y"], scales=[1.0, 1.0, 2.0, 1.5])],
                    [("x", TP.FLOAT, [1, 2, 3, 4])], [("y", TP.FLOAT, [1, 2, 6, 6])], opset=7)
    check_against_onnxruntime(v7, {"x": x})
    for mode in ("nearest", "linear"):
        v9 = make_model([helper.make_node("Upsample", ["x", "s"], ["y"], mode=mode)],
                        [("x", TP.FLOAT, [1, 2, 3, 4]), ("s", TP.FLOAT, [4])],
                        [("y", TP.FLOAT, [1, 2, "H", "W"])], opset=9)
        check_against_onnxruntime(v9, {"x": x, "s": np.array([1, 1, 3, 2], np.float32)})


DEFORM = {  # (x shape, W shape, attributes)
    "plain": ((2, 2, 5, 6), (3, 2, 3, 3), {}),
    "pads_strides": ((1, 4, 7, 7), (4, 2, 3, 2), {"pads": [1, 0, 2, 1], "strides": [2, 1],
                                                   "group": 2}),
    "dilated_offset_groups": ((1, 4, 8, 8), (2, 4, 2, 2), {"dilations": [2, 3],
                                                          "offset_group": 2}),
}


def _window_out(size: int, k: int, stride: int, dilation: int, pad: int) -> int:
    return (size + pad - dilation * (k - 1) - 1) // stride + 1


@pytest.mark.slow
@pytest.mark.parametrize("name", DEFORM)
@pytest.mark.parametrize("with_mask", [False, True])
def test_deform_conv_matches_onnxruntime(name: str, with_mask: bool) -> None:
    """Offsets move taps by up to 3 pixels, past X's edges too (read as zeros), at two
    batch sizes from one compile."""
    x_shape, w_shape, attrs = DEFORM[name]
    rng = np.random.default_rng(1)
    strides, dilations = attrs.get("strides", [1, 1]), attrs.get("dilations", [1, 1])
    pads = attrs.get("pads", [0, 0, 0, 0])
    oh, ow = (_window_out(x_shape[2 + i], w_shape[2 + i], strides[i], dilations[i],
                          pads[i] + pads[2 + i]) for i in range(2))
    taps = attrs.get("offset_group", 1) * w_shape[2] * w_shape[3]
    names = ["x", "w", "offset", "b"] + (["mask"] if with_mask else [])
    inputs = [("x", TP.FLOAT, ["N", *x_shape[1:]]), ("w", TP.FLOAT, w_shape),
              ("offset", TP.FLOAT, ["N", 2 * taps, oh, ow]), ("b", TP.FLOAT, [w_shape[0]])]
    if with_mask:
        inputs.append(("mask", TP.FLOAT, ["N", taps, oh, ow]))
    m = make_model([helper.make_node("DeformConv", names, ["y"], **attrs)], inputs,
                   [("y", TP.FLOAT, ["N", w_shape[0], oh, ow])], opset=19)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    b = rng.standard_normal(w_shape[0]).astype(np.float32)
    feeds = []
    for n in (x_shape[0], 1):
        f = {"x": x[:n], "w": w, "b": b,
             "offset": (rng.random((n, 2 * taps, oh, ow)) * 6 - 3).astype(np.float32)}
        if with_mask:
            f["mask"] = rng.random((n, taps, oh, ow)).astype(np.float32)
        feeds.append(f)
    check_against_onnxruntime(m, feeds, rtol=1e-4, atol=1e-4)

"""Vision ops: resizing, transposed convolution, sampling grids and the other image-space ops."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import DYN, Dim
from infer.dialects.graph.base import TRAITS, GraphOp, const_ints, spatial_attrs, window_out
from infer.dialects.graph.nn import PoolOp
from infer.dialects.graph.types import float_attr, int_attr, is_float

RESIZE_MODES = ("nearest", "linear", "cubic")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
COORDINATE_MODES = (
    "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
    "asymmetric", "tf_crop_and_resize", "tf_half_pixel_for_nn",
)
POLICIES = ("stretch", "not_larger", "not_smaller")


@dataclass
class Taps:
    """How one resized axis reads its input: output position o is
    sum_k weights[o, k] * x[index[o, k]] (indices already clamped into the input), or the
    extrapolation value where `outside[o]` (tf_crop_and_resize, None if never)."""

    index: np.ndarray  # int64 [out, K]
    weights: np.ndarray  # float64 [out, K]
    outside: np.ndarray | None  # bool [out]


@irdl_op_definition
class ResizeOp(GraphOp):
    """Resize along `axes` (the others are copied), ONNX's Resize with its operands
    resolved by the importer: `target` holds one entry per axis, the output sizes (i64)
    or the scales (a float type; size = floor(scale * width)); `roi`, with
    tf_crop_and_resize only, the crop window [starts..., ends...] per axis. Each axis's
    coordinates are mapped by `coordinate_transformation_mode` and interpolated by
    `mode` (`resize_taps` is the numpy form of the sampling; the lowering computes the
    same tables at run time, so target and roi may be run-time values)."""

    name = "graph.resize"
    ONNX_OP: ClassVar[str | None] = "Resize"
    X = operand_def(TensorType)
    target = operand_def(TensorType)
    roi = var_operand_def(TensorType)
    Y = result_def(TensorType)
    axes = prop_def(DenseArrayBase)
    mode = prop_def(StringAttr, default_value=StringAttr("nearest"))
    coordinate_transformation_mode = prop_def(StringAttr, default_value=StringAttr("half_pixel"))
    nearest_mode = prop_def(StringAttr, default_value=StringAttr("round_prefer_floor"))
    cubic_coeff_a = prop_def(FloatAttr, default_value=float_attr(-0.75))
    exclude_outside = prop_def(IntegerAttr, default_value=int_attr(0))
    extrapolation_value = prop_def(FloatAttr, default_value=float_attr(0.0))
    antialias = prop_def(IntegerAttr, default_value=int_attr(0))
    keep_aspect_ratio_policy = prop_def(StringAttr, default_value=StringAttr("stretch"))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        for name, allowed in (("mode", RESIZE_MODES), ("nearest_mode", NEAREST_MODES),
                              ("coordinate_transformation_mode", COORDINATE_MODES),
                              ("keep_aspect_ratio_policy", POLICIES)):
            if cls.prop(props, name) not in allowed:
                raise VerifyException(f"'graph.resize' {name} must be one of {allowed}")
        mode = cls.prop(props, "mode")
        ctm = cls.prop(props, "coordinate_transformation_mode")
        if mode != "nearest" and not is_float(types[0].element_type):
            raise VerifyException(f"'graph.resize' mode {mode} needs a float tensor")
        if mode == "nearest" and cls.prop(props, "antialias"):
            raise VerifyException("'graph.resize' antialias needs mode linear or cubic")
        n = len(cls.prop(props, "axes"))
        target = types[1]
        if target.get_shape() != (n,) or not (
                target.element_type == i64 or is_float(target.element_type)):
            raise VerifyException(f"'graph.resize' target must be {n} sizes (i64) or scales")
        crop = ctm == "tf_crop_and_resize"
        if crop != (len(types) == 3) or (crop and (
                types[2].get_shape() != (2 * n,) or not is_float(types[2].element_type))):
            raise VerifyException(
                "'graph.resize' takes a float roi of 2 values per axis with tf_crop_and_resize only"
            )

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = list(dims[0])
        axes = cls.prop(props, "axes")
        if any(not 0 <= a < len(x) for a in axes) or len(set(axes)) != len(axes):
            raise ValueError(f"axes {axes} are not distinct axes of rank {len(x)}")
        width = [x[a] for a in axes]
        if consts[1] is None or not all(isinstance(w, int) for w in width):
            for a in axes:  # computed at run time
                x[a] = DYN
            return [x]
        sizes, _ = resize_plan(props, cast(list[int], width), consts[1])
        for a, size in zip(axes, sizes, strict=True):
            x[a] = size
        return [x]

    def numpy(self, x: np.ndarray, target: np.ndarray, *roi: np.ndarray) -> np.ndarray:
        axes = self.prop(self.properties, "axes")
        sizes, scales = resize_plan(self.properties, [x.shape[a] for a in axes], target)
        window = roi[0].astype(np.float64).reshape(-1) if roi else None
        y = x.astype(np.float64)
        for i, a in enumerate(axes):
            crop = None if window is None else (window[i], window[len(axes) + i])
            taps = resize_taps(self.properties, x.shape[a], sizes[i], scales[i], crop)
            y = np.take(y, taps.index, axis=a)  # [..., out, K, ...]
            shape = (1,) * a + taps.weights.shape + (1,) * (x.ndim - a - 1)
            y = (y * taps.weights.reshape(shape)).sum(axis=a + 1)
            if taps.outside is not None:
                mask = taps.outside.reshape((1,) * a + (-1,) + (1,) * (x.ndim - a - 1))
                y = np.where(mask, self.extrapolation_value.value.data, y)
        return y


def resize_plan(props: Mapping[str, Attribute], width: list[int], target: np.ndarray
                ) -> tuple[list[int], list[float]]:
    """The output size and the scale of each resized axis: from sizes, scale = size /
    width (one scale for all axes under keep_aspect_ratio_policy not_larger / not_smaller,
    the smallest / largest, and sizes rounded from it); from scales, size =
    floor(scale * width)."""
    values = target.reshape(-1)
    if target.dtype.kind == "f":
        scales = [float(s) for s in values]
        if any(not s > 0 for s in scales):
            raise ValueError(f"scales {scales} must be positive")
        return [math.floor(s * w) for s, w in zip(scales, width, strict=True)], scales
    sizes = [int(s) for s in values]
    if any(s < 0 for s in sizes):
        raise ValueError(f"sizes {sizes} must not be negative")
    scales = [s / w if w else 1.0 for s, w in zip(sizes, width, strict=True)]
    policy = ResizeOp.prop(props, "keep_aspect_ratio_policy")
    if policy == "stretch" or not scales:
        return sizes, scales
    one = min(scales) if policy == "not_larger" else max(scales)
    return [math.floor(one * w + 0.5) for w in width], [one] * len(width)


@irdl_op_definition
class ConvTransposeOp(GraphOp):
    """N-D transposed convolution, NCHW layout: X [N, C, in...], W [C, M/group, k...],
    optional bias B [M]; x[n, c, i] * w[c, m, k] adds to y[n, m, i * s + k * d - pb].
    pads [begin..., end...] crop the full output s * (in - 1) + (k - 1) * d + 1 (negative
    ones extend it with zeros: the importer folds output_padding and output_shape into
    them)."""

    name = "graph.conv_transpose"
    ONNX_OP: ClassVar[str | None] = "ConvTranspose"
    FLOAT_ONLY: ClassVar[bool] = True
    X = operand_def(TensorType)
    W = operand_def(TensorType)
    B = var_operand_def(TensorType)
    Y = result_def(TensorType)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    group = prop_def(IntegerAttr, default_value=int_attr(1))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if any(t.element_type != types[0].element_type for t in types):
            raise VerifyException("'graph.conv_transpose' operands must have one element type")
        if len(types) > 3:
            raise VerifyException("'graph.conv_transpose' takes at most a bias")

    @classmethod
    def attrs(cls, props: Mapping[str, Attribute], n: int
              ) -> tuple[list[int], list[int], list[int], int]:
        """strides, dilations, pads and group, defaults filled in."""
        strides = cls.prop(props, "strides") or [1] * n
        dilations = cls.prop(props, "dilations") or [1] * n
        pads = cls.prop(props, "pads") or [0] * (2 * n)
        if len(strides) != n or len(dilations) != n or len(pads) != 2 * n:
            raise ValueError(f"strides/dilations/pads do not match {n} spatial dims")
        if min(strides, default=1) < 1 or min(dilations, default=1) < 1:
            raise ValueError("strides and dilations must be >= 1")
        return strides, dilations, pads, cls.prop(props, "group")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, w = dims[0], dims[1]
        if len(x) < 3 or len(w) != len(x):
            raise ValueError(f"X {D.format_shape(x)} and W {D.format_shape(w)} must have one "
                             "rank >= 3")
        n = len(x) - 2
        strides, dilations, pads, g = cls.attrs(props, n)
        if g < 1 or not all(isinstance(k, int) for k in w[1:]):
            raise ValueError("group must be >= 1 and W's dims but the first static")
        if isinstance(x[1], int) and x[1] % g:
            raise ValueError(f"{x[1]} input channels do not split into {g} groups")
        D.require(D.EQUAL, x[1], w[0], "input channels and W's first dim")
        m = cast(int, w[1]) * g
        if len(dims) == 3 and dims[2] != [m]:
            raise ValueError(f"bias {D.format_shape(dims[2])} must be [{m}]")
        out = []
        for i in range(n):
            full = strides[i] * (x[2 + i] - 1) + (cast(int, w[2 + i]) - 1) * dilations[i] + 1
            size = full - (pads[i] + pads[n + i])
            if isinstance(size, int) and size < 0:
                raise ValueError(f"pads {pads} crop spatial dim {i} below size 0")
            D.require(D.AT_LEAST, size, 0, f"output dim {i}")
            out.append(size)
        return [[x[0], m, *out]]

    def numpy(self, x: np.ndarray, w: np.ndarray, *bias: np.ndarray) -> np.ndarray:
        n = x.ndim - 2
        strides, dilations, pads, g = self.attrs(self.properties, n)
        batch, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
        mg, kernel = w.shape[1], w.shape[2:]
        full = [s * (i - 1) + (k - 1) * d + 1
                for s, i, k, d in zip(strides, spatial, kernel, dilations, strict=True)]
        y = np.zeros((batch, g, mg, *full))
        xg = x.reshape(batch, g, c // g, *spatial).astype(np.float64)
        wg = w.reshape(g, c // g, mg, *kernel).astype(np.float64)
        for k in np.ndindex(*kernel):
            at = tuple(slice(kk * d, kk * d + s * (i - 1) + 1, s)
                       for kk, d, s, i in zip(k, dilations, strides, spatial, strict=True))
            y[(slice(None),) * 3 + at] += np.einsum("ngc...,gcm->ngm...", xg, wg[(...,) + k])
        y = y.reshape(batch, g * mg, *full)
        # pads crop the full output (negative: zeros beyond it)
        y = np.pad(y, [(0, 0), (0, 0)] + [(max(0, -pads[i]), max(0, -pads[n + i]))
                                          for i in range(n)])
        y = y[(slice(None),) * 2 + tuple(
            slice(max(0, pads[i]), y.shape[2 + i] - max(0, pads[n + i])) for i in range(n))]
        if bias:
            y = y + bias[0].reshape(-1, *([1] * n))
        return y


@irdl_op_definition
class GridSampleOp(GraphOp):
    """Y[n, c, o...] = X[n, c] sampled at grid[n, o...] (normalized coordinates in
    [-1, 1], innermost spatial dim first), interpolated by `mode` (nearest rounds half to
    even; cubic is Keys' with A = -0.75); points outside read 0, the border or a
    reflection by `padding_mode`. ONNX's GridSample, N-D since opset 20."""

    name = "graph.grid_sample"
    ONNX_OP: ClassVar[str | None] = "GridSample"
    FOLDABLE: ClassVar[bool] = False  # the grid is data: nothing to fold ahead of time
    FLOAT_ONLY: ClassVar[bool] = True
    X = operand_def(TensorType)
    grid = operand_def(TensorType)
    Y = result_def(TensorType)
    mode = prop_def(StringAttr, default_value=StringAttr("linear"))
    padding_mode = prop_def(StringAttr, default_value=StringAttr("zeros"))
    align_corners = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if cls.prop(props, "mode") not in RESIZE_MODES:
            raise VerifyException(f"'graph.grid_sample' mode must be one of {RESIZE_MODES}")
        if cls.prop(props, "padding_mode") not in ("zeros", "border", "reflection"):
            raise VerifyException("'graph.grid_sample' padding_mode must be zeros, border "
                                  "or reflection")
        if types[1].element_type != types[0].element_type:
            raise VerifyException("'graph.grid_sample' grid must have X's element type")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, grid = dims
        n = len(x) - 2
        if n < 1 or len(grid) != n + 2 or grid[-1] != n:
            raise ValueError(f"grid {D.format_shape(grid)} must be [N, out..., {n}] for X "
                             f"{D.format_shape(x)}")
        D.require(D.EQUAL, grid[0], x[0], "grid's and X's batch")
        return [[x[0], x[1], *grid[1:-1]]]


@irdl_op_definition
class LpPoolOp(PoolOp):
    """y = (sum over the window's taps inside X of |x|^p)^(1/p); the padding adds 0."""

    name = "graph.lp_pool"
    ONNX_OP: ClassVar[str | None] = "LpPool"
    FOLDABLE: ClassVar[bool] = False
    p = prop_def(IntegerAttr, default_value=int_attr(2))

    @classmethod
    def check(cls, props, types):
        if cls.prop(props, "p") < 1:
            raise VerifyException("'graph.lp_pool' p must be >= 1")


@irdl_op_definition
class Col2ImOp(GraphOp):
    """Col2Im: the columns input [N, C * prod(block), L] of the sliding blocks (im2col's
    layout) summed back into an image [N, C, *image_shape]; image_shape and block_shape
    are 1-D i64 operands, constant or run-time."""

    name = "graph.col2im"
    ONNX_OP: ClassVar[str | None] = "Col2Im"
    FOLDABLE: ClassVar[bool] = False
    FLOAT_ONLY: ClassVar[bool] = True
    input = operand_def(TensorType)
    image_shape = operand_def(TensorType)
    block_shape = operand_def(TensorType)
    output = result_def(TensorType)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if len(types[0].get_shape()) != 3:
            raise VerifyException("'graph.col2im' input must be [N, C * prod(block), L]")
        n = types[1].get_shape()
        if (types[1].element_type != i64 or types[2].element_type != i64 or len(n) != 1
                or n[0] < 1 or types[2].get_shape() != n):
            raise VerifyException("'graph.col2im' image_shape and block_shape must be 1-D "
                                  "i64 tensors of one static length")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        n = dims[1][0]
        image = const_ints(consts, 1)
        block = const_ints(consts, 2)
        channels: Dim = DYN
        if block is not None and isinstance(x[1], int):
            if min(block) < 1 or x[1] % math.prod(block):
                raise ValueError(f"{x[1]} channels are not C x the block {block}")
            channels = x[1] // math.prod(block)
        if image is not None and block is not None and isinstance(x[2], int):
            strides = cls.prop(props, "strides") or [1] * len(image)
            dilations = cls.prop(props, "dilations") or [1] * len(image)
            pads = cls.prop(props, "pads") or [0] * (2 * len(image))
            if len(strides) != len(image) or len(dilations) != len(image) or len(
                    pads) != 2 * len(image):
                raise ValueError(f"strides/dilations/pads do not match {len(image)} dims")
            blocks = [(size + pads[i] + pads[len(image) + i] - (k - 1) * dilations[i] - 1)
                      // strides[i] + 1 for i, (size, k) in enumerate(zip(image, block,
                                                                          strict=True))]
            if min(blocks) < 1 or math.prod(blocks) != x[2]:
                raise ValueError(f"L = {x[2]} is not the {blocks} blocks of image {image}")
        return [[x[0], channels, *(image if image is not None else [DYN] * cast(int, n))]]


@irdl_op_definition
class MaxUnpoolOp(GraphOp):
    """MaxUnpool: zeros of the pooled-from shape (s * (in - 1) + k - pb - pe per spatial
    dim), X's values stored at I's flat indices into it; with output_shape (a 1-D i64
    operand, constant or run-time) that block is the leading corner of a larger zero
    output, as ONNX's reference places it."""

    name = "graph.max_unpool"
    ONNX_OP: ClassVar[str | None] = "MaxUnpool"
    FOLDABLE: ClassVar[bool] = False
    X = operand_def(TensorType)
    I = operand_def(TensorType)  # noqa: E741 - ONNX's name
    output_shape = var_operand_def(TensorType)
    Y = result_def(TensorType)
    kernel_shape = prop_def(DenseArrayBase)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if types[1].element_type != i64 or types[1].get_shape() != types[0].get_shape():
            raise VerifyException("'graph.max_unpool' I must be i64 indices of X's shape")
        rank = len(types[0].get_shape())
        if len(types) == 3 and (types[2].element_type != i64
                                or types[2].get_shape() != (rank,)):
            raise VerifyException(f"'graph.max_unpool' output_shape must be {rank} i64s")

    @classmethod
    def pooled_dims(cls, props: Mapping[str, Attribute], x: list[Dim]) -> list[Dim]:
        """The shape I's flat indices address."""
        kernel = cls.prop(props, "kernel_shape")
        n = len(kernel)
        strides = cls.prop(props, "strides") or [1] * n
        pads = cls.prop(props, "pads") or [0] * (2 * n)
        if len(x) != n + 2 or len(strides) != n or len(pads) != 2 * n:
            raise ValueError(f"kernel_shape/strides/pads do not match X of rank {len(x)}")
        return [x[0], x[1], *[(x[2 + i] - 1) * strides[i] - (pads[i] + pads[n + i])
                              + kernel[i] for i in range(n)]]

    @classmethod
    def output_dims(cls, props, dims, consts):
        pooled = cls.pooled_dims(props, dims[0])
        if len(dims) < 3:
            return [pooled]
        shape = const_ints(consts, 2)
        if shape is None:
            return [[DYN] * len(pooled)]
        for i, (o, p) in enumerate(zip(shape, pooled, strict=True)):
            D.require(D.AT_LEAST, o, p, f"output_shape dim {i}")
        return [shape]


@irdl_op_definition
class RoiAlignOp(GraphOp):
    """RoiAlign: Y [R, C, output_height, output_width], each bin of roi r (x1, y1, x2, y2,
    times spatial_scale) of image batch_indices[r] the average (or max) of its bilinear
    samples, sampling_ratio per bin and dim (0: ceil(roi size / bins))."""

    name = "graph.roi_align"
    ONNX_OP: ClassVar[str | None] = "RoiAlign"
    FOLDABLE: ClassVar[bool] = False
    FLOAT_ONLY: ClassVar[bool] = True
    X = operand_def(TensorType)
    rois = operand_def(TensorType)
    batch_indices = operand_def(TensorType)
    Y = result_def(TensorType)
    coordinate_transformation_mode = prop_def(StringAttr, default_value=StringAttr("half_pixel"))
    mode = prop_def(StringAttr, default_value=StringAttr("avg"))
    output_height = prop_def(IntegerAttr, default_value=int_attr(1))
    output_width = prop_def(IntegerAttr, default_value=int_attr(1))
    sampling_ratio = prop_def(IntegerAttr, default_value=int_attr(0))
    spatial_scale = prop_def(FloatAttr, default_value=float_attr(1.0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if cls.prop(props, "mode") not in ("avg", "max"):
            raise VerifyException("'graph.roi_align' mode must be avg or max")
        if cls.prop(props, "coordinate_transformation_mode") not in ("half_pixel",
                                                                     "output_half_pixel"):
            raise VerifyException("'graph.roi_align' coordinate_transformation_mode must be "
                                  "half_pixel or output_half_pixel")
        if types[1].element_type != types[0].element_type or types[2].element_type != i64:
            raise VerifyException("'graph.roi_align' takes rois of X's type, i64 indices")
        if min(cls.prop(props, "output_height"), cls.prop(props, "output_width")) < 1:
            raise VerifyException("'graph.roi_align' output dims must be >= 1")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, rois, idx = dims
        if len(x) != 4 or len(rois) != 2 or rois[1] != 4 or len(idx) != 1:
            raise ValueError("RoiAlign takes X [N, C, H, W], rois [R, 4], batch_indices [R]")
        D.require(D.EQUAL, rois[0], idx[0], "rois and batch_indices")
        return [[rois[0], x[1], cls.prop(props, "output_height"),
                 cls.prop(props, "output_width")]]


@irdl_op_definition
class MaxRoiPoolOp(GraphOp):
    """MaxRoiPool (Fast R-CNN): Y [R, C, pooled_h, pooled_w], each bin of roi r (batch
    index, x1, y1, x2, y2; the corners times spatial_scale, rounded half away from zero)
    the max of its pixels, 0 when it holds none."""

    name = "graph.max_roi_pool"
    ONNX_OP: ClassVar[str | None] = "MaxRoiPool"
    FOLDABLE: ClassVar[bool] = False
    FLOAT_ONLY: ClassVar[bool] = True
    X = operand_def(TensorType)
    rois = operand_def(TensorType)
    Y = result_def(TensorType)
    pooled_shape = prop_def(DenseArrayBase)
    spatial_scale = prop_def(FloatAttr, default_value=float_attr(1.0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if types[1].element_type != types[0].element_type:
            raise VerifyException("'graph.max_roi_pool' takes rois of X's type")
        pooled = cls.prop(props, "pooled_shape")
        if len(pooled) != 2 or min(pooled) < 1:
            raise VerifyException("'graph.max_roi_pool' pooled_shape must be two dims >= 1, "
                                  f"got {pooled}")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, rois = dims
        if len(x) != 4 or len(rois) != 2 or rois[1] != 5:
            raise ValueError("MaxRoiPool takes X [N, C, H, W] and rois [R, 5]")
        return [[rois[0], x[1], *cls.prop(props, "pooled_shape")]]


@irdl_op_definition
class AffineGridOp(GraphOp):
    """AffineGrid: grid [N, *spatial, k] of the normalized coordinates theta[n] maps each
    output position to, size = [N, C, *spatial] (k = 2 or 3; a 1-D i64 operand,
    constant or run-time); positions are pixel centers in [-1, 1], or the corners with
    align_corners."""

    name = "graph.affine_grid"
    ONNX_OP: ClassVar[str | None] = "AffineGrid"
    FOLDABLE: ClassVar[bool] = False
    FLOAT_ONLY: ClassVar[bool] = True
    theta = operand_def(TensorType)
    size = operand_def(TensorType)
    grid = result_def(TensorType)
    align_corners = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        k = types[0].get_shape()
        if len(k) != 3 or k[1] not in (2, 3) or k[2] != k[1] + 1:
            raise VerifyException("'graph.affine_grid' theta must be [N, 2, 3] or [N, 3, 4]")
        if types[1].element_type != i64 or types[1].get_shape() != (k[1] + 2,):
            raise VerifyException(f"'graph.affine_grid' size must be {k[1] + 2} i64s")

    @classmethod
    def output_dims(cls, props, dims, consts):
        theta = dims[0]
        k = cast(int, theta[1])
        size = const_ints(consts, 1)
        if size is None:
            return [[theta[0], *[DYN] * k, k]]
        D.require(D.EQUAL, theta[0], size[0], "theta's and size's N")
        if min(size[2:]) < 0:
            raise ValueError(f"size {size} has a negative dim")
        return [[theta[0], *size[2:], k]]


def _source_coordinates(
    ctm: str, out: int, width: int, scale: float, roi: tuple[float, float] | None
) -> np.ndarray:
    """The input coordinate each output position samples (ONNX's Resize formulas)."""
    y = np.arange(out, dtype=np.float64)
    length = scale * width  # the output length before rounding
    if ctm == "align_corners":
        return np.zeros(out) if length == 1 else y * (width - 1) / (length - 1)
    if ctm == "asymmetric":
        return y / scale
    if ctm == "tf_crop_and_resize":
        assert roi is not None
        start, end = roi
        if length == 1:
            return np.full(out, (end - start) * (width - 1) / 2) + start * (width - 1)
        return y * (end - start) * (width - 1) / (length - 1) + start * (width - 1)
    if ctm == "pytorch_half_pixel":
        return np.full(out, -0.5) if length == 1 else (y + 0.5) / scale - 0.5
    if ctm == "tf_half_pixel_for_nn":
        return (y + 0.5) / scale
    if ctm == "half_pixel_symmetric":
        offset = width / 2 * (1 - out / length)
        return offset + (y + 0.5) / scale - 0.5
    return (y + 0.5) / scale - 0.5  # half_pixel


def _cubic(x: np.ndarray, a: float) -> np.ndarray:
    x = np.abs(x)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x <= 1, near, np.where(x < 2, far, 0.0))


def _coefficients(props: Mapping[str, Attribute], ratio: np.ndarray, scale: float
                  ) -> np.ndarray:
    """[out, K] interpolation weights of the K input points around each source coordinate
    (ratio in (0, 1]: its distance past the point left of it)."""
    prop = ResizeOp.prop
    mode = prop(props, "mode")
    r = ratio[:, None]
    if mode == "nearest":
        near = {
            "round_prefer_floor": r <= 0.5, "round_prefer_ceil": r < 0.5,
            "floor": np.ones_like(r, dtype=bool), "ceil": np.zeros_like(r, dtype=bool),
        }[prop(props, "nearest_mode")] & (r != 1)
        return np.concatenate([near, ~near], axis=1).astype(np.float64)
    a = prop(props, "cubic_coeff_a")
    if not prop(props, "antialias"):
        offsets = np.array([-1.0, 0.0, 1.0, 2.0] if mode == "cubic" else [0.0, 1.0])
        d = offsets[None, :] - r
        return _cubic(d, a) if mode == "cubic" else 1 - np.abs(d)
    # Antialias (downsampling only) widens the kernel by 1 / scale.
    s = min(scale, 1.0)
    support = 2 if mode == "cubic" else 1
    start = math.floor(-support / s) + 1
    d = (np.arange(start, 2 - start) - r) * s
    w = _cubic(d, a) if mode == "cubic" else np.clip(1 - np.abs(d), 0, 1)
    return w / w.sum(axis=1, keepdims=True)


def resize_taps(props: Mapping[str, Attribute], width: int, out: int, scale: float,
                crop: tuple[float, float] | None) -> Taps:
    """The sampling of one resized axis (input length `width`), as ONNX's reference
    computes it: the K points nearest the source coordinate (ties to the smaller index),
    indices past the ends clamped (edge padding) or, with exclude_outside, weighted 0."""
    prop = ResizeOp.prop
    ctm = prop(props, "coordinate_transformation_mode")
    x = _source_coordinates(ctm, out, width, scale, crop)
    left = np.floor(x)
    ratio = np.where(x == left, 1.0, x - left)
    w = _coefficients(props, ratio, scale)
    k = w.shape[1]
    pad = math.ceil(k / 2)
    padded = x + pad
    p = np.floor(padded).astype(np.int64)
    frac = padded - p
    if k % 2 == 0:
        offset = np.where(frac == 0, -(k // 2), -(k // 2) + 1)
    else:
        offset = np.where(frac <= 0.5, -((k - 1) // 2), -((k - 1) // 2) + 1)
    index = (p + offset)[:, None] + np.arange(k)[None, :] - pad
    if prop(props, "exclude_outside"):
        w = np.where((index < 0) | (index >= width), 0.0, w)
        total = w.sum(axis=1, keepdims=True)
        w = w / np.where(total == 0, 1.0, total)
    index = np.clip(index, 0, width - 1)
    if prop(props, "mode") == "nearest":  # the one point of weight 1
        pick = np.argmax(w, axis=1)[:, None]
        index, w = np.take_along_axis(index, pick, 1), np.ones((out, 1))
    outside = (x < 0) | (x > width - 1) if ctm == "tf_crop_and_resize" else None
    return Taps(index, w, outside if outside is not None and outside.any() else None)


@irdl_op_definition
class DeformConvOp(GraphOp):
    """2-D convolution whose taps are moved by `offset` ([N, offset_group * kH * kW * 2,
    oH, oW], (dy, dx) per tap) and read bilinearly (zero outside X), each scaled by the
    optional `mask` ([N, offset_group * kH * kW, oH, oW]); B is the bias ([M])."""

    name = "graph.deform_conv"
    ONNX_OP: ClassVar[str | None] = "DeformConv"
    FLOAT_ONLY: ClassVar[bool] = True
    FOLDABLE: ClassVar[bool] = False  # its offsets come from a conv of the data
    X = operand_def(TensorType)
    W = operand_def(TensorType)
    offset = operand_def(TensorType)
    B = operand_def(TensorType)
    mask = var_operand_def(TensorType)
    Y = result_def(TensorType)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    group = prop_def(IntegerAttr, default_value=int_attr(1))
    offset_group = prop_def(IntegerAttr, default_value=int_attr(1))
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, w, offset, bias = dims[:4]
        if len(x) != 4 or len(w) != 4 or not all(isinstance(k, int) for k in w[2:]):
            raise ValueError("X and W must be 4-D, W's kernel dims static")
        kernel = cast(list[int], w[2:])
        g, og = cls.prop(props, "group"), cls.prop(props, "offset_group")
        if g < 1 or og < 1 or (isinstance(w[0], int) and w[0] % g):
            raise ValueError(f"group {g} / offset_group {og} do not divide the channels")
        D.require(D.EQUAL, x[1], w[1] * g, "input channels and W's x group")
        if isinstance(x[1], int) and x[1] % og:
            raise ValueError(f"offset_group {og} does not divide the input channels {x[1]}")
        strides, dilations, pads = spatial_attrs(props, 2, kernel)
        out = [window_out(x[2 + i], kernel[i], strides[i], dilations[i], pads[i], pads[2 + i])
               for i in range(2)]
        taps = og * kernel[0] * kernel[1]
        for i, (d, want) in enumerate(zip(offset, [x[0], 2 * taps, *out], strict=True)):
            D.require(D.EQUAL, d, want, f"offset's dim {i} and its expected")
        D.require(D.EQUAL, bias[0], w[0], "B's length and the output channels")
        if len(dims) > 4:
            for i, (d, want) in enumerate(zip(dims[4], [x[0], taps, *out], strict=True)):
                D.require(D.EQUAL, d, want, f"mask's dim {i} and its expected")
        return [[x[0], w[0], *out]]


__all__ = [
    "AffineGridOp", "Col2ImOp", "ConvTransposeOp", "DeformConvOp", "GridSampleOp", "LpPoolOp",
    "MaxRoiPoolOp", "MaxUnpoolOp", "ResizeOp", "RoiAlignOp", "Taps", "resize_plan", "resize_taps",
]

"""ONNX vision operators: Resize and Upsample, ConvTranspose, GridSample and their kin."""

from __future__ import annotations

from typing import cast

import numpy as np
from xdsl.dialects.builtin import i64

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    _axis,
    built_from_other_ops,
    dims,
    element,
)
from infer.frontend.onnx_ops.nn import _pool


def _resize(
    b: OpBuilder, x: Value, target: Value, roi: Value | None, axes: list[int] | None,
    **props: object,
) -> Value:
    """graph.resize of `axes` (all by default) to `target`, sizes or scales, constant or
    run-time; constant entries that leave their axis as it is drop it (so a dynamic batch
    dim stays the input's)."""
    shape = dims(x)
    rank = len(shape)
    axes = [_axis(a, rank) for a in axes] if axes is not None else list(range(rank))
    if len(set(axes)) != len(axes):
        raise NodeError(f"axes {axes} repeat an axis")
    if G.dims_of(target.type) != [len(axes)]:
        raise NodeError(f"scales / sizes {G.dims_of(target.type)} must have {len(axes)} entries")
    crop = props.get("coordinate_transformation_mode") == "tf_crop_and_resize"
    if crop and (roi is None or G.dims_of(roi.type) != [2 * len(axes)]):
        raise NodeError("tf_crop_and_resize needs roi, a start and an end per axis")
    if props.get("mode") in (None, "nearest"):
        props.pop("antialias", None)  # antialiasing filters linear and cubic only
    values = G.constant_value(target)
    if values is not None and not crop:
        scale = G.is_float(element(target))
        stretch = props.get("keep_aspect_ratio_policy") in (None, "stretch")
        keep = [i for i, (a, v) in enumerate(zip(axes, values, strict=True))
                if not (v == 1.0 if scale else v == shape[a] and stretch)]
        values = values[keep]
        target, axes = b.const(values), [axes[i] for i in keep]
    return b.emit1(G.ResizeOp, x, target, roi if crop else None, axes=axes, **props)


def _given(v: Value | None) -> Value | None:
    """None for an absent input or an empty constant (ONNX's two ways to omit one)."""
    if v is None:
        return None
    value = G.constant_value(v)
    return None if value is not None and value.size == 0 else v


def resize(
    b: OpBuilder,
    X: Value,
    roi: Value | None = None,
    scales: Value | None = None,
    sizes: Value | None = None,
    *,
    antialias: int | None = None,
    axes: list[int] | None = None,
    coordinate_transformation_mode: str | None = None,
    cubic_coeff_a: float | None = None,
    exclude_outside: int | None = None,
    extrapolation_value: float | None = None,
    keep_aspect_ratio_policy: str | None = None,
    mode: str | None = None,
    nearest_mode: str | None = None,
) -> Value:
    """Resize since opset 11 (13 makes roi and scales optional, 18 adds antialias, axes
    and keep_aspect_ratio_policy, 19 half_pixel_symmetric)."""
    scales, sizes = _given(scales), _given(sizes)
    if (scales is None) == (sizes is None):
        raise NodeError("exactly one of scales and sizes must be given")
    if sizes is not None and element(sizes) != i64:
        raise NodeError("sizes must be int64")
    if keep_aspect_ratio_policy not in (None, "stretch") and sizes is None:
        keep_aspect_ratio_policy = None  # it applies to sizes only
    return _resize(
        b, X, scales or sizes, roi, axes,  # type: ignore[arg-type]
        antialias=antialias, coordinate_transformation_mode=coordinate_transformation_mode,
        cubic_coeff_a=cubic_coeff_a, exclude_outside=exclude_outside,
        extrapolation_value=extrapolation_value, mode=mode, nearest_mode=nearest_mode,
        keep_aspect_ratio_policy=keep_aspect_ratio_policy,
    )


def resize_v10(b: OpBuilder, X: Value, scales: Value, *, mode: str | None = None) -> Value:
    """Resize before opset 11 (Upsample's semantics): asymmetric coordinates; nearest
    rounds down when upsampling and up when downsampling (onnxruntime's rule, which the
    spec leaves open), so it needs constant scales that do not do both."""
    if mode is None:
        mode = G.ResizeOp.prop({}, "mode")
    if mode not in ("nearest", "linear"):
        raise NodeError(f"mode must be nearest or linear, got '{mode}'")
    nearest = None
    if mode == "nearest":
        values = G.constant_value(scales)
        if values is None:
            raise Unsupported("nearest Resize-10 with run-time scales (its rounding "
                              "depends on whether an axis up- or downsamples)")
        if (values < 1).any() and (values > 1).any():
            raise Unsupported("nearest Resize-10 that upsamples some axes and "
                              "downsamples others")
        nearest = "ceil" if (values < 1).any() else "floor"
    return _resize(b, X, scales, None, None, coordinate_transformation_mode="asymmetric",
                   mode=mode, nearest_mode=nearest)


@built_from_other_ops
def upsample_v7(b: OpBuilder, X: Value, *, scales: list[float], mode: str = "nearest"  # noqa: N803
                ) -> Value:
    """Upsample is Resize-10 (scales an attribute before opset 9)."""
    return resize_v10(b, X, b.const(np.array(scales, np.float32)), mode=mode)


@built_from_other_ops
def upsample(b: OpBuilder, X: Value, scales: Value, *, mode: str = "nearest") -> Value:  # noqa: N803
    """Upsample is Resize-10 whose scales ONNX requires to be >= 1: nearest rounds down,
    with scales given at run time too."""
    values = G.constant_value(scales)
    if values is not None and (values < 1).any():
        raise NodeError(f"Upsample scales must be >= 1, got {values.tolist()}")
    if mode not in ("nearest", "linear"):
        raise NodeError(f"mode must be nearest or linear, got '{mode}'")
    return _resize(b, X, scales, None, None, coordinate_transformation_mode="asymmetric",
                   mode=mode, nearest_mode="floor" if mode == "nearest" else None)


def conv_transpose(
    b: OpBuilder,
    x: Value,
    w: Value,
    bias: Value | None = None,
    *,
    auto_pad: str = "NOTSET",
    dilations: list[int] | None = None,
    group: int | None = None,
    kernel_shape: list[int] | None = None,
    output_padding: list[int] | None = None,
    output_shape: list[int] | None = None,
    pads: list[int] | None = None,
    strides: list[int] | None = None,
) -> Value:
    """ConvTranspose with output_padding, output_shape and auto_pad resolved into pads
    [begin..., end...] (an end below 0 extends the output) as the spec says: output_shape
    or auto_pad SAME split the total padding, the odd one at the end for SAME_UPPER, at
    the beginning otherwise."""
    kernel = dims(w)[2:]
    if not all(isinstance(k, int) for k in kernel):
        raise Unsupported("the kernel's spatial dims must be static")
    if kernel_shape is not None and list(kernel_shape) != kernel:
        raise NodeError(f"kernel_shape {list(kernel_shape)} differs from W's dims {kernel}")
    n = len(kernel)
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    output_padding = output_padding or [0] * n
    if auto_pad not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        raise NodeError(f"invalid auto_pad '{auto_pad}'")
    if len(strides) != n or len(dilations) != n or len(output_padding) != n:
        raise NodeError(f"strides, dilations and output_padding need {n} values each")
    spatial = dims(x)[2:]
    if output_shape is not None:
        output_shape = list(output_shape)[-n:]
    # output_shape overrides pads; auto_pad SAME computes them when they are not given
    computed = output_shape is not None or (pads is None and auto_pad in ("SAME_UPPER",
                                                                          "SAME_LOWER"))
    if computed and not all(isinstance(d, int) for d in spatial):
        raise Unsupported("output_shape and auto_pad SAME need static spatial dims")
    begin = list(pads[:n]) if pads is not None else [0] * n
    end = list(pads[n:]) if pads is not None else [0] * n
    for i in range(n):
        if not computed:
            end[i] -= output_padding[i]
            continue
        size = cast(int, spatial[i])
        full = strides[i] * (size - 1) + (kernel[i] - 1) * dilations[i] + 1
        out = output_shape[i] if output_shape is not None else size * strides[i]
        total = full + output_padding[i] - out
        begin[i] = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
        end[i] = full - begin[i] - out
    return b.emit1(G.ConvTransposeOp, x, w, bias, strides=strides, pads=begin + end,
                   dilations=dilations, group=group)


def grid_sample(b: OpBuilder, X: Value, grid: Value, *, align_corners: int | None = None,
                mode: str | None = None, padding_mode: str | None = None) -> Value:
    """GridSample; opset 16's mode names (2-D only) bilinear and bicubic are 20's linear
    and cubic."""
    mode = {"bilinear": "linear", "bicubic": "cubic"}.get(mode or "linear", mode)
    return b.emit1(G.GridSampleOp, X, grid, mode=mode, padding_mode=padding_mode,
                   align_corners=align_corners)


def lp_pool(
    b: OpBuilder,
    x: Value,
    *,
    kernel_shape: list[int],
    auto_pad: str = "NOTSET",
    ceil_mode: int | None = None,
    dilations: list[int] | None = None,
    p: float | None = None,
    pads: list[int] | None = None,
    strides: list[int] | None = None,
) -> Value:
    """LpPool (p a float in opset 1, an int since 2; ceil_mode and dilations since 18)."""
    if p is not None and p != int(p):
        raise Unsupported(f"LpPool with a fractional p ({p})")
    return _pool(b, G.LpPoolOp, x, auto_pad, ceil_mode, dilations, kernel_shape, pads,
                 strides, p=None if p is None else int(p))


@built_from_other_ops
def global_lp_pool(b: OpBuilder, x: Value, *, p: float = 2) -> Value:
    """(sum over each image of |x|^p)^(1/p), as the reductions over the spatial axes
    (p a float in opset 1, an int since 2)."""
    if p != int(p) or p < 1:
        raise Unsupported(f"GlobalLpPool with p = {p} (a positive integer is supported)")
    axes = b.ints(range(2, len(dims(x))))
    if p in (1, 2):
        return b.emit1(G.ReduceL1Op if p == 1 else G.ReduceL2Op, x, axes, keepdims=1)
    dtype = G.numpy_dtype(element(x))
    powered = b.emit1(G.PowOp, b.emit1(G.AbsOp, x), b.const(np.array(p, dtype)))
    total = b.emit1(G.ReduceSumOp, powered, axes, keepdims=1)
    return b.emit1(G.PowOp, total, b.const(np.array(1 / p, dtype)))


def max_roi_pool(b: OpBuilder, X: Value, rois: Value, *, pooled_shape: list[int],  # noqa: N803
                 spatial_scale: float | None = None) -> Value:
    return b.emit1(G.MaxRoiPoolOp, X, rois, pooled_shape=pooled_shape,
                   spatial_scale=spatial_scale)


def col2im(b: OpBuilder, input: Value, image_shape: Value, block_shape: Value, *,
           dilations: list[int] | None = None, pads: list[int] | None = None,
           strides: list[int] | None = None) -> Value:
    return b.emit1(G.Col2ImOp, input, image_shape, block_shape, dilations=dilations,
                   pads=pads, strides=strides)


def max_unpool(b: OpBuilder, X: Value, I: Value, output_shape: Value | None = None, *,  # noqa: E741, N803
               kernel_shape: list[int], pads: list[int] | None = None,
               strides: list[int] | None = None) -> Value:
    return b.emit1(G.MaxUnpoolOp, X, I, output_shape, kernel_shape=kernel_shape, pads=pads,
                   strides=strides)


def roi_align(b: OpBuilder, X: Value, rois: Value, batch_indices: Value, *,
              coordinate_transformation_mode: str | None = None, mode: str | None = None,
              output_height: int | None = None, output_width: int | None = None,
              sampling_ratio: int | None = None, spatial_scale: float | None = None
              ) -> Value:
    """RoiAlign since opset 16 (opset 10 has no coordinate_transformation_mode: its
    mapping is output_half_pixel)."""
    return b.emit1(G.RoiAlignOp, X, rois, batch_indices,
                   coordinate_transformation_mode=coordinate_transformation_mode, mode=mode,
                   output_height=output_height, output_width=output_width,
                   sampling_ratio=sampling_ratio, spatial_scale=spatial_scale)


def roi_align_v10(b: OpBuilder, X: Value, rois: Value, batch_indices: Value, *,
                  mode: str | None = None, output_height: int | None = None,
                  output_width: int | None = None, sampling_ratio: int | None = None,
                  spatial_scale: float | None = None) -> Value:
    return roi_align(b, X, rois, batch_indices,
                     coordinate_transformation_mode="output_half_pixel", mode=mode,
                     output_height=output_height, output_width=output_width,
                     sampling_ratio=sampling_ratio, spatial_scale=spatial_scale)


def affine_grid(b: OpBuilder, theta: Value, size: Value, *, align_corners: int | None = None
                ) -> Value:
    return b.emit1(G.AffineGridOp, theta, size, align_corners=align_corners)


def deform_conv(b: OpBuilder, x: Value, w: Value, offset: Value, bias: Value | None = None,
                mask: Value | None = None, *, dilations: list[int] | None = None,
                group: int | None = None, kernel_shape: list[int] | None = None,
                offset_group: int | None = None, pads: list[int] | None = None,
                strides: list[int] | None = None) -> Value:
    if kernel_shape is not None and list(kernel_shape) != dims(w)[2:]:
        raise NodeError(f"kernel_shape {kernel_shape} differs from W's {dims(w)[2:]}")
    if bias is None:  # a zero bias: the op always adds one
        (m,) = dims(w)[:1]
        if not isinstance(m, int):
            raise Unsupported("W's output channels must be static without B")
        bias = b.const(np.zeros(m, G.numpy_dtype(element(x))))
    return b.emit1(G.DeformConvOp, x, w, offset, bias, mask, dilations=dilations,
                   group=group, offset_group=offset_group, pads=pads, strides=strides)


def non_max_suppression(b: OpBuilder, boxes: Value, scores: Value,
                        max_output_boxes_per_class: Value | None = None,
                        iou_threshold: Value | None = None,
                        score_threshold: Value | None = None, *,
                        center_point_box: int | None = None) -> Value:
    """Absent, max_output is 0 (nothing kept) and iou_threshold 0; an absent
    score_threshold filters nothing."""
    dtype = G.numpy_dtype(element(boxes))
    limit = max_output_boxes_per_class
    return b.emit1(G.NonMaxSuppressionOp, boxes, scores,
                   b.ints([0]) if limit is None else limit,
                   b.const(np.zeros(1, dtype)) if iou_threshold is None else iou_threshold,
                   score_threshold, center_point_box=center_point_box)


OPS: dict[str, dict[int, OpFn]] = {
    "DeformConv": {19: deform_conv},
    "NonMaxSuppression": {10: non_max_suppression, 11: non_max_suppression},
    "Resize": {10: resize_v10, 11: resize},
    "Upsample": {7: upsample_v7, 9: upsample},
    "ConvTranspose": {1: conv_transpose},
    "GridSample": {16: grid_sample},
    "LpPool": {1: lp_pool},
    "GlobalLpPool": {1: global_lp_pool},
    "MaxRoiPool": {1: max_roi_pool},
    "Col2Im": {18: col2im},
    "MaxUnpool": {9: max_unpool},
    "RoiAlign": {10: roi_align_v10, 16: roi_align},
    "AffineGrid": {20: affine_grid},
}

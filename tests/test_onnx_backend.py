"""ONNX's own backend test suite, run through `infer.backend` (a representative slice).

ONNX has 1,884 node cases; this slice keeps CI short and proves the backend
protocol works end to end. Every case listed here must pass: none is skipped.
"""

from __future__ import annotations

import onnx.backend.test

import infer.backend

# Node tests of supported ops, with the exact case names ONNX generates.
CASES = [
    "test_abs", "test_add", "test_add_bcast", "test_averagepool_2d_default",
    "test_averagepool_2d_pads", "test_averagepool_2d_strides", "test_basic_conv_with_padding",
    "test_basic_conv_without_padding", "test_batchnorm_epsilon", "test_batchnorm_example",
    "test_ceil", "test_clip", "test_clip_default_max", "test_concat_2d_axis_0",
    "test_concat_3d_axis_1", "test_conv_with_strides_padding", "test_div", "test_div_bcast",
    "test_exp", "test_flatten_axis0", "test_flatten_axis2", "test_floor",
    "test_gemm_all_attributes", "test_gemm_alpha", "test_gemm_transposeA",
    "test_globalaveragepool", "test_globalmaxpool", "test_identity", "test_leakyrelu",
    "test_log", "test_matmul_2d", "test_matmul_3d", "test_matmul_4d", "test_maxpool_2d_default",
    "test_maxpool_2d_pads", "test_maxpool_2d_strides", "test_mul", "test_mul_bcast",
    "test_neg", "test_reciprocal", "test_relu", "test_reshape_reduced_dims",
    "test_sigmoid", "test_softmax_axis_1", "test_softmax_default_axis", "test_sqrt",
    "test_sub", "test_sub_bcast", "test_sum_one_input", "test_sum_two_inputs", "test_tanh",
    "test_transpose_default", "test_range_float_type_positive_delta",
    "test_range_int32_type_negative_delta", "test_expand_dim_changed",
    "test_expand_dim_unchanged",
    # Split, with sizes constant, computed at run time, zero, or none (equal parts)
    "test_split_variable_parts_1d_opset13", "test_split_variable_parts_2d_opset13",
    "test_split_variable_parts_default_axis_opset13", "test_split_zero_size_splits_opset13",
    "test_split_variable_parts_1d_opset18", "test_split_variable_parts_2d_opset18",
    "test_split_variable_parts_default_axis_opset18", "test_split_zero_size_splits_opset18",
    "test_split_equal_parts_1d_opset13", "test_split_1d_uneven_split_opset18",
    "test_split_2d_uneven_split_opset18",
    # Trigonometric, hyperbolic, Round, Sign, IsNaN / IsInf and the exponential-family
    # activations
    "test_acos", "test_acos_example", "test_acosh", "test_acosh_example", "test_asin",
    "test_asin_example", "test_asinh", "test_asinh_example", "test_atan",
    "test_atan_example", "test_atanh", "test_atanh_example", "test_celu",
    "test_celu_float16", "test_cos", "test_cos_example", "test_cosh", "test_cosh_example",
    "test_elu", "test_elu_default", "test_elu_example", "test_isinf", "test_isinf_float16",
    "test_isinf_negative", "test_isinf_positive", "test_isnan", "test_isnan_float16",
    "test_mish", "test_round", "test_selu", "test_selu_default", "test_selu_example",
    "test_shrink_hard", "test_shrink_soft", "test_sign", "test_sin", "test_sin_example",
    "test_sinh", "test_sinh_example", "test_softplus", "test_softplus_example", "test_tan",
    "test_tan_example", "test_thresholdedrelu", "test_thresholdedrelu_default",
    "test_thresholdedrelu_example",
]  # fmt: skip

backend_test = onnx.backend.test.BackendTest(infer.backend, __name__)
for case in CASES:
    backend_test.include(rf"^{case}_cpu$")

# BackendTest generates every case and marks the others skipped: keep only ours.
_wanted = {f"{case}_cpu" for case in CASES}
_cases = backend_test.test_cases  # a property that builds new classes on every access
for _cls in _cases.values():
    for _name in [n for n in vars(_cls) if n.startswith("test_") and n not in _wanted]:
        delattr(_cls, _name)
globals().update(_cases)

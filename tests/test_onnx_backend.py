"""ONNX's own backend test runner (`onnx.backend.test.BackendTest`) driving `infer.backend`
on a few node cases: the backend protocol works end to end as ONNX's harness calls it.
Conformance over all node cases is tests/test_onnx_conformance.py's. Every case listed
here must pass: none is skipped.
"""

from __future__ import annotations

import onnx.backend.test

import infer.backend

# Node tests of supported ops, with the exact case names ONNX generates.
CASES = [
    "test_abs", "test_add_bcast", "test_basic_conv_with_padding", "test_batchnorm_example",
    "test_gemm_all_attributes", "test_maxpool_2d_pads", "test_softmax_axis_1",
    "test_range_int32_type_negative_delta", "test_expand_dim_changed", "test_celu_float16",
    "test_isnan_float16",
    # Split, with sizes constant, computed at run time, zero, or none (equal parts)
    "test_split_variable_parts_2d_opset18", "test_split_zero_size_splits_opset18",
    "test_split_equal_parts_1d_opset13", "test_split_2d_uneven_split_opset18",
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

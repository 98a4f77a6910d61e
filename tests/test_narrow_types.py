"""The narrow element types (bf16, float8, float4, 4- and 2-bit integers): every code
decodes and every rounding encodes as ml_dtypes / ONNX's reference do, bit for bit, and ops
on them compute through f32 or i32."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import infer

FLOATS = {
    TensorProto.BFLOAT16: ml_dtypes.bfloat16,
    TensorProto.FLOAT8E4M3FN: ml_dtypes.float8_e4m3fn,
    TensorProto.FLOAT8E4M3FNUZ: ml_dtypes.float8_e4m3fnuz,
    TensorProto.FLOAT8E5M2: ml_dtypes.float8_e5m2,
    TensorProto.FLOAT8E5M2FNUZ: ml_dtypes.float8_e5m2fnuz,
    TensorProto.FLOAT4E2M1: ml_dtypes.float4_e2m1fn,
}
FLOAT8 = (TensorProto.FLOAT8E4M3FN, TensorProto.FLOAT8E4M3FNUZ, TensorProto.FLOAT8E5M2,
          TensorProto.FLOAT8E5M2FNUZ)
INTS = {
    TensorProto.INT4: ml_dtypes.int4,
    TensorProto.UINT4: ml_dtypes.uint4,
    TensorProto.INT2: ml_dtypes.int2,
    TensorProto.UINT2: ml_dtypes.uint2,
}


def _cast_model(src: int, dst: int, op: str = "Cast", **attrs: object) -> onnx.ModelProto:
    node = helper.make_node(op, ["x"], ["y"], to=dst, **attrs)
    graph = helper.make_graph([node], "cast", [helper.make_tensor_value_info("x", src, ["n"])],
                              [helper.make_tensor_value_info("y", dst, ["n"])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 25)])


def _run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    return infer.compile(model).run({"x": x})["y"]


def _codes(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint16 if a.dtype.itemsize == 2 else np.uint8)


def _all_codes(dtype: type) -> np.ndarray:
    n = 1 << (16 if np.dtype(dtype).itemsize == 2 else 8)
    codes = np.arange(n, dtype=np.uint16 if n > 256 else np.uint8)
    if dtype is ml_dtypes.float4_e2m1fn:
        codes = codes[:16]
    return codes.view(dtype)


def _probes(dtype: type) -> np.ndarray:
    """f32 values that test every rounding: each representable value, the midpoints between
    neighbours and the f32 values either side of them, past the range, NaN, Inf, zeros,
    every f16 value and random bit patterns."""
    values = np.unique(_all_codes(dtype).astype(np.float64))
    values = values[np.isfinite(values)]
    mids = (values[1:] + values[:-1]) / 2
    f32 = np.concatenate([values, mids, values * 1.5, values * 4, values / 4]).astype(np.float32)
    f32 = np.concatenate([f32, np.nextafter(f32, np.inf), np.nextafter(f32, -np.inf)])
    rng = np.random.default_rng(0)
    extra = [np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float32),
             rng.integers(0, 1 << 32, 20000, dtype=np.uint32).view(np.float32),
             np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e30, -1e30, 1e-30,
                       1e-45, 3.4e38], np.float32)]
    return np.concatenate([f32, *extra])


@pytest.mark.parametrize("to", list(FLOATS), ids=TensorProto.DataType.Name)
def test_every_code_decodes_like_ml_dtypes(to: int) -> None:
    codes = _all_codes(FLOATS[to])
    got = _run(_cast_model(to, TensorProto.FLOAT), codes)
    want = codes.astype(np.float32)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(got[ok].view(np.uint32), want[ok].view(np.uint32))


@pytest.mark.parametrize(("to", "saturate"),
                         [(t, 1) for t in FLOATS] + [(t, 0) for t in FLOAT8],
                         ids=lambda v: TensorProto.DataType.Name(v) if v > 1 else f"sat{v}")
def test_f32_encodes_like_the_reference(to: int, saturate: int) -> None:
    dtype = FLOATS[to]
    x = _probes(dtype)
    attrs = {} if saturate else {"saturate": 0}
    got = _run(_cast_model(TensorProto.FLOAT, to, **attrs), x)
    with np.errstate(invalid="ignore", over="ignore"):
        want = (numpy_helper.saturate_cast(x, np.dtype(dtype)) if saturate and to in FLOAT8
                else x.astype(dtype))
    bad = np.flatnonzero(_codes(got) != _codes(want))
    assert bad.size == 0, f"{bad.size} codes differ, e.g. {x[bad[:5]]}: {got[bad[:5]]} vs " \
                          f"{want[bad[:5]]}"


@pytest.mark.parametrize("to", FLOAT8, ids=TensorProto.DataType.Name)
def test_f64_rounds_through_f32(to: int) -> None:
    """As ml_dtypes and onnxruntime: an f64 just past a midpoint first rounds to it."""
    dtype = FLOATS[to]
    values = np.unique(_all_codes(dtype).astype(np.float64))
    values = values[np.isfinite(values)]
    mids = (values[1:] + values[:-1]) / 2
    # just off the midpoints by less than an f32 ulp
    x = np.concatenate([mids * (1 + 2.0 ** -40), mids * (1 - 2.0 ** -40), values])
    got = _run(_cast_model(TensorProto.DOUBLE, to), x)
    want = numpy_helper.saturate_cast(x, np.dtype(dtype))
    np.testing.assert_array_equal(_codes(got), _codes(want))


@pytest.mark.parametrize("round_mode", ["up", "down", "nearest"])
@pytest.mark.parametrize("saturate", [1, 0])
def test_e8m0_encodes_by_onnx_rule(round_mode: str, saturate: int) -> None:
    x = _probes(ml_dtypes.float8_e4m3fn)
    x = np.concatenate([x, np.float32(2.0) ** np.arange(-127, 128, dtype=np.float32) * 1.5,
                        np.array([3.4e38, 1.7e38], np.float32)])
    got = _run(_cast_model(TensorProto.FLOAT, TensorProto.FLOAT8E8M0, saturate=saturate,
                           round_mode=round_mode), x)
    want = numpy_helper.to_float8e8m0(x, bool(saturate), round_mode)
    np.testing.assert_array_equal(_codes(got), _codes(want))
    codes = _all_codes(ml_dtypes.float8_e8m0fnu)
    back = _run(_cast_model(TensorProto.FLOAT8E8M0, TensorProto.FLOAT), codes)
    np.testing.assert_array_equal(back, codes.astype(np.float32))


@pytest.mark.slow
@pytest.mark.parametrize("to", list(INTS), ids=TensorProto.DataType.Name)
def test_sub_byte_integers_wrap_and_truncate(to: int) -> None:
    dtype = INTS[to]
    f = np.array([-9.7, -8.5, -7.5, -2.5, -0.5, 0.5, 1.5, 2.5, 7.5, 7.6, 8, 9, 17, 300.7,
                  -300.7, 1e10, np.nan, np.inf], np.float32)
    np.testing.assert_array_equal(_codes(_run(_cast_model(TensorProto.FLOAT, to), f)),
                                  _codes(f.astype(dtype)))
    i = np.arange(-300, 300, dtype=np.int32)
    np.testing.assert_array_equal(_codes(_run(_cast_model(TensorProto.INT32, to), i)),
                                  _codes(i.astype(dtype)))
    codes = _all_codes(np.uint8)[: 1 << (4 if "4" in np.dtype(dtype).name else 2)]
    codes = codes.view(dtype)
    for back in (TensorProto.INT32, TensorProto.FLOAT):
        got = _run(_cast_model(to, back), codes)
        np.testing.assert_array_equal(got, codes.astype(got.dtype))


@pytest.mark.slow
@pytest.mark.parametrize("elem", [TensorProto.FLOAT8E4M3FN, TensorProto.BFLOAT16,
                                  TensorProto.INT4, TensorProto.UINT2])
def test_ops_on_narrow_types_compute_wide(elem: int) -> None:
    """Data movement on a narrow type (widened to f32 / i32 and cast back) is exact, and
    bf16 arithmetic rounds once per op."""
    dtype = {**FLOATS, **INTS}[elem]
    nodes = [helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0]),
             helper.make_node("Reshape", ["t", "shape"], ["r"]),
             helper.make_node("Concat", ["r", "r"], ["y"], axis=0)]
    shape = numpy_helper.from_array(np.array([-1], np.int64), "shape")
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", elem, [3, 4])],
                              [helper.make_tensor_value_info("y", elem, [24])],
                              initializer=[shape])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    x = np.arange(12).reshape(3, 4).astype(np.float32).astype(dtype)
    got = _run(model, x)
    want = np.concatenate([x.T.reshape(-1)] * 2)
    np.testing.assert_array_equal(_codes(got), _codes(want))


def test_bf16_arithmetic_rounds_once_per_op() -> None:
    nodes = [helper.make_node("Mul", ["x", "x"], ["m"]), helper.make_node("Add", ["m", "x"],
                                                                          ["y"])]
    bf16 = TensorProto.BFLOAT16
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", bf16, [64])],
                              [helper.make_tensor_value_info("y", bf16, [64])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    x = np.random.default_rng(1).standard_normal(64).astype(ml_dtypes.bfloat16)
    wide = x.astype(np.float32)
    want = ((wide * wide).astype(ml_dtypes.bfloat16).astype(np.float32) + wide
            ).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(_codes(_run(model, x)), _codes(want))


def test_wrong_narrow_dtype_is_rejected() -> None:
    s = infer.compile(_cast_model(TensorProto.FLOAT8E4M3FN, TensorProto.FLOAT))
    with pytest.raises(infer.InputError, match="float8_e4m3fn"):
        s.run({"x": np.zeros(3, np.int8)})


@pytest.mark.parametrize("opt_level", [0, 3])
def test_casts_of_constants_fold_like_they_run(opt_level: int) -> None:
    """Level 3 folds casts of initializers (numpy semantics), level 0 runs them: both give
    ONNX's saturation and f8E8M0 rounding."""
    c = np.array([1.0, 500.0, -1e9, np.nan, 0.3, 3e-3], np.float32)
    nodes = [helper.make_node("Cast", ["c"], ["f8"], to=TensorProto.FLOAT8E4M3FN),
             helper.make_node("Cast", ["c"], ["e"], to=TensorProto.FLOAT8E8M0,
                              round_mode="nearest"),
             helper.make_node("Cast", ["f8"], ["w"], to=TensorProto.FLOAT),
             helper.make_node("Add", ["w", "x"], ["y"])]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [6]),
         helper.make_tensor_value_info("e", TensorProto.FLOAT8E8M0, [6])],
        initializer=[numpy_helper.from_array(c, "c")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 25)])
    x = np.ones(6, np.float32)
    got = infer.compile(model, opt_level=opt_level).run({"x": x})
    f8 = numpy_helper.saturate_cast(c, np.dtype(ml_dtypes.float8_e4m3fn))
    np.testing.assert_array_equal(got["y"], f8.astype(np.float32) + x)
    np.testing.assert_array_equal(_codes(got["e"]),
                                  _codes(numpy_helper.to_float8e8m0(c, True, "nearest")))

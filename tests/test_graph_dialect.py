"""The graph dialect: type inference, verification, constants, syntax, test-file lint."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import ModuleOp, f32, i64
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from infer.context import make_context
from infer.dialects import graph as G
from infer.dialects.dims import DYN

ROOT = Path(__file__).parent.parent
FILECHECK = ROOT / "filecheck_tests"


def parse(text: str) -> ModuleOp:
    return Parser(make_context(), text).parse_module()


def value(shape, element=f32):
    """An SSA value of the given tensor type (the result of a test op)."""
    return xdsl_test.TestOp.create(result_types=[G.tensor_type(shape, element)]).results[0]


def test_prop_reads_the_definitions_default() -> None:
    assert G.LeakyReluOp.prop({}, "alpha") == pytest.approx(0.01)
    assert G.LeakyReluOp.prop({"alpha": G.float_attr(0.5)}, "alpha") == 0.5
    assert G.GemmOp.prop({}, "transB") == 0
    assert G.GeluOp.prop({}, "approximate") == "none"
    assert G.TransposeOp.prop({}, "perm") is None  # optional, absent
    with pytest.raises(VerifyException, match="needs the property 'axis'"):
        G.ConcatOp.prop({}, "axis")


def test_float_only_ops_reject_integer_tensors() -> None:
    for cls in (G.SigmoidOp, G.ConvNchwcOp, G.SoftmaxOp, G.AveragePoolOp):
        assert cls.FLOAT_ONLY
    assert not G.ReluOp.FLOAT_ONLY
    assert not G.ConvOp.FLOAT_ONLY  # and int32, qnn.conv's canonical form
    with pytest.raises(VerifyException, match="'graph.conv' expects a floating-point or int32"):
        G.ConvOp.make([value([1, 1, 4, 4], i64), value([1, 1, 2, 2], i64)])
    assert not G.MaxPoolOp.FLOAT_ONLY  # and 8-bit integers
    with pytest.raises(VerifyException, match="float or 8-bit integer"):
        G.MaxPoolOp.make([value([1, 1, 4, 4], i64)], {"kernel_shape": G.ints_attr([2, 2])})
    with pytest.raises(VerifyException, match="'graph.softmax' expects a floating-point"):
        G.SoftmaxOp.make([value([2, 3], i64)])
    G.ReluOp.make([value([2, 3], i64)])


def test_make_infers_dynamic_dims() -> None:
    x = value([DYN, 3, 8, 8])
    w = G.ConstantOp(np.zeros((4, 3, 3, 3), np.float32))
    conv = G.ConvOp.make([x, w], {"strides": G.ints_attr([2, 2]), "pads": G.ints_attr([1] * 4)})
    assert str(conv.results[0].type) == "tensor<?x4x4x4xf32>"


def test_make_rejects_bad_shapes() -> None:
    with pytest.raises(VerifyException, match="do not broadcast"):
        G.AddOp.make([value([2, 3]), value([4])])


def test_verify_rejects_wrong_result_type() -> None:
    op = G.ReluOp.make([value([2])], result_types=[G.tensor_type([3], f32)])
    with pytest.raises(VerifyException, match="result #0 has type"):
        op.verify_()


def test_shape_function_over_dims() -> None:
    # the same shape function serves static, dynamic and symbolic (lowering) dims
    props = {"kernel_shape": G.ints_attr([2, 2]), "strides": G.ints_attr([2, 2])}
    assert G.MaxPoolOp.output_dims(props, [[1, 3, 8, 8]], [None]) == [[1, 3, 4, 4]]
    assert G.MaxPoolOp.output_dims(props, [[DYN, 3, DYN, 8]], [None]) == [[DYN, 3, DYN, 4]]


def test_reshape_dims() -> None:
    assert G.reshape_dims([2, 3, 4], [0, -1]) == [2, 12]
    assert G.reshape_dims([DYN, 3, 4], [0, -1]) == [DYN, 12]
    with pytest.raises(ValueError):
        G.reshape_dims([2, 3], [4, 2])


@pytest.mark.parametrize(
    "array",
    [
        np.array(2.5, np.float32),  # rank 0 stays rank 0
        np.zeros((0, 3), np.float32),
        np.array([True, False, True]),
        np.arange(6, dtype=np.int64).reshape(2, 3).T,  # non-contiguous input
        np.array([1, 255], np.uint8),
        np.array([-1, 2], np.int8),
        np.array([1.5, -2], np.float16),
        np.array([np.inf, -np.inf, np.nan], np.float32),
    ],
)
def test_constant_numpy_round_trip(array: np.ndarray) -> None:
    op = G.ConstantOp(array)
    assert op.numpy().shape == array.shape
    np.testing.assert_array_equal(op.numpy(), array)
    module = ModuleOp([op])
    again = parse(str(module))
    (op2,) = again.ops
    assert isinstance(op2, G.ConstantOp)
    np.testing.assert_array_equal(op2.numpy(), array)
    assert str(again) == str(module)


def test_constant_data_is_bytes() -> None:
    op = G.ConstantOp(np.ones((256, 256), np.float32))
    assert isinstance(op.value.data.data, bytes)
    assert np.shares_memory(op.numpy(), np.frombuffer(op.value.data.data, np.float32))


def test_elided_constant_round_trip() -> None:
    module = ModuleOp([G.ConstantOp(np.ones(100, np.float32))])
    with G.elide_weights(64):
        text = str(module)
        assert 'graph.constant elided<"' in text
        assert str(parse(text)) == text
    (op,) = parse(text).ops
    assert op.numpy() is None


def test_op_syntax_round_trips() -> None:
    text = (FILECHECK / "dialects/graph/ops.mlir").read_text()
    ir = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    once = str(parse(ir))
    assert str(parse(once)) == once


def test_split_with_runtime_sizes_is_dynamic() -> None:
    op = G.SplitOp.make([value([6]), value([2], i64)], {"num_outputs": G.int_attr(2)})
    assert [str(r.type) for r in op.results] == ["tensor<?xf32>", "tensor<?xf32>"]


# -- lint of the FileCheck tests ----------------------------------------------------------

@pytest.mark.parametrize(
    "path",
    sorted(p for d in ("import", "dialects/graph") for p in (FILECHECK / d).glob("*.mlir")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_no_colonless_check_directives(path: Path) -> None:
    """`// CHECK-NEXT foo` without a colon is silently ignored by FileCheck."""
    bad = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = re.match(r"\s*//\s*(CHECK|[A-Z0-9]+)(-NEXT|-SAME|-NOT|-LABEL|-DAG|-EMPTY)?(\S*)",
                     line)
        if m and (m.group(1) == "CHECK" or m.group(2)) and not m.group(3).startswith(":"):
            bad.append(f"{path.name}:{n}: {line.strip()}")
    assert not bad

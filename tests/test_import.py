"""The ONNX importer: model zoo models, opset variants, names and dims, error messages."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper
from xdsl.dialects.builtin import ModuleOp, StringAttr, f32
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from infer.context import make_context
from infer.dialects import graph as G
from infer.errors import InferError, InvalidModelError, UnsupportedError
from infer.frontend.onnx_import import (
    DIMS_ATTR,
    NAME_ATTR,
    import_model,
    supported_ops,
    unsupported_ops,
)
from infer.frontend.onnx_ops import OPS

from .helpers import node_model

LIGHT = Path(onnx.__file__).parent / "backend/test/data/light"
INPUTS = Path(__file__).parent.parent / "filecheck_tests/Inputs"
LIGHT_MODELS = sorted(p.name for p in LIGHT.glob("*.onnx"))


def parse(text: str) -> ModuleOp:
    return Parser(make_context(), text).parse_module()


def text(module: ModuleOp, elide: int | None) -> str:
    with G.elide_weights(elide):
        return str(module)


def main_func(module: ModuleOp) -> FuncOp:
    (func,) = module.ops
    assert isinstance(func, FuncOp)
    return func


def model(nodes, inputs, outputs, initializers=(), opset=13, **kw) -> onnx.ModelProto:
    graph = h.make_graph(nodes, "g", inputs, outputs, list(initializers))
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], **kw)


def vi(name: str, shape, dtype: int = T.FLOAT) -> onnx.ValueInfoProto:
    return h.make_tensor_value_info(name, dtype, shape)


# -- model zoo ----------------------------------------------------------------------------


def test_nine_light_models() -> None:
    assert len(LIGHT_MODELS) == 9


@pytest.mark.slow
@pytest.mark.parametrize("name", LIGHT_MODELS)
def test_light_model_imports_verifies_and_round_trips(name: str) -> None:
    m = import_model(LIGHT / name)
    m.verify()
    printed = text(m, 64)
    assert text(parse(printed), 64) == printed
    func = main_func(m)
    assert len(func.args) == 1  # initializers listed as inputs are constants
    assert func.function_type.inputs.data[0] == G.tensor_type([1, 3, 224, 224], f32)


@pytest.mark.slow
def test_resnet50_round_trip_elided_weights() -> None:
    m = import_model(LIGHT / "light_resnet50.onnx")
    printed = text(m, 64)
    assert "elided<" not in printed or "graph.constant elided" in printed
    assert text(parse(printed), 64) == printed
    ops = [op.name for op in main_func(m).body.block.ops]
    assert ops.count("graph.conv") == 53
    assert ops.count("graph.batch_normalization") == 53
    assert ops.count("graph.sum") == 16


def test_small_model_round_trip_with_full_weights() -> None:
    m = import_model(INPUTS / "conv_relu.onnx")
    printed = text(m, None)
    again = parse(printed)
    assert text(again, None) == printed
    # the weights survive the text form bit for bit
    w = numpy_helper.to_array(onnx.load(INPUTS / "conv_relu.onnx").graph.initializer[0])
    consts = [op for op in main_func(again).body.block.ops if isinstance(op, G.ConstantOp)]
    np.testing.assert_array_equal(consts[0].numpy(), w)


# -- inputs, names, dims ------------------------------------------------------------------


@pytest.mark.parametrize("source", ["proto", "bytes", "str", "path"])
def test_model_sources(source: str) -> None:
    path = INPUTS / "conv_relu.onnx"
    arg = {
        "proto": onnx.load(path),
        "bytes": path.read_bytes(),
        "str": str(path),
        "path": path,
    }[source]
    assert main_func(import_model(arg)).sym_name.data == "main"


def test_argument_and_result_attributes() -> None:
    func = main_func(import_model(INPUTS / "conv_relu.onnx"))
    (arg_attrs,) = func.arg_attrs.data
    assert arg_attrs.data[NAME_ATTR] == StringAttr("x")
    assert [a.data for a in arg_attrs.data[DIMS_ATTR].data] == ["N", "", "", ""]
    (res_attrs,) = func.res_attrs.data
    assert res_attrs.data[NAME_ATTR] == StringAttr("y")
    assert str(func.function_type) == "(tensor<?x3x7x7xf32>) -> tensor<?x4x4x4xf32>"


def test_names_are_sanitized_but_kept() -> None:
    m = model(
        [h.make_node("Relu", ["input:0"], ["1/out"])],
        [vi("input:0", [2])],
        [vi("1/out", [2])],
    )
    module = import_model(m)
    func = main_func(module)
    assert func.args[0].name_hint == "input"  # xDSL drops a `_<digits>` suffix
    assert func.arg_attrs.data[0].data[NAME_ATTR] == StringAttr("input:0")
    assert func.res_attrs.data[0].data[NAME_ATTR] == StringAttr("1/out")
    assert "%v1_out = graph.relu" in str(module)
    assert DIMS_ATTR not in func.arg_attrs.data[0].data  # no dim_param: no graph.dims


def test_element_types() -> None:
    types = {T.FLOAT16: "f16", T.DOUBLE: "f64", T.INT8: "i8", T.UINT8: "ui8",
             T.INT16: "i16", T.UINT16: "ui16", T.INT32: "i32", T.UINT32: "ui32",
             T.INT64: "i64", T.UINT64: "ui64", T.BOOL: "i1", T.BFLOAT16: "bf16"}
    names = [f"x{t}" for t in types]
    m = model(
        [h.make_node("Identity", [n], [n + "_out"]) for n in names],
        [vi(n, [3], t) for n, t in zip(names, types, strict=True)],
        [vi(n + "_out", [3], t) for n, t in zip(names, types, strict=True)],
    )
    ins = main_func(import_model(m)).function_type.inputs.data
    assert [str(t) for t in ins] == [f"tensor<3x{e}>" for e in types.values()]


def test_opset_variants_give_the_same_graph() -> None:
    def ops(name: str) -> list[str]:
        func = main_func(import_model(INPUTS / name))
        return [f"{op.name}: {op.result_types}" for op in func.body.block.ops]

    assert ops("unsqueeze_v11.onnx") == ops("unsqueeze_v13.onnx")
    assert ops("slice_v9.onnx") == ops("slice_v13.onnx")


def test_softmax_before_13_is_coerced_to_2d() -> None:
    ops = [op.name for op in main_func(import_model(INPUTS / "softmax_v11.onnx")).body.block.ops]
    assert ops[:4] == ["graph.flatten", "graph.softmax", "graph.constant", "graph.reshape"]
    assert "graph.log_softmax" in ops


def test_conv_auto_pad_resolution() -> None:
    m = model(
        [h.make_node("Conv", ["x", "w"], ["y"], auto_pad="SAME_LOWER", strides=[2, 2])],
        [vi("x", [1, 1, 6, 6])],
        [vi("y", [1, 1, 3, 3])],
        [numpy_helper.from_array(np.ones((1, 1, 4, 4), np.float32), "w")],
    )
    conv = next(op for op in main_func(import_model(m)).body.block.ops
                if isinstance(op, G.ConvOp))
    # out = ceil(6/2) = 3, total pad = (3-1)*2 + 4 - 6 = 2 -> 1 before, 1 after
    assert G.get_ints(conv, "pads") == [1, 1, 1, 1]


def test_initializer_also_listed_as_input_is_a_constant() -> None:
    w = numpy_helper.from_array(np.ones(2, np.float32), "w")
    m = model([h.make_node("Add", ["x", "w"], ["y"])], [vi("x", [2]), vi("w", [2])],
              [vi("y", [2])], [w], opset=9)
    func = main_func(import_model(m))
    assert len(func.args) == 1
    assert isinstance(next(iter(func.body.block.ops)), G.ConstantOp)


def test_newer_opset_with_unchanged_op_definitions() -> None:
    m = model([h.make_node("Relu", ["x"], ["y"])], [vi("x", [2])], [vi("y", [2])],
              opset=onnx.defs.onnx_opset_version())
    assert "graph.relu" in str(import_model(m))


def test_range_from_opset_11() -> None:
    """Range's length is static for constant scalars and dynamic for run-time ones."""
    m = model([h.make_node("Range", ["s", "l", "d"], ["y"]),
               h.make_node("Range", ["s", "l", "c"], ["z"])],
              [vi("s", [], T.INT32), vi("l", [], T.INT32)],
              [vi("y", [None], T.INT32), vi("z", [None], T.INT32)],
              [numpy_helper.from_array(np.array(2, np.int32), "d"),
               numpy_helper.from_array(np.array(-3, np.int32), "c")], opset=11)
    ranges = [op for op in main_func(import_model(m)).body.block.ops if isinstance(op, G.RangeOp)]
    assert [str(op.output.type) for op in ranges] == ["tensor<?xi32>"] * 2
    consts = [numpy_helper.from_array(np.array(v, np.float32), n)
              for n, v in (("s", 1.0), ("l", 2.5), ("d", 0.5))]
    m = model([h.make_node("Range", ["s", "l", "d"], ["y"])], [], [vi("y", [None])], consts,
              opset=11)
    (op,) = [op for op in main_func(import_model(m)).body.block.ops if isinstance(op, G.RangeOp)]
    assert str(op.output.type) == "tensor<3xf32>"


# -- errors -------------------------------------------------------------------------------

X = vi("x", [1, 3, 4, 4])
Y = vi("y", [None] * 4)


def _bad(name: str) -> onnx.ModelProto | bytes:
    if name == "unsupported_op":
        return model([h.make_node("ImageDecoder", ["b"], ["y"], name="decode_3")],
                     [vi("b", [None], T.UINT8)], [Y], opset=20)
    if name == "unnamed_node":
        return model([h.make_node("Identity", ["b"], ["r"]), h.make_node("ImageDecoder", ["r"],
                                                                         ["y"])],
                     [vi("b", [None], T.UINT8)], [vi("y", [None] * 3, T.UINT8)], opset=20)
    if name == "domain":
        m = model([h.make_node("Gelu", ["x"], ["y"], name="g", domain="com.microsoft")],
                  [X], [Y])
        m.opset_import.append(h.make_opsetid("com.microsoft", 1))
        return m
    if name == "old_opset":
        return model([h.make_node("Dropout", ["x"], ["y"])], [X], [Y], opset=6)
    if name == "mixed_types":
        return model([h.make_node("Mul", ["x", "i"], ["y"], name="mul1")],
                     [X, vi("i", [1], T.INT32)], [Y])
    if name == "bad_shape":
        return model([h.make_node("MatMul", ["x", "x"], ["y"], name="mm")],
                     [vi("x", [2, 3])], [vi("y", [2, 3])])
    if name == "cycle":
        return model([h.make_node("Relu", ["b"], ["a"], name="n0"),
                      h.make_node("Relu", ["a"], ["b"], name="n1")], [X], [vi("a", [None] * 4)])
    if name == "unknown_input":
        return model([h.make_node("Relu", ["nope"], ["y"], name="r")], [X], [Y])
    if name == "bn_saved_mean":  # BatchNormalization-9's training outputs
        p = [numpy_helper.from_array(np.ones(3, np.float32), n) for n in "sbmv"]
        return model([h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"],
                                  ["y", "mean", "var", "saved_mean", "saved_var"], name="bn")],
                     [X], [Y, vi("mean", [3])], p, opset=9)
    if name == "auto_pad_dynamic":
        w = numpy_helper.from_array(np.ones((1, 3, 3, 3), np.float32), "w")
        return model([h.make_node("Conv", ["x", "w"], ["y"], auto_pad="SAME_UPPER", name="c")],
                     [vi("x", [1, 3, "H", "W"])], [Y], [w])
    if name == "missing_attr":
        m = model([h.make_node("LRN", ["x"], ["y"], name="lrn")], [X], [Y])
        return m
    if name == "not_onnx":
        return b"builtin.module {\n}\n"
    if name == "future_opset":
        return model([h.make_node("Relu", ["x"], ["y"])], [X], [Y], opset=30)
    if name == "shapeless_input":
        return model([h.make_node("Relu", ["x"], ["y"])], [h.make_tensor_value_info(
            "x", T.FLOAT, None)], [Y])
    raise AssertionError(name)


# case: (error class, the message's core)
ERRORS = {
    "unsupported_op": (UnsupportedError, "1 unsupported op: 'ImageDecoder' "
                                         "(node 'decode_3', domain 'ai.onnx' opset 20)"),
    "unnamed_node": (UnsupportedError, "'ImageDecoder' (node #1, domain 'ai.onnx' opset 20)"),
    "domain": (UnsupportedError, "'Gelu' (node 'g', domain 'com.microsoft' opset 1)"),
    "old_opset": (UnsupportedError, "'Dropout' (node #0, domain 'ai.onnx' opset 6): unsupported "
                                   "opset version 6 of this op"),
    "mixed_types": (InvalidModelError,
                    "op 'Mul' (node 'mul1', opset 13): operands have different element types"),
    "bad_shape": (InvalidModelError,
                  "op 'MatMul' (node 'mm', opset 13): 'graph.matmul': contraction dims differ"),
    "cycle": (InvalidModelError, "input 'b' of node 'n0' ('Relu') is produced by a later node"),
    "unknown_input": (InvalidModelError, "input 'nope' of node 'r' ('Relu') is not defined"),
    "bn_saved_mean": (UnsupportedError, "unsupported op 'BatchNormalization' (node 'bn', "
                                        "opset 9): output #1 ('mean') is not supported"),
    "auto_pad_dynamic": (UnsupportedError, "unsupported op 'Conv' (node 'c', opset 13): "
                                           "auto_pad SAME_UPPER needs static spatial dims"),
    "missing_attr": (InvalidModelError, "'size' is missing"),
    "not_onnx": (InvalidModelError, "cannot read the input as an ONNX model"),
    "future_opset": (UnsupportedError, "the model imports opset 30 of the default ONNX domain; "
                                       f"the newest supported is {onnx.defs.onnx_opset_version()}"),
    "shapeless_input": (UnsupportedError, "graph input 'x' has no shape, so no rank"),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_import_errors(case: str) -> None:
    error, text = ERRORS[case]
    with pytest.raises(error) as info:
        import_model(_bad(case))
    message = str(info.value)
    assert text in message
    assert "\n" not in message
    assert isinstance(info.value, InferError)


def test_every_unsupported_op_in_one_message() -> None:
    m = model([h.make_node("ImageDecoder", ["bytes"], ["a"], name="decode"),
               h.make_node("Relu", ["a"], ["b"], name="ok"),
               h.make_node("Gelu", ["b"], ["c"], name="g", domain="com.microsoft"),
               h.make_node("Inverse", ["c"], ["y"], name="inv", domain="com.microsoft")],
              [vi("bytes", [None], T.UINT8)], [Y], opset=20)
    m.opset_import.append(h.make_opsetid("com.microsoft", 1))
    expected = ["'ImageDecoder' (node 'decode', domain 'ai.onnx' opset 20)",
                "'Gelu' (node 'g', domain 'com.microsoft' opset 1)",
                "'Inverse' (node 'inv', domain 'com.microsoft' opset 1)"]
    with pytest.raises(UnsupportedError) as info:
        import_model(m)
    assert str(info.value) == "3 unsupported ops: " + "; ".join(expected)
    assert unsupported_ops(m) == expected
    assert isinstance(info.value, NotImplementedError)


def test_supported_ops_are_the_importers_table() -> None:
    ops = supported_ops()
    assert sorted(ops) == sorted(OPS)  # every entry of the table is reachable at some opset
    assert ops["Relu"] == (1, onnx.defs.onnx_opset_version())
    assert ops["LayerNormalization"][0] == 17  # defined since opset 17
    first, last = ops["Softsign"]
    for opset in (first, last):
        m = model([h.make_node("Softsign", ["x"], ["y"])], [X], [Y], opset=opset)
        assert unsupported_ops(m) == [] and import_model(m)
    m = model([h.make_node("LayerNormalization", ["x", "x"], ["y"])], [X], [Y], opset=16)
    assert len(unsupported_ops(m)) == 1


def test_one_node_model_of_another_domain() -> None:
    """A com.microsoft op (onnxruntime's QLinearAdd) from the one-node helper: the importer
    takes it at version 1 of that domain, as its qnn op, and names the version it refuses;
    ONNX's default domain has no QLinearAdd."""
    inits = {"sa": np.array(0.05, np.float32), "za": np.array(131, np.uint8),
             "b": np.arange(6, dtype=np.uint8).reshape(2, 3),
             "sb": np.array(0.02, np.float32), "zb": np.array(120, np.uint8),
             "sy": np.array(0.04, np.float32), "zy": np.array(128, np.uint8)}
    m = node_model("QLinearAdd", [("a", T.UINT8, [2, 3])], inits=inits, domain="com.microsoft")
    assert [(o.domain, o.version) for o in m.opset_import] == [("", 17), ("com.microsoft", 1)]
    assert m.graph.node[0].domain == "com.microsoft"
    assert m.graph.output[0].type.tensor_type.elem_type == T.UINT8  # onnxruntime's type
    assert unsupported_ops(m) == []
    func = main_func(import_model(m))
    assert [op.name for op in func.body.walk() if op.name != "graph.constant"] == [
        "qnn.add", "func.return"]
    m.opset_import[1].version = 2
    assert unsupported_ops(m) == ["'QLinearAdd' (node #0, domain 'com.microsoft' opset 2): "
                                  "version 2 of com.microsoft is not supported (1 is)"]
    m.graph.node[0].domain = ""
    assert unsupported_ops(m) == ["'QLinearAdd' (node #0, domain 'ai.onnx' opset 17)"]


def test_missing_file_is_an_import_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidModelError, match="cannot read"):
        import_model(tmp_path / "missing.onnx")
    (tmp_path / "text.onnx").write_text("hello")
    with pytest.raises(InvalidModelError):
        import_model(os.fspath(tmp_path / "text.onnx"))


@pytest.mark.slow
def test_node_test_models_import_or_fail_cleanly() -> None:
    """Every ONNX node test whose ops we support imports, or fails with one InferError."""
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases(None)
    imported = 0
    for case in cases:
        m = case.model
        if m is None or not all(n.op_type in OPS for n in m.graph.node):
            continue
        try:
            import_model(m)
            imported += 1
        except InferError as e:
            assert "\n" not in str(e), case.name
    assert imported > 300


# -- dynamic dims -------------------------------------------------------------------------


def _declared(name: str, dims: list[int | str | None]) -> onnx.ValueInfoProto:
    """A float input/output whose dims are written exactly as given: int as dim_value
    (negative too), str as dim_param ("" and "?" too), None as neither."""
    v = h.make_tensor_value_info(name, T.FLOAT, None)
    shape = v.type.tensor_type.shape
    for d in dims:
        dim = shape.dim.add()
        if isinstance(d, int):
            dim.dim_value = d
        elif d is not None:
            dim.dim_param = d
    return v


DECLARED = ["N", 3, "?", "?", "", -1, None]


def test_negative_question_mark_and_empty_dims_import_as_dynamic() -> None:
    m = model([h.make_node("Relu", ["x"], ["y"])], [_declared("x", DECLARED)],
              [_declared("y", DECLARED)])
    func = main_func(import_model(m))
    assert str(func.function_type) == "(tensor<?x3x?x?x?x?x?xf32>) -> tensor<?x3x?x?x?x?x?xf32>"
    for attrs in (func.arg_attrs.data[0], func.res_attrs.data[0]):
        assert [a.data for a in attrs.data[DIMS_ATTR].data] == ["N", "", "?", "?", "", "", ""]


def test_dynamic_dims_are_independent_like_onnxruntime() -> None:
    """Inputs declared [N, 3, ?, ?], [?] and ["", -1, unknown] take any size at each
    dynamic dim, as onnxruntime does; the outputs are onnxruntime's."""
    import onnxruntime as ort

    import infer

    x, c = ["N", 3, "?", "?"], ["", -1, None]
    m = model([h.make_node("Relu", ["x"], ["r"]), h.make_node("Add", ["r", "b"], ["y"]),
               h.make_node("Neg", ["c"], ["z"])],
              [_declared("x", x), _declared("b", ["?"]), _declared("c", c)],
              [_declared("y", x), _declared("z", c)], opset=17)
    compiled = infer.compile(m)
    ref = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    for xs, bs, cs in [((2, 3, 4, 5), 5, (2, 3, 4)), ((1, 3, 6, 2), 1, (1, 1, 7))]:
        feeds = {"x": rng.standard_normal(xs, np.float32),
                 "b": rng.standard_normal(bs, np.float32),
                 "c": rng.standard_normal(cs, np.float32)}
        for ours, theirs in zip(compiled.run(feeds).values(), ref.run(None, feeds), strict=True):
            np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_outputs_without_shape_take_the_computed_one() -> None:
    """ONNX's checker wants a shape on graph outputs; onnxruntime runs without one, and so
    does infer, with the shape it computes (the proto left as it was)."""
    import onnxruntime as ort

    import infer

    m = model([h.make_node("Relu", ["x"], ["r"]), h.make_node("Neg", ["r"], ["y"])],
              [_declared("x", ["N", 3])], [h.make_tensor_value_info("y", T.FLOAT, None)],
              opset=17)
    compiled = infer.compile(m, cache=False)
    assert not m.graph.output[0].type.tensor_type.HasField("shape")
    assert compiled.outputs[0].shape == (None, 3)
    x = np.random.default_rng(0).standard_normal((2, 3), np.float32)
    ref = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    np.testing.assert_array_equal(compiled.run({"x": x})["y"], ref.run(None, {"x": x})[0])

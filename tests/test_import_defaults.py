"""One fact in one place: an importer keyword that names a property of the graph op its
ONNX op becomes defaults to None (the node's attribute is passed on only when set), so
the op's definition holds the default; restating the same value in the importer is
refused. A variant may state a different default (an older opset's, as Softmax-1's axis)."""

from __future__ import annotations

import inspect

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute

from infer.dialects import graph as G
from infer.dialects import qnn as Q
from infer.frontend.onnx_ops import OPS


def _value(attr: Attribute) -> object:
    if isinstance(attr, IntegerAttr | FloatAttr):
        return attr.value.data
    return attr.data if isinstance(attr, StringAttr) else attr


def _ops_by_onnx_type() -> dict[str, list[type[G.GraphOp]]]:
    ops: dict[str, list[type[G.GraphOp]]] = {}
    for module in (G, Q):
        for name in dir(module):
            cls = getattr(module, name)
            if isinstance(cls, type) and issubclass(cls, G.GraphOp) and getattr(
                    cls, "ONNX_OP", None):
                ops.setdefault(cls.ONNX_OP, []).append(cls)
    return ops


def test_importers_do_not_restate_op_defaults() -> None:
    restated, checked = [], 0
    ops = _ops_by_onnx_type()
    for op_type, variants in OPS.items():
        for cls in ops.get(op_type, []):
            props = cls.get_irdl_definition().properties
            for since, fn in variants.items():
                if not inspect.isfunction(fn):
                    continue
                for p in inspect.signature(fn).parameters.values():
                    if p.kind != p.KEYWORD_ONLY or p.name not in props:
                        continue
                    checked += 1
                    default = props[p.name].default_value
                    if p.default not in (None, p.empty) and default is not None and (
                            _value(default) == p.default):
                        restated.append(f"{op_type}-{since} {fn.__name__}({p.name}="
                                        f"{p.default!r}) restates {cls.name}'s default")
    assert checked > 200  # the tables were read
    assert not restated, "\n".join(restated)

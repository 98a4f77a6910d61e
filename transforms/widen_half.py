"""widen-half: f16 and bf16 arithmetic computed in f32, rounded once per op.

onnxruntime computes a half-precision op in f32 and rounds its result (MLAS's half GEMM
accumulates in f32, its softmax and normalizations widen), as ONNX's reference does with
numpy: summing or exponentiating in half precision instead drifts by several ulps, past
the tolerance its node tests allow. So every graph op with a half-precision float
operand is rewritten to read its float operands through casts to f32 and cast each half
result back:

    %y = graph.softmax %x : (tensor<4xf16>) -> tensor<4xf16>
  becomes
    %w = graph.cast %x {to = f32}
    %s = graph.softmax %w : (tensor<4xf32>) -> tensor<4xf32>
    %y = graph.cast %s {to = f16}

A cast pair between two widened ops stays (it is the rounding), and the elementwise ones
fuse into their neighbours' loops like any cast. Casts themselves and ops with no float
operand (ConstantOfShape, EyeLike of an integer) are left as they are.

The narrow types (float8, float4, 4- and 2-bit integers; see `graph.NARROW_TYPES`) have no
arithmetic at all, so every op on them is rewritten the same way: the small floats
compute in f32, the sub-byte integers in i32, both exactly. QuantizeLinear and
DequantizeLinear keep their quantized operand and result (the type is what they mean);
only their half-precision floats widen.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, Float16Type, ModuleOp, TensorType, f32, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from infer.dialects import graph as G

HALF_TYPES = (Float16Type, BFloat16Type)
_QUANTIZE_OPS = (G.QuantizeLinearOp, G.DequantizeLinearOp)


def _wide(t: Attribute, op: Operation) -> Attribute | None:
    """The element type `op` computes in instead of tensor type t's, or None."""
    if not isinstance(t, TensorType):
        return None
    e = t.element_type
    if isinstance(e, HALF_TYPES):
        return f32
    if isinstance(op, _QUANTIZE_OPS) or not G.is_narrow(e):
        return None
    return f32 if G.is_float(e) else i32


def _widens(op: Operation) -> bool:
    """Casts convert, and Shape and Size read no data: the rest compute on their operands."""
    return (isinstance(op, G.GraphOp) and not isinstance(op, G.CastOp | G.ShapeOp | G.SizeOp)
            and any(_wide(v.type, op) is not None for v in op.operands))


def _cast(value: SSAValue, to: Attribute, before: Operation) -> SSAValue:
    cast = G.CastOp.make([value], {"to": to})
    cast.location = before.location  # errors and run-time checks name the node
    Rewriter.insert_op(cast, InsertPoint.before(before))
    return cast.results[0]


def widen(op: G.GraphOp) -> None:
    """Rewrite `op` to compute in f32 between casts (see the module's doc)."""
    operands = [v if (w := _wide(v.type, op)) is None else _cast(v, w, op)
                for v in op.operands]
    wide = type(op).make(operands, dict(op.properties))
    wide.attributes.update(op.attributes)
    Rewriter.insert_op(wide, InsertPoint.before(op))
    for old, new in zip(op.results, wide.results, strict=True):
        t = old.type
        value: SSAValue = new
        if isinstance(t, TensorType) and new.type != t:
            cast = G.CastOp.make([new], {"to": t.element_type})
            cast.location = op.location
            Rewriter.insert_op(cast, InsertPoint.after(wide))
            value = cast.results[0]
        old.replace_all_uses_with(value)
    wide.location = op.location
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class WidenHalfPass(ModulePass):
    name = "widen-half"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in [o for o in op.walk() if _widens(o)]:
            widen(inner)

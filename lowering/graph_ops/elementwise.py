"""Elementwise ops → one loop nest over the output, operands read with broadcasting.

Each elementwise op has one scalar body, registered with `@scalar(OpClass)`: the loop
nest of the op itself, of a chain of them fused into one loop nest, and the activation
epilogue of conv / gemm / matmul (`epilogue`) all run it. A body marked `vector=True` is
built from min/max/mul/add on constants of its value's type, so the blocked conv kernel
may run it on its accumulator vectors.

The innermost loop runs over the last (contiguous) dim with unit stride, so LLVM's loop
vectorizer turns it into vector code. A broadcast operand dim that is statically 1 is read
at index 0, a static one (or one known equal to the output's) at the output index; a
dynamic operand dim that may be 1 at run time is read at `i * (dim != 1)` (see
`broadcast_index`).
"""

from __future__ import annotations

import math as math_
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Operation, SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering import narrow_types
from infer.lowering.graph_ops.base import (
    Lowering,
    inlined_if,
    lowers,
    memref_type,
    operand_element,
)
from infer.lowering.graph_ops.index import broadcast_index
from infer.lowering.loop_builder import LoopBuilder, is_unsigned, storage_type

OpT = TypeVar("OpT", bound=Operation)
# The scalar body of an elementwise op: (builder, the op, operand values) -> result value.
# The op may be a detached instance (`Epilogue`): its properties, but no operands.
ScalarFn = Callable[[LoopBuilder, Any, list[SSAValue]], SSAValue]
OpScalarFn = Callable[[LoopBuilder, OpT, list[SSAValue]], SSAValue]


def result_dims(s: Lowering, op: Operation, dims: Sequence[Sequence[Dim]]) -> list[Dim]:
    """The dims of `op`'s first result from its operands' `dims` (as its shape function
    computes them at run time), made to agree with the result's type. Operand dims taken
    once and passed here let `broadcast_index` see which output dims are an operand's."""
    assert isinstance(op, graph.GraphOp)
    consts = [graph.constant_value(v) for v in op.operands]
    out = type(op).output_dims(op.properties, [list(d) for d in dims], consts)[0]
    return s.typed_dims(out, op.results[0].type)


def elementwise(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    """out[i] = body(in_0[bcast(i)], in_1[bcast(i)], ...) over the op's only result, with
    the scalar body registered for the op's class.

    An operand computed by an inlined producer (`inlined_into_user`) is evaluated at the
    same index inside this loop nest, recursively: a chain of elementwise ops becomes one
    loop nest with no intermediate buffer.
    """
    b = s.b
    leaf_dims: dict[SSAValue, list[Dim]] = {}

    def dims_of(v: SSAValue, buf: SSAValue) -> list[Dim]:
        if v in s.inlined:
            producer, pins = s.inlined[v]
            with s.checking(producer, pins):  # its checks name it, not this op
                return out_dims(producer, pins)
        if buf not in leaf_dims:
            leaf_dims[buf] = b.dims(buf)
        return leaf_dims[buf]

    def out_dims(o: Operation, bufs: list[SSAValue]) -> list[Dim]:
        assert isinstance(o, graph.GraphOp)
        dims = [dims_of(v, buf) for v, buf in zip(o.operands, bufs, strict=True)]
        consts = [graph.constant_value(v) for v in o.operands]
        return type(o).output_dims(o.properties, dims, consts)[0]

    def value_at(v: SSAValue, buf: SSAValue, ivs: list[SSAValue]) -> SSAValue:
        # An inlined producer has its user's static shape and is read at the same index;
        # its own leaves broadcast straight to the user's output (broadcasting composes).
        if v in s.inlined:
            producer, pins = s.inlined[v]
            vals = [value_at(x, xb, ivs) for x, xb in zip(producer.operands, pins, strict=True)]
            return SCALAR[type(producer)].fn(b, producer, vals)
        return b.load(buf, broadcast_index(ivs, leaf_dims[buf], y_dims))

    t = op.results[0].type
    assert isinstance(t, TensorType)
    y_dims = s.typed_dims(out_dims(op, ins), t)
    out = in_place(s, t, list(leaf_dims)) or s.alloc(y_dims, t.element_type)
    with b.parallel_nest(y_dims) as ivs:
        vals = [value_at(v, buf, ivs) for v, buf in zip(op.operands, ins, strict=True)]
        b.store(SCALAR[type(op)].fn(b, op, vals), out, ivs)
    return [out]


def in_place(s: Lowering, t: TensorType, leaves: list[SSAValue]) -> SSAValue | None:
    """A buffer that an elementwise op of result type `t` reading the buffers `leaves`
    may write its result into, or None: a leaf of `t`'s static shape and element type
    (so read at the index written, each element read before it is written) that the op
    reads last (`s.reusable`), and that no other leaf views."""
    want = memref_type(t)
    if not want.has_static_shape():
        return None
    for buf in leaves:
        if (buf in s.reusable and buf.type == want
                and not any(s.root_of(o) == buf for o in leaves if o != buf)):
            return buf
    return None


@inlined_if
def _in_users_loop_nest(op: Operation) -> bool:
    """Whether `op` is computed inside its user's loop nest: both are elementwise, the user
    is its only reader and has its shape (each element is computed once, where used)."""
    if type(op) not in SCALAR or len(op.results) != 1:
        return False
    res = op.results[0]
    user = res.get_user_of_unique_use()
    if user is None or type(user) not in SCALAR:
        return False
    t, u = res.type, user.results[0].type
    return isinstance(t, TensorType) and isinstance(u, TensorType) and (
        t.get_shape() == u.get_shape()
    )



# ---------------------------------------------------------------------------------------
# Scalar bodies, one per op class
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scalar:
    """The scalar body of an elementwise op class; `vector`: it is built from
    min/max/mul/add on constants of its value's type only, so it is valid on vectors too."""

    fn: ScalarFn
    vector: bool = False


# elementwise op class -> its scalar body; each class is lowered by `elementwise`
SCALAR: dict[type[Operation], Scalar] = {}


def scalar(*classes: type[OpT], vector: bool = False
           ) -> Callable[[OpScalarFn[OpT]], OpScalarFn[OpT]]:
    """Register the decorated function as the scalar body of op `classes` (see `Scalar`)
    and `elementwise` as their lowering."""

    def register(fn: OpScalarFn[OpT]) -> OpScalarFn[OpT]:
        for cls in classes:
            SCALAR[cls] = Scalar(fn, vector)
        lowers(*classes)(elementwise)
        return fn

    return register


@dataclass(frozen=True)
class Epilogue:
    """An activation fused into a conv / gemm / matmul (`graph.ACTIVATIONS`) as a function
    of one value: the scalar body of the op that computes it alone, run on a detached
    instance of that op carrying the activation's properties, with its operand params
    (Clip's bounds) as constants of the value's type."""

    body: Scalar
    op: Operation
    operands: list[float]

    @property
    def vector(self) -> bool:
        return self.body.vector

    def __call__(self, b: LoopBuilder, v: SSAValue) -> SSAValue:
        return self.body.fn(b, self.op, [v, *(b.const(p, v.type) for p in self.operands)])


def epilogue(op: Operation) -> Epilogue | None:
    """The activation fused into a conv / gemm / matmul, or None."""
    act = graph.activation_of(op.properties)
    if act is None:
        return None
    return activation(*act)


def activation(name: str, params: list[float]) -> Epilogue:
    """The activation `name` of graph.ACTIVATIONS with `params`, as a function of one
    value (an epilogue; the gates of graph.recurrence)."""
    act = graph.ACTIVATIONS.get(name)
    body = SCALAR.get(act.op) if act is not None else None
    if act is None or body is None:
        raise UnsupportedError(f"no lowering for the fused activation '{name}'")
    return Epilogue(body, act.instance(params), act.operand_params(params))


def _unsigned(op: Operation) -> bool:
    """Whether the op's first operand is unsigned; False for a detached instance (a fused
    activation, on floats)."""
    return bool(op.operands) and is_unsigned(operand_element(op))


def _zero(b: LoopBuilder, like: SSAValue) -> SSAValue:
    return b.const(0, like.type)


@scalar(graph.ReluOp, vector=True)
def _relu(b: LoopBuilder, op: graph.ReluOp, x: list[SSAValue]) -> SSAValue:
    return b.max(x[0], _zero(b, x[0]))


@scalar(graph.SigmoidOp)
def _sigmoid(b: LoopBuilder, op: graph.SigmoidOp, x: list[SSAValue]) -> SSAValue:
    one = b.const(1.0, x[0].type)
    neg = b.insert(arith.NegfOp(x[0])).results[0]
    return b.div(one, b.add(one, b.unary(math.ExpOp, neg)))


# graph ops that are one `math` op
_MATH: dict[type[Operation], type[Operation]] = {
    graph.TanhOp: math.TanhOp,
    graph.ExpOp: math.ExpOp,
    graph.LogOp: math.LogOp,
    graph.SqrtOp: math.SqrtOp,
    graph.ErfOp: math.ErfOp,
    graph.FloorOp: math.FloorOp,
    graph.CeilOp: math.CeilOp,
    graph.RoundOp: math.RoundEvenOp,
    graph.SinOp: math.SinOp,
    graph.CosOp: math.CosOp,
    graph.TanOp: math.TanOp,
    graph.AsinOp: math.AsinOp,
    graph.AcosOp: math.AcosOp,
    graph.AtanOp: math.AtanOp,
    graph.SinhOp: math.SinhOp,
    graph.CoshOp: math.CoshOp,
    graph.AsinhOp: math.AsinhOp,
    graph.AcoshOp: math.AcoshOp,
    graph.AtanhOp: math.AtanhOp,
}


@scalar(*_MATH)
def _math(b: LoopBuilder, op: Operation, x: list[SSAValue]) -> SSAValue:
    return b.unary(_MATH[type(op)], x[0])


@scalar(graph.SoftsignOp)
def _softsign(b: LoopBuilder, op: graph.SoftsignOp, x: list[SSAValue]) -> SSAValue:
    """x / (1 + |x|)"""
    one = b.const(1.0, x[0].type)
    return b.div(x[0], b.add(one, b.unary(math.AbsFOp, x[0])))


@scalar(graph.SignOp)
def _sign(b: LoopBuilder, op: graph.SignOp, x: list[SSAValue]) -> SSAValue:
    """1, -1 or 0; a float zero or NaN is returned as it is."""
    v, t = x[0], x[0].type
    one = b.const(1, t)
    if graph.is_float(t):
        neg = b.select(b.cmpf("olt", v, _zero(b, v)), b.const(-1.0, t), v)
        return b.select(b.cmpf("ogt", v, _zero(b, v)), one, neg)
    if _unsigned(op):
        return b.select(b.cmpi("ne", v, _zero(b, v)), one, _zero(b, v))
    neg = b.select(b.cmpi("slt", v, _zero(b, v)), b.const(-1, t), _zero(b, v))
    return b.select(b.cmpi("sgt", v, _zero(b, v)), one, neg)


@scalar(graph.IsNaNOp)
def _is_nan(b: LoopBuilder, op: graph.IsNaNOp, x: list[SSAValue]) -> SSAValue:
    return b.cmpf("uno", x[0], x[0])


@scalar(graph.IsInfOp)
def _is_inf(b: LoopBuilder, op: graph.IsInfOp, x: list[SSAValue]) -> SSAValue:
    tests = [b.cmpf("oeq", x[0], b.const(inf, x[0].type))
             for inf, on in ((math_.inf, op.detect_positive), (-math_.inf, op.detect_negative))
             if on.value.data]
    if not tests:
        return b.cmpf("false", x[0], x[0])
    return tests[0] if len(tests) == 1 else b.insert(arith.OrIOp(*tests)).results[0]


def _softplus_of(b: LoopBuilder, v: SSAValue) -> SSAValue:
    """log(1 + e^v) without overflow: max(v, 0) + log1p(e^-|v|)."""
    neg_abs = b.insert(arith.NegfOp(b.unary(math.AbsFOp, v))).results[0]
    return b.add(b.max(v, _zero(b, v)), b.unary(math.Log1pOp, b.unary(math.ExpOp, neg_abs)))


@scalar(graph.SoftplusOp)
def _softplus(b: LoopBuilder, op: graph.SoftplusOp, x: list[SSAValue]) -> SSAValue:
    return _softplus_of(b, x[0])


@scalar(graph.MishOp)
def _mish(b: LoopBuilder, op: graph.MishOp, x: list[SSAValue]) -> SSAValue:
    return b.mul(x[0], b.unary(math.TanhOp, _softplus_of(b, x[0])))


def _elu_of(b: LoopBuilder, v: SSAValue, alpha: float, pred: str) -> SSAValue:
    """v `pred` 0 ? alpha * (e^v - 1) : v (NaN compares false and stays NaN)."""
    em1 = b.mul(b.const(alpha, v.type), b.unary(math.ExpM1Op, v))
    return b.select(b.cmpf(pred, v, _zero(b, v)), em1, v)


@scalar(graph.EluOp)
def _elu(b: LoopBuilder, op: graph.EluOp, x: list[SSAValue]) -> SSAValue:
    return _elu_of(b, x[0], op.alpha.value.data, "olt")


@scalar(graph.SeluOp)
def _selu(b: LoopBuilder, op: graph.SeluOp, x: list[SSAValue]) -> SSAValue:
    y = _elu_of(b, x[0], op.alpha.value.data, "ole")
    return b.mul(b.const(op.gamma.value.data, x[0].type), y)


@scalar(graph.CeluOp)
def _celu(b: LoopBuilder, op: graph.CeluOp, x: list[SSAValue]) -> SSAValue:
    """x < 0 ? alpha * (e^(x / alpha) - 1) : x"""
    v, alpha = x[0], op.alpha.value.data
    em1 = b.unary(math.ExpM1Op, b.div(v, b.const(alpha, v.type)))
    return b.select(b.cmpf("olt", v, _zero(b, v)), b.mul(b.const(alpha, v.type), em1), v)


@scalar(graph.ThresholdedReluOp)
def _thresholded_relu(b: LoopBuilder, op: graph.ThresholdedReluOp, x: list[SSAValue]
                      ) -> SSAValue:
    above = b.cmpf("ogt", x[0], b.const(op.alpha.value.data, x[0].type))
    return b.select(above, x[0], _zero(b, x[0]))


@scalar(graph.ShrinkOp)
def _shrink(b: LoopBuilder, op: graph.ShrinkOp, x: list[SSAValue]) -> SSAValue:
    """x < -lambd ? x + bias : x > lambd ? x - bias : 0 (NaN gives 0, as onnxruntime)"""
    v, t = x[0], x[0].type
    bias, lambd = b.const(op.bias.value.data, t), op.lambd.value.data
    upper = b.select(b.cmpf("ogt", v, b.const(lambd, t)), b.sub(v, bias), _zero(b, v))
    return b.select(b.cmpf("olt", v, b.const(-lambd, t)), b.add(v, bias), upper)


@scalar(graph.ReciprocalOp)
def _reciprocal(b: LoopBuilder, op: graph.ReciprocalOp, x: list[SSAValue]) -> SSAValue:
    return b.div(b.const(1.0, x[0].type), x[0])


@scalar(graph.NegOp)
def _neg(b: LoopBuilder, op: graph.NegOp, x: list[SSAValue]) -> SSAValue:
    if graph.is_float(x[0].type):
        return b.insert(arith.NegfOp(x[0])).results[0]
    return b.sub(_zero(b, x[0]), x[0])


@scalar(graph.AbsOp)
def _abs(b: LoopBuilder, op: graph.AbsOp, x: list[SSAValue]) -> SSAValue:
    if _unsigned(op):  # already non-negative (AbsI would read it as signed)
        return x[0]
    if graph.is_float(x[0].type):
        return b.unary(math.AbsFOp, x[0])
    return b.unary(math.AbsIOp, x[0])


@scalar(graph.LeakyReluOp)
def _leaky_relu(b: LoopBuilder, op: graph.LeakyReluOp, x: list[SSAValue]) -> SSAValue:
    neg = b.cmpf("olt", x[0], _zero(b, x[0]))
    return b.select(neg, b.mul(x[0], b.const(op.alpha.value.data, x[0].type)), x[0])


def _hard_sigmoid_of(b: LoopBuilder, x: SSAValue, alpha: float, beta: float) -> SSAValue:
    """max(0, min(1, alpha * x + beta))"""
    t = x.type
    y = b.add(b.mul(x, b.const(alpha, t)), b.const(beta, t))
    return b.max(b.min(y, b.const(1.0, t)), b.const(0.0, t))


@scalar(graph.HardSigmoidOp, vector=True)
def _hard_sigmoid(b: LoopBuilder, op: graph.HardSigmoidOp, x: list[SSAValue]) -> SSAValue:
    return _hard_sigmoid_of(b, x[0], op.alpha.value.data, op.beta.value.data)


@scalar(graph.HardSwishOp, vector=True)
def _hard_swish(b: LoopBuilder, op: graph.HardSwishOp, x: list[SSAValue]) -> SSAValue:
    """x * hard_sigmoid(x) with alpha = 1/6, beta = 0.5"""
    return b.mul(x[0], _hard_sigmoid_of(b, x[0], 1.0 / 6.0, 0.5))


@scalar(graph.GeluOp)
def _gelu(b: LoopBuilder, op: graph.GeluOp, x: list[SSAValue]) -> SSAValue:
    t, v = x[0].type, x[0]
    half = b.const(0.5, t)
    if op.approximate.data == "tanh":  # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        inner = b.add(v, b.mul(b.const(0.044715, t), b.mul(v, b.mul(v, v))))
        th = b.unary(math.TanhOp, b.mul(b.const(0.7978845608028654, t), inner))
    else:  # 0.5 x (1 + erf(x / sqrt(2)))
        th = b.unary(math.ErfOp, b.mul(v, b.const(0.7071067811865476, t)))
    return b.mul(b.mul(half, v), b.add(b.const(1.0, t), th))


@scalar(graph.ClipOp, vector=True)
def _clip(b: LoopBuilder, op: graph.ClipOp, x: list[SSAValue]) -> SSAValue:
    unsigned = _unsigned(op)
    return b.min(b.max(x[0], x[1], unsigned), x[2], unsigned)


@scalar(graph.AddOp)
def _add(b: LoopBuilder, op: graph.AddOp, x: list[SSAValue]) -> SSAValue:
    return b.add(x[0], x[1])


@scalar(graph.SubOp)
def _sub(b: LoopBuilder, op: graph.SubOp, x: list[SSAValue]) -> SSAValue:
    return b.sub(x[0], x[1])


@scalar(graph.MulOp)
def _mul(b: LoopBuilder, op: graph.MulOp, x: list[SSAValue]) -> SSAValue:
    return b.mul(x[0], x[1])


@scalar(graph.DivOp)
def _div(b: LoopBuilder, op: graph.DivOp, x: list[SSAValue]) -> SSAValue:
    return b.div(x[0], x[1], _unsigned(op))


@scalar(graph.PowOp)
def _pow(b: LoopBuilder, op: graph.PowOp, x: list[SSAValue]) -> SSAValue:
    if not graph.is_float(operand_element(op)):
        raise UnsupportedError("graph.pow on integers is not supported yet")
    return b.insert(math.PowFOp(x[0], x[1])).results[0]


# comparison predicates: (float, signed, unsigned)
_PREDICATES: dict[type[Operation], tuple[str, str, str]] = {
    graph.EqualOp: ("oeq", "eq", "eq"),
    graph.LessOp: ("olt", "slt", "ult"),
    graph.GreaterOp: ("ogt", "sgt", "ugt"),
}


@scalar(*_PREDICATES)
def _compare(b: LoopBuilder, op: graph.CompareOp, x: list[SSAValue]) -> SSAValue:
    fpred, spred, upred = _PREDICATES[type(op)]
    if graph.is_float(operand_element(op)):
        return b.cmpf(fpred, x[0], x[1])
    return b.cmpi(upred if _unsigned(op) else spred, x[0], x[1])


@scalar(graph.SumOp, graph.MaxOp, graph.MinOp, graph.MeanOp)
def _variadic(b: LoopBuilder, op: graph.VariadicOp, x: list[SSAValue]) -> SSAValue:
    unsigned = _unsigned(op)
    acc = x[0]
    for v in x[1:]:
        if isinstance(op, graph.SumOp | graph.MeanOp):
            acc = b.add(acc, v)
        elif isinstance(op, graph.MaxOp):
            acc = b.max(acc, v, unsigned)
        else:
            acc = b.min(acc, v, unsigned)
    if isinstance(op, graph.MeanOp):
        acc = b.div(acc, b.const(len(x), acc.type), unsigned)
    return acc


@scalar(graph.CastOp)
def _cast(b: LoopBuilder, op: graph.CastOp, x: list[SSAValue]) -> SSAValue:
    dst_graph = op.results[0].type
    assert isinstance(dst_graph, TensorType)
    dst = storage_type(dst_graph.element_type)
    src_unsigned, dst_unsigned = _unsigned(op), is_unsigned(dst_graph.element_type)
    v = x[0]
    if graph.is_narrow(operand_element(op)):
        v = narrow_types.decode(b, operand_element(op), v)
    if graph.is_narrow(dst_graph.element_type):
        return narrow_types.encode(b, dst_graph.element_type, v, unsigned=src_unsigned,
                                   saturate=bool(op.prop(op.properties, "saturate")),
                                   round_mode=op.prop(op.properties, "round_mode"))
    st = v.type
    if st == dst:
        return v
    if graph.is_float(st) and graph.is_float(dst):
        wider = graph.numpy_dtype(dst).itemsize > graph.numpy_dtype(st).itemsize
        return b.insert((arith.ExtFOp if wider else arith.TruncFOp)(v, dst)).results[0]
    if dst == IntegerType(1):  # x != 0
        zero = b.const(0, st)
        if graph.is_float(st):
            return b.cmpf("une", v, zero)
        return b.cmpi("ne", v, zero)
    if graph.is_float(st):
        op_cls = arith.FPToUIOp if dst_unsigned else arith.FPToSIOp
        return b.insert(op_cls(v, dst)).results[0]
    if graph.is_float(dst):
        op_cls = arith.UIToFPOp if src_unsigned or st == IntegerType(1) else arith.SIToFPOp
        return b.insert(op_cls(v, dst)).results[0]
    assert isinstance(st, IntegerType) and isinstance(dst, IntegerType)
    if dst.width.data < st.width.data:
        return b.insert(arith.TruncIOp(v, dst)).results[0]
    ext = arith.ExtUIOp if src_unsigned or st == IntegerType(1) else arith.ExtSIOp
    return b.insert(ext(v, dst)).results[0]


@scalar(graph.WhereOp)
def _where(b: LoopBuilder, op: graph.WhereOp, x: list[SSAValue]) -> SSAValue:
    return b.select(x[0], x[1], x[2])


@lowers(graph.IdentityOp, graph.DropoutOp)
def _same(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    """Identity and inference-mode Dropout: the result is the operand's buffer."""
    return [s.alias(ins[0], ins[0])]

"""Elementwise ops → one loop nest over the output, operands read with broadcasting.

The innermost loop runs over the last (contiguous) dim with unit stride, so LLVM's loop
vectorizer turns it into vector code. A broadcast operand dim that is statically 1 is read
at index 0, a static one (or one known equal to the output's) at the output index; a
dynamic operand dim that may be 1 at run time is read at `i * (dim != 1)` (see
`broadcast_index`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IndexType, IntegerType, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_to_loops import Lowering, LoweringFn
from infer.lowering.loop_builder import Index, LoopBuilder, is_unsigned, storage_type

ScalarFn = Callable[[LoopBuilder, list[SSAValue]], SSAValue]


def broadcast_index(
    ivs: Sequence[SSAValue], dims: Sequence[Dim], out: Sequence[Dim] | None = None
) -> list[Dim | SSAValue]:
    """Index into an operand of dims `dims` broadcast to an output of dims `out` (all
    unknown if None) indexed by `ivs`.

    A dim statically 1 is read at 0; a static dim, or a run-time one that is the output's
    own dim (or faces an output dim of 1), at the output index.
    Any other run-time dim may be 1 while the output's is not (even a static output dim
    > 1: x[?, 4] + w[3, 4] with x [1, 4] at run time): it is read at
    `iv * (dim != 1)`, the factor computed once where the dim is defined. A multiply by a
    loop-invariant factor (not a select on the index) keeps the access an affine
    recurrence, which LLVM's vectorizer versions on "stride == 1".
    """
    lead = len(ivs) - len(dims)
    idx: list[Dim | SSAValue] = []
    for i, d in enumerate(dims):
        iv, o = ivs[lead + i], out[lead + i] if out is not None else None
        if isinstance(d, int):
            idx.append(0 if d == 1 else iv)
        elif not isinstance(d, Index) or o == 1 or _same_dim(d, o):
            idx.append(iv)
        else:
            idx.append(d.b.insert(arith.MuliOp(iv, _unless_unit(d))).results[0])
    return idx


def _same_dim(d: Index, o: Dim | None) -> bool:
    return isinstance(o, Index) and o.value is d.value


def _unless_unit(d: Index) -> SSAValue:
    """`d != 1 ? 1 : 0` as an index, inserted right after d's definition (loop-invariant,
    so it is not recomputed in the loop nest that reads the operand)."""
    v = d.value
    if isinstance(v, OpResult):
        point = InsertPoint.after(v.op)
    else:
        assert isinstance(v, BlockArgument)
        point = InsertPoint.at_start(v.block)
    at = LoopBuilder(point)
    one, zero = at.const(1, IndexType()), at.const(0, IndexType())
    return at.select(at.cmpi("ne", v, one), one, zero)


def result_dims(s: Lowering, op: Operation, dims: Sequence[Sequence[Dim]]) -> list[Dim]:
    """The dims of `op`'s first result from its operands' `dims` (as its shape function
    computes them at run time), made to agree with the result's type. Operand dims taken
    once and passed here let `broadcast_index` see which output dims are an operand's."""
    assert isinstance(op, graph.GraphOp)
    consts = [graph.constant_value(v) for v in op.operands]
    out = type(op).output_dims(op.properties, [list(d) for d in dims], consts)[0]
    return s.typed_dims(out, op.results[0].type)


def elementwise(s: Lowering, op: Operation, ins: list[SSAValue], fn: ScalarFn) -> list[SSAValue]:
    """out[i] = fn(in_0[bcast(i)], in_1[bcast(i)], ...) over the op's only result.

    An operand computed by an inlined producer (`inlined_into_user`) is evaluated at the
    same index inside this loop nest, recursively: a chain of elementwise ops becomes one
    loop nest with no intermediate buffer.
    """
    b = s.b
    leaf_dims: dict[SSAValue, list[Dim]] = {}

    def dims_of(v: SSAValue, buf: SSAValue) -> list[Dim]:
        if v in s.inlined:
            producer, pins = s.inlined[v]
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
            return SCALAR[type(producer)](producer)(b, vals)
        return b.load(buf, broadcast_index(ivs, leaf_dims[buf], y_dims))

    t = op.results[0].type
    assert isinstance(t, TensorType)
    y_dims = s.typed_dims(out_dims(op, ins), t)
    out = s.alloc(y_dims, t.element_type)
    with b.loop_nest(y_dims) as ivs:
        vals = [value_at(v, buf, ivs) for v, buf in zip(op.operands, ins, strict=True)]
        b.store(fn(b, vals), out, ivs)
    return [out]


def inlined_into_user(op: Operation) -> bool:
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


def _element(op: Operation, i: int = 0) -> Attribute:
    t = op.operands[i].type
    assert isinstance(t, TensorType)
    return t.element_type


def _lower(fn: Callable[[Operation], ScalarFn]) -> LoweringFn:
    """A lowering from a function of the op to its scalar body."""
    return lambda s, op, ins: elementwise(s, op, ins, fn(op))


def _zero(b: LoopBuilder, like: SSAValue) -> SSAValue:
    return b.const(0, like.type)


def _relu(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
    return b.max(x[0], _zero(b, x[0]))


def _sigmoid(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
    one = b.const(1.0, x[0].type)
    neg = b.insert(arith.NegfOp(x[0])).results[0]
    return b.div(one, b.add(one, b.unary(math.ExpOp, neg)))


def _neg(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
    if graph.is_float(x[0].type):
        return b.insert(arith.NegfOp(x[0])).results[0]
    return b.sub(_zero(b, x[0]), x[0])


def _abs(op: Operation) -> ScalarFn:
    if is_unsigned(_element(op)):  # already non-negative (AbsI would read it as signed)
        return lambda b, x: x[0]
    if graph.is_float(_element(op)):
        return lambda b, x: b.unary(math.AbsFOp, x[0])
    return lambda b, x: b.unary(math.AbsIOp, x[0])


def _reciprocal(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
    return b.div(b.const(1.0, x[0].type), x[0])


def _math(op_cls: type[Operation]) -> ScalarFn:
    return lambda b, x: b.unary(op_cls, x[0])


def _leaky_relu(op: Operation) -> ScalarFn:
    alpha = graph.get_float(op.properties, "alpha", 0.01)

    def fn(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
        neg = b.cmpf("olt", x[0], _zero(b, x[0]))
        return b.select(neg, b.mul(x[0], b.const(alpha, x[0].type)), x[0])

    return fn


def _hard_sigmoid_of(b: LoopBuilder, x: SSAValue, alpha: float, beta: float) -> SSAValue:
    """max(0, min(1, alpha * x + beta))"""
    t = x.type
    y = b.add(b.mul(x, b.const(alpha, t)), b.const(beta, t))
    return b.max(b.min(y, b.const(1.0, t)), b.const(0.0, t))


def _hard_sigmoid(op: Operation) -> ScalarFn:
    alpha = graph.get_float(op.properties, "alpha", 0.2)
    beta = graph.get_float(op.properties, "beta", 0.5)
    return lambda b, x: _hard_sigmoid_of(b, x[0], alpha, beta)


def _hard_swish(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
    """x * hard_sigmoid(x) with alpha = 1/6, beta = 0.5"""
    return b.mul(x[0], _hard_sigmoid_of(b, x[0], 1.0 / 6.0, 0.5))


def _gelu(op: Operation) -> ScalarFn:
    return _gelu_of(graph.get_str(op.properties, "approximate", "none") == "tanh")


def _gelu_of(tanh_form: bool) -> ScalarFn:
    def fn(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
        t, v = x[0].type, x[0]
        half = b.const(0.5, t)
        if tanh_form:  # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
            inner = b.add(v, b.mul(b.const(0.044715, t), b.mul(v, b.mul(v, v))))
            th = b.unary(math.TanhOp, b.mul(b.const(0.7978845608028654, t), inner))
        else:  # 0.5 x (1 + erf(x / sqrt(2)))
            th = b.unary(math.ErfOp, b.mul(v, b.const(0.7071067811865476, t)))
        return b.mul(b.mul(half, v), b.add(b.const(1.0, t), th))

    return fn


def activation(name: str, params: Sequence[float]) -> Callable[[LoopBuilder, SSAValue], SSAValue]:
    """The scalar body of a fused activation (`graph.ACTIVATIONS`), on a float value."""

    def clip(b: LoopBuilder, v: SSAValue) -> SSAValue:
        return b.min(b.max(v, b.const(params[0], v.type)), b.const(params[1], v.type))

    def leaky(b: LoopBuilder, v: SSAValue) -> SSAValue:
        neg = b.cmpf("olt", v, _zero(b, v))
        return b.select(neg, b.mul(v, b.const(params[0], v.type)), v)

    gelu = _gelu_of(name == "gelu_tanh")
    fns: dict[str, Callable[[LoopBuilder, SSAValue], SSAValue]] = {
        "relu": lambda b, v: _relu(b, [v]),
        "clip": clip,
        "sigmoid": lambda b, v: _sigmoid(b, [v]),
        "tanh": lambda b, v: b.unary(math.TanhOp, v),
        "hard_sigmoid": lambda b, v: _hard_sigmoid_of(b, v, params[0], params[1]),
        "hard_swish": lambda b, v: _hard_swish(b, [v]),
        "leaky_relu": leaky,
        "gelu": lambda b, v: gelu(b, [v]),
        "gelu_tanh": lambda b, v: gelu(b, [v]),
    }
    if name not in fns:
        raise UnsupportedError(f"no lowering for the fused activation '{name}'")
    return fns[name]


def epilogue(op: Operation) -> Callable[[LoopBuilder, SSAValue], SSAValue] | None:
    """The activation fused into a conv / gemm / matmul, as a scalar function, or None."""
    act = graph.activation_of(op.properties)
    return None if act is None else activation(*act)


def _clip(op: Operation) -> ScalarFn:
    unsigned = is_unsigned(_element(op))
    return lambda b, x: b.min(b.max(x[0], x[1], unsigned), x[2], unsigned)


def _binary(kind: str) -> Callable[[Operation], ScalarFn]:
    def make(op: Operation) -> ScalarFn:
        unsigned = is_unsigned(_element(op))
        if kind == "add":
            return lambda b, x: b.add(x[0], x[1])
        if kind == "sub":
            return lambda b, x: b.sub(x[0], x[1])
        if kind == "mul":
            return lambda b, x: b.mul(x[0], x[1])
        if kind == "div":
            return lambda b, x: b.div(x[0], x[1], unsigned)
        if kind == "pow":
            if not graph.is_float(_element(op)):
                raise UnsupportedError("graph.pow on integers is not supported yet")
            return lambda b, x: b.insert(math.PowFOp(x[0], x[1])).results[0]
        raise AssertionError(kind)

    return make


def _compare(fpred: str, spred: str, upred: str) -> Callable[[Operation], ScalarFn]:
    def make(op: Operation) -> ScalarFn:
        e = _element(op)
        if graph.is_float(e):
            return lambda b, x: b.cmpf(fpred, x[0], x[1])
        pred = upred if is_unsigned(e) else spred
        return lambda b, x: b.cmpi(pred, x[0], x[1])

    return make


def _variadic(kind: str) -> Callable[[Operation], ScalarFn]:
    def make(op: Operation) -> ScalarFn:
        unsigned = is_unsigned(_element(op))
        n = len(op.operands)

        def fn(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
            acc = x[0]
            for v in x[1:]:
                if kind in ("sum", "mean"):
                    acc = b.add(acc, v)
                elif kind == "max":
                    acc = b.max(acc, v, unsigned)
                else:
                    acc = b.min(acc, v, unsigned)
            if kind == "mean":
                acc = b.div(acc, b.const(n, acc.type), unsigned)
            return acc

        return fn

    return make


def _cast(op: Operation) -> ScalarFn:
    src = _element(op)
    dst_graph = op.results[0].type
    assert isinstance(dst_graph, TensorType)
    dst = storage_type(dst_graph.element_type)
    src_unsigned, dst_unsigned = is_unsigned(src), is_unsigned(dst_graph.element_type)

    def fn(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
        v = x[0]
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

    return fn


def _where(b: LoopBuilder, x: list[SSAValue]) -> SSAValue:
    return b.select(x[0], x[1], x[2])


def _same(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    """Identity and inference-mode Dropout: the result is the operand's buffer."""
    return [s.alias(ins[0], ins[0])]


def _const(fn: ScalarFn) -> Callable[[Operation], ScalarFn]:
    return lambda op: fn


# Elementwise ops by their scalar body (given the op), lowered by `elementwise`.
SCALAR: dict[type[Operation], Callable[[Operation], ScalarFn]] = {
    graph.ReluOp: _const(_relu),
    graph.SigmoidOp: _const(_sigmoid),
    graph.TanhOp: _const(_math(math.TanhOp)),
    graph.ExpOp: _const(_math(math.ExpOp)),
    graph.LogOp: _const(_math(math.LogOp)),
    graph.SqrtOp: _const(_math(math.SqrtOp)),
    graph.ErfOp: _const(_math(math.ErfOp)),
    graph.FloorOp: _const(_math(math.FloorOp)),
    graph.CeilOp: _const(_math(math.CeilOp)),
    graph.ReciprocalOp: _const(_reciprocal),
    graph.NegOp: _const(_neg),
    graph.AbsOp: _abs,
    graph.LeakyReluOp: _leaky_relu,
    graph.HardSigmoidOp: _hard_sigmoid,
    graph.HardSwishOp: _const(_hard_swish),
    graph.GeluOp: _gelu,
    graph.ClipOp: _clip,
    graph.CastOp: _cast,
    graph.AddOp: _binary("add"),
    graph.SubOp: _binary("sub"),
    graph.MulOp: _binary("mul"),
    graph.DivOp: _binary("div"),
    graph.PowOp: _binary("pow"),
    graph.EqualOp: _compare("oeq", "eq", "eq"),
    graph.LessOp: _compare("olt", "slt", "ult"),
    graph.GreaterOp: _compare("ogt", "sgt", "ugt"),
    graph.WhereOp: _const(_where),
    graph.SumOp: _variadic("sum"),
    graph.MaxOp: _variadic("max"),
    graph.MinOp: _variadic("min"),
    graph.MeanOp: _variadic("mean"),
}

LOWERINGS: dict[type[Operation], LoweringFn] = {
    **{cls: _lower(make) for cls, make in SCALAR.items()},
    graph.IdentityOp: _same,
    graph.DropoutOp: _same,
}

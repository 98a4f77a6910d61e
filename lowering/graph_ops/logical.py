"""Scalar bodies of the logical, bitwise and integer-arithmetic ops, of LessOrEqual /
GreaterOrEqual and of PRelu (lowered by `elementwise`, fusable into its chains).

Integer remainders and shifts are undefined in LLVM for some operands (a divisor of 0,
INT_MIN % -1, a shift by the width or more): each body selects a harmless operand there
and the defined result after, so no input reaches undefined behaviour.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation, SSAValue

from infer.dialects import graph
from infer.lowering.graph_ops.base import operand_element
from infer.lowering.graph_ops.elementwise import scalar
from infer.lowering.loop_builder import LoopBuilder, is_unsigned, storage_type

_BITWISE: dict[type[Operation], type[Operation]] = {
    graph.AndOp: arith.AndIOp,
    graph.OrOp: arith.OrIOp,
    graph.XorOp: arith.XOrIOp,
    graph.BitwiseAndOp: arith.AndIOp,
    graph.BitwiseOrOp: arith.OrIOp,
    graph.BitwiseXorOp: arith.XOrIOp,
}


@scalar(*_BITWISE)
def _bitwise(b: LoopBuilder, op: Operation, x: list[SSAValue]) -> SSAValue:
    return b.insert(_BITWISE[type(op)](x[0], x[1])).results[0]


@scalar(graph.NotOp, graph.BitwiseNotOp)
def _not(b: LoopBuilder, op: Operation, x: list[SSAValue]) -> SSAValue:
    """x ^ all-ones"""
    return b.insert(arith.XOrIOp(x[0], b.const(-1, x[0].type))).results[0]


def _width(v: SSAValue) -> int:
    t = v.type
    assert isinstance(t, IntegerType)
    return t.width.data


@scalar(graph.BitShiftOp)
def _bit_shift(b: LoopBuilder, op: graph.BitShiftOp, x: list[SSAValue]) -> SSAValue:
    """An amount >= the width (a negative one too, compared unsigned) shifts in only the
    fill: 0, or the sign for a signed right shift (an arithmetic shift by width - 1)."""
    v, amount = x
    width = b.const(_width(v), v.type)
    in_range = b.cmpi("ult", amount, width)
    safe = b.select(in_range, amount, b.const(_width(v) - 1, v.type))
    if op.direction.data == "RIGHT" and not is_unsigned(operand_element(op)):
        return b.insert(arith.ShRSIOp(v, safe)).results[0]
    shift = arith.ShLIOp if op.direction.data == "LEFT" else arith.ShRUIOp
    return b.select(in_range, b.insert(shift(v, safe)).results[0], b.const(0, v.type))


@scalar(graph.BitCastOp)
def _bit_cast(b: LoopBuilder, op: graph.BitCastOp, x: list[SSAValue]) -> SSAValue:
    """The same bits: a float <-> integer bitcast; integers of one width are one signless
    storage type; bool's byte is 0 or 1 (a byte cast to bool tests it against 0)."""
    v, to = x[0], storage_type(op.to)
    if to == IntegerType(1):
        return b.cmpi("ne", v, b.const(0, v.type))
    if v.type == IntegerType(1):
        return b.insert(arith.ExtUIOp(v, to)).results[0]
    return v if v.type == to else b.insert(arith.BitcastOp(v, to)).results[0]


@scalar(graph.ModOp)
def _mod(b: LoopBuilder, op: graph.ModOp, x: list[SSAValue]) -> SSAValue:
    a, d = x
    t = a.type
    if graph.is_float(t):
        # C's fmod, exact (xDSL's arith has no remf; LLVM's frem is fmod)
        r = b.insert(llvm.FRemOp(a, d)).results[0]
        if op.fmod.value.data:
            return r
        zero = b.const(0.0, t)
        # floor remainder as numpy: r + d where r and d differ in sign, a zero with d's sign
        differ = b.insert(arith.XOrIOp(b.cmpf("olt", r, zero), b.cmpf("olt", d, zero)))
        moved = b.select(differ.results[0], b.add(r, d), r)
        return b.select(b.cmpf("une", r, zero), moved,
                        b.insert(math.CopySignOp(zero, d)).results[0])
    zero = b.const(0, t)
    if is_unsigned(operand_element(op)):  # both remainders agree; x % 0 = 0
        safe = b.select(b.cmpi("eq", d, zero), b.const(1, t), d)
        return b.insert(arith.RemUIOp(a, safe)).results[0]
    # x % 0 and x % -1 are 0; x % 1 is too, without srem's undefined cases
    bad = b.insert(arith.OrIOp(b.cmpi("eq", d, zero), b.cmpi("eq", d, b.const(-1, t))))
    safe = b.select(bad.results[0], b.const(1, t), d)
    r = b.insert(arith.RemSIOp(a, safe)).results[0]
    if op.fmod.value.data:
        return r
    # floor remainder: r + d where r is nonzero and its sign differs from d's
    differ = b.cmpi("slt", b.insert(arith.XOrIOp(r, safe)).results[0], zero)
    adjust = b.insert(arith.AndIOp(b.cmpi("ne", r, zero), differ)).results[0]
    return b.select(adjust, b.add(r, safe), r)


# comparison predicates: (float, signed, unsigned); NaN compares false
_PREDICATES: dict[type[Operation], tuple[str, str, str]] = {
    graph.LessOrEqualOp: ("ole", "sle", "ule"),
    graph.GreaterOrEqualOp: ("oge", "sge", "uge"),
}


@scalar(*_PREDICATES)
def _compare(b: LoopBuilder, op: graph.CompareOp, x: list[SSAValue]) -> SSAValue:
    fpred, spred, upred = _PREDICATES[type(op)]
    if graph.is_float(operand_element(op)):
        return b.cmpf(fpred, x[0], x[1])
    return b.cmpi(upred if is_unsigned(operand_element(op)) else spred, x[0], x[1])


@scalar(graph.PReluOp)
def _prelu(b: LoopBuilder, op: graph.PReluOp, x: list[SSAValue]) -> SSAValue:
    v, slope = x
    if is_unsigned(operand_element(op)):  # never negative
        return v
    zero = b.const(0, v.type)
    neg = b.cmpf("olt", v, zero) if graph.is_float(v.type) else b.cmpi("slt", v, zero)
    return b.select(neg, b.mul(v, slope), v)

"""Scalar conversions between the narrow element types and the ones code computes on.

Buffers hold bf16, the float8 and float4 types and the 4- and 2-bit integers as ml_dtypes
lays them out (see `graph.NARROW_TYPES`): the code of one element per byte (two for bf16),
sub-byte integers in the low bits. Nothing computes on them: `widen-half` leaves only
casts (and QuantizeLinear / DequantizeLinear) reading or writing them, and those convert
with `decode` (a code to f32, or to an i8 integer) and `encode` (an f32/f64 or integer to a
code), built from integer and exact float arithmetic so that every code and every rounding
matches ml_dtypes, which ONNX's reference uses:

- decode is exact: every narrow float is an f32.
- encode rounds to nearest, ties to even (an f64 first to f32, as ml_dtypes and
  onnxruntime do); a magnitude past the largest finite value saturates to it or,
  with `saturate` off, becomes Inf where the type has one, else NaN. f8E8M0 follows ONNX's
  own rule (`onnx.numpy_helper.to_float8e8m0`): the f32 exponent, rounded up, down or to
  nearest. The sub-byte integers wrap like C casts, from floats truncated toward zero.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float32Type,
    Float64Type,
    IntegerType,
    f32,
    f64,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue

from infer.dialects import graph
from infer.lowering.loop_builder import LoopBuilder, is_unsigned, storage_type


@dataclass(frozen=True)
class FloatFormat:
    """A narrow float's code: sign, `exponent` bits biased by `bias`, `mantissa` bits.
    `special` says what the top exponent means: "ieee" (Inf, NaN), "ones" (only all ones
    is NaN: f8E4M3FN), "negzero" (no Inf, the code of -0 is NaN: the FNUZ types) or
    "none" (every code finite: f4E2M1)."""

    bits: int
    exponent: int
    mantissa: int
    special: str
    dtype: np.dtype

    @property
    def bias(self) -> int:
        return 1 - int(ml_dtypes.finfo(self.dtype).minexp)

    @property
    def max_finite(self) -> float:
        return float(ml_dtypes.finfo(self.dtype).max)

    def code_of(self, value: float) -> int:
        """The code ml_dtypes gives `value`."""
        raw = np.array([value]).astype(self.dtype).view(np.uint16 if self.bits == 16
                                                        else np.uint8)
        return int(raw[0])


FLOAT_FORMATS: dict[Attribute, FloatFormat] = {
    BFloat16Type(): FloatFormat(16, 8, 7, "ieee", np.dtype(ml_dtypes.bfloat16)),
    Float8E4M3FNType(): FloatFormat(8, 4, 3, "ones", np.dtype(ml_dtypes.float8_e4m3fn)),
    Float8E4M3FNUZType(): FloatFormat(8, 4, 3, "negzero", np.dtype(ml_dtypes.float8_e4m3fnuz)),
    Float8E5M2Type(): FloatFormat(8, 5, 2, "ieee", np.dtype(ml_dtypes.float8_e5m2)),
    Float8E5M2FNUZType(): FloatFormat(8, 5, 2, "negzero", np.dtype(ml_dtypes.float8_e5m2fnuz)),
    Float4E2M1FNType(): FloatFormat(4, 2, 1, "none", np.dtype(ml_dtypes.float4_e2m1fn)),
}
E8M0 = Float8E8M0FNUType()


class _Ints:
    """Integer arithmetic on one type, with constants made on the fly."""

    def __init__(self, b: LoopBuilder, t: IntegerType):
        self.b, self.t = b, t

    def c(self, v: int) -> SSAValue:
        return self.b.const(v, self.t)

    def _i(self, v: SSAValue | int) -> SSAValue:
        return self.c(v) if isinstance(v, int) else v

    def shr(self, a: SSAValue, n: int, signed: bool = False) -> SSAValue:
        cls = arith.ShRSIOp if signed else arith.ShRUIOp
        return self.b.insert(cls(a, self.c(n))).results[0]

    def shl(self, a: SSAValue, n: int | SSAValue) -> SSAValue:
        return self.b.insert(arith.ShLIOp(a, self._i(n))).results[0]

    def and_(self, a: SSAValue, m: int) -> SSAValue:
        return self.b.insert(arith.AndIOp(a, self.c(m))).results[0]

    def or_(self, a: SSAValue, o: SSAValue | int) -> SSAValue:
        return self.b.insert(arith.OrIOp(a, self._i(o))).results[0]

    def add(self, a: SSAValue, o: SSAValue | int) -> SSAValue:
        return self.b.insert(arith.AddiOp(a, self._i(o))).results[0]

    def sub(self, a: SSAValue, o: SSAValue | int) -> SSAValue:
        return self.b.insert(arith.SubiOp(a, self._i(o))).results[0]

    def eq(self, a: SSAValue, o: SSAValue | int) -> SSAValue:
        return self.b.cmpi("eq", a, self._i(o))


def _bitcast(b: LoopBuilder, v: SSAValue, t: Attribute) -> SSAValue:
    return b.insert(arith.BitcastOp(v, t)).results[0]


def _widen_int(b: LoopBuilder, v: SSAValue, t: IntegerType) -> SSAValue:
    """The unsigned value of code `v` as `t`."""
    assert isinstance(v.type, IntegerType)
    if v.type.width.data == t.width.data:
        return v
    return b.insert(arith.ExtUIOp(v, t)).results[0]


def _pow2(b: LoopBuilder, e: int, t: Attribute = f32) -> SSAValue:
    return b.const(2.0 ** e, t)


# ---------------------------------------------------------------------------------------
# decode: a code to the value it stands for
# ---------------------------------------------------------------------------------------


def decode(b: LoopBuilder, element: Attribute, code: SSAValue) -> SSAValue:
    """The value of `code` (as loaded from a buffer of `element`): f32 for a narrow float,
    i8 for a sub-byte integer (sign-extended, or its unsigned value)."""
    if isinstance(element, IntegerType):
        width = element.width.data
        n = _Ints(b, i8)
        if is_unsigned(element):
            return n.and_(code, (1 << width) - 1)
        return n.shr(n.shl(code, 8 - width), 8 - width, signed=True)
    n = _Ints(b, i32)
    if element == E8M0:
        e = _widen_int(b, code, i32)
        value = _bitcast(b, b.select(n.eq(e, 0), n.c(1 << 22), n.shl(e, 23)), f32)
        return b.select(n.eq(e, 0xFF), b.const(float("nan"), f32), value)
    fmt = FLOAT_FORMATS[element]
    c = n.and_(_widen_int(b, code, i32), (1 << fmt.bits) - 1)
    if fmt.bits == 16:  # bf16 is the top half of an f32
        return _bitcast(b, n.shl(c, 16), f32)
    m, top = fmt.mantissa, (1 << fmt.exponent) - 1
    e = n.and_(n.shr(c, m), top)
    frac = n.and_(c, (1 << m) - 1)
    normal = _bitcast(b, n.or_(n.shl(n.add(e, 127 - fmt.bias), 23), n.shl(frac, 23 - m)), f32)
    sub = b.mul(b.insert(arith.UIToFPOp(frac, f32)).results[0], _pow2(b, 1 - fmt.bias - m))
    magnitude = b.select(n.eq(e, 0), sub, normal)
    nan, inf = b.const(float("nan"), f32), b.const(float("inf"), f32)
    if fmt.special == "ieee":
        special = b.select(n.eq(frac, 0), inf, nan)
        magnitude = b.select(n.eq(e, top), special, magnitude)
    elif fmt.special == "ones":
        magnitude = b.select(n.eq(n.and_(c, (1 << (fmt.bits - 1)) - 1), (1 << (fmt.bits - 1)) - 1),
                             nan, magnitude)
    negative = n.eq(n.shr(c, fmt.bits - 1), 1)
    value = b.select(negative, b.insert(arith.NegfOp(magnitude)).results[0], magnitude)
    if fmt.special == "negzero":
        value = b.select(n.eq(c, 1 << (fmt.bits - 1)), nan, value)
    return value


# ---------------------------------------------------------------------------------------
# encode: a value to the code of the nearest narrow value
# ---------------------------------------------------------------------------------------


def _as_float(b: LoopBuilder, v: SSAValue, unsigned: bool, t: Attribute) -> SSAValue:
    """`v` (a float or integer scalar) as float type `t`."""
    if isinstance(v.type, IntegerType):
        if v.type == IntegerType(1) or unsigned:
            return b.insert(arith.UIToFPOp(v, t)).results[0]
        return b.insert(arith.SIToFPOp(v, t)).results[0]
    if v.type == t:
        return v
    wider = isinstance(t, Float64Type) or (isinstance(t, Float32Type)
                                          and not isinstance(v.type, Float64Type))
    return b.insert((arith.ExtFOp if wider else arith.TruncFOp)(v, t)).results[0]


def _encode_float(b: LoopBuilder, fmt: FloatFormat, v: SSAValue, saturate: bool) -> SSAValue:
    """The code (as i64) of f64 `v` rounded to the format."""
    n = _Ints(b, i64)
    m = fmt.mantissa
    emin = 1 - fmt.bias
    emax = int(np.frexp(fmt.max_finite)[1]) - 1
    bits = _bitcast(b, v, i64)
    sign = n.shr(bits, 63)
    a = b.unary(math.AbsFOp, v)
    # the exponent of a's binade, clamped to the format's: the quantum of its rounding
    e = n.add(n.and_(n.shr(bits, 52), 0x7FF), -1023)
    e = b.min(b.max(e, n.c(emin)), n.c(emax))
    scale = _bitcast(b, n.shl(n.add(e, 1023 - m), 52), f64)        # 2^(e - m)
    inverse = _bitcast(b, n.shl(n.sub(n.c(1023 + m), e), 52), f64)  # 2^(m - e)
    r = b.mul(b.unary(math.RoundEvenOp, b.mul(a, inverse, None)), scale, None)
    # the code of r, a finite value of the format (or past its largest)
    r_bits = _bitcast(b, r, i64)
    r_exp = n.add(n.and_(n.shr(r_bits, 52), 0x7FF), -1023)
    normal = n.or_(n.shl(n.add(r_exp, fmt.bias), m), n.and_(n.shr(r_bits, 52 - m),
                                                             (1 << m) - 1))
    sub = b.insert(arith.FPToUIOp(b.mul(r, _pow2(b, m - emin, f64), None), i64)).results[0]
    code = b.select(b.cmpf("oge", r, _pow2(b, emin, f64)), normal, sub)
    signed = n.or_(code, n.shl(sign, fmt.bits - 1))
    if fmt.special == "negzero":  # no -0: a zero keeps no sign
        signed = b.select(n.eq(code, 0), code, signed)
    # past the largest finite value (Inf included)
    if (saturate and fmt.bits == 8) or fmt.special == "none":  # `saturate` is float8's
        over = n.or_(n.c(fmt.code_of(fmt.max_finite)), n.shl(sign, fmt.bits - 1))
    elif fmt.special == "ieee":
        over = n.or_(n.c(fmt.code_of(float("inf"))), n.shl(sign, fmt.bits - 1))
    elif fmt.special == "ones":
        over = n.or_(n.c(fmt.code_of(float("nan"))), n.shl(sign, fmt.bits - 1))
    else:
        over = n.c(fmt.code_of(float("nan")))
    signed = b.select(b.cmpf("ogt", r, b.const(fmt.max_finite, f64)), over, signed)
    # NaN: ml_dtypes keeps the sign where the format has a signed NaN (and gives f4E2M1,
    # which has none, the zero of the opposite sign)
    if fmt.special == "negzero":
        nan = n.c(fmt.code_of(float("nan")))
    elif fmt.special == "none":
        nan = n.shl(n.sub(n.c(1), sign), fmt.bits - 1)
    else:
        nan = n.or_(n.c(fmt.code_of(float("nan"))), n.shl(sign, fmt.bits - 1))
    return b.select(b.cmpf("uno", v, v), nan, signed)


def _encode_e8m0(b: LoopBuilder, v: SSAValue, saturate: bool, round_mode: str) -> SSAValue:
    """ONNX's f8E8M0 code (as i32) of f32 `v`: its exponent field, rounded by `round_mode`."""
    n = _Ints(b, i32)
    bits = _bitcast(b, v, i32)
    e = n.and_(n.shr(bits, 23), 0xFF)
    special = n.eq(e, 0xFF)
    if round_mode == "down":
        return e
    if round_mode == "up":
        up = b.cmpi("ne", n.and_(bits, 0x7FFFFF), n.c(0))
    else:  # nearest: guard bit, and round, sticky or a nonzero exponent (ONNX's rule)
        guard = b.cmpi("ne", n.and_(bits, 0x400000), n.c(0))
        rest = b.cmpi("ne", n.and_(bits, 0x3FFFFF), n.c(0))
        up = b.insert(arith.AndIOp(guard, b.insert(arith.OrIOp(
            rest, b.cmpi("ugt", e, n.c(0)))).results[0])).results[0]
    if saturate:
        up = b.insert(arith.AndIOp(up, b.cmpi("ne", e, n.c(0xFE)))).results[0]
    rounded = b.select(up, n.add(e, 1), e)
    return b.select(special, n.c(0xFF), rounded)


def encode(b: LoopBuilder, element: Attribute, v: SSAValue, *, unsigned: bool = False,
           saturate: bool = True, round_mode: str = "up") -> SSAValue:
    """The code, as `element`'s storage type, of scalar `v` (a float or integer; `unsigned`
    says how to read an integer) converted to narrow type `element`."""
    out = storage_type(element)
    assert isinstance(out, IntegerType)
    if isinstance(element, IntegerType):
        width = element.width.data
        if not isinstance(v.type, IntegerType):  # truncated toward zero, then wrapped
            x = _as_float(b, v, False, f64)
            inside = b.cmpf("olt", b.unary(math.AbsFOp, x), b.const(2.0 ** 63, f64))
            v = b.insert(arith.FPToSIOp(b.select(inside, x, b.const(0.0, f64)), i64)).results[0]
        elif v.type.width.data < 8:
            ext = arith.ExtUIOp if unsigned or v.type == IntegerType(1) else arith.ExtSIOp
            v = b.insert(ext(v, i8)).results[0]
        if isinstance(v.type, IntegerType) and v.type.width.data > 8:
            v = b.insert(arith.TruncIOp(v, i8)).results[0]
        return _Ints(b, i8).and_(v, (1 << width) - 1)
    if element == E8M0:
        code = _encode_e8m0(b, _as_float(b, v, unsigned, f32), saturate, round_mode)
    else:
        fmt = FLOAT_FORMATS[element]
        # ml_dtypes (and onnxruntime) round an f64 to f32 first
        wide = _as_float(b, _as_float(b, v, unsigned, f32), False, f64)
        code = _encode_float(b, fmt, wide, saturate)
    return b.insert(arith.TruncIOp(code, out)).results[0]


def is_narrow(element: Attribute) -> bool:
    return graph.is_narrow(element)


__all__ = ["FLOAT_FORMATS", "FloatFormat", "decode", "encode", "is_narrow"]

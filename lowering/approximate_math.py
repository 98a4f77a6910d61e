"""`approximate-math`: f32 exp, erf and tanh as polynomials on the vector units.

LLVM has no vector form of any: `llvm.exp.v16f32` and a libm `erff` become one scalar
call per lane, which made erf (GELU) and exp (softmax) a quarter of a BERT encoder's time,
and libm's `tanhf` a third of an LSTM's.
Here each is a few FMAs, as onnxruntime's MLAS computes them, for scalars and vectors
alike (a vector loop and its scalar tail then agree). f64 keeps libm.

Accuracy, checked on dense samples of all finite f32 inputs against float64: exp within
0.97 ulp over the normal range (subnormal results within one subnormal step), erf within
1.07 ulp, tanh within 0.98 ulp. IEEE cases as libm: exp(+inf) = inf, exp(-inf) = 0, large
arguments overflow to inf or underflow to 0; erf(+-inf) = tanh(+-inf) = +-1, erf(+-0) =
tanh(+-0) = +-0; NaN in, NaN out.

    exp(x) = 2^n * (1 + r + r^2 P(r)),   n = roundeven(x / ln 2),  r = x - n ln 2
    erf(x) = x + x Q(x^2)                                 |x| <= 0.921875
           = sign(x) (1 - exp(-(t + t R(t))))             t = min(|x|, 3.92) beyond
    tanh(x) = x + x^3 S(x^2)                              |x| <= 0.9
            = sign(x) (1 - 2 / (exp(2 |x|) + 1))          beyond (exp's overflow gives 1)

P, Q, R, S: least-squares fits on Chebyshev nodes (relative error) of (e^r - 1 - r) / r^2
on [-ln2/2, ln2/2], erf(x)/x - 1 in x^2, -log(erfc(t))/t - 1 on [0.921875, 3.92] and
(tanh(x)/x - 1) / x^2 in x^2 on [0, 0.9], rounded to f32. 2^n is applied as
2^(n/2) * 2^(n - n/2), each a normal float, so that subnormal results and overflow come
out as the product rounds them; |x| is clamped to 150 first
(NaN-ignoring min/max: no NaN reaches the integer conversion) and a NaN argument is put
back at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math, vector
from xdsl.dialects.builtin import Float32Type, ModuleOp, VectorType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from infer.dialects import llvmx
from infer.lowering.loop_builder import LoopBuilder

# The polynomials' products rounded each (no contraction: the error bounds assume it).
_EXACT = arith.FastMathFlagsAttr("none")
# e^r = 1 + r + r^2 (EXP_P[0] + EXP_P[1] r + ...)
EXP_P = (0.5, 0.1666666567325592, 0.04166647046804428, 0.008333520963788033,
         0.0013933194568380713, 0.0001975038176169619)
LOG2E = 1.4426950216293335
LN2_HI, LN2_LO = 0.6931471824645996, -1.9046542121259336e-09
EXP_CLAMP = 150.0  # |x| beyond: the result is inf or 0 either way
# erf(x) = x + x (ERF_Q[0] + ERF_Q[1] x^2 + ...) for |x| <= ERF_SPLIT
ERF_Q = (0.12837916612625122, -0.3761252462863922, 0.11282039433717728,
         -0.026772961020469666, 0.005000901408493519, -0.0006024636095389724)
# erf(t) = 1 - exp(-(t + t (ERF_R[0] + ERF_R[1] t + ...))) for ERF_SPLIT < t <= ERF_ONE
ERF_R = (0.12866082787513733, 0.6350992321968079, 0.10632641613483429,
         -0.023842161521315575, 0.0036817488726228476, -0.00033281606738455594,
         1.226626591233071e-05)
ERF_SPLIT = 0.921875
ERF_ONE = 3.92  # erfc(3.92) < 2^-25: erf rounds to 1 from here
# tanh(x) = x + x^3 (TANH_S[0] + TANH_S[1] x^2 + ...) for |x| <= TANH_SPLIT
TANH_S = (-0.3333333432674408, 0.1333332657814026, -0.0539664551615715, 0.0218514371663332,
          -0.008772612549364567, 0.003337508300319314, -0.0010365791385993361,
          0.0001811780093703419)
TANH_SPLIT = 0.9


class _Build:
    """Ops of one expansion, inserted before the op it replaces (`b`), on its type (f32 or
    a vector of f32) and the matching i32 type."""

    def __init__(self, op: Operation, typ: Attribute) -> None:
        self.b = LoopBuilder(InsertPoint.before(op))
        self.typ = typ
        self.int_typ: Attribute = (VectorType(i32, typ.get_shape())
                                   if isinstance(typ, VectorType) else i32)

    def emit(self, op: Operation) -> SSAValue:
        return self.b.insert(op).results[0]

    def f(self, value: float) -> SSAValue:
        return self.b.const(value, self.typ)

    def i(self, value: int) -> SSAValue:
        return self.b.const(value, self.int_typ)

    def fma(self, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        return self.emit(math.FmaOp(a, b, c))  # LoopBuilder's fma is for vectors only

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.b.mul(a, b, _EXACT)

    def horner(self, coefficients: Sequence[float], x: SSAValue) -> SSAValue:
        """c[0] + c[1] x + c[2] x^2 + ..."""
        acc = self.f(coefficients[-1])
        for c in reversed(coefficients[:-1]):
            acc = self.fma(acc, x, self.f(c))
        return acc

    def keep_nan(self, x: SSAValue, value: SSAValue) -> SSAValue:
        """`value`, or `x` where `x` is NaN."""
        return self.b.select(self.b.cmpf("uno", x, x), x, value)

    def pow2(self, n: SSAValue) -> SSAValue:
        """2^n for an i32 `n` in [-126, 127]: the exponent field."""
        biased = self.emit(arith.AddiOp(n, self.i(127)))
        bits = self.emit(arith.ShLIOp(biased, self.i(23)))
        if isinstance(self.typ, VectorType):
            return self.emit(vector.BitcastOp(bits, self.typ))
        return self.emit(arith.BitcastOp(bits, self.typ))

    def to_int(self, x: SSAValue) -> SSAValue:
        """An integral float as i32 (arith's cast takes no vectors in xDSL: LLVM's)."""
        if isinstance(self.typ, VectorType):
            return self.emit(llvmx.FPToSIOp(x, self.int_typ))
        return self.emit(arith.FPToSIOp(x, i32))

    def exp(self, x: SSAValue) -> SSAValue:
        """e^x without the NaN case (a NaN `x` gives some number)."""
        xc = self.emit(arith.MinnumfOp(self.emit(arith.MaxnumfOp(x, self.f(-EXP_CLAMP))),
                                       self.f(EXP_CLAMP)))
        n = self.emit(math.RoundEvenOp(self.mul(xc, self.f(LOG2E))))
        minus_n = self.emit(arith.NegfOp(n))
        r = self.fma(minus_n, self.f(LN2_LO), self.fma(minus_n, self.f(LN2_HI), xc))
        p = self.horner(EXP_P, r)
        e = self.emit(arith.AddfOp(self.fma(p, self.mul(r, r), r), self.f(1.0)))
        ni = self.to_int(n)
        half = self.emit(arith.ShRSIOp(ni, self.i(1)))
        rest = self.emit(arith.SubiOp(ni, half))
        return self.mul(self.mul(e, self.pow2(half)), self.pow2(rest))

    def erf(self, x: SSAValue) -> SSAValue:
        t = self.emit(math.AbsFOp(x))
        small = self.fma(self.horner(ERF_Q, self.mul(t, t)), t, t)
        tb = self.emit(arith.MinnumfOp(t, self.f(ERF_ONE)))
        g = self.fma(self.horner(ERF_R, tb), tb, tb)
        minus_g = self.emit(arith.NegfOp(g))
        big = self.emit(arith.SubfOp(self.f(1.0), self.exp(minus_g)))
        magnitude = self.b.select(self.b.cmpf("ole", t, self.f(ERF_SPLIT)), small, big)
        return self.emit(math.CopySignOp(magnitude, x))

    def tanh(self, x: SSAValue) -> SSAValue:
        t = self.emit(math.AbsFOp(x))
        u = self.mul(t, t)
        small = self.fma(self.mul(self.horner(TANH_S, u), u), t, t)
        e = self.exp(self.emit(arith.AddfOp(t, t)))
        q = self.emit(arith.DivfOp(self.f(2.0), self.emit(arith.AddfOp(e, self.f(1.0))),
                                   _EXACT))
        big = self.emit(arith.SubfOp(self.f(1.0), q))
        magnitude = self.b.select(self.b.cmpf("ole", t, self.f(TANH_SPLIT)), small, big)
        return self.emit(math.CopySignOp(magnitude, x))


def _f32(typ: Attribute) -> bool:
    scalar = typ.element_type if isinstance(typ, VectorType) else typ
    return isinstance(scalar, Float32Type)


# Each function's expansion, by the math op it replaces.
_EXPANSIONS: dict[type[Operation], Callable[[_Build, SSAValue], SSAValue]] = {
    math.ExpOp: _Build.exp,
    math.ErfOp: _Build.erf,
    math.TanhOp: _Build.tanh,
}


class ApproximateMath(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        expand = _EXPANSIONS.get(type(op))
        if expand is not None and _f32(op.results[0].type):
            b = _Build(op, op.results[0].type)
            x = op.operands[0]
            rewriter.replace(op, [], [b.keep_nan(x, expand(b, x))])


@dataclass(frozen=True)
class ApproximateMathPass(ModulePass):
    name = "approximate-math"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ApproximateMath(), apply_recursively=False).rewrite_module(op)

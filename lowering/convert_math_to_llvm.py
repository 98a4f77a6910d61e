"""`convert-math-to-llvm`: math ops to LLVM intrinsics, or libm calls where LLVM has none.

Intrinsics are mangled by type (`llvm.exp.v8f32`) and keep the op's fast-math flags.
Functions without an intrinsic (erf, expm1, log1p, cbrt) become calls to the C library,
lane by lane on vectors and through f32 for f16. Vector exp/tanh intrinsics end up as
scalar libm calls in LLVM's backend: the pipeline expands f32 exp and erf to polynomials
before this pass (`approximate-math`).
"""

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import llvm, math
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    ModuleOp,
    VectorType,
    f32,
    f64,
    i1,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter

from infer.dialects import llvmx
from infer.lowering.convert_arith_to_llvm import fastmath_of
from infer.lowering.llvm_descriptor import Emitter, call_intrinsic, lower_with

_UNARY: dict[type[Operation], str] = {
    math.ExpOp: "llvm.exp",
    math.Exp2Op: "llvm.exp2",
    math.LogOp: "llvm.log",
    math.Log2Op: "llvm.log2",
    math.Log10Op: "llvm.log10",
    math.SqrtOp: "llvm.sqrt",
    math.AbsFOp: "llvm.fabs",
    math.FloorOp: "llvm.floor",
    math.CeilOp: "llvm.ceil",
    math.RoundOp: "llvm.round",
    math.RoundEvenOp: "llvm.roundeven",
    math.TruncOp: "llvm.trunc",
    math.SinOp: "llvm.sin",
    math.CosOp: "llvm.cos",
    math.TanOp: "llvm.tan",
    math.TanhOp: "llvm.tanh",
    math.SinhOp: "llvm.sinh",
    math.CoshOp: "llvm.cosh",
    math.AsinOp: "llvm.asin",
    math.AcosOp: "llvm.acos",
    math.AtanOp: "llvm.atan",
    math.CtPopOp: "llvm.ctpop",
}

_BINARY: dict[type[Operation], str] = {
    math.PowFOp: "llvm.pow",
    math.CopySignOp: "llvm.copysign",
    math.Atan2Op: "llvm.atan2",
}

# (f32 name, f64 name) in the C library
_LIBM: dict[type[Operation], tuple[str, str]] = {
    math.ErfOp: ("erff", "erf"),
    math.ExpM1Op: ("expm1f", "expm1"),
    math.Log1pOp: ("log1pf", "log1p"),
    math.CbrtOp: ("cbrtf", "cbrt"),
    math.AsinhOp: ("asinhf", "asinh"),
    math.AcoshOp: ("acoshf", "acosh"),
    math.AtanhOp: ("atanhf", "atanh"),
}


def _scalar(typ: Attribute) -> Attribute:
    return typ.element_type if isinstance(typ, VectorType) else typ


@dataclass
class MathToLLVM(RewritePattern):
    libm: set[tuple[str, Attribute]] = field(default_factory=set[tuple[str, Attribute]])

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.dialect_name() != "math":
            return
        emit = Emitter(rewriter)
        result = self._lower(op, emit)
        if result is not None:
            lower_with(rewriter, op, [result])

    def _lower(self, op: Operation, emit: Emitter) -> SSAValue | None:
        kind, fm = type(op), fastmath_of(op)
        args = list(op.operands)
        res_type = op.results[0].type
        if kind in _UNARY:
            return call_intrinsic(emit, _UNARY[kind], args, res_type, fm)
        if kind in _BINARY:
            return call_intrinsic(emit, _BINARY[kind], args, res_type, fm)
        if kind in _LIBM:
            return self._libm_call(emit, _LIBM[kind], args[0], fm)
        match op:
            case math.FmaOp():
                return call_intrinsic(emit, "llvm.fma", args, res_type, fm)
            case math.RsqrtOp():
                root = call_intrinsic(emit, "llvm.sqrt", args, res_type, fm)
                assert root is not None
                one = _float_splat(emit, 1.0, res_type)
                return emit(llvm.FDivOp(one, root, fm)).res
            case math.AbsIOp() | math.CountLeadingZerosOp() | math.CountTrailingZerosOp():
                name = {math.AbsIOp: "llvm.abs", math.CountLeadingZerosOp: "llvm.ctlz"}
                # the i1 false: results for INT_MIN / zero are defined, not poison
                poison = emit.const(0, i1)
                intr = name.get(kind, "llvm.cttz")
                return call_intrinsic(emit, intr, [args[0], poison], res_type)
            case math.FPowIOp():
                overloads = [res_type, args[1].type]
                return call_intrinsic(emit, "llvm.powi", args, res_type, fm, overloads)
            case _:
                return None

    def _libm_call(
        self, emit: Emitter, names: tuple[str, str], arg: SSAValue, fm: llvm.FastMathAttr
    ) -> SSAValue:
        typ = arg.type
        if isinstance(typ, VectorType):
            result: SSAValue = emit(llvm.UndefOp(typ)).res
            for lane in range(typ.get_shape()[0]):
                index = emit.const(lane, i32)
                elem = emit(llvmx.ExtractElementOp(arg, index)).res
                value = self._libm_call(emit, names, elem, fm)
                result = emit(llvm.InsertElementOp(result, value, index)).res
            return result
        wide = typ if typ == f64 else f32
        if typ != wide:
            arg = emit(llvm.FPExtOp(arg, wide)).result
        name = names[1] if wide == f64 else names[0]
        self.libm.add((name, wide))
        value = emit(llvm.CallOp(name, arg, return_type=wide, fastmath=fm)).returned
        assert value is not None
        if typ != wide:
            value = emit(llvm.FPTruncOp(value, typ)).result
        return value


def _float_splat(emit: Emitter, value: float, typ: Attribute) -> SSAValue:
    scalar = _scalar(typ)
    assert isinstance(scalar, AnyFloat)
    if isinstance(typ, VectorType):
        attr = DenseIntOrFPElementsAttr.from_list(typ, [value] * typ.get_shape()[0])
        return emit(llvm.ConstantOp(attr, typ)).result
    return emit(llvm.ConstantOp(FloatAttr(value, scalar), scalar)).result


def declare_functions(module: ModuleOp, decls: set[tuple[str, Attribute]]) -> None:
    """Adds `llvm.func` declarations of C functions `name(T) -> T` the module lacks."""
    existing = {getattr(op, "sym_name", None) for op in module.ops}
    for name, typ in sorted(decls, key=lambda d: d[0]):
        if any(getattr(s, "data", None) == name for s in existing):
            continue
        decl = llvm.FuncOp(name, llvm.LLVMFunctionType([typ], typ), llvm.LinkageAttr("external"))
        Rewriter.insert_op(decl, InsertPoint.at_end(module.body.block))


@dataclass(frozen=True)
class ConvertMathToLLVMPass(ModulePass):
    name = "convert-math-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = MathToLLVM()
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        declare_functions(op, pattern.libm)


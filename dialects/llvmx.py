"""`llvmx`: the few LLVM instructions xDSL 0.74's `llvm` dialect lacks or rejects.

xDSL has no `fptosi`/`fptoui`/`uitofp`/`extractelement`, and its `llvm.fcmp` and
`llvm.select` refuse vector operands. These ops mean exactly the LLVM instruction of the
same name; `infer.codegen.translate` turns them into llvmlite IR and hands every other op
to xDSL's translator.
"""

from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloatConstr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.llvm import FastMathAttr, GenericCastOp
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

# The entry ABI and the module attributes the runtime reads (defined in infer.abi).
from infer.abi import (  # noqa: E402, F401 - re-exported for the lowering
    CHECK_STATUS_SIZE,
    MODEL_CHECKS_ATTR,
    MODEL_SIGNATURE_ATTR,
    NUM_THREADS_SYMBOL,
    PACKED_PREFIX,
    PARALLEL_FOR,
    SIGNATURE_ATTR,
)

FCMP_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip


def _bool_like(typ: Attribute) -> Attribute:
    if isinstance(typ, VectorType):
        return VectorType(i1, typ.get_shape())
    return i1


@irdl_op_definition
class FPToSIOp(GenericCastOp):
    name = "llvmx.fptosi"


@irdl_op_definition
class FPToUIOp(GenericCastOp):
    name = "llvmx.fptoui"


@irdl_op_definition
class UIToFPOp(GenericCastOp):
    name = "llvmx.uitofp"


@irdl_op_definition
class FCmpOp(IRDLOperation):
    """`fcmp <predicate>` on scalars or 1-D vectors, with fast-math flags."""

    name = "llvmx.fcmp"
    T: ClassVar = VarConstraint("T", AnyFloatConstr | VectorType.constr(AnyFloatConstr))

    predicate = prop_def(StringAttr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def()
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())
    assembly_format = "$predicate $lhs `,` $rhs attr-dict `:` type($lhs) `->` type($res)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        predicate: str,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        fast_math: FastMathAttr | None = None,
    ) -> None:
        lhs = SSAValue.get(lhs)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[_bool_like(lhs.type)],
            properties={
                "predicate": StringAttr(predicate),
                "fastmathFlags": fast_math or FastMathAttr(None),
            },
        )

    def verify_(self) -> None:
        if self.predicate.data not in FCMP_PREDICATES:
            raise VerifyException(f"unknown fcmp predicate {self.predicate.data}")
        if self.res.type != _bool_like(self.lhs.type):
            raise VerifyException("fcmp result must be i1 shaped like its operands")


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`select` whose condition may be a vector of i1 (one lane each)."""

    name = "llvmx.select"
    T: ClassVar = VarConstraint("T", VectorType.constr())

    cond = operand_def()
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())
    assembly_format = "$cond `,` $lhs `,` $rhs attr-dict `:` type($cond) `,` type($res)"

    def __init__(
        self, cond: SSAValue | Operation, lhs: SSAValue | Operation, rhs: SSAValue | Operation
    ) -> None:
        super().__init__(operands=[cond, lhs, rhs], result_types=[SSAValue.get(lhs).type])

    def verify_(self) -> None:
        if self.cond.type != _bool_like(self.res.type):
            raise VerifyException("select condition must be i1 per lane")


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`extractelement`: one lane of a 1-D vector."""

    name = "llvmx.extractelement"

    vector = operand_def(VectorType)
    index = operand_def(IntegerType)
    res = result_def()

    traits = traits_def(Pure())
    assembly_format = (
        "$vector `[` $index `:` type($index) `]` attr-dict `:` type($vector) `->` type($res)"
    )

    def __init__(self, vector: SSAValue | Operation, index: SSAValue | Operation) -> None:
        vec_type = SSAValue.get(vector).type
        assert isinstance(vec_type, VectorType)
        super().__init__(operands=[vector, index], result_types=[vec_type.element_type])

    def verify_(self) -> None:
        assert isinstance(self.vector.type, VectorType)
        if self.res.type != self.vector.type.element_type:
            raise VerifyException("extractelement result must be the vector's element type")


LLVMX = Dialect(
    "llvmx",
    [FPToSIOp, FPToUIOp, UIToFPOp, FCmpOp, SelectOp, ExtractElementOp],
    [],
)


def declare_pool(module: ModuleOp) -> None:
    """Declares, once per module, what a module with parallel loops calls of the runtime:
    the thread pool's `infer_parallel_for(body, ctx, lb, ub, team, grain)` and the thread
    count global (1 until the runtime sets it). The lowering that emits the calls and
    codegen, which splits a module into parts compiled apart, both declare them."""
    names = {o.sym_name.data for o in module.ops if isinstance(o, llvm.FuncOp | llvm.GlobalOp)}
    ptr = llvm.LLVMPointerType()
    if PARALLEL_FOR not in names:
        module.body.block.add_op(llvm.FuncOp(PARALLEL_FOR, llvm.LLVMFunctionType(
            [ptr, ptr, i64, i64, i64, i64]), llvm.LinkageAttr("external")))
    if NUM_THREADS_SYMBOL not in names:
        module.body.block.add_op(llvm.GlobalOp(i32, NUM_THREADS_SYMBOL,
                                               llvm.LinkageAttr("external"),
                                               value=IntegerAttr(1, i32), alignment=4))

"""The whole descent from loop-level IR (scf/cf/arith/math/memref/vector/func) to `llvm`.

Run in-process on IR objects: `lower_to_llvm(module, ctx)`. Each step is a registered pass
that `infer-opt -p` can also run alone.
"""

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.convert_scf_to_cf import ConvertScfToCf
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.transforms.reconcile_unrealized_casts import ReconcileUnrealizedCastsPass

from infer.lowering.convert_arith_to_llvm import ConvertArithToLLVMPass
from infer.lowering.convert_cf_to_llvm import ConvertCfToLLVMPass
from infer.lowering.convert_func_to_llvm import ConvertFuncToLLVMPass
from infer.lowering.convert_math_to_llvm import ConvertMathToLLVMPass
from infer.lowering.convert_memref_to_llvm import ConvertMemRefToLLVMPass
from infer.lowering.convert_vector_to_llvm import ConvertVectorToLLVMPass

# Vector and memref first: they read memref types that func/cf conversion hides behind casts.
LOWER_TO_LLVM: list[ModulePass] = [
    ConvertScfToCf(),
    ConvertVectorToLLVMPass(),
    ConvertMemRefToLLVMPass(),
    ConvertMathToLLVMPass(),
    ConvertArithToLLVMPass(),
    ConvertCfToLLVMPass(),
    ConvertFuncToLLVMPass(),
    ReconcileUnrealizedCastsPass(),
    DeadCodeElimination(),
]

# Passes this package adds to `infer-opt`, by name.
LLVM_PASSES: dict[str, type[ModulePass]] = {
    p.name: p
    for p in (
        ConvertArithToLLVMPass,
        ConvertCfToLLVMPass,
        ConvertFuncToLLVMPass,
        ConvertMathToLLVMPass,
        ConvertMemRefToLLVMPass,
        ConvertVectorToLLVMPass,
    )
}


def lower_to_llvm(module: ModuleOp, ctx: Context) -> ModuleOp:
    """Lowers `module` in place to the llvm (+ llvmx) dialect and returns it."""
    for p in LOWER_TO_LLVM:
        p.apply(ctx, module)
    return module


__all__ = ["LLVM_PASSES", "LOWER_TO_LLVM", "lower_to_llvm"]

"""Every single pass `infer` knows, by name: the registry the pipelines are written in
(`infer-opt -p` adds the pipeline passes, which run these).

Factories import lazily, so `infer-opt` starts fast and a pass module loads only when used.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass


def lazy_pass(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    """A factory of the pass class `cls` of `module`, which it imports when called."""
    return lambda: getattr(import_module(module), cls)


PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    # xDSL's own passes that our pipelines use
    "canonicalize": lazy_pass("xdsl.transforms.canonicalize", "CanonicalizePass"),
    "cse": lazy_pass("xdsl.transforms.common_subexpression_elimination",
                     "CommonSubexpressionElimination"),
    "dce": lazy_pass("xdsl.transforms.dead_code_elimination", "DeadCodeElimination"),
    "licm": lazy_pass(
        "xdsl.transforms.loop_invariant_code_motion", "LoopInvariantCodeMotionPass"
    ),
    "lower-affine": lazy_pass("xdsl.transforms.lower_affine", "LowerAffinePass"),
    "reconcile-unrealized-casts": lazy_pass(
        "xdsl.transforms.reconcile_unrealized_casts", "ReconcileUnrealizedCastsPass"
    ),
    "expand-math-to-polynomials": lazy_pass(
        "xdsl.transforms.expand_math_to_polynomials", "ExpandMathToPolynomialsPass"
    ),
}


def register(name: str, module: str, cls: str) -> None:
    PASSES[name] = lazy_pass(module, cls)


# infer's own passes: (name, module, class)
for _name, _module, _cls in [
    ("convert-scf-to-cf", "infer.lowering.convert_scf_to_cf", "ConvertScfToCfPass"),
    ("record-signature", "infer.transforms.signature", "RecordSignaturePass"),
    ("widen-half", "infer.transforms.widen_half", "WidenHalfPass"),
    ("expand-scan", "infer.transforms.expand_scan", "ExpandScanPass"),
    ("qnn-canonicalize", "infer.lowering.qnn_canonicalize", "QnnCanonicalizePass"),
    ("qnn-legalize", "infer.lowering.qnn_legalize", "QnnLegalizePass"),
    ("select-int8-tile", "infer.transforms.int8_tile", "SelectInt8TilePass"),
    ("qnn-fold-qdq", "infer.transforms.qnn_fold_qdq", "QnnFoldQdqPass"),
    ("graph-optimize", "infer.transforms.graph_optimize", "GraphOptimizePass"),
    ("shape-fusion", "infer.transforms.shape_fusion", "ShapeFusionPass"),
    ("nchwc-layout", "infer.transforms.graph_optimize", "NchwcLayoutPass"),
    ("select-conv-tile", "infer.transforms.conv_tile", "SelectConvTilePass"),
    ("select-conv-rows", "infer.transforms.conv_tile", "SelectConvRowsPass"),
    ("pack-matmul", "infer.transforms.matmul_packing", "PackMatMulPass"),
    ("select-gemm-blocking", "infer.transforms.gemm_blocking", "SelectGemmBlockingPass"),
    ("store-weights-f16", "infer.transforms.weight_storage", "StoreWeightsF16Pass"),
    ("constant-folding", "infer.transforms.constant_folding", "ConstantFoldingPass"),
    ("plan-loops", "infer.lowering.loop_plan", "PlanLoopsPass"),
    ("canonicalize-loops", "infer.lowering.canonicalize_loops", "CanonicalizeLoopsPass"),
    ("graph-to-loops", "infer.lowering.graph_to_loops", "GraphToLoopsPass"),
    ("approximate-math", "infer.lowering.approximate_math", "ApproximateMathPass"),
    ("outline-loops", "infer.lowering.outline_loops", "OutlineLoopsPass"),
    ("plan-memory", "infer.lowering.memory_plan", "PlanMemoryPass"),
    ("graph-fuse", "infer.transforms.fusion", "GraphFusePass"),
    ("transformer-fusion", "infer.transforms.transformer_fusion", "TransformerFusionPass"),
    ("convert-func-to-llvm", "infer.lowering.convert_func_to_llvm", "ConvertFuncToLLVMPass"),
    ("convert-arith-to-llvm", "infer.lowering.convert_arith_to_llvm", "ConvertArithToLLVMPass"),
    ("convert-math-to-llvm", "infer.lowering.convert_math_to_llvm", "ConvertMathToLLVMPass"),
    ("convert-memref-to-llvm", "infer.lowering.convert_memref_to_llvm", "ConvertMemRefToLLVMPass"),
    ("convert-vector-to-llvm", "infer.lowering.convert_vector_to_llvm", "ConvertVectorToLLVMPass"),
    ("convert-cf-to-llvm", "infer.lowering.convert_cf_to_llvm", "ConvertCfToLLVMPass"),
    ("outline-parallel-loops", "infer.lowering.outline_parallel_loops",
     "OutlineParallelLoopsPass"),
    ("convert-parallel-calls-to-pool", "infer.lowering.convert_parallel_calls_to_pool",
     "ConvertParallelCallsToPoolPass"),
]:
    register(_name, _module, _cls)

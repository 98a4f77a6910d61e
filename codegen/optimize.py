"""LLVM's new pass manager at O3, loop and SLP vectorization on."""

import llvmlite.binding as llvm

from infer.codegen.llvm_calls import run_module_passes


def optimize(module: llvm.ModuleRef, tm: llvm.TargetMachine, speed_level: int = 3,
             unlocked: bool = False) -> None:
    """Optimizes `module` in place for `tm` (the default O<speed_level> pipeline);
    `unlocked`: outside llvmlite's lock, for a module in a context of its own
    (codegen/llvm_calls.py)."""
    pto = llvm.PipelineTuningOptions(speed_level=speed_level)
    pto.loop_vectorization = speed_level >= 2
    pto.slp_vectorization = speed_level >= 2  # off by default in llvmlite
    pto.loop_unrolling = speed_level >= 2
    pto.loop_interleaving = speed_level >= 2
    pb = llvm.create_pass_builder(tm, pto)
    pm = pb.getModulePassManager()
    if unlocked:
        run_module_passes(pm, module, pb)
    else:
        pm.run(module, pb)

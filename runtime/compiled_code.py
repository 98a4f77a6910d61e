"""`CompiledCode`: a model's native code before it is mapped, and how the compile pipeline's
llvm-level module becomes one. An artifact is its serialized form (runtime/artifact.py);
`runtime.compiled_model.map_code` maps it for this CPU."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from infer.runtime.arena import MemoryPlan
from infer.runtime.checks import EntryChecks
from infer.runtime.signature import TensorSpec
from infer.runtime.structured import StructuredValue

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

    from infer.codegen.forked_parts import ForkedParts
    from infer.codegen.jit import ObjectCode
    from infer.codegen.target import Target


@dataclass(frozen=True)
class CompiledCode:
    """A model's native code before it is mapped, with what a caller of its entry needs:
    the signature, the run-time checks' messages, the structured values."""

    inputs: list[TensorSpec]
    outputs: list[TensorSpec]
    code: ObjectCode
    checks: EntryChecks | None = None
    structured: list[StructuredValue] = field(default_factory=list)
    structured_inputs: list[StructuredValue] = field(default_factory=list)
    entry: str = "main"
    memory_plan: MemoryPlan | None = None


def compile_code(module: ModuleOp, entry: str = "main", target: Target | None = None,
                 forked: ForkedParts | None = None) -> CompiledCode:
    """The native code of an llvm-level module (as the compile pipeline leaves it) for
    `target` (this CPU when None), with the signature recorded on the module's `entry`;
    with `forked`, `module` is the first of the parts they compile (`fork_parts`)."""
    from infer.codegen.compile import compile_object
    from infer.runtime.module_reader import (
        read_checks,
        read_memory_plan,
        read_signature,
        read_structured,
    )

    inputs, outputs = read_signature(module, entry)
    code = forked.compile(module) if forked is not None else compile_object(module, target)
    return CompiledCode(inputs, outputs, code,
                        read_checks(module, entry), read_structured(module, entry),
                        read_structured(module, entry, "structured_inputs"), entry,
                        read_memory_plan(module, entry))

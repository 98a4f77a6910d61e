"""What the compile pipeline records on an llvm-level module for the runtime: the entry's
signature (record-signature), its sequence and optional values, its run-time checks'
messages, its memory plan; read into the runtime's plain types (the compiler's side: it
imports xDSL, which the runtime does not).
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    ContainerType,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    StringAttr,
)

from infer.abi import MEMORY_PLAN_ATTR, MODEL_CHECKS_ATTR, MODEL_SIGNATURE_ATTR
from infer.codegen.translate import numpy_dtype
from infer.errors import InferError
from infer.runtime.arena import MemoryPlan
from infer.runtime.checks import Check, EntryChecks
from infer.runtime.signature import Dim, TensorSpec
from infer.runtime.structured import StructuredValue


def _spec(d: DictionaryAttr) -> TensorSpec:
    """One `{name, type[, dims]}` entry of the signature (see transforms/signature.py)."""
    name, t, dim_names = d.data["name"], d.data["type"], d.data.get("dims")
    assert isinstance(name, StringAttr) and isinstance(t, ShapedType)
    assert isinstance(t, ContainerType)
    shape: list[Dim] = []
    for j, n in enumerate(t.get_shape()):
        if n != DYNAMIC_INDEX:
            shape.append(n)
        elif isinstance(dim_names, ArrayAttr) and isinstance(dim_names.data[j], StringAttr):
            shape.append(dim_names.data[j].data or None)
        else:
            shape.append(None)
    return TensorSpec(name.data, numpy_dtype(t.get_element_type()), tuple(shape))


def read_signature(
    module: ModuleOp, entry: str = "main"
) -> tuple[list[TensorSpec], list[TensorSpec]]:
    """Input and output specs of function `entry`, from the signature the compile pipeline
    records on the module (`record-signature`) and carries down to the llvm level."""
    signatures = module.attributes.get(MODEL_SIGNATURE_ATTR)
    if not isinstance(signatures, DictionaryAttr):
        raise InferError(f"the module has no {MODEL_SIGNATURE_ATTR} (see record-signature)")
    sig = signatures.data.get(entry)
    if not isinstance(sig, DictionaryAttr):
        raise InferError(f"the module has no func.func @{entry}")
    inputs, outputs = sig.data["inputs"], sig.data["outputs"]
    assert isinstance(inputs, ArrayAttr) and isinstance(outputs, ArrayAttr)
    return [_spec(d) for d in inputs.data], [_spec(d) for d in outputs.data]


def read_checks(module: ModuleOp, entry: str) -> EntryChecks | None:
    """The run-time checks lowering/runtime_checks.py recorded for function `entry`."""
    tables = module.attributes.get(MODEL_CHECKS_ATTR)
    table = tables.data.get(entry) if isinstance(tables, DictionaryAttr) else None
    if not isinstance(table, ArrayAttr):
        return None
    checks = []
    for item in table.data:
        assert isinstance(item, ArrayAttr)
        message, ranks = item.data
        assert isinstance(message, StringAttr) and isinstance(ranks, DenseArrayBase)
        checks.append(Check(message.data, tuple(int(r) for r in ranks.get_values())))
    return EntryChecks(tuple(checks))


def read_memory_plan(module: ModuleOp, entry: str) -> MemoryPlan | None:
    """The memory plan `plan-memory` recorded for function `entry` (None: it takes no
    arena)."""
    plans = module.attributes.get(MEMORY_PLAN_ATTR)
    plan = plans.data.get(entry) if isinstance(plans, DictionaryAttr) else None
    if not isinstance(plan, DictionaryAttr):
        return None
    return MemoryPlan(*(cast(IntegerAttr, plan.data[k]).value.data
                        for k in ("arena", "total", "buffers", "unplanned")))


def read_structured(module: ModuleOp, entry: str = "main", key: str = "structured"
                    ) -> list[StructuredValue]:
    """The sequence and optional outputs (`key` "structured_inputs": inputs) of function
    `entry` as record-signature wrote them, by place."""
    sig = cast(DictionaryAttr, cast(DictionaryAttr, module.attributes[MODEL_SIGNATURE_ATTR])
               .data[entry])
    found = sig.data.get(key)
    if not isinstance(found, DictionaryAttr):
        return []
    values = []
    for name, d in found.data.items():
        entries = cast(DictionaryAttr, d).data
        ints = {k: cast(IntegerAttr, entries[k]).value.data if k in entries else 0
                for k in ("at", "count", "sequence", "optional", "packed", "string")}
        keys = entries.get("keys")
        values.append(StructuredValue(name, ints["at"], ints["count"],
                                      numpy_dtype(entries["element"]), bool(ints["sequence"]),
                                      bool(ints["optional"]), bool(ints["packed"]),
                                      bool(ints["string"]),
                                      None if keys is None else tuple(
                                          k.data if isinstance(k, StringAttr)
                                          else cast(IntegerAttr, k).value.data
                                          for k in cast(ArrayAttr, keys).data)))
    return sorted(values, key=lambda q: q.at)

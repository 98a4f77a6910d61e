"""`record-signature`: what callers of the model see, written where the runtime reads it.

The importer names a function's arguments and results after the ONNX tensors
(`graph.name`) and its dynamic dims after their `dim_param`s (`graph.dims`). The lowering
then turns `tensor<4xui8>` into `memref<4xi8>` and the llvm conversion drops argument
attributes, so before anything is rewritten this pass records the signature of each public
function as one module attribute, which no pass touches (llvmx.MODEL_SIGNATURE_ATTR):

    builtin.module attributes {infer.model_signature = {main = {
        inputs = [{name = "x", type = tensor<?x3x7x7xf32>, dims = ["N", "", "", ""]}],
        outputs = [{name = "y", type = tensor<?x4x4x4xf32>}]}}} { ... }

An argument without a name is `input<i>` (a result `output<i>`); `dims` (one string per
dim: the dim_param, or "" for a static or anonymous dim) is there when the importer wrote it.
A sequence or optional output is its tensors, results of one name, and an entry of
`structured` (see graph.STRUCTURED_ATTR): `{seq = {at = 1, count = 3, element = f32,
sequence = 1, optional = 0}}`; a sequence or optional input is arguments of one name and
an entry of `structured_inputs`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute
from xdsl.passes import ModulePass

from infer.dialects import graph as G
from infer.dialects.llvmx import MODEL_SIGNATURE_ATTR


def _tensors(
    types: tuple[Attribute, ...], attrs: ArrayAttr[DictionaryAttr] | None, default: str
) -> ArrayAttr[DictionaryAttr]:
    specs = []
    for i, t in enumerate(types):
        given = attrs.data[i].data if attrs is not None else {}
        name = given.get(G.NAME_ATTR)
        spec: dict[str, Attribute] = {
            "name": name if isinstance(name, StringAttr) else StringAttr(f"{default}{i}"),
            "type": t,
        }
        if G.DIMS_ATTR in given:
            spec["dims"] = given[G.DIMS_ATTR]
        specs.append(DictionaryAttr(spec))
    return ArrayAttr(specs)


def function_signature(f: func.FuncOp) -> DictionaryAttr:
    """`{inputs = [...], outputs = [...][, structured = {...}][, structured_inputs = ...]}`
    of `f`, one `{name, type[, dims]}` per tensor; a sequence or optional output's tensors
    are results of its name, and `structured` (the importer's graph.structured_outputs)
    places and types it (`structured_inputs` an input's)."""
    ft = f.function_type
    signature = {
        "inputs": _tensors(ft.inputs.data, f.arg_attrs, "input"),
        "outputs": _tensors(ft.outputs.data, f.res_attrs, "output"),
    }
    if G.STRUCTURED_ATTR in f.attributes:
        signature["structured"] = f.attributes[G.STRUCTURED_ATTR]
    if G.STRUCTURED_INPUTS_ATTR in f.attributes:
        signature["structured_inputs"] = f.attributes[G.STRUCTURED_INPUTS_ATTR]
    return DictionaryAttr(signature)


@dataclass(frozen=True)
class RecordSignaturePass(ModulePass):
    """Writes the signature of every public function with a body on the module."""

    name = "record-signature"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        op.attributes[MODEL_SIGNATURE_ATTR] = DictionaryAttr({
            f.sym_name.data: function_signature(f)
            for f in op.body.block.ops
            if isinstance(f, func.FuncOp) and f.body.blocks
            and (f.sym_visibility is None or f.sym_visibility.data == "public")
        })  # fmt: skip

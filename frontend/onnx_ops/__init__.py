"""ONNX operators as `graph` ops: one function per ONNX op (and per opset variant).

Each function takes an `OpBuilder` (where the ops go), the node's inputs as SSA values
(None for an omitted optional input) and its attributes as keyword arguments (a keyword
without default is a required attribute). An attribute that the graph op has too defaults
to None and is passed on only when the node sets it: the op's definition holds the
default, which is ONNX's (where an older opset's default differs, as Softmax-1's axis,
the variant states it). Attributes used here only keep the spec's default. It returns
the values of the node's outputs, in order; returning fewer than the node uses is an
"output not supported" error (Dropout's mask, MaxPool's Indices, BatchNormalization's
training outputs).

`OPS` maps an op type to its variants keyed by the ONNX version (`since_version`) from
which each applies: attributes that later became inputs (Unsqueeze's axes, Slice's
starts, Clip's min/max, ...) are turned into constant operands here, so the graph dialect
only knows the newest form.

The importers live by ONNX category, as the graph dialect's ops do (`elementwise`, `math`,
`nn`, `vision`, `tensor`, `indexing`), each module with its part of the table; `builder`
holds what they share. `functions` adds an `Expansion` for each op that ONNX defines by a
function body, which the importer imports as that body: a native importer replaces all of
an op's expansions, so it comes first in the table and the natives override it.
"""

from infer.frontend.onnx_ops import (
    control_flow,
    elementwise,
    functions,
    indexing,
    math,
    nn,
    quantize,
    random,
    recurrent,
    sequences,
    signal,
    sorting,
    tensor,
    text,
    vision,
)
from infer.frontend.onnx_ops.builder import (
    ONNX_ELEMENT_TYPES,
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    const_ints,
    dims,
    element,
    element_type,
)
from infer.frontend.onnx_ops.control_flow import Subgraphs
from infer.frontend.onnx_ops.functions import Expansion
from infer.frontend.onnx_ops.sequences import Sequences, Strings

# op type -> {since_version: function, or the expansion of the op's function body}
OPS: dict[str, dict[int, OpFn | Expansion | Subgraphs | Sequences | Strings]] = {
    **functions.OPS,
    **tensor.OPS, **indexing.OPS, **elementwise.OPS, **math.OPS, **nn.OPS, **vision.OPS,
    **signal.OPS, **control_flow.OPS, **quantize.OPS, **sorting.OPS, **text.OPS,
    **recurrent.OPS, **sequences.OPS, **sequences.STRING_OPS, **random.OPS,
}

__all__ = [
    "ONNX_ELEMENT_TYPES",
    "OPS",
    "Expansion",
    "NodeError",
    "OpBuilder",
    "OpFn",
    "Sequences",
    "Strings",
    "Subgraphs",
    "Unsupported",
    "Value",
    "const_ints",
    "dims",
    "element",
    "element_type",
]

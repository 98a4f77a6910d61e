"""The `graph` dialect: one op per ONNX operator, on tensors whose dims may be dynamic.

Ops mirror the newest ONNX opset: the importer upgrades older opsets (attributes that later
became inputs, such as Unsqueeze's axes or Slice's starts, arrive here as operands). Each op
states its shape function once (`output_dims`, over `dims.Dim`), used for type inference and
verification here and for run-time sizes by the lowering.

Syntax (uniform for all ops but `graph.constant`):

    %y = graph.conv %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<?x3x224x224xf32>,
         tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<?x64x112x112xf32>

The package is split as xDSL splits its large dialects: `types` (element types and
attribute helpers), `constant` (graph.constant and weight printing), `base` (the abstract
op bases), then the ops by ONNX category as onnx-mlir groups them: `elementwise`, `math`
(linear algebra, softmax, reductions), `logical` (logical, bitwise, integer ops), `nn`
(convolution, pooling, normalization), `vision` (resize, transposed convolution, sampling),
`tensor` (shapes, concatenation), `indexing` (gathers, scatters), `nchwc` (the blocked
channel layout), `signal` (DFT, STFT), `quantize` (QuantizeLinear,
DequantizeLinear) and `control_flow` (If, Loop and Scan, their subgraphs as regions).
Canonicalization patterns are in `canonicalize`; numpy semantics are each op's `numpy`
method (helpers several ops share in `numpy_semantics`), called by `evaluate`.
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation

from infer.dialects.graph import (
    base,
    canonicalize,  # noqa: F401 - fills the ops' canonicalization patterns
    constant,
    control_flow,
    cumulative,
    detection,
    einsum,
    elementwise,
    indexing,
    linear_attention,
    logical,
    math,
    ml,
    nchwc,
    nn,
    quantize,
    recurrent,
    signal,
    sorting,
    tensor,
    text,
    types,
    vision,
)
from infer.dialects.graph.base import *  # noqa: F403
from infer.dialects.graph.constant import *  # noqa: F403
from infer.dialects.graph.control_flow import *  # noqa: F403
from infer.dialects.graph.cumulative import *  # noqa: F403
from infer.dialects.graph.detection import *  # noqa: F403
from infer.dialects.graph.einsum import *  # noqa: F403
from infer.dialects.graph.elementwise import *  # noqa: F403
from infer.dialects.graph.indexing import *  # noqa: F403
from infer.dialects.graph.linear_attention import *  # noqa: F403
from infer.dialects.graph.logical import *  # noqa: F403
from infer.dialects.graph.math import *  # noqa: F403
from infer.dialects.graph.ml import *  # noqa: F403
from infer.dialects.graph.nchwc import *  # noqa: F403
from infer.dialects.graph.nn import *  # noqa: F403
from infer.dialects.graph.quantize import *  # noqa: F403
from infer.dialects.graph.recurrent import *  # noqa: F403
from infer.dialects.graph.signal import *  # noqa: F403
from infer.dialects.graph.sorting import *  # noqa: F403
from infer.dialects.graph.tensor import *  # noqa: F403
from infer.dialects.graph.text import *  # noqa: F403
from infer.dialects.graph.types import *  # noqa: F403
from infer.dialects.graph.vision import *  # noqa: F403

_OP_MODULES = (
    constant, elementwise, logical, math, nn, vision, tensor, indexing, nchwc,
    signal, quantize, sorting, detection, einsum, linear_attention, cumulative, text,
    control_flow, recurrent, ml,
)


def _operations() -> list[type[IRDLOperation]]:
    """Every op a module of the package exports (its `__all__`), in order: an op is
    registered by defining and exporting it, with no list here to keep in step."""
    return [
        cls
        for module in _OP_MODULES
        for cls in (getattr(module, n) for n in module.__all__)
        if isinstance(cls, type) and issubclass(cls, IRDLOperation)
        and cls.get_irdl_definition() is not None
    ]


GRAPH = Dialect("graph", _operations())

__all__ = [
    *types.__all__,
    *constant.__all__,
    *base.__all__,
    *elementwise.__all__,
    *math.__all__,
    *ml.__all__,
    *nn.__all__,
    *tensor.__all__,
    *indexing.__all__,
    *logical.__all__,
    *vision.__all__,
    *nchwc.__all__,
    "GRAPH",
]

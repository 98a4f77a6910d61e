"""store-weights-f16: f32 weights kept as f16 in memory, computed with in f32.

A weight constant read only by kernels that widen it as they load it (each op's
`F16_WEIGHT` operand: the blocked and plain convs' W, the packed matmul's panels) is
rewritten to hold f16, halving the memory the weights take in the compiled model and in a
saved artifact, at f16's precision (11 significant bits, relative error <= 2^-11):

    %w = graph.constant dense<...> : tensor<64x3x3x3xf32>
    %y = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<64x3x3x3xf32>) -> ...
  becomes
    %w = graph.constant dense<...> : tensor<64x3x3x3xf16>
    %y = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<64x3x3x3xf16>) -> ...

A constant with a finite value beyond f16's range (65504) stays f32, as does one with any
other user (which would read it as f32). It runs last in the graph stage, after packing:
nothing folds the f16 constant back.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, f32
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from infer.abi import fits_f16
from infer.dialects import graph as G


def _f16_weight(op: G.ConstantOp) -> bool:
    """Whether every user of `op` reads it as the f16-widening weight operand."""
    t = op.output.type
    uses = list(op.output.uses)
    return (isinstance(t, TensorType) and t.element_type == f32 and bool(uses)
            and all(isinstance(u.operation, G.GraphOp)
                    and u.index == type(u.operation).F16_WEIGHT for u in uses))


@dataclass(frozen=True)
class StoreWeightsF16Pass(ModulePass):
    """Hold the f32 weights of convs and packed matmuls as f16 (see the module doc)"""

    name = "store-weights-f16"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for const in [o for o in op.walk() if isinstance(o, G.ConstantOp)]:
            data = const.numpy()
            if data is None or not _f16_weight(const) or not fits_f16(data):
                continue
            half = G.ConstantOp(data.astype(np.float16))
            half.location = const.location
            Rewriter.replace_op(const, half)

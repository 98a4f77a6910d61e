"""`pack-matmul{block=L registers=R}`: matmuls rewritten for the register-blocked GEMM
kernel (lowering/graph_ops/gemm.py), their right operand laid out in panels:

    # matmul(a, B)                       -> matmul_packed(a, pack(B))
    # gemm(a, B, C){alpha, beta, transB} -> matmul_packed(a, pack(alpha * B'), pad(beta * C))

pack(B) lays B [..., K, N] out as panels [..., P, K, NR] (column j at [j // NR, :, j % NR],
the last panel zero-padded), so the kernel reads NR columns of one k as NR / L contiguous
vectors. Constant weights are packed here, once, at compile time; weights computed at run
time get a graph.pack_panels before the matmul, where that pays: a static N of at least
one vector, A's M dynamic or at least one register tile of rows, and alpha = 1.

The register tile, `tile = array<i64: rows, vectors>` on the new op, is chosen here for R
vector registers of L f32 lanes (the NCHWc block): rows x vectors accumulators, the
vectors of B and one broadcast of A fill the registers as in the conv kernel
(conv_tile.conv_tile), NR = vectors x the lanes of the element type.

Not rewritten (they keep graph-to-loops' loop nests): a 1-D operand, a Gemm with transA
or a bias that is computed or varies along M, element types other than f32 / f64.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    Float64Type,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from infer.dialects import graph as G
from infer.transforms.conv_tile import REGISTERS, conv_tile
from infer.transforms.nchwc_packing import BLOCK
from infer.transforms.rewrite import rewrite_module

# Rows of the register tile at most: 6 x 2 vectors measured fastest with 32 registers too
# (see benchmarks/gemm.py).
MAX_ROWS = 6


def matmul_tile(registers: int) -> tuple[int, int]:
    """(rows, vectors) of the GEMM register tile for `registers` vector registers."""
    return conv_tile(registers, MAX_ROWS)


def _lanes(v: SSAValue, block: int) -> int | None:
    """Lanes of one vector register of v's element type (block f32 lanes), None if the
    kernel does not take that type."""
    element = _tensor(v).element_type
    if isinstance(element, Float32Type):
        return block
    return block // 2 if isinstance(element, Float64Type) else None


def _tensor(v: SSAValue) -> TensorType:
    assert isinstance(v.type, TensorType)
    return v.type


def _const(value: np.ndarray, like: SSAValue, suffix: str, new_ops: list[Operation]
           ) -> SSAValue:
    k = G.ConstantOp(value)
    if like.name_hint is not None:
        k.output.name_hint = like.name_hint + suffix
    new_ops.append(k)
    return k.output


def _gemm_bias(op: G.GemmOp, n: int) -> tuple[bool, np.ndarray | None]:
    """Whether the kernel takes Gemm `op`'s bias, and beta * C as a row of n (None: no
    bias): only a constant C that is one row (or a scalar)."""
    if not op.C:
        return True, None
    c = G.constant_value(op.C[0])
    if c is None or (c.ndim == 2 and c.shape[0] != 1):
        return False, None
    if op.beta.value.data == 0.0:
        return True, None
    return True, np.broadcast_to(c.reshape(-1), (n,)) * op.beta.value.data


@dataclass
class PackWeights(RewritePattern):
    """# matmul(a, B) -> matmul_packed(a, pack(B))  (see the module doc)"""

    block: int
    registers: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.MatMulOp | G.GemmOp, rewriter: PatternRewriter, /
                          ) -> None:
        if not isinstance(op, G.MatMulOp | G.GemmOp):
            return
        a_shape, b_shape = _tensor(op.A).get_shape(), _tensor(op.B).get_shape()
        lanes = _lanes(op.Y, self.block)
        if len(a_shape) < 2 or len(b_shape) < 2 or lanes is None:
            return
        gemm = isinstance(op, G.GemmOp)
        if gemm and op.transA.value.data:
            return
        trans = gemm and bool(op.transB.value.data)
        alpha = op.alpha.value.data if gemm else 1.0
        n = b_shape[-2] if trans else b_shape[-1]
        w = G.constant_value(op.B)
        rows, vectors = matmul_tile(self.registers)
        width = vectors * lanes
        if w is None and not (n >= lanes and (a_shape[-2] < 0 or a_shape[-2] >= rows)
                              and alpha == 1.0):
            return  # packing at run time pays for a tile of rows and a vector of columns
        takes_bias, bias = _gemm_bias(op, n) if gemm else (True, None)
        if not takes_bias or n < 0:
            return
        new_ops: list[Operation] = []
        if w is not None:
            w = np.swapaxes(w, -1, -2) if trans else w
            packed = G.pack_matmul_weights(w * alpha if alpha != 1.0 else w, width)
            panels = _const(packed, op.B, "_packed", new_ops)
        else:
            pack = G.PackPanelsOp.make([op.B], {"width": G.int_attr(width),
                                                "transposed": G.int_attr(int(trans))})
            new_ops.append(pack)
            panels = pack.results[0]
            panels.name_hint = f"{op.B.name_hint}_panels" if op.B.name_hint else None
        operands = [op.A, panels]
        if bias is not None:
            padded = np.zeros(-(-n // width) * width, dtype=bias.dtype)
            padded[:n] = bias
            operands.append(_const(padded, op.C[0], "_padded", new_ops))
        props = {"n": G.int_attr(n)}
        props.update({k: v for k, v in op.properties.items() if k.startswith("activation")})
        new = G.MatMulPackedOp.make(operands, props, [op.Y.type])
        new.attributes[G.GEMM_TILE_ATTR] = DenseArrayBase.from_list(i64, [rows, vectors])
        new.location = op.location
        rewriter.replace(op, [*new_ops, new])


@dataclass(frozen=True)
class PackMatMulPass(ModulePass):
    """MatMul / Gemm on the packed GEMM kernel, their weights in panels (see the module doc)."""

    name = "pack-matmul"

    block: int = BLOCK
    registers: int = REGISTERS

    def __post_init__(self) -> None:
        matmul_tile(self.registers)  # refuses a register count that holds no tile

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_module(op, [PackWeights(self.block, self.registers)])

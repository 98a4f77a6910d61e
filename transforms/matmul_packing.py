"""`pack-matmul{block=L registers=R}`: matmuls with constant weights packed once, at compile
time, for the register-blocked GEMM kernel (lowering/graph_ops/gemm.py):

    # matmul(a, B)                      -> matmul_packed(a, pack(B))           B constant
    # gemm(a, B, C){alpha, beta, transB} -> matmul_packed(a, pack(alpha * B'), pad(beta * C))

pack(B) lays B [K, N] out as panels [P, K, NR] (column j at [j // NR, :, j % NR], the last
panel zero-padded), so the kernel reads NR columns of one k as NR / L contiguous vectors.
The register tile, `tile = array<i64: rows, vectors>` on the new op, is chosen here for R
vector registers of L f32 lanes (the NCHWc block): rows x vectors accumulators, the
vectors of B and one broadcast of A fill the registers as in the conv kernel
(conv_tile.conv_tile), NR = vectors x the lanes of the element type.

Not packed (they keep graph-to-loops' loop nests): a matmul whose weights are not a
constant, a 1-D operand, a Gemm with transA or a bias that varies along M, and element
types other than f32 / f64.
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


def pack_matmul_weights(b: np.ndarray, width: int) -> np.ndarray:
    """B [K, N] -> panels [ceil(N / width), K, width], the last one zero-padded (the
    inverse is graph.unpack_matmul_weights)."""
    k, n = b.shape
    panels = -(-n // width)
    padded = np.zeros((k, panels * width), dtype=b.dtype)
    padded[:, :n] = b
    return np.ascontiguousarray(padded.reshape(k, panels, width).transpose(1, 0, 2))


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


@dataclass
class PackConstantWeights(RewritePattern):
    block: int
    registers: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.MatMulOp | G.GemmOp, rewriter: PatternRewriter, /
                          ) -> None:
        if not isinstance(op, G.MatMulOp | G.GemmOp):
            return
        w = G.constant_value(op.B)
        lanes = _lanes(op.Y, self.block)
        if w is None or w.ndim != 2 or _tensor(op.A).get_num_dims() < 2 or lanes is None:
            return
        bias = None
        if isinstance(op, G.GemmOp):
            if op.transA.value.data:
                return
            w = w.T if op.transB.value.data else w
            w = w * op.alpha.value.data if op.alpha.value.data != 1.0 else w
            c = G.constant_value(op.C[0]) if op.C else None
            if op.C and (c is None or (c.ndim == 2 and c.shape[0] != 1)):
                return  # a run-time bias, or one varying along M
            if c is not None and op.beta.value.data != 0.0:
                bias = np.broadcast_to(c.reshape(-1), (w.shape[1],)) * op.beta.value.data
        rows, vectors = matmul_tile(self.registers)
        width = vectors * lanes
        packed = pack_matmul_weights(np.asarray(w, dtype=w.dtype), width)
        new_ops: list[Operation] = []
        operands = [op.A, _const(packed, op.B, "_packed", new_ops)]
        if bias is not None:
            padded = np.zeros(packed.shape[0] * width, dtype=packed.dtype)
            padded[: w.shape[1]] = bias
            operands.append(_const(padded, op.C[0], "_padded", new_ops))
        props = {"n": G.int_attr(w.shape[1])}
        props.update({k: v for k, v in op.properties.items() if k.startswith("activation")})
        new = G.MatMulPackedOp.make(operands, props, [op.Y.type])
        new.attributes[G.GEMM_TILE_ATTR] = DenseArrayBase.from_list(i64, [rows, vectors])
        new.location = op.location
        rewriter.replace(op, [*new_ops, new])


@dataclass(frozen=True)
class PackMatMulPass(ModulePass):
    """Constant matmul / gemm weights packed in panels (see the module doc)."""

    name = "pack-matmul"

    block: int = BLOCK
    registers: int = REGISTERS

    def __post_init__(self) -> None:
        matmul_tile(self.registers)  # refuses a register count that holds no tile

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_module(op, [PackConstantWeights(self.block, self.registers)])

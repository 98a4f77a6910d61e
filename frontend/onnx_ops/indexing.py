"""ONNX indexing operators: gathers, scatters, one-hot, triangular masks, depth/space moves."""

from __future__ import annotations

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    OpFn,
    Value,
    const_ints,
    dims,
    element_type,
)


def gather_elements(b: OpBuilder, data: Value, indices: Value, *, axis: int | None = None
                    ) -> Value:
    return b.emit1(G.GatherElementsOp, data, indices, axis=axis)


def _scatter(cls: type[G.GraphOp]) -> OpFn:
    def scatter(b: OpBuilder, data: Value, indices: Value, updates: Value, *,
                axis: int | None = None, reduction: str | None = None) -> Value:
        return b.emit1(cls, data, indices, updates, axis=axis, reduction=reduction)

    return scatter


def scatter_nd(b: OpBuilder, data: Value, indices: Value, updates: Value, *,
               reduction: str | None = None) -> Value:
    return b.emit1(G.ScatterNDOp, data, indices, updates, reduction=reduction)


def gather_nd(b: OpBuilder, data: Value, indices: Value, *, batch_dims: int | None = None
              ) -> Value:
    return b.emit1(G.GatherNDOp, data, indices, batch_dims=batch_dims)


def trilu(b: OpBuilder, input: Value, k: Value | None = None, *, upper: int | None = None
          ) -> Value:
    return b.emit1(G.TriluOp, input, k, upper=upper)


def one_hot(b: OpBuilder, indices: Value, depth: Value, values: Value, *,
            axis: int | None = None) -> Value:
    return b.emit1(G.OneHotOp, indices, depth, values, axis=axis)


def eye_like(b: OpBuilder, input: Value, *, dtype: int | None = None, k: int | None = None
             ) -> Value:
    return b.emit1(G.EyeLikeOp, input, k=k, dtype=None if dtype is None else element_type(dtype))


def depth_to_space(b: OpBuilder, input: Value, *, blocksize: int, mode: str | None = None
                   ) -> Value:
    return b.emit1(G.DepthToSpaceOp, input, blocksize=blocksize, mode=mode)


def space_to_depth(b: OpBuilder, input: Value, *, blocksize: int, mode: str | None = None
                   ) -> Value:
    return b.emit1(G.SpaceToDepthOp, input, blocksize=blocksize, mode=mode)


def reverse_sequence(b: OpBuilder, input: Value, sequence_lens: Value, *,
                     batch_axis: int | None = None, time_axis: int | None = None) -> Value:
    return b.emit1(G.ReverseSequenceOp, input, sequence_lens, batch_axis=batch_axis,
                   time_axis=time_axis)


def tile(b: OpBuilder, input: Value, repeats: Value) -> Value:
    return b.emit1(G.TileOp, input, repeats)


def tile_v1(b: OpBuilder, input: Value, tiles: Value, axis: Value) -> Value:
    """Tile-1: `tiles` repeats along the one dim `axis` (both scalars, constants here)."""
    (n,) = const_ints(tiles, "tiles") or [1]
    (a,) = const_ints(axis, "axis") or [0]
    rank = len(dims(input))
    if not 0 <= a < rank:
        raise NodeError(f"axis {a} is out of range for rank {rank}")
    return tile(b, input, b.ints([n if d == a else 1 for d in range(rank)]))


def non_zero(b: OpBuilder, x: Value) -> Value:
    return b.emit1(G.NonZeroOp, x)


def compress(b: OpBuilder, input: Value, condition: Value, *, axis: int | None = None
             ) -> Value:
    return b.emit1(G.CompressOp, input, condition, axis=axis)


def tensor_scatter(b: OpBuilder, past_cache: Value, update: Value,
                   write_indices: Value | None = None, *, axis: int | None = None,
                   mode: str | None = None) -> Value:
    return b.emit1(G.TensorScatterOp, past_cache, update, write_indices, axis=axis, mode=mode)


OPS: dict[str, dict[int, OpFn]] = {
    "TensorScatter": {24: tensor_scatter},
    "GatherElements": {11: gather_elements},
    "ScatterElements": {11: _scatter(G.ScatterElementsOp)},
    "Scatter": {9: _scatter(G.ScatterOp)},
    "ScatterND": {11: scatter_nd},
    "GatherND": {11: gather_nd},
    "Trilu": {14: trilu},
    "OneHot": {9: one_hot},
    "EyeLike": {9: eye_like},
    "DepthToSpace": {1: depth_to_space},
    "SpaceToDepth": {1: space_to_depth},
    "ReverseSequence": {10: reverse_sequence},
    "Tile": {1: tile_v1, 6: tile},
    "NonZero": {9: non_zero},
    "Compress": {9: compress},
}

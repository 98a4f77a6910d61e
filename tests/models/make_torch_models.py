"""Export the PyTorch test models of tests/test_transformer_fusion.py (dev-only: needs torch).

    python tests/models/make_torch_models.py     # in an environment with torch and onnx

PyTorch's TorchScript exporter below opset 17 spells LayerNorm as ReduceMean, Sub, Pow,
ReduceMean, Add, Sqrt, Div, Mul, Add and GELU as Div, Erf, Add, Mul, Mul: exactly the chains
the transformer fusions recognize. torch is not a dependency of infer; only the small .onnx
files this writes are committed.
"""

from __future__ import annotations

import math
from pathlib import Path

import torch
from torch import nn

HERE = Path(__file__).parent


class EncoderLayer(nn.Module):
    """A pre-norm transformer encoder layer with a causal additive mask."""

    def __init__(self, e: int = 16, heads: int = 2, seq: int = 6) -> None:
        super().__init__()
        self.heads, self.dh = heads, e // heads
        self.ln1, self.ln2 = nn.LayerNorm(e), nn.LayerNorm(e)
        self.qkv = nn.Linear(e, 3 * e)
        self.out = nn.Linear(e, e)
        self.mlp = nn.Sequential(nn.Linear(e, 2 * e), nn.GELU(), nn.Linear(2 * e, e))
        mask = torch.full((seq, seq), -1e9).triu(1)
        self.register_buffer("mask", mask)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, e = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(e, dim=-1)
        q, k, v = (t.reshape(b, s, self.heads, self.dh).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dh) + self.mask
        att = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, s, e)
        x = x + self.out(att)
        return x + self.mlp(self.ln2(x))


def main() -> None:
    torch.manual_seed(0)
    model = EncoderLayer().eval()
    x = torch.randn(2, 6, 16)
    torch.onnx.export(
        model, (x,), HERE / "torch_encoder_layer.onnx", input_names=["x"], output_names=["y"],
        dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}}, opset_version=14, dynamo=False,
    )


if __name__ == "__main__":
    main()

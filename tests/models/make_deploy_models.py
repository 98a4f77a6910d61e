"""Export the small deployed-model patterns of tests/test_deploy_models.py (dev-only:
needs torch).

    python tests/models/make_deploy_models.py     # in an environment with torch and onnx

Each is a few-layer, randomly initialized stand-in for a family of models people deploy,
exported the way those are (TorchScript exporter, dynamic axes), so the graphs carry the
same op patterns: a YOLO-style detector (FPN with Resize, Split, the DFL head's Softmax,
anchor grids from Range and Expand), a DBNet-style text detector (ConvTranspose
upsampling, HardSigmoid), an SVTR-style text recognizer (conv stem, attention blocks with
decomposed LayerNorm over a dynamic width), a Silero-style streaming voice detector (a
state in and out, an If on the sample rate, a conv STFT front end, an LSTM) and a BERT-style
encoder (attention mask, Erf GELU, decomposed LayerNorm). torch is not a dependency of
infer; only the small .onnx files this writes are committed.
"""

from __future__ import annotations

import math
from pathlib import Path

import torch
from torch import nn

HERE = Path(__file__).parent
OPSET = 14  # below 17 the exporter decomposes LayerNorm, and GELU is spelled with Erf


def conv(cin: int, cout: int, k: int, s: int, act: nn.Module | None = None) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2, bias=False), nn.BatchNorm2d(cout),
                         act if act is not None else nn.SiLU())


class Detector(nn.Module):
    """Two-scale anchor-free detector: boxes (cx, cy, w, h) in pixels and class scores."""

    def __init__(self, nc: int = 3, reg_max: int = 8, c: int = 8) -> None:
        super().__init__()
        self.nc, self.reg_max = nc, reg_max
        self.stem = nn.Sequential(conv(3, c, 3, 2), conv(c, 2 * c, 3, 2), conv(2 * c, 2 * c, 3, 2))
        self.down = conv(2 * c, 4 * c, 3, 2)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.fuse = conv(6 * c, 2 * c, 1, 1)
        self.heads = nn.ModuleList(nn.Conv2d(ch, 4 * reg_max + nc, 1) for ch in (2 * c, 4 * c))
        self.dfl = nn.Conv2d(reg_max, 1, 1, bias=False).requires_grad_(False)
        self.dfl.weight.data[:] = torch.arange(reg_max, dtype=torch.float32).view(1, -1, 1, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        p3 = self.stem(x)
        p4 = self.down(p3)
        p3 = self.fuse(torch.cat([p3, self.up(p4)], 1))
        outs, anchors, strides = [], [], []
        for feat, head, stride in zip((p3, p4), self.heads, (8, 16), strict=True):
            h, w = feat.shape[2], feat.shape[3]
            outs.append(head(feat).flatten(2))
            sx = torch.arange(w, dtype=torch.float32) + 0.5
            sy = torch.arange(h, dtype=torch.float32) + 0.5
            yy, xx = torch.meshgrid(sy, sx, indexing="ij")
            anchors.append(torch.stack((xx, yy), -1).view(-1, 2))
            strides.append(torch.full((h * w, 1), float(stride)))
        y = torch.cat(outs, 2)
        box, cls = y.split((4 * self.reg_max, self.nc), 1)
        b, a = box.shape[0], box.shape[2]
        dist = self.dfl(box.view(b, 4, self.reg_max, a).transpose(2, 1).softmax(1)).view(b, 4, a)
        anchor = torch.cat(anchors).transpose(0, 1).unsqueeze(0)
        lt, rb = dist.chunk(2, 1)
        x1y1, x2y2 = anchor - lt, anchor + rb
        boxes = torch.cat(((x1y1 + x2y2) / 2, x2y2 - x1y1), 1) * torch.cat(strides).transpose(0, 1)
        return torch.cat((boxes, cls.sigmoid()), 1)


class TextDetector(nn.Module):
    """DBNet-style: a strided backbone, ConvTranspose back to full size, a probability map."""

    def __init__(self, c: int = 8) -> None:
        super().__init__()
        act = nn.Hardswish
        self.d1, self.d2 = conv(3, c, 3, 2, act()), conv(c, 2 * c, 3, 2, act())
        self.d3 = conv(2 * c, 4 * c, 3, 2, act())
        self.u3 = nn.ConvTranspose2d(4 * c, 2 * c, 2, 2)
        self.u2 = nn.ConvTranspose2d(2 * c, c, 2, 2)
        self.head = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1), nn.BatchNorm2d(c), nn.ReLU(),
                                  nn.ConvTranspose2d(c, 1, 2, 2), nn.Hardsigmoid())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f1 = self.d1(x)
        f2 = self.d2(f1)
        f3 = self.d3(f2)
        f2 = f2 + self.u3(f3)
        f1 = f1 + self.u2(f2)
        return self.head(f1)


class LayerNorm(nn.Module):
    """LayerNorm written out, as many exported recognizers and encoders carry it."""

    def __init__(self, e: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(e) * 0.1 + 1)
        self.bias = nn.Parameter(torch.randn(e) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(-1, keepdim=True)
        var = (x - mean).pow(2).mean(-1, keepdim=True)
        return (x - mean) / torch.sqrt(var + 1e-5) * self.weight + self.bias


class Block(nn.Module):
    """Pre-norm attention and MLP over (batch, length, e), with an optional additive mask."""

    def __init__(self, e: int, heads: int, post_norm: bool = False) -> None:
        super().__init__()
        self.heads, self.dh, self.post = heads, e // heads, post_norm
        self.ln1, self.ln2 = LayerNorm(e), LayerNorm(e)
        self.qkv, self.out = nn.Linear(e, 3 * e), nn.Linear(e, e)
        self.mlp = nn.Sequential(nn.Linear(e, 2 * e), nn.GELU(), nn.Linear(2 * e, e))

    def attend(self, x: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
        b, t, e = x.shape
        q, k, v = self.qkv(x).reshape(b, t, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dh)
        if mask is not None:
            scores = scores + mask
        return self.out((scores.softmax(-1) @ v).transpose(1, 2).reshape(b, t, e))

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        if self.post:  # BERT: normalize after each residual
            x = self.ln1(x + self.attend(x, mask))
            return self.ln2(x + self.mlp(x))
        x = x + self.attend(self.ln1(x), mask)
        return x + self.mlp(self.ln2(x))


class TextRecognizer(nn.Module):
    """SVTR-style: a conv stem folds the height away, attention blocks over the width,
    per-column class log-probabilities (for CTC)."""

    def __init__(self, c: int = 16, classes: int = 12) -> None:
        super().__init__()
        self.stem = nn.Sequential(conv(3, c // 2, 3, 2, nn.GELU()),
                                  conv(c // 2, c, 3, 2, nn.GELU()),
                                  nn.Conv2d(c, c, (3, 1), (2, 1), (1, 0)))
        self.blocks = nn.Sequential(Block(c, 2), Block(c, 2))
        self.norm = LayerNorm(c)
        self.fc = nn.Linear(c, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.stem(x).mean(2)  # (b, c, w/4)
        f = self.blocks(f.permute(0, 2, 1))
        return self.fc(self.norm(f)).log_softmax(-1)


@torch.jit.script
def to_16k(x: torch.Tensor, sr: torch.Tensor) -> torch.Tensor:
    """Audio at 32 kHz is decimated to 16 kHz; at 16 kHz it passes as is."""
    if bool(sr == 32000):
        x = x[:, ::2]
    return x


class VoiceDetector(nn.Module):
    """Silero-style streaming VAD: the chunk's speech probability and the LSTM's next state."""

    def __init__(self, win: int = 64, hop: int = 32, c: int = 16, hidden: int = 16) -> None:
        super().__init__()
        bins = win // 2 + 1
        n = torch.arange(win, dtype=torch.float32)
        f = torch.arange(bins, dtype=torch.float32).unsqueeze(1)
        window = 0.5 - 0.5 * torch.cos(2 * math.pi * n / win)
        phase = 2 * math.pi * f * n / win
        basis = torch.cat((torch.cos(phase), -torch.sin(phase)))
        self.register_buffer("basis", (basis * window).unsqueeze(1))
        self.hop, self.bins = hop, bins
        self.encoder = nn.Sequential(nn.Conv1d(bins, c, 3, 1, 1), nn.ReLU(),
                                     nn.Conv1d(c, c, 3, 2, 1), nn.ReLU())
        self.lstm = nn.LSTM(c, hidden, batch_first=True)
        self.decoder = nn.Sequential(nn.ReLU(), nn.Linear(hidden, 1), nn.Sigmoid())

    def forward(self, x: torch.Tensor, state: torch.Tensor, sr: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor]:
        x = to_16k(x, sr)
        spec = nn.functional.conv1d(x.unsqueeze(1), self.basis, stride=self.hop)
        re, im = spec[:, :self.bins], spec[:, self.bins:]
        mag = torch.sqrt(re * re + im * im + 1e-9)
        f = self.encoder(torch.log(mag + 1e-3)).permute(0, 2, 1)
        out, (h, c) = self.lstm(f, (state[0:1], state[1:2]))
        prob = self.decoder(out).mean(1)
        return prob, torch.cat((h, c))


class Encoder(nn.Module):
    """BERT-style: token and position embeddings, post-norm blocks with an attention mask."""

    def __init__(self, vocab: int = 50, e: int = 16, heads: int = 2, max_len: int = 32) -> None:
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, e), nn.Embedding(max_len, e)
        self.norm = LayerNorm(e)
        self.blocks = nn.ModuleList([Block(e, heads, post_norm=True) for _ in range(2)])
        self.pool = nn.Linear(e, e)

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        positions = torch.arange(ids.shape[1], dtype=torch.int64).unsqueeze(0)
        x = self.norm(self.tok(ids) + self.pos(positions))
        additive = (1.0 - mask[:, None, None, :].to(torch.float32)) * -10000.0
        for block in self.blocks:
            x = block(x, additive)
        return x, torch.tanh(self.pool(x[:, 0]))


def export(model: nn.Module, args: tuple[torch.Tensor, ...], name: str, inputs: list[str],
           outputs: list[str], dynamic: dict[str, dict[int, str]]) -> None:
    torch.onnx.export(model.eval(), args, HERE / f"{name}.onnx", input_names=inputs,
                      output_names=outputs, dynamic_axes=dynamic, opset_version=OPSET,
                      dynamo=False)


def main() -> None:
    torch.manual_seed(0)
    image = {0: "batch", 2: "height", 3: "width"}
    export(Detector(), (torch.randn(1, 3, 64, 64),), "detector", ["images"], ["detections"],
           {"images": image, "detections": {0: "batch", 2: "anchors"}})
    export(TextDetector(), (torch.randn(1, 3, 64, 64),), "text_detector", ["images"],
           ["probability"], {"images": image, "probability": image})
    export(TextRecognizer(), (torch.randn(1, 3, 32, 64),), "text_recognizer", ["images"],
           ["log_probs"], {"images": {0: "batch", 3: "width"},
                           "log_probs": {0: "batch", 1: "columns"}})
    export(VoiceDetector(), (torch.randn(1, 512), torch.zeros(2, 1, 16), torch.tensor(16000)),
           "voice_detector", ["audio", "state", "sr"], ["speech", "next_state"],
           {"audio": {0: "batch", 1: "samples"}, "state": {1: "batch"},
            "speech": {0: "batch"}, "next_state": {1: "batch"}})
    ids = torch.randint(0, 50, (2, 7))
    export(Encoder(), (ids, torch.ones(2, 7, dtype=torch.int64)), "text_encoder",
           ["input_ids", "attention_mask"], ["hidden", "pooled"],
           {"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "sequence"},
            "hidden": {0: "batch", 1: "sequence"}, "pooled": {0: "batch"}})


if __name__ == "__main__":
    main()

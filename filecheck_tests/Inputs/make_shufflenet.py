"""Export a tiny ShuffleNetV2-style network with a dynamic batch to shufflenet_dyn.onnx.

Dev-only (torch is not a dependency of infer): `pip install torch`, then
`python filecheck_tests/Inputs/make_shufflenet.py`. The channel shuffle is written the
PyTorch way, with sizes read from x.size(), so the exporter emits the Shape / Gather /
Unsqueeze / Concat / Div / Cast chains that shape fusion must fold away.
"""

from __future__ import annotations

import os

import torch
from torch import nn


def channel_shuffle(x: torch.Tensor, groups: int) -> torch.Tensor:
    b, c, h, w = x.size()
    x = x.view(b, groups, c // groups, h, w)
    x = torch.transpose(x, 1, 2).contiguous()
    return x.view(b, -1, h, w)


def conv_bn(cin: int, cout: int, k: int, stride: int = 1, groups: int = 1,
            relu: bool = True) -> nn.Sequential:
    layers: list[nn.Module] = [
        nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
    ]
    if relu:
        layers.append(nn.ReLU(inplace=True))
    return nn.Sequential(*layers)


class Block(nn.Module):
    """ShuffleNetV2's unit: stride 1 splits the channels in two, stride 2 uses both."""

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.stride = stride
        half = cout // 2
        if stride == 2:
            self.branch1 = nn.Sequential(
                conv_bn(cin, cin, 3, stride, groups=cin, relu=False),
                conv_bn(cin, half, 1),
            )
        b2_in = cin if stride == 2 else half
        self.branch2 = nn.Sequential(
            conv_bn(b2_in, half, 1),
            conv_bn(half, half, 3, stride, groups=half, relu=False),
            conv_bn(half, half, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.stride == 1:
            x1, x2 = x.chunk(2, dim=1)
            out = torch.cat((x1, self.branch2(x2)), dim=1)
        else:
            out = torch.cat((self.branch1(x), self.branch2(x)), dim=1)
        return channel_shuffle(out, 2)


class TinyShuffleNet(nn.Module):
    def __init__(self, classes: int = 10) -> None:
        super().__init__()
        self.stem = conv_bn(3, 16, 3, 2)
        self.stages = nn.Sequential(Block(16, 32, 2), Block(32, 32, 1), Block(32, 64, 2),
                                    Block(64, 64, 1))
        self.head = nn.Linear(64, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stages(self.stem(x))
        return self.head(x.mean(dim=(2, 3)))


def main() -> None:
    torch.manual_seed(0)
    model = TinyShuffleNet().eval()
    for m in model.modules():  # non-trivial statistics, so BatchNorm is not the identity
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shufflenet_dyn.onnx")
    torch.onnx.export(
        model, (torch.randn(1, 3, 32, 32),), path, input_names=["x"], output_names=["y"],
        dynamic_axes={"x": {0: "N"}, "y": {0: "N"}}, opset_version=13, dynamo=False,
    )
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()

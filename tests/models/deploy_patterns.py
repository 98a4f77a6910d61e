"""The deployed-model patterns (exported by make_deploy_models.py) and, for each, inputs at
three sizes that one compiled model must run: batch, image sizes, audio lengths and sample
rates, sequence lengths and attention masks all vary."""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
Feeds = dict[str, np.ndarray]


def _images(rng: np.random.Generator, *shapes: tuple[int, ...]) -> list[Feeds]:
    return [{"images": rng.standard_normal(s).astype(np.float32)} for s in shapes]


def _voice(rng: np.random.Generator, batch: int, samples: int, sr: int) -> Feeds:
    return {"audio": (0.3 * rng.standard_normal((batch, samples))).astype(np.float32),
            "state": (0.5 * rng.standard_normal((2, batch, 16))).astype(np.float32),
            "sr": np.array(sr, np.int64)}


def _tokens(rng: np.random.Generator, lengths: list[int], seq: int) -> Feeds:
    mask = (np.arange(seq)[None, :] < np.array(lengths)[:, None]).astype(np.int64)
    return {"input_ids": rng.integers(0, 50, (len(lengths), seq), dtype=np.int64),
            "attention_mask": mask}


def feeds(name: str) -> list[Feeds]:
    """The three input sets of pattern `name`."""
    rng = np.random.default_rng(0)
    return {
        "detector": lambda: _images(rng, (1, 3, 64, 64), (2, 3, 96, 128), (1, 3, 128, 96)),
        "text_detector": lambda: _images(rng, (1, 3, 64, 64), (2, 3, 96, 160), (1, 3, 128, 72)),
        "text_recognizer": lambda: _images(rng, (1, 3, 32, 64), (2, 3, 32, 128), (3, 3, 32, 200)),
        "voice_detector": lambda: [_voice(rng, 1, 512, 16000), _voice(rng, 2, 1024, 32000),
                                   _voice(rng, 3, 768, 16000)],
        "text_encoder": lambda: [_tokens(rng, [5], 5), _tokens(rng, [9, 4], 9),
                                 _tokens(rng, [16, 1, 11], 16)],
    }[name]()


PATTERNS = ["detector", "text_detector", "text_recognizer", "voice_detector", "text_encoder"]


def model_path(name: str) -> Path:
    return HERE / f"{name}.onnx"

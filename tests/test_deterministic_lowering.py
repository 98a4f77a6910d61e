"""The same model lowers to the same loop-level IR in every process: what is emitted per
buffer comes in the order the buffers were made, not in an order of object ids (which
moves with any change to the compiler's code or a process's allocation history)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

from tests.helpers import make_model

LOWER = """
import sys
from infer import pipeline
from infer.context import make_context
from infer.frontend.onnx_import import import_model
module = import_model(sys.argv[1])
pipeline.run_passes(module, make_context(), pipeline.compile_passes(2, to_llvm=False))
print(module)
"""


def _model(path: Path) -> None:
    """Convs on a dynamic batch: each kernel call checks its dims at run time, and a failing
    check frees every buffer live there (several here: the residual keeps one alive)."""
    rng = np.random.default_rng(0)
    weights = [numpy_helper.from_array(rng.normal(0, 0.1, (8, 8, 3, 3)).astype(np.float32),
                                       f"w{i}") for i in range(3)]
    nodes = [helper.make_node("Conv", ["x", "w0"], ["c0"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c0"], ["r0"]),
             helper.make_node("Conv", ["r0", "w1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Sigmoid", ["c1"], ["s1"]),
             helper.make_node("Mul", ["r0", "s1"], ["m1"]),
             helper.make_node("Conv", ["m1", "w2"], ["c2"], pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c2", "r0"], ["a2"]),
             helper.make_node("Mul", ["a2", "m1"], ["y"])]
    model = make_model(nodes, [("x", TP.FLOAT, ["n", 8, 16, 16])],
                       [("y", TP.FLOAT, ["n", 8, 16, 16])], weights)
    path.write_bytes(model.SerializeToString())


@pytest.mark.slow
def test_loop_ir_is_the_same_under_any_hash_seed(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    _model(path)
    texts = []
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", LOWER, str(path)], env=env,
                             capture_output=True, text=True, check=True)
        texts.append(out.stdout)
    assert "memref.dealloc" in texts[0]
    assert texts[0] == texts[1] == texts[2]


@pytest.mark.slow
def test_buffers_are_freed_in_the_order_they_were_made(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    _model(path)
    out = subprocess.run([sys.executable, "-c", LOWER, str(path)], capture_output=True,
                         text=True, check=True).stdout
    main = out[:out.index("func.func private")]
    made = {m.group(1): m.start() for m in reversed(list(re.finditer(r"(%\w+) = ", main)))}
    frees = [re.findall(r"memref\.dealloc (%\w+)", run) for run in
             re.findall(r"(?:[ ]*memref\.dealloc %\w+ :[^\n]*\n){2,}", main)]
    assert len(frees) >= 3  # the failing checks' paths free two or more each
    for names in frees:
        assert names == sorted(names, key=made.__getitem__), names

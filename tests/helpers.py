"""Shared helpers: single-node ONNX models and comparison against onnxruntime."""

from __future__ import annotations

import signal
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer


def run_infer_opt(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str,
                  *args: str) -> tuple[object, str, str]:
    """infer-opt run in-process on `text` (written to a file): exit status, stdout,
    stderr."""
    from infer.tools.infer_opt import main

    path = tmp_path / "in.mlir"
    path.write_text(text)
    with pytest.raises(SystemExit) as status:
        main([str(path), *args])
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return status.value.code, out, err


def sigint_as_a_terminal_sends_it() -> None:
    """For a child that a test interrupts (Popen's preexec_fn): SIGINT unblocked and at its
    default, as a shell starts a command. A test process may have it ignored or blocked
    (Ray blocks it while starting its services), and a child inherits both."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _opset_imports(opset: int, domain: str = "", domain_opset: int = 1
                   ) -> list[onnx.OperatorSetIdProto]:
    """ONNX's default domain at `opset`, and `domain` at `domain_opset` unless it is the
    default one ("" or "ai.onnx")."""
    imports = [helper.make_opsetid("", opset)]
    if domain not in ("", "ai.onnx"):
        imports.append(helper.make_opsetid(domain, domain_opset))
    return imports


def make_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[tuple[str, int, Sequence[int | str]]],
    outputs: Sequence[tuple[str, int, Sequence[int | str] | None]],
    initializers: Sequence[onnx.TensorProto] = (),
    opset: int = 17,
    *,
    domain: str = "",
    domain_opset: int = 1,
) -> onnx.ModelProto:
    """A model from nodes; inputs/outputs as (name, TensorProto elem type, shape). It
    imports ONNX's default domain at `opset`, and `domain` (that of nodes of another
    domain, such as onnxruntime's "com.microsoft") at `domain_opset`."""
    graph = helper.make_graph(
        list(nodes),
        "test",
        [helper.make_tensor_value_info(n, t, list(s)) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, t, None if s is None else list(s))
         for n, t, s in outputs],
        list(initializers),
    )
    model = helper.make_model(graph, opset_imports=_opset_imports(opset, domain, domain_opset))
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def run_onnxruntime(model: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> list[np.ndarray]:
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, dict(feeds))


def onnxruntime_int8_is_exact() -> bool:
    """Whether onnxruntime's kernels for 8-bit activations times s8 weights are exact on
    this CPU: with VNNI (vpdpbusd) they are; without, they multiply with vpmaddubsw, which
    saturates the sum of a pair of u8 x s8 products to int16 (onnxruntime's quantizer
    offers `reduce_range`, 7-bit weights, for such CPUs)."""
    from infer.codegen.target import host_target

    return bool({"avx512vnni", "avxvnni"} & host_target().enabled())


def s8_weights(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Random s8 weights: the full range where onnxruntime's int8 kernels are exact, else
    7 bits ([-64, 63]), so that its answers stay exact to compare with."""
    low, high = (-128, 128) if onnxruntime_int8_is_exact() else (-64, 64)
    return rng.integers(low, high, shape, dtype=np.int8)


def check_against_onnxruntime(
    model: onnx.ModelProto,
    feeds: Mapping[str, np.ndarray] | Sequence[Mapping[str, np.ndarray]],
    rtol: float = 1e-4,
    atol: float = 1e-5,
    opt_level: int = 2,
    nchwc_block: int | None = None,
) -> infer.CompiledModel:
    """Compile once, run every feed set, and compare every output with onnxruntime's; the
    compiled model."""
    compiled = infer.compile(model, opt_level=opt_level, nchwc_block=nchwc_block)
    for f in [feeds] if isinstance(feeds, Mapping) else feeds:
        ours = compiled.run(f)
        theirs = run_onnxruntime(model, f)
        for (name, a), b in zip(ours.items(), theirs, strict=True):
            assert a.shape == b.shape, f"{name}: shape {a.shape} != onnxruntime's {b.shape}"
            assert a.dtype == b.dtype, f"{name}: dtype {a.dtype} != onnxruntime's {b.dtype}"
            if a.dtype.kind == "f":
                np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=name)
            else:
                np.testing.assert_array_equal(a, b, err_msg=name)
    return compiled


Input = tuple[str, int, Sequence[int | str]]


def node_model(
    op: str,
    inputs: Sequence[Input],
    attrs: Mapping[str, object] | None = None,
    inits: Mapping[str, np.ndarray] | None = None,
    opset: int = 17,
    node_inputs: Sequence[str] | None = None,
    *,
    n_out: int = 1,
    domain: str = "",
    domain_opset: int = 1,
) -> onnx.ModelProto:
    """One node reading `inputs` then initializers `inits` (or `node_inputs`), an op of
    `domain` (ONNX's default, or another imported at `domain_opset`, such as onnxruntime's
    "com.microsoft"). The outputs' types are ONNX's shape inference's, or for another
    domain's op, for which ONNX has no schema, onnxruntime's."""
    inits = dict(inits or {})
    outs = ["y"] if n_out == 1 else [f"y{i}" for i in range(n_out)]
    names = node_inputs if node_inputs is not None else [n for n, *_ in inputs] + list(inits)
    node = helper.make_node(op, list(names), outs, domain=domain or None, **(attrs or {}))
    graph = helper.make_graph(
        [node],
        op,
        [helper.make_tensor_value_info(n, t, list(s)) for n, t, s in inputs],
        [helper.make_tensor_value_info(o, TP.UNDEFINED, None) for o in outs],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in inits.items()],
    )
    model = helper.make_model(graph, opset_imports=_opset_imports(opset, domain, domain_opset))
    model.ir_version = 8
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    if domain not in ("", "ai.onnx") and not all(
            o.type.tensor_type.elem_type for o in model.graph.output):
        _type_outputs_as_onnxruntime_does(model)
    onnx.checker.check_model(model)
    return model


def _type_outputs_as_onnxruntime_does(model: onnx.ModelProto) -> None:
    """Declare the graph outputs' types as onnxruntime infers them (it knows the ops of its
    own domain, for which ONNX's shape inference has no schema)."""
    untyped = onnx.ModelProto()
    untyped.CopyFrom(model)
    for vi in untyped.graph.output:  # onnxruntime refuses an undefined element type
        vi.ClearField("type")
    sess = ort.InferenceSession(untyped.SerializeToString(), providers=["CPUExecutionProvider"])
    typed = {o.name: o for o in sess.get_outputs()}
    for vi in model.graph.output:
        o = typed[vi.name]  # its type is "tensor(uint8)", "tensor(float)", ...
        elem = getattr(TP, o.type.removeprefix("tensor(").removesuffix(")").upper())
        vi.CopyFrom(helper.make_tensor_value_info(vi.name, elem, o.shape))


def concurrent_run_errors(compiled: infer.CompiledModel, feeds: Sequence[Mapping[str, np.ndarray]],
                          rounds: int, threads: int = 4, output: str = "y") -> list[str]:
    """Runs `compiled` from `threads` Python threads at once, thread k on feed (k + r) mod
    len(feeds) in round r; what differs from one thread alone running each feed."""
    expected = [compiled.run(f)[output] for f in feeds]
    errors: list[str] = []

    def work(k: int) -> None:
        for r in range(rounds):
            i = (k + r) % len(feeds)
            if not np.array_equal(compiled.run(feeds[i])[output], expected[i]):
                errors.append(f"thread {k}: run of feed {i} differs")

    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return errors

"""The parts of onnxruntime's Python API around `InferenceSession` that scripts use in their
first lines (providers, device, run options, OrtValue, IO binding, free dimension
overrides, lists as inputs): the same script runs on onnxruntime and on infer and sees the
same values."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer
from infer.session_values import onnx_type_name


def _model(elem: int = TP.FLOAT) -> bytes:
    """y = |x| and z = -x, x of shape [N, 3]."""
    nodes = [helper.make_node("Abs", ["x"], ["y"]), helper.make_node("Neg", ["x"], ["z"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", elem, ["N", 3])],
                              [helper.make_tensor_value_info("y", elem, ["N", 3]),
                               helper.make_tensor_value_info("z", elem, ["N", 3])])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m.SerializeToString()


X = np.array([[1.5, -2.0, 3.0], [-4.0, 5.0, -6.5]], np.float32)


@pytest.fixture(scope="module")
def sessions() -> dict[str, object]:
    return {"ort": ort.InferenceSession(_model(), providers=["CPUExecutionProvider"]),
            "infer": infer.InferenceSession(_model())}


@pytest.mark.parametrize("ns", [ort, infer], ids=["ort", "infer"])
def test_module_functions(ns) -> None:
    assert "CPUExecutionProvider" in ns.get_available_providers()
    assert ns.get_device() == "CPU"
    assert int(ns.ExecutionMode.ORT_SEQUENTIAL) == 0 and int(ns.ExecutionMode.ORT_PARALLEL) == 1
    ns.set_default_logger_severity(3)
    with pytest.raises(Exception, match="severity"):
        ns.set_default_logger_severity(7)
    ns.set_default_logger_severity(2)


@pytest.mark.parametrize("ns", [ort, infer], ids=["ort", "infer"])
def test_run_options_and_config_entries(ns) -> None:
    so = ns.SessionOptions()
    so.execution_mode = ns.ExecutionMode.ORT_SEQUENTIAL
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    assert so.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    with pytest.raises(RuntimeError, match="does not have configuration with key: nokey"):
        so.get_session_config_entry("nokey")
    ro = ns.RunOptions()
    ro.log_severity_level = 3
    ro.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
    assert ro.get_run_config_entry("memory.enable_memory_arena_shrinkage") == "cpu:0"
    sess = ns.InferenceSession(_model(), so, providers=["CPUExecutionProvider"])
    sess.set_providers(["CPUExecutionProvider"])
    sess.disable_fallback()
    np.testing.assert_array_equal(sess.run(["y"], {"x": X}, ro)[0], np.abs(X))


def _ortvalue_script(ns, sess) -> dict[str, object]:
    v = ns.OrtValue.ortvalue_from_numpy(X)
    out = sess.run_with_ort_values(["z"], {"x": v})
    return {"shape": v.shape(), "type": v.data_type(), "device": v.device_name(),
            "tensor": v.is_tensor(), "same": np.array_equal(v.numpy(), X),
            "out type": out[0].data_type(), "out": out[0].numpy().tolist()}


def test_ortvalues_as_onnxruntime(sessions) -> None:
    theirs = _ortvalue_script(ort, sessions["ort"])
    ours = _ortvalue_script(infer, sessions["infer"])
    assert ours == theirs
    assert theirs["out"] == (-X).tolist()


def _binding_script(sess) -> tuple[list[np.ndarray], list[np.ndarray]]:
    binding = sess.io_binding()
    binding.bind_cpu_input("x", X)
    binding.bind_output("z")
    binding.bind_output("y", "cpu")
    binding.synchronize_inputs()
    sess.run_with_iobinding(binding)
    binding.synchronize_outputs()
    return binding.copy_outputs_to_cpu(), [v.numpy() for v in binding.get_outputs()]


def test_io_binding_as_onnxruntime(sessions) -> None:
    for theirs, ours in zip(_binding_script(sessions["ort"]),
                            _binding_script(sessions["infer"]), strict=True):
        assert len(ours) == len(theirs) == 2
        for a, b in zip(ours, theirs, strict=True):
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(_binding_script(sessions["infer"])[0][0], -X)


@pytest.mark.parametrize("ns", [ort, infer], ids=["ort", "infer"])
def test_free_dimension_override_pins_the_dim(ns) -> None:
    so = ns.SessionOptions()
    so.add_free_dimension_override_by_name("N", 2)
    sess = ns.InferenceSession(_model(), so, providers=["CPUExecutionProvider"])
    assert sess.get_inputs()[0].shape == [2, 3] and sess.get_outputs()[1].shape == [2, 3]
    np.testing.assert_array_equal(sess.run(["z"], {"x": X})[0], -X)
    with pytest.raises(Exception) as e:
        sess.run(None, {"x": X[:1]})
    if ns is infer:
        assert isinstance(e.value, infer.InputError)
        assert str(e.value) == "input 'x': dim 0 must be 2 (float32[2, 3]), got shape (1, 3)"


def test_free_dimension_override_is_compiled_static() -> None:
    """The pinned size reaches the compiled code: its signature has no dynamic dim."""
    so = infer.SessionOptions()
    so.add_free_dimension_override_by_name("N", 4)
    sess = infer.InferenceSession(_model(), so, cache=False)
    assert sess._model.inputs[0].shape == (4, 3)
    with pytest.raises(ValueError, match="size must be an int >= 0"):
        so.add_free_dimension_override_by_name("N", -1)


@pytest.mark.parametrize("elem, feed", [(TP.FLOAT, [[1.5, -2.0, 3.0]]),
                                        (TP.INT64, [[1, -2, 3], [4, 5, 6]]),
                                        (TP.INT64, [[1.7, -2.2, 3.0]])])
def test_a_list_is_converted_to_the_input_type(elem, feed) -> None:
    theirs = ort.InferenceSession(_model(elem), providers=["CPUExecutionProvider"])
    ours = infer.InferenceSession(_model(elem), cache=False)
    for a, b in zip(ours.run(None, {"x": feed}), theirs.run(None, {"x": feed}), strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_a_list_that_does_not_convert_is_one_line(sessions) -> None:
    with pytest.raises(infer.InputError, match=r"^input 'x': cannot convert the list to "
                                               r"float32: could not convert [^\n]*$"):
        sessions["infer"].run(None, {"x": [["a", "b", "c"]]})


def test_optimized_model_onnx_path_is_refused(tmp_path) -> None:
    so = infer.SessionOptions()
    so.optimized_model_filepath = str(tmp_path / "opt.onnx")
    with pytest.raises(ValueError, match=r"^optimized_model_filepath '.*opt.onnx': infer "
                                         r"writes its graph IR as text, not ONNX"):
        infer.InferenceSession(_model(), so)
    assert not (tmp_path / "opt.onnx").exists()


def test_onnx_type_names_are_onnxs() -> None:
    """Every element type numpy holds is named as onnx names it (read without onnx)."""
    checked = 0
    for elem in onnx.TensorProto.DataType.values():
        try:
            dtype = np.dtype(helper.tensor_dtype_to_np_dtype(elem))
            back = helper.np_dtype_to_tensor_dtype(dtype)
        except (KeyError, ValueError, TypeError):
            continue
        want = f"tensor({onnx.TensorProto.DataType.Name(back).lower()})"
        assert onnx_type_name(dtype) == want
        checked += 1
    assert checked > 15

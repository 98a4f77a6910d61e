"""The rest of onnxruntime's Python API that scripts touch around an `InferenceSession`, for
a CPU-only compiler: the module's functions (`get_available_providers`, `get_device`,
`set_default_logger_severity`), `ExecutionMode`, `RunOptions`, `OrtValue` (a numpy array
in host memory) and `IOBinding` (inputs and outputs bound by name, then run at once)."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np

CPU = "CPUExecutionProvider"


class ExecutionMode(IntEnum):
    """onnxruntime's, with its values; infer runs the graph as one native function, so
    both run the same."""

    ORT_SEQUENTIAL = 0
    ORT_PARALLEL = 1


def get_available_providers() -> list[str]:
    """The providers infer has: the CPU's."""
    return [CPU]


def get_all_providers() -> list[str]:
    return [CPU]


def get_device() -> str:
    return "CPU"


_default_log_severity = 2


def set_default_logger_severity(severity: int) -> None:
    """Checked as onnxruntime checks it (0 verbose .. 4 fatal); infer logs nothing."""
    global _default_log_severity
    if not isinstance(severity, int) or not 0 <= severity <= 4:
        raise ValueError(f"logging severity must be 0 (verbose) to 4 (fatal), got {severity!r}")
    _default_log_severity = severity


def get_default_logger_severity() -> int:
    return _default_log_severity


class RunOptions:
    """onnxruntime's RunOptions: accepted by `run`, where none changes what runs."""

    def __init__(self) -> None:
        self.log_severity_level = 2
        self.log_verbosity_level = 0
        self.logid = ""
        self.only_execute_path_to_fetches = False
        self.terminate = False
        self._config: dict[str, str] = {}

    def add_run_config_entry(self, key: str, value: str) -> None:
        self._config[str(key)] = str(value)

    def get_run_config_entry(self, key: str) -> str:
        if key not in self._config:
            raise RuntimeError(f"RunOptions does not have configuration with key: {key}")
        return self._config[key]


# numpy's (and ml_dtypes') names that are not ONNX's element type names, lowercased; the
# other narrow float names lose their underscores (float8_e5m2 -> float8e5m2).
_ONNX_NAME = {"float32": "float", "float64": "double", "object": "string", "str": "string",
              "float4_e2m1fn": "float4e2m1", "float8_e8m0fnu": "float8e8m0",
              "float6_e2m3fn": "float6e2m3", "float6_e3m2fn": "float6e3m2"}


def onnx_type_name(dtype: np.dtype) -> str:
    """`tensor(float)`, `tensor(int64)`...: how onnxruntime names a tensor's type (read
    without importing onnx, which a compiled artifact does not need)."""
    name = _ONNX_NAME.get(dtype.name, dtype.name.replace("_", ""))
    return f"tensor({name})"


class OrtValue:
    """A tensor in host memory: the numpy array it was made from (not copied)."""

    def __init__(self, array: np.ndarray) -> None:
        self._array = array

    @staticmethod
    def ortvalue_from_numpy(array: Any, device_type: str = "cpu", device_id: int = 0
                            ) -> OrtValue:
        _cpu_only(device_type)
        if not isinstance(array, np.ndarray):
            raise TypeError(f"OrtValue.ortvalue_from_numpy takes a numpy array, "
                            f"got {type(array).__name__}")
        return OrtValue(array)

    @staticmethod
    def ortvalue_from_shape_and_type(shape: Any, element_type: Any = np.float32,
                                     device_type: str = "cpu", device_id: int = 0) -> OrtValue:
        _cpu_only(device_type)
        return OrtValue(np.empty(tuple(shape), dtype=element_type))

    def numpy(self) -> np.ndarray:
        return self._array

    def shape(self) -> list[int]:
        return list(self._array.shape)

    def data_type(self) -> str:
        return onnx_type_name(self._array.dtype)

    def element_type(self) -> type:
        return self._array.dtype.type

    def device_name(self) -> str:
        return "cpu"

    def is_tensor(self) -> bool:
        return True

    def has_value(self) -> bool:
        return True

    def data_ptr(self) -> int:
        return int(self._array.ctypes.data)

    def tensor_size_in_bytes(self) -> int:
        return int(self._array.nbytes)


def _cpu_only(device_type: str) -> None:
    if str(device_type).lower() != "cpu":
        raise ValueError(f"device '{device_type}' is not available in infer: only 'cpu'")


def as_array(value: Any) -> Any:
    """A feed given as an OrtValue is its array; anything else as it is."""
    return value.numpy() if isinstance(value, OrtValue) else value


class IOBinding:
    """Inputs and outputs of a session bound by name; `session.run_with_iobinding` runs
    them. Outputs are host arrays (every device is the CPU), in the order bound."""

    def __init__(self, session: Any) -> None:
        self._session = session
        self._inputs: dict[str, np.ndarray] = {}
        self._outputs: list[str] = []
        self._results: list[np.ndarray] = []

    def bind_cpu_input(self, name: str, array: np.ndarray) -> None:
        self._inputs[name] = array

    def bind_ortvalue_input(self, name: str, value: OrtValue) -> None:
        self._inputs[name] = value.numpy()

    def bind_output(self, name: str, device_type: str = "cpu", device_id: int = 0,
                    element_type: Any = None, shape: Any = None, buffer_ptr: Any = None
                    ) -> None:
        _cpu_only(device_type)
        if buffer_ptr is not None:
            raise ValueError(f"output '{name}': binding to a buffer pointer is not supported "
                             "by infer; bind it without one and read get_outputs()")
        if name not in self._outputs:
            self._outputs.append(name)

    def bind_ortvalue_output(self, name: str, value: OrtValue) -> None:
        self.bind_output(name)

    def clear_binding_inputs(self) -> None:
        self._inputs.clear()

    def clear_binding_outputs(self) -> None:
        self._outputs.clear()
        self._results = []

    def synchronize_inputs(self) -> None:
        """Nothing to wait for: the inputs are in host memory."""

    def synchronize_outputs(self) -> None:
        """Nothing to wait for: `run_with_iobinding` returns when the outputs are written."""

    def run(self, run_options: Any = None) -> None:
        self._results = self._session.run(self._outputs, self._inputs, run_options)

    def copy_outputs_to_cpu(self) -> list[np.ndarray]:
        return [r.copy() for r in self._results]

    def get_outputs(self) -> list[OrtValue]:
        return [OrtValue(r) for r in self._results]

"""Errors `infer` reports to users: one line naming what is wrong and where."""


class InferError(Exception):
    """Base of all user-facing errors."""


class ImportError_(InferError):
    """The ONNX model cannot be imported (unsupported op, broken graph)."""


class UnsupportedError(InferError):
    """Valid input that infer does not support yet."""


class InputError(InferError, ValueError):
    """Wrong inputs at run time: missing names, shapes or dtypes that contradict the model."""


class ShapeError(InputError):
    """Inputs whose sizes or index values contradict each other or an op of the model,
    found by the checks inside the compiled code before the op runs (names the op, its
    node and the shapes)."""

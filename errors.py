"""Errors `infer` reports to users: one line naming what is wrong and where."""


class InferError(Exception):
    """Base of all user-facing errors."""


class ImportError_(InferError):
    """The ONNX model cannot be imported (unsupported op, broken graph)."""


class UnsupportedError(InferError):
    """Valid input that infer does not support yet."""


class InputError(InferError):
    """Wrong inputs at run time: missing names, shapes or dtypes that contradict the model."""

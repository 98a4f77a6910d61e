"""Errors `infer` reports to users: one line naming what is wrong and where.

    InferError                        catch-all for infer's own errors
    ├── InvalidModelError  ValueError     the model is broken (unreadable, fails the ONNX
    │                                     checker, undefined names, types that contradict)
    ├── UnsupportedError   NotImplementedError   a valid model infer cannot compile yet
    │                                     (ops, opsets, attributes, lowerings)
    ├── InputError         ValueError     run-time inputs that contradict the model
    │   └── ShapeError                    found by the checks inside compiled code
    └── ArtifactError      ValueError     a saved compiled model that cannot be loaded
                                          (truncated, altered, another version or CPU)

The builtin bases are what callers of onnxruntime and of Python libraries already catch:
a bad model or bad feeds are a `ValueError`, a missing feature a `NotImplementedError`
(itself a `RuntimeError`).
"""


class InferError(Exception):
    """Base of all user-facing errors."""


class InvalidModelError(InferError, ValueError):
    """The model cannot be read or is not valid ONNX."""


class UnsupportedError(InferError, NotImplementedError):
    """Valid input that infer does not support yet."""


class InputError(InferError, ValueError):
    """Wrong inputs at run time: missing names, shapes or dtypes that contradict the model."""


class ShapeError(InputError):
    """Inputs whose sizes or index values contradict each other or an op of the model,
    found by the checks inside the compiled code before the op runs (names the op, its
    node and the shapes)."""


class ArtifactError(InferError, ValueError):
    """A saved compiled model (`.infer`) that cannot be loaded: unreadable, truncated,
    altered, of another format or infer version, or for a CPU this one is not."""

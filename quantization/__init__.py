"""Post-training quantization: a float ONNX model and sample inputs in, a QDQ ONNX model out
(`infer.quantize`, `infer-quantize`), which infer and onnxruntime both run.

    ranges  (ranges.py)       each activation's range over the calibration samples:
                              min-max, percentile or entropy
    samples (calibration.py)  .npz data checked against the model's inputs, run through
                              the model compiled by infer to observe its activations
    model   (qdq.py)          weights int8 per channel, biases int32, activations uint8
                              (or int8) behind QuantizeLinear/DequantizeLinear pairs
"""

from __future__ import annotations

import copy
import os

import onnx

from infer.errors import UnsupportedError
from infer.frontend.onnx_import import load_model
from infer.quantization.calibration import load_samples, observe
from infer.quantization.qdq import MIN_OPSET, activation_tensors, write_qdq
from infer.quantization.ranges import RangeCollector


def _opset(model: onnx.ModelProto) -> onnx.ModelProto:
    """The model at opset 13 or later, converted by onnx when older."""
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    if opset >= MIN_OPSET:
        return model
    try:
        converted = onnx.version_converter.convert_version(model, MIN_OPSET)
    except Exception as e:  # noqa: BLE001 - the converter raises several types
        raise UnsupportedError(f"the model's opset {opset} is below {MIN_OPSET}, which "
                               f"per-channel quantization needs, and onnx cannot convert it: "
                               f"{str(e).splitlines()[0] if str(e) else type(e).__name__}"
                               ) from None
    # The converter keeps the IR version; below 4 every initializer must also be a graph
    # input, which the scales and zero points written later are not.
    converted.ir_version = max(converted.ir_version,
                               onnx.helper.find_min_ir_version_for(converted.opset_import))
    return converted


def quantize(model: onnx.ModelProto | bytes | str | os.PathLike,
             calibration: str | os.PathLike, out: str | os.PathLike | None = None,
             method: str = "minmax", activations: str = "uint8", percentile: float = 99.999,
             progress: bool = True) -> onnx.ModelProto:
    """The QDQ model of `model` calibrated on `calibration` (an .npz file or a folder of
    them: calibration.py), written to `out` when given. `method`: minmax, percentile
    (`percentile` percent of each activation's values kept) or entropy; `activations`:
    uint8 (asymmetric) or int8 (symmetric). A progress bar on stderr when `progress`."""
    proto = _opset(load_model(model))
    # Weights listed as graph inputs too (required below IR version 4) are replaced by
    # their quantized form: they stop being inputs, or the model would ask for them.
    weights = {i.name for i in proto.graph.initializer}
    if any(i.name in weights for i in proto.graph.input):
        proto = copy.deepcopy(proto)
        kept = [i for i in proto.graph.input if i.name not in weights]
        del proto.graph.input[:]
        proto.graph.input.extend(kept)
    collectors = {n: RangeCollector(method, percentile) for n in activation_tensors(proto)}
    samples = load_samples(proto, calibration)
    passes = max((c.passes for c in collectors.values()), default=1)
    for p, values in observe(proto, list(collectors), samples, passes, progress):
        for name, v in values.items():
            collectors[name].add(v, p)
    quantized = write_qdq(proto, {n: c.range() for n, c in collectors.items()}, activations)
    onnx.checker.check_model(quantized)
    if out is not None:
        from infer.runtime.artifact import write_atomically

        write_atomically(quantized.SerializeToString(), out)
    return quantized

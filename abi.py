"""What compiled code and the runtime that calls it agree on, in a module that imports
nothing: the runtime (runtime/, codegen/jit.py) maps and calls an artifact without
importing the compiler (xDSL, the dialects, ONNX).

The entry ABI: `void _infer_packed_<name>(ptr args)` (emitted by `convert-func-to-llvm`),
the entry's original signature in its `infer.signature` attribute.
"""

PACKED_PREFIX = "_infer_packed_"
SIGNATURE_ATTR = "infer.signature"
# What callers of each entry see (names, element types, symbolic dims of its tensors): a
# module attribute that `record-signature` writes at the graph level and no pass touches,
# so it reaches the llvm level unchanged for the runtime to read.
MODEL_SIGNATURE_ATTR = "infer.model_signature"
# What each failing run-time check of an entry means (lowering/runtime_checks.py): a
# module attribute `{function: [[message, operand ranks], ...]}`, code k is entry k - 1.
MODEL_CHECKS_ATTR = "infer.checks"
# i64 slots of the status buffer such an entry takes last: code, two values, input dims.
CHECK_STATUS_SIZE = 64
# The hidden input that numbers a model's runs, for its random ops (a u64 scalar).
RUN_COUNTER = "infer.run_counter"
# The dim name exporters write for "unknown": like "", an independent dynamic dim, not a
# symbol shared by every "?" of the model (kept as written: onnxruntime reports it so).
ANONYMOUS_DIM = "?"
# The i32 global of a module with parallel loops that holds how many threads they may use
# (`convert-parallel-calls-to-gomp`); the runtime sets it, 1 until then.
NUM_THREADS_SYMBOL = "_infer_num_threads"

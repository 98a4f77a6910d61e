"""infer: an MLIR-style compiler for neural-network inference on CPUs."""

// The ShuffleNet exported from PyTorch with a dynamic batch (Inputs/make_shufflenet.py):
// every Shape/Gather/Unsqueeze/Concat/Div/Mul/Cast shape chain folds away and each
// Reshape-Transpose-Reshape becomes one channel_shuffle.
// RUN: infer-opt %inputs/shufflenet_dyn.onnx -p shape-fusion --elide-weights 16 | filecheck %s
// RUN: infer-opt %inputs/shufflenet_dyn.onnx -p shape-fusion --elide-weights 16 | filecheck %s --check-prefix=NONE

// CHECK-COUNT-4: graph.channel_shuffle %{{.*}} {groups = 2 : i64} : (tensor<?x{{32|64}}x{{8|4}}x{{8|4}}xf32>)
// NONE-NOT: graph.shape
// NONE-NOT: graph.gather
// NONE-NOT: graph.unsqueeze
// NONE-NOT: graph.div
// NONE-NOT: graph.mul
// NONE-NOT: graph.cast
// NONE-NOT: graph.transpose
// NONE-NOT: graph.reshape
// NONE-NOT: shape.of

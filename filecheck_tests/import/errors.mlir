// Import errors: one line naming the op, the node (or its index) and the opset; every
// unsupported op of a model in one message, with its domain and that domain's opset.

// RUN: not infer-opt %inputs/bad_op.onnx 2>&1 | filecheck %s --check-prefix=OP
// OP: infer-opt: error: 1 unsupported op: 'ImageDecoder' (node 'decode_3', domain 'ai.onnx' opset 20)

// RUN: not infer-opt %inputs/bad_domain.onnx 2>&1 | filecheck %s --check-prefix=DOMAIN
// DOMAIN: infer-opt: error: 1 unsupported op: 'FusedConv' (node 'fc', domain 'com.microsoft' opset 1)

// RUN: not infer-opt %inputs/bad_opset.onnx 2>&1 | filecheck %s --check-prefix=OPSET
// OPSET: infer-opt: error: 1 unsupported op: 'Dropout' (node #0, domain 'ai.onnx' opset 6): unsupported opset version 6 of this op

// RUN: not infer-opt %inputs/bad_types.onnx 2>&1 | filecheck %s --check-prefix=TYPES
// TYPES: infer-opt: error: op 'Add' (node 'add_mixed', opset 13): operands have different element types: f32 and i64

// RUN: not infer-opt %inputs/bad_shape.onnx 2>&1 | filecheck %s --check-prefix=SHAPE
// SHAPE: infer-opt: error: op 'Conv' (node 'conv_bad', opset 13): 'graph.conv': input channels 3 != 5 x group 1

// RUN: not infer-opt %inputs/bad_order.onnx 2>&1 | filecheck %s --check-prefix=ORDER
// ORDER: infer-opt: error: invalid graph: input 't' of node 'second' ('Relu') is produced by a later node

// RUN: not infer-opt %inputs/bad_mask.onnx 2>&1 | filecheck %s --check-prefix=MASK
// MASK: infer-opt: error: unsupported op 'BatchNormalization' (node #0, opset 9): output #1 ('mean') is not supported

// RUN: not infer-opt %inputs/bad_attr.onnx 2>&1 | filecheck %s --check-prefix=ATTR
// ATTR: infer-opt: error: invalid model: Required attribute 'size' is missing.{{.*}}lrn0

// RUN: not infer-opt %inputs/not_a_model.onnx 2>&1 | filecheck %s --check-prefix=NOTONNX
// NOTONNX: infer-opt: error: cannot read the input as an ONNX model

// No traceback in any of them.
// RUN: not infer-opt %inputs/bad_shape.onnx 2>&1 | filecheck %s --check-prefix=NOTRACE
// NOTRACE-NOT: Traceback

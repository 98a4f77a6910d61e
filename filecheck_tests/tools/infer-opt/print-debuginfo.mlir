// --print-debuginfo prints each op's location once, after its type, as mlir-opt does.
// RUN: infer-opt %s --print-debuginfo | filecheck %s

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
// CHECK:      func.func @f(%a: tensor<2x3xf32> loc(unknown)) -> tensor<2x3xf32> {
// CHECK-NEXT:   %r = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32> loc(unknown){{$}}
// CHECK-NEXT:   func.return %r : tensor<2x3xf32> loc(unknown){{$}}
// CHECK-NEXT: } loc(unknown){{$}}

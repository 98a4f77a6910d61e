// Add/Sub/Mul/Div with constants compose into the map; Div only where the value is >= 0
// for every value of the dims (ONNX's integer Div truncates, affine floordiv floors).
// RUN: infer-opt %s -p shape-fusion | filecheck %s

func.func @compose(%x: tensor<?x?xf32>) -> (tensor<1xi64>, tensor<2xi64>, tensor<1xi64>) {
  %s = graph.shape %x : (tensor<?x?xf32>) -> tensor<2xi64>
  %c1 = graph.constant dense<1> : tensor<1xi64>
  %ax = graph.constant dense<[1]> : tensor<1xi64>
  %cdim = graph.gather %s, %ax : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %two = graph.constant dense<2> : tensor<1xi64>
  %p = graph.add %cdim, %two : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %half = graph.div %p, %two : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %k = graph.constant dense<[3, -3]> : tensor<2xi64>
  %m = graph.mul %s, %k : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %neg = graph.div %cdim, %k1 : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %k1 = graph.constant dense<-4> : tensor<1xi64>
  func.return %half, %m, %neg : tensor<1xi64>, tensor<2xi64>, tensor<1xi64>
}
// CHECK-LABEL: func.func @compose
// CHECK:         %half = shape.of %x {map = affine_map<(d0, d1) -> (((d1 + 2) floordiv 2))>} : tensor<?x?xf32> -> tensor<1xi64>
// CHECK-NEXT:    %m = shape.of %x {map = affine_map<(d0, d1) -> ((d0 * 3), (d1 * -3))>} : tensor<?x?xf32> -> tensor<2xi64>
// Division by a negative constant truncates: trunc(d1 / -4) = -(d1 floordiv 4).
// CHECK-NEXT:    %neg = shape.of %x {map = affine_map<(d0, d1) -> (((d1 floordiv 4) * -1))>} : tensor<?x?xf32> -> tensor<1xi64>

// (d1 - 5) / 2 may be negative: truncation and floor differ, so no fusion of the Div.
func.func @no_fusion(%x: tensor<?x?xf32>) -> tensor<1xi64> {
  %s = graph.shape %x {start = 1 : i64} : (tensor<?x?xf32>) -> tensor<1xi64>
  %five = graph.constant dense<5> : tensor<1xi64>
  %d = graph.sub %s, %five : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %two = graph.constant dense<2> : tensor<1xi64>
  %q = graph.div %d, %two : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  func.return %q : tensor<1xi64>
}
// CHECK-LABEL: func.func @no_fusion
// CHECK:         %d = shape.of %x {map = affine_map<(d0, d1) -> ((d1 + -5))>} : tensor<?x?xf32> -> tensor<1xi64>
// CHECK:         %q = graph.div %d, %two

// RUN: infer-opt %s -p graph-fuse | filecheck %s
// RUN: infer-opt %s -p graph-fuse | infer-opt | filecheck %s

// act(conv(x, W, B)) = conv(x, W, B; activation = act).
// CHECK-LABEL: func.func @conv_relu
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %w, %b {activation = "relu"} : (tensor<?x2x4x4xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<?x3x2x2xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @conv_relu(%x: tensor<?x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %b: tensor<3xf32>) -> tensor<?x3x2x2xf32> {
  %c = graph.conv %x, %w, %b : (tensor<?x2x4x4xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<?x3x2x2xf32>
  %y = graph.relu %c : (tensor<?x3x2x2xf32>) -> tensor<?x3x2x2xf32>
  func.return %y : tensor<?x3x2x2xf32>
}

// Clip with constant bounds (ReLU6) carries its bounds as parameters.
// CHECK-LABEL: func.func @gemm_relu6
// CHECK:         graph.gemm %a, %b {activation = "clip", activation_params = array<f32: 0.000000e+00, 6.000000e+00>}
// CHECK-NOT:     graph.clip
func.func @gemm_relu6(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %lo = graph.constant dense<0.0> : tensor<f32>
  %hi = graph.constant dense<6.0> : tensor<f32>
  %g = graph.gemm %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = graph.clip %g, %lo, %hi : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// Clip(0, +inf) is a relu.
// CHECK-LABEL: func.func @clip_is_relu
// CHECK:         graph.matmul %a, %b {activation = "relu"}
func.func @clip_is_relu(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %lo = graph.constant dense<0.0> : tensor<f32>
  %hi = graph.constant dense<"0x0000807F"> : tensor<f32>
  %m = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = graph.clip %m, %lo, %hi : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// The others: sigmoid, hard_swish, leaky_relu (alpha), gelu (exact and tanh forms).
// CHECK-LABEL: func.func @others
// CHECK:         graph.matmul %a, %b {activation = "sigmoid"}
// CHECK:         graph.matmul %a, %b {activation = "hard_swish"}
// CHECK:         graph.matmul %a, %b {activation = "leaky_relu", activation_params = array<f32: 2.000000e-01>}
// CHECK:         graph.matmul %a, %b {activation = "gelu"}
// CHECK:         graph.matmul %a, %b {activation = "gelu_tanh"}
func.func @others(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %m0 = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y0 = graph.sigmoid %m0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m1 = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y1 = graph.hard_swish %m1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m2 = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y2 = graph.leaky_relu %m2 {alpha = 0.2 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m3 = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y3 = graph.gelu %m3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m4 = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y4 = graph.gelu %m4 {approximate = "tanh"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %y0, %y1, %y2, %y3, %y4 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// A second activation is not fused onto the first; nor is one with dynamic bounds.
// CHECK-LABEL: func.func @not_fused
// CHECK:         graph.conv %x, %w {activation = "relu"}
// CHECK-NEXT:    graph.sigmoid
// CHECK:         graph.conv %x, %w :
// CHECK-NEXT:    graph.clip
func.func @not_fused(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>, %hi: tensor<f32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %lo = graph.constant dense<0.0> : tensor<f32>
  %c = graph.conv %x, %w {activation = "relu"} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %y = graph.sigmoid %c : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c2 = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %z = graph.clip %c2, %lo, %hi : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  func.return %y, %z : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// An infinite bound other than Clip(0, +inf) is not fused (f32 arrays cannot carry inf
// through xDSL's printer).
// CHECK-LABEL: func.func @clip_infinite
// CHECK:         graph.clip
func.func @clip_infinite(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %lo = graph.constant dense<"0x000080FF"> : tensor<f32>
  %hi = graph.constant dense<6.0> : tensor<f32>
  %m = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %y = graph.clip %m, %lo, %hi : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

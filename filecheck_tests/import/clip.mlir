// Clip: min/max attributes (opset 6) and optional inputs (opset 11+) both become scalar
// operands; a missing bound is +-inf (or the integer type's limits).

// RUN: infer-opt %inputs/clip_v6.onnx | filecheck %s --check-prefix=V6
// RUN: infer-opt %inputs/clip_v13.onnx | filecheck %s --check-prefix=V13

// V6:      %[[LO:.+]] = graph.constant dense<0.000000e+00> : tensor<f32>
// V6-NEXT: %[[HI:.+]] = graph.constant dense<6.000000e+00> : tensor<f32>
// V6-NEXT: %y = graph.clip %x, %[[LO]], %[[HI]] : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
// V6-NEXT: %[[LO2:.+]] = graph.constant dense<-1.000000e+00> : tensor<f32>
// V6-NEXT: %[[INF:.+]] = graph.constant dense<"0x0000807F"> : tensor<f32>
// V6-NEXT: %z = graph.clip %x, %[[LO2]], %[[INF]]

// V13:      %y = graph.clip %x, %lo, %hi : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
// V13-NEXT: %[[INF:.+]] = graph.constant dense<"0x0000807F"> : tensor<f32>
// V13-NEXT: %z = graph.clip %x, %lo, %[[INF]]
// V13:      %[[MIN:.+]] = graph.constant dense<-2147483648> : tensor<i32>
// V13-NEXT: %w = graph.clip %i, %[[MIN]], %ihi : (tensor<4xi32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Per batch and KV head: the state (the present_state buffer) starts at zero; each step
// scales it by exp(decay), adds k (x) v, and reads o = scale * q^T S into the output.
// CHECK-LABEL: func.func @gated
// CHECK:         memref.store %{{.*}}, %state[%[[B:.*]], %[[H:.*]], %{{.*}}, %{{.*}}] : memref<1x1x4x2xf32>
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               %[[G:.*]] = math.exp %{{.*}} : f32
// CHECK-NEXT:          %[[S:.*]] = memref.load %state
// CHECK-NEXT:          %[[D:.*]] = arith.mulf %[[S]], %[[G]] fastmath<contract> : f32
// CHECK-NEXT:          memref.store %[[D]], %state
// CHECK:               %[[KV:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:          %[[U:.*]] = arith.addf %{{.*}}, %[[KV]] fastmath<contract> : f32
// CHECK-NEXT:          memref.store %[[U]], %state
// CHECK:               scf.for {{.*}} iter_args({{.*}}) -> (f32)
// CHECK:               memref.store %{{.*}}, %y[%[[B]], %[[T]], %{{.*}}] : memref<1x?x2xf32>
func.func @gated(%q: tensor<1x?x4xf32>, %k: tensor<1x?x4xf32>, %v: tensor<1x?x2xf32>, %g: tensor<1x?x1xf32>) -> (tensor<1x?x2xf32>, tensor<1x1x4x2xf32>) {
  %y, %state = graph.linear_attention %q, %k, %v, %g {q_num_heads = 1 : i64, kv_num_heads = 1 : i64, update_rule = "gated"} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>, tensor<1x?x2xf32>, tensor<1x?x1xf32>) -> (tensor<1x?x2xf32>, tensor<1x1x4x2xf32>)
  func.return %y, %state : tensor<1x?x2xf32>, tensor<1x1x4x2xf32>
}

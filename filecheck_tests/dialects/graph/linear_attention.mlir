// LinearAttention parses, verifies, prints and round-trips; its extra operands follow
// the update rule.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @linear_attention(%q: tensor<1x?x8xf32>, %k: tensor<1x?x4xf32>, %v: tensor<1x?x6xf32>, %s: tensor<1x1x4x6xf32>, %g: tensor<1x?x1xf32>, %beta: tensor<1x?x1xf32>) -> (tensor<1x?x12xf32>, tensor<1x1x4x6xf32>) {
    %y, %state = graph.linear_attention %q, %k, %v, %s, %g, %beta {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, has_past_state = 1 : i64} : (tensor<1x?x8xf32>, tensor<1x?x4xf32>, tensor<1x?x6xf32>, tensor<1x1x4x6xf32>, tensor<1x?x1xf32>, tensor<1x?x1xf32>) -> (tensor<1x?x12xf32>, tensor<1x1x4x6xf32>)
    %ly, %ls = graph.linear_attention %q, %k, %v {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, scale = 5.000000e-01 : f32, update_rule = "linear"} : (tensor<1x?x8xf32>, tensor<1x?x4xf32>, tensor<1x?x6xf32>) -> (tensor<1x?x12xf32>, tensor<1x1x4x6xf32>)
    func.return %y, %state : tensor<1x?x12xf32>, tensor<1x1x4x6xf32>
  }
}

// CHECK-LABEL: func.func @linear_attention
// CHECK-NEXT:    %y, %state = graph.linear_attention %q, %k, %v, %s, %g, %beta {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, has_past_state = 1 : i64} : (tensor<1x?x8xf32>, tensor<1x?x4xf32>, tensor<1x?x6xf32>, tensor<1x1x4x6xf32>, tensor<1x?x1xf32>, tensor<1x?x1xf32>) -> (tensor<1x?x12xf32>, tensor<1x1x4x6xf32>)
// CHECK-NEXT:    %ly, %ls = graph.linear_attention %q, %k, %v {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, scale = 5.000000e-01 : f32, update_rule = "linear"} : (tensor<1x?x8xf32>, tensor<1x?x4xf32>, tensor<1x?x6xf32>) -> (tensor<1x?x12xf32>, tensor<1x1x4x6xf32>)

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Per (batch, query row), with a scratch row of N scores of its own (so that rows can run
// on any thread; this op is too small to be worth a second one): pass 1 computes each
// score as a contiguous dot product of q_i and k_j, scaled and masked, into the row and
// its max; pass 2 replaces the row by exp(s - max) and sums it; pass 3 accumulates
// p_j * v_j into y_i with the Dv loop innermost.
// CHECK-LABEL: func.func @attention
// CHECK:         %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x10x4xf32>
// CHECK:         %[[SCALE:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[ROW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<12xf32>
// CHECK:             %[[MAX:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[M:.*]] = %{{.*}}) -> (f32) {
// CHECK:               %[[QK:.*]] = scf.for %[[D:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:            %[[QV:.*]] = memref.load %q[%[[B]], %[[I]], %[[D]]] : memref<2x10x8xf32>
// CHECK-NEXT:            %[[KV:.*]] = memref.load %k[%[[B]], %[[J]], %[[D]]] : memref<2x12x8xf32>
// CHECK-NEXT:            %[[P:.*]] = arith.mulf %[[QV]], %[[KV]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:            %[[A2:.*]] = arith.addf %[[A]], %[[P]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:            scf.yield %[[A2]] : f32
// CHECK:               %[[S:.*]] = arith.mulf %[[QK]], %[[SCALE]] fastmath<contract> : f32
// CHECK-NEXT:          %[[MV:.*]] = memref.load %m[%[[I]], %[[J]]] : memref<10x12xf32>
// CHECK-NEXT:          %[[SM:.*]] = arith.addf %[[S]], %[[MV]] fastmath<contract> : f32
// CHECK-NEXT:          memref.store %[[SM]], %[[ROW]][%[[J]]] : memref<12xf32>
// CHECK-NEXT:          %[[M2:.*]] = arith.maximumf %[[M]], %[[SM]] : f32
// CHECK-NEXT:          scf.yield %[[M2]] : f32
// CHECK:             %[[SUM:.*]] = scf.for %[[J2:.*]] = {{.*}} iter_args
// CHECK-NEXT:          %[[R:.*]] = memref.load %[[ROW]][%[[J2]]] : memref<12xf32>
// CHECK-NEXT:          %[[SUB:.*]] = arith.subf %[[R]], %[[MAX]] fastmath<contract> : f32
// CHECK-NEXT:          %[[E:.*]] = math.exp %[[SUB]] : f32
// CHECK-NEXT:          memref.store %[[E]], %[[ROW]][%[[J2]]] : memref<12xf32>
// CHECK:             %[[INV:.*]] = arith.divf %{{.*}}, %[[SUM]] fastmath<contract> : f32
// CHECK:             memref.store %{{.*}}, %[[Y]][%[[B]], %[[I]], %{{.*}}] : memref<2x10x4xf32>
// CHECK:             scf.for %[[J3:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[PR:.*]] = memref.load %[[ROW]][%[[J3]]] : memref<12xf32>
// CHECK-NEXT:          %[[PN:.*]] = arith.mulf %[[PR]], %[[INV]] fastmath<contract> : f32
// CHECK:               scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[YV:.*]] = memref.load %[[Y]][%[[B]], %[[I]], %[[C]]] : memref<2x10x4xf32>
// CHECK-NEXT:            %[[VV:.*]] = memref.load %v[%[[B]], %[[J3]], %[[C]]] : memref<2x12x4xf32>
// CHECK:               memref.store %{{.*}}, %[[Y]][%[[B]], %[[I]], %[[C]]] : memref<2x10x4xf32>
// CHECK:             memref.dealloc %[[ROW]] : memref<12xf32>
// CHECK-NEXT:      }
// CHECK-NOT:       parallel
func.func @attention(%q: tensor<2x10x8xf32>, %k: tensor<2x12x8xf32>, %v: tensor<2x12x4xf32>, %m: tensor<10x12xf32>) -> tensor<2x10x4xf32> {
  %0 = graph.attention %q, %k, %v, %m {scale = 0.5 : f32} : (tensor<2x10x8xf32>, tensor<2x12x8xf32>, tensor<2x12x4xf32>, tensor<10x12xf32>) -> tensor<2x10x4xf32>
  func.return %0 : tensor<2x10x4xf32>
}

// K given transposed ([D, N]): the scores row accumulates q[i, d] * scale * K^T[d, :],
// the N loop innermost and contiguous.
// CHECK-LABEL: func.func @attention_kt
// CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<7xf32>
// CHECK:         scf.for %[[D:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[QV:.*]] = memref.load %q[%{{.*}}, %[[D]]] : memref<6x8xf32>
// CHECK-NEXT:      %[[QS:.*]] = arith.mulf %[[QV]], %{{.*}} fastmath<contract> : f32
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[R:.*]] = memref.load %{{.*}}[%[[J]]] : memref<7xf32>
// CHECK-NEXT:        %[[KV:.*]] = memref.load %kt[%[[D]], %[[J]]] : memref<8x7xf32>
func.func @attention_kt(%q: tensor<6x8xf32>, %kt: tensor<8x7xf32>, %v: tensor<7x4xf32>) -> tensor<6x4xf32> {
  %0 = graph.attention %q, %kt, %v {scale = 0.5 : f32, k_transposed = 1 : i64} : (tensor<6x8xf32>, tensor<8x7xf32>, tensor<7x4xf32>) -> tensor<6x4xf32>
  func.return %0 : tensor<6x4xf32>
}

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Inference BatchNormalization: a loop over channels folds the parameters into
// a = scale / sqrt(var + eps) and b = B - mean * a (two temporaries), then one
// multiply-add per element over the flattened plane, each (n, channel) plane on any thread
// (the batch is dynamic: maybe worth it); the temporaries are freed.
// CHECK-LABEL: func.func @batch_norm
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x4x5xf32>
// CHECK:         %[[MUL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK-NEXT:    %[[ADD:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[VAR:.*]] = memref.load %var[%[[C]]]
// CHECK-NEXT:      %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK-NEXT:      %[[VE:.*]] = arith.addf %[[VAR]], %[[EPS]] fastmath<contract> : f32
// CHECK-NEXT:      %[[STD:.*]] = math.sqrt %[[VE]] : f32
// CHECK-NEXT:      %[[SC:.*]] = memref.load %scale[%[[C]]]
// CHECK-NEXT:      %[[A:.*]] = arith.divf %[[SC]], %[[STD]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[A]], %[[MUL]][%[[C]]]
// CHECK:           memref.store %{{.*}}, %[[ADD]][%[[C]]]
// CHECK:         %[[X:.*]] = memref.collapse_shape %x {{.*}} : memref<?x3x4x5xf32> into memref<?x3x20xf32>
// CHECK:         %[[YV:.*]] = memref.collapse_shape %[[Y]] {{.*}} : memref<?x3x4x5xf32> into memref<?x3x20xf32>
// CHECK:         scf.for %[[NC:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[CS:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[C2:.*]] = arith.remui %[[NC]], %[[CS]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[NC]], %[[CS]] : index
// CHECK-NEXT:      %[[M:.*]] = memref.load %[[MUL]][%[[C2]]]
// CHECK-NEXT:      %[[S:.*]] = memref.load %[[ADD]][%[[C2]]]
// CHECK:           scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[XV:.*]] = memref.load %[[X]][%[[N]], %[[C2]], %[[P]]]
// CHECK-NEXT:        %[[XM:.*]] = arith.mulf %[[XV]], %[[M]] fastmath<contract> : f32
// CHECK-NEXT:        %[[R:.*]] = arith.addf %[[XM]], %[[S]] fastmath<contract> : f32
// CHECK-NEXT:        memref.store %[[R]], %[[YV]][%[[N]], %[[C2]], %[[P]]]
// CHECK:         } {parallel = {{[0-9]+}} : i64}
// CHECK:         memref.dealloc %[[MUL]]
// CHECK-NEXT:    memref.dealloc %[[ADD]]
// CHECK-NEXT:    func.return %[[Y]]
func.func @batch_norm(%x: tensor<?x3x4x5xf32>, %scale: tensor<3xf32>, %b: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>) -> tensor<?x3x4x5xf32> {
  %y = graph.batch_normalization %x, %scale, %b, %mean, %var {epsilon = 1.0e-03 : f32} : (tensor<?x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3x4x5xf32>
  func.return %y : tensor<?x3x4x5xf32>
}

// A rank-2 input has no plane: the multiply-add sits directly in the channel loop.
// CHECK-LABEL: func.func @batch_norm_2d
// CHECK-NOT:     memref.collapse_shape
// CHECK:         memref.load %x[%[[N:.*]], %[[C:.*]]] : memref<2x3xf64>
// CHECK-NEXT:    arith.mulf {{.*}} : f64
// CHECK-NEXT:    arith.addf {{.*}} : f64
// CHECK-NEXT:    memref.store %{{.*}}, %{{.*}}[%[[N]], %[[C]]] : memref<2x3xf64>
func.func @batch_norm_2d(%x: tensor<2x3xf64>, %scale: tensor<3xf64>, %b: tensor<3xf64>, %mean: tensor<3xf64>, %var: tensor<3xf64>) -> tensor<2x3xf64> {
  %y = graph.batch_normalization %x, %scale, %b, %mean, %var : (tensor<2x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  func.return %y : tensor<2x3xf64>
}

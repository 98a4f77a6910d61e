// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// A one-sided DFT of a real signal: the twiddles cos / sin(2 pi j / 8) tabled once in f64,
// then per output bin k an f64 sum over the signal reading the table at (k * n) mod 8,
// rounded once to f32 into the real and imaginary parts.
// CHECK-LABEL: func.func @rfft
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x5x2xf32>
// CHECK-NEXT:    %[[COS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf64>
// CHECK-NEXT:    %[[SIN:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf64>
// CHECK:           math.cos %{{.*}} : f64
// CHECK:           math.sin %{{.*}} : f64
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[RE:.*]], %[[IM:.*]] = scf.for %[[N:.*]] = {{.*}} iter_args({{.*}}) -> (f64, f64) {
// CHECK:               %[[X:.*]] = memref.load %x[%[[B]], %[[N]], %{{.*}}] : memref<?x8x1xf32>
// CHECK-NEXT:          arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:          %[[KN:.*]] = arith.muli %[[K]], %[[N]] : index
// CHECK-NEXT:          %[[L:.*]] = arith.constant 8 : index
// CHECK-NEXT:          %[[J:.*]] = arith.remui %[[KN]], %[[L]] : index
// CHECK-NEXT:          memref.load %[[COS]][%[[J]]] : memref<8xf64>
// CHECK-NEXT:          memref.load %[[SIN]][%[[J]]] : memref<8xf64>
// CHECK:             arith.truncf %[[RE]] : f64 to f32
// CHECK:             memref.store %{{.*}}, %[[Y]][%[[B]], %[[K]], %{{.*}}] : memref<?x5x2xf32>
// CHECK:             arith.truncf %[[IM]] : f64 to f32
func.func @rfft(%x: tensor<?x8x1xf32>) -> tensor<?x5x2xf32> {
  %a = graph.constant dense<1> : tensor<1xi64>
  %y = graph.dft %x, %a {onesided = 1 : i64} : (tensor<?x8x1xf32>, tensor<1xi64>) -> tensor<?x5x2xf32>
  func.return %y : tensor<?x5x2xf32>
}

// MelWeightMatrix: its size from the scalars read at run time; the filter corners (the
// reference's mel arithmetic: log1p in f32, expm1 and numpy's floor division in f64) go to
// a scratch buffer, their range checked before the filters are written.
// CHECK-LABEL: func.func @mel
// CHECK:         %w = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK:         math.log1p %{{.*}} : f32
// CHECK:         %[[P:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi64>
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i64, i64, i64)
// CHECK:           math.expm1 %{{.*}} : f64
// CHECK:           llvm.frem %{{.*}}, %{{.*}} : f64
// CHECK:           arith.fptosi %{{.*}} : f64 to i64
// CHECK:         cf.cond_br
// CHECK:         memref.dealloc %[[P]] : memref<?xi64>
func.func @mel(%mels: tensor<i64>, %length: tensor<i64>, %rate: tensor<i64>, %low: tensor<f32>, %high: tensor<f32>) -> tensor<?x?xf32> {
  %w = graph.mel_weight_matrix %mels, %length, %rate, %low, %high {to = f32} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<?x?xf32>
  func.return %w : tensor<?x?xf32>
}

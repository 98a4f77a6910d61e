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
// CHECK:         memref.dealloc %[[COS]] : memref<8xf64>
// CHECK-NEXT:    memref.dealloc %[[SIN]] : memref<8xf64>
func.func @rfft(%x: tensor<?x8x1xf32>) -> tensor<?x5x2xf32> {
  %a = graph.constant dense<1> : tensor<1xi64>
  %y = graph.dft %x, %a {onesided = 1 : i64} : (tensor<?x8x1xf32>, tensor<1xi64>) -> tensor<?x5x2xf32>
  func.return %y : tensor<?x5x2xf32>
}

// A DFT of a length known at run time: its twiddle tables are allocated per run, and freed.
// CHECK-LABEL: func.func @dynamic_length
// CHECK:         %[[COS:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
// CHECK-NEXT:    %[[SIN:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
// CHECK:         memref.dealloc %[[COS]] : memref<?xf64>
// CHECK-NEXT:    memref.dealloc %[[SIN]] : memref<?xf64>
func.func @dynamic_length(%x: tensor<1x?x2xf32>) -> tensor<1x?x2xf32> {
  %a = graph.constant dense<1> : tensor<1xi64>
  %y = graph.dft %x, %a : (tensor<1x?x2xf32>, tensor<1xi64>) -> tensor<1x?x2xf32>
  func.return %y : tensor<1x?x2xf32>
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

// STFT (frame_step 4, frame_length 8, a window, a dynamic batch): the twiddles tabled
// once in f64; per (batch, frame, bin) an f64 sum over the frame of x[n, f * 4 + m]
// times the window, times cos / sin at (k * m) mod 8 (real minus, as e^-i), each part
// rounded once to f32.
// CHECK-LABEL: func.func @stft
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x5x2xf32>
// CHECK-NEXT:    %[[COS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf64>
// CHECK-NEXT:    %[[SIN:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf64>
// CHECK:           math.cos %{{.*}} : f64
// CHECK:           math.sin %{{.*}} : f64
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[F:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[STEP:.*]] = arith.constant 4 : index
// CHECK-NEXT:          %[[START:.*]] = arith.muli %[[F]], %[[STEP]] : index
// CHECK:               %[[RE:.*]], %[[IM:.*]] = scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[AR:.*]] = %{{.*}}, %[[AI:.*]] = %{{.*}}) -> (f64, f64) {
// CHECK-NEXT:            %[[AT:.*]] = arith.addi %[[START]], %[[M]] : index
// CHECK-NEXT:            arith.constant 0 : index
// CHECK-NEXT:            %[[X:.*]] = memref.load %x[%[[N]], %[[AT]], %{{.*}}] : memref<?x16x1xf32>
// CHECK-NEXT:            %[[X64:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:            %[[W:.*]] = memref.load %w[%[[M]]] : memref<8xf32>
// CHECK-NEXT:            %[[W64:.*]] = arith.extf %[[W]] : f32 to f64
// CHECK-NEXT:            %[[XW:.*]] = arith.mulf %[[X64]], %[[W64]] fastmath<contract> : f64
// CHECK-NEXT:            %[[KM:.*]] = arith.muli %[[K]], %[[M]] : index
// CHECK-NEXT:            %[[L:.*]] = arith.constant 8 : index
// CHECK-NEXT:            %[[J:.*]] = arith.remui %[[KM]], %[[L]] : index
// CHECK-NEXT:            %[[C:.*]] = memref.load %[[COS]][%[[J]]] : memref<8xf64>
// CHECK-NEXT:            %[[S:.*]] = memref.load %[[SIN]][%[[J]]] : memref<8xf64>
// CHECK-NEXT:            %[[PC:.*]] = arith.mulf %[[XW]], %[[C]] fastmath<contract> : f64
// CHECK-NEXT:            %[[NR:.*]] = arith.addf %[[AR]], %[[PC]] fastmath<contract> : f64
// CHECK-NEXT:            %[[PS:.*]] = arith.mulf %[[XW]], %[[S]] fastmath<contract> : f64
// CHECK-NEXT:            %[[NI:.*]] = arith.subf %[[AI]], %[[PS]] fastmath<contract> : f64
// CHECK-NEXT:            scf.yield %[[NR]], %[[NI]] : f64, f64
// CHECK:               %[[R32:.*]] = arith.truncf %[[RE]] : f64 to f32
// CHECK:               memref.store %[[R32]], %y[%[[N]], %[[F]], %[[K]], %{{.*}}] : memref<?x3x5x2xf32>
// CHECK-NEXT:          %[[I32:.*]] = arith.truncf %[[IM]] : f64 to f32
// CHECK:               memref.store %[[I32]], %y[%[[N]], %[[F]], %[[K]], %{{.*}}] : memref<?x3x5x2xf32>
func.func @stft(%x: tensor<?x16x1xf32>, %w: tensor<8xf32>) -> tensor<?x3x5x2xf32> {
  %step = graph.constant dense<4> : tensor<i64>
  %n = graph.constant dense<8> : tensor<i64>
  %y = graph.stft %x, %step, %n, %w : (tensor<?x16x1xf32>, tensor<i64>, tensor<i64>, tensor<8xf32>) -> tensor<?x3x5x2xf32>
  func.return %y : tensor<?x3x5x2xf32>
}

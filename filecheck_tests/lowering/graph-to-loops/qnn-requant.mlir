// RUN: infer-opt %s -p 'qnn-legalize{vnni=true lanes=16},graph-to-loops' | filecheck %s

// The int8 kernels' epilogue requantizes in f32 and clamps with compare + select (one
// vmaxps / vminps a vector; the values are never NaN), not maximumf / minimumf.
// CHECK-LABEL: func.func @matmul
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK:         %[[V:.*]] = arith.mulf
// CHECK-NEXT:    %[[GT:.*]] = llvmx.fcmp "ogt" %[[V]], %[[LO:.*]] : vector<16xf32> -> vector<16xi1>
// CHECK-NEXT:    %[[MAX:.*]] = llvmx.select %[[GT]], %[[V]], %[[LO]] : vector<16xi1>, vector<16xf32>
// CHECK-NEXT:    %[[LT:.*]] = llvmx.fcmp "olt" %[[MAX]], %[[HI:.*]] : vector<16xf32> -> vector<16xi1>
// CHECK-NEXT:    %[[MIN:.*]] = llvmx.select %[[LT]], %[[MAX]], %[[HI]] : vector<16xi1>, vector<16xf32>
// CHECK-NEXT:    math.roundeven %[[MIN]]
// CHECK-NOT:     arith.maximumf
// CHECK-NOT:     arith.minimumf
// A requantized conv (3 x 3, 4 input channels, no pads, 4 x 4 outputs: im2col): the
// weights packed by qnn-legalize as 9 i32 words per output channel (4 channel bytes a
// tap); the windows packed at run time into a scratch buffer of one tile of pixels (its
// columns past the 16 pixels zeroed), each word from 4 bytes of X shifted into place;
// per tile one loop over the words with a vpdpbusd per output-channel row, then the
// epilogue per row: + bias, to f32, * multiplier, clamped to [lo - zp, hi - zp],
// rounded half to even, + zp, truncated to bytes, one vector store; the scratch freed.
// CHECK-LABEL: func.func @conv
// CHECK:         %[[W:.*]] = memref.get_global @{{.*}} : memref<8x9xi32>
// CHECK-NEXT:    %[[BIAS:.*]] = memref.get_global @{{.*}} : memref<8xi32>
// CHECK-NEXT:    %[[MULT:.*]] = memref.get_global @{{.*}} : memref<8xf32>
// CHECK-NEXT:    %y = memref.alloc() {alignment = 64 : i64} : memref<1x8x4x4xi8>
// CHECK-NEXT:    %[[XP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<9x64xi32>
// CHECK-NEXT:    %[[YF:.*]] = memref.collapse_shape %y {{.*}} into memref<1x8x16xi8>
// CHECK:         %[[P:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[T:.*]] = arith.constant 64 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[PX:.*]] = %[[P]] to %[[T]] step
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      memref.store %[[Z]], %[[XP]][%{{.*}}, %[[PX]]] : memref<9x64xi32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[Q:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[OW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-COUNT-4:         memref.load %x[%[[N]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x4x6x6xi8>
// CHECK:                 arith.shli %{{.*}}, %{{.*}} : i32
// CHECK:                 arith.shli %{{.*}}, %{{.*}} : i32
// CHECK:                 arith.shli %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:            %[[WORD:.*]] = arith.ori %{{.*}}, %{{.*}} : i32
// CHECK:                 memref.store %[[WORD]], %[[XP]][%[[Q]], %{{.*}}] : memref<9x64xi32>
// CHECK:           scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        arith.constant 0 : index
// CHECK-NEXT:        %[[WORDS:.*]] = arith.constant 9 : index
// CHECK-NEXT:        arith.constant 1 : index
// CHECK-NEXT:        %[[ACC0:.*]], %{{.*}}, %{{.*}}, %{{.*}} = scf.for %[[K:.*]] = %{{.*}} to %[[WORDS]] step %{{.*}} iter_args({{.*}}) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>) {
// CHECK:               vector.load %[[XP]][%[[K]], %{{.*}}] : memref<9x64xi32>, vector<16xi32>
// CHECK-NEXT:          memref.load %[[W]][%[[M]], %[[K]]] : memref<8x9xi32>
// CHECK-COUNT-4:       llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK:             %[[B:.*]] = memref.load %[[BIAS]][%[[M]]] : memref<8xi32>
// CHECK-NEXT:        %[[BV:.*]] = vector.broadcast %[[B]] : i32 to vector<16xi32>
// CHECK-NEXT:        %[[S:.*]] = memref.load %[[MULT]][%[[M]]] : memref<8xf32>
// CHECK-NEXT:        %[[SV:.*]] = vector.broadcast %[[S]] : f32 to vector<16xf32>
// CHECK-NEXT:        %[[SUM:.*]] = arith.addi %[[ACC0]], %[[BV]] : vector<16xi32>
// CHECK-NEXT:        %[[F:.*]] = llvm.sitofp %[[SUM]] : vector<16xi32> to vector<16xf32>
// CHECK-NEXT:        %[[V:.*]] = arith.mulf %[[F]], %[[SV]] : vector<16xf32>
// CHECK-NEXT:        llvmx.fcmp "ogt" %[[V]]
// CHECK-NEXT:        llvmx.select
// CHECK-NEXT:        llvmx.fcmp "olt"
// CHECK-NEXT:        %[[C:.*]] = llvmx.select
// CHECK-NEXT:        %[[R:.*]] = math.roundeven %[[C]] : vector<16xf32>
// CHECK-NEXT:        %[[I:.*]] = llvmx.fptosi %[[R]] : vector<16xf32> to vector<16xi32>
// CHECK-NEXT:        %[[Q8:.*]] = arith.addi %[[I]], %{{.*}} : vector<16xi32>
// CHECK-NEXT:        %[[OUT:.*]] = llvm.trunc %[[Q8]] : vector<16xi32> to vector<16xi8>
// CHECK-NEXT:        arith.constant 0 : index
// CHECK-NEXT:        vector.store %[[OUT]], %[[YF]][%[[N]], %[[M]], %{{.*}}] : memref<1x8x16xi8>, vector<16xi8>
// CHECK-COUNT-3:     vector.store %{{.*}}, %[[YF]]
// CHECK:         memref.dealloc %[[XP]] : memref<9x64xi32>
// CHECK-NEXT:    func.return %y
builtin.module {
  func.func @matmul(%a: tensor<2x3xui8>) -> tensor<2x2xui8> {
    %zy = graph.constant dense<3> : tensor<ui8>
    %w = graph.constant dense<[[1, 2], [3, -4], [5, 6]]> : tensor<3x2xi16>
    %b = graph.constant dense<[18, 8]> : tensor<2xi32>
    %m = graph.constant dense<0.333333313> : tensor<1xf32>
    %y = qnn.matmul_requant %a, %w, %b, %m, %zy {x_zero_point = 7 : i64, lo = 3 : i64, hi = 255 : i64, n = 2 : i64} : (tensor<2x3xui8>, tensor<3x2xi16>, tensor<2xi32>, tensor<1xf32>, tensor<ui8>) -> tensor<2x2xui8>
    func.return %y : tensor<2x2xui8>
  }
  func.func @conv(%x: tensor<1x4x6x6xui8>) -> tensor<1x8x4x4xui8> {
    %zy = graph.constant dense<3> : tensor<ui8>
    %w = graph.constant dense<2> : tensor<8x4x3x3xi16>
    %b = graph.constant dense<5> : tensor<8xi32>
    %m = graph.constant dense<0.25> : tensor<1xf32>
    %y = qnn.conv_requant %x, %w, %b, %m, %zy {x_zero_point = 7 : i64, lo = 3 : i64, hi = 255 : i64, kernel_shape = array<i64: 3, 3>} : (tensor<1x4x6x6xui8>, tensor<8x4x3x3xi16>, tensor<8xi32>, tensor<1xf32>, tensor<ui8>) -> tensor<1x8x4x4xui8>
    func.return %y : tensor<1x8x4x4xui8>
  }
}

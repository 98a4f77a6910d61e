// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// ToNchwc and FromNchwc (c = 8, a dynamic batch): one parallel loop over (n, block),
// the block's 8 channels innermost; channel = block * 8 + j. ToNchwc writes the blocked
// buffer contiguously, FromNchwc reads it contiguously.
// CHECK-LABEL: func.func @layout
// CHECK:         %b = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x3x4x8xf32>
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[NB:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[CB:.*]] = arith.remui %[[P]], %[[NB]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[P]], %[[NB]] : index
// CHECK:           scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:            %[[BASE:.*]] = arith.muli %[[CB]], %[[C8]] : index
// CHECK-NEXT:            %[[CH:.*]] = arith.addi %[[BASE]], %[[J]] : index
// CHECK-NEXT:            %[[V:.*]] = memref.load %x[%[[N]], %[[CH]], %[[H]], %[[W]]] : memref<?x16x3x4xf32>
// CHECK-NEXT:            memref.store %[[V]], %b[%[[N]], %[[CB]], %[[H]], %[[W]], %[[J]]] : memref<?x2x3x4x8xf32>
// CHECK:         } {parallel = {{[0-9]+}} : i64}
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x16x3x4xf32>
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[NB:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[CB:.*]] = arith.remui %[[P]], %[[NB]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[P]], %[[NB]] : index
// CHECK:           scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:            %[[BASE:.*]] = arith.muli %[[CB]], %[[C8]] : index
// CHECK-NEXT:            %[[CH:.*]] = arith.addi %[[BASE]], %[[J]] : index
// CHECK-NEXT:            %[[V:.*]] = memref.load %b[%[[N]], %[[CB]], %[[H]], %[[W]], %[[J]]] : memref<?x2x3x4x8xf32>
// CHECK-NEXT:            memref.store %[[V]], %y[%[[N]], %[[CH]], %[[H]], %[[W]]] : memref<?x16x3x4xf32>
// CHECK:         } {parallel = {{[0-9]+}} : i64}
func.func @layout(%x: tensor<?x16x3x4xf32>) -> (tensor<?x2x3x4x8xf32>, tensor<?x16x3x4xf32>) {
  %b = graph.to_nchwc %x {block = 8 : i64} : (tensor<?x16x3x4xf32>) -> tensor<?x2x3x4x8xf32>
  %y = graph.from_nchwc %b : (tensor<?x2x3x4x8xf32>) -> tensor<?x16x3x4xf32>
  func.return %b, %y : tensor<?x2x3x4x8xf32>, tensor<?x16x3x4xf32>
}

// AveragePoolNchwc (3 x 3, pads 1, count_include_pad 0): one parallel loop over
// (n, block, oh, ow); the window's rows and columns clamped to the input (pads
// skipped: [max(0, -start), min(3, 4 - start))), 8-wide vector loads summed from 0,
// divided by the number of taps inside, one vector store.
// CHECK-LABEL: func.func @average_pool_nchwc
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x4x4x8xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[OW:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK:           %[[OH:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK:           %[[CB:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK:           %[[H_LO:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK:           %[[H_HI:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:           %[[W_LO:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK:           %[[W_HI:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:           %[[SUM:.*]] = scf.for %{{.*}} = %[[H_LO]] to %[[H_HI]] step %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<8xf32>) {
// CHECK:             scf.for %{{.*}} = %[[W_LO]] to %[[W_HI]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>) {
// CHECK:               %[[V:.*]] = vector.load %x[%[[N]], %[[CB]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x2x4x4x8xf32>, vector<8xf32>
// CHECK-NEXT:          arith.addf %[[ACC]], %[[V]] fastmath<contract> : vector<8xf32>
// CHECK:           %[[NH:.*]] = arith.subi %[[H_HI]], %[[H_LO]] : index
// CHECK-NEXT:      %[[NW:.*]] = arith.subi %[[W_HI]], %[[W_LO]] : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.muli %[[NH]], %[[NW]] : index
// CHECK-NEXT:      %[[C64:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK-NEXT:      %[[CF:.*]] = arith.sitofp %[[C64]] : i64 to f32
// CHECK-NEXT:      %[[CV:.*]] = vector.broadcast %[[CF]] : f32 to vector<8xf32>
// CHECK-NEXT:      %[[AVG:.*]] = arith.divf %[[SUM]], %[[CV]] fastmath<contract> : vector<8xf32>
// CHECK:           vector.store %[[AVG]], %y[%[[N]], %[[CB]], %[[OH]], %[[OW]], %{{.*}}] : memref<?x2x4x4x8xf32>, vector<8xf32>
// CHECK-NEXT:    } {parallel = {{[0-9]+}} : i64}
func.func @average_pool_nchwc(%x: tensor<?x2x4x4x8xf32>) -> tensor<?x2x4x4x8xf32> {
  %y = graph.average_pool_nchwc %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x4x4x8xf32>) -> tensor<?x2x4x4x8xf32>
  func.return %y : tensor<?x2x4x4x8xf32>
}

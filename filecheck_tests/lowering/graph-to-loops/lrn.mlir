// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// LRN: per (n, c) the channel window [max(0, c - 1), min(C, c + 2)) of size 4
// ((size-1)//2 = 1 before, ceil((size-1)/2) = 2 after) accumulates squares into the
// output row, then y = x * (bias + alpha/size * sum)^-beta; each (n, c) on any thread.
// CHECK-LABEL: func.func @lrn
// CHECK:         scf.for %[[NC:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[C:.*]] = arith.remui %[[NC]], %{{.*}} : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[NC]], %{{.*}} : index
// CHECK:             %[[CB:.*]] = arith.subi %[[C]], %{{.*}} : index
// CHECK:             %[[LO:.*]] = arith.maxsi %{{.*}}, %[[CB]] : index
// CHECK-NEXT:        %[[THREE:.*]] = arith.constant 3 : index
// CHECK-NEXT:        %[[CE:.*]] = arith.addi %[[C]], %[[THREE]] : index
// CHECK-NEXT:        %[[CH:.*]] = arith.constant 6 : index
// CHECK-NEXT:        %[[HI:.*]] = arith.minsi %[[CH]], %[[CE]] : index
// CHECK:             scf.for %[[C2:.*]] = %[[LO]] to %[[HI]] step
// CHECK:               scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[V:.*]] = memref.load %{{.*}}[%[[N]], %[[C2]], %[[P]]]
// CHECK-NEXT:            %[[ACC:.*]] = memref.load %{{.*}}[%[[N]], %[[C]], %[[P]]]
// CHECK-NEXT:            %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] fastmath<contract> : f32
// CHECK-NEXT:            arith.addf %[[ACC]], %[[SQ]] fastmath<contract> : f32
// CHECK:             scf.for
// CHECK:               %[[BIAS:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:               %[[AS:.*]] = arith.constant 2.500000e-03 : f32
// CHECK:               %[[NB:.*]] = arith.constant -7.500000e-01 : f32
// CHECK-NEXT:          %[[F:.*]] = math.powf %{{.*}}, %[[NB]] : f32
// CHECK-NEXT:          %[[XV:.*]] = memref.load
// CHECK-NEXT:          arith.mulf %[[XV]], %[[F]] fastmath<contract> : f32
func.func @lrn(%x: tensor<?x6x5x5xf32>) -> tensor<?x6x5x5xf32> {
  %y = graph.lrn %x {size = 4 : i64, alpha = 0.01 : f32, bias = 2.0 : f32} : (tensor<?x6x5x5xf32>) -> tensor<?x6x5x5xf32>
  func.return %y : tensor<?x6x5x5xf32>
}

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Broadcasting both ways with a dynamic batch dim: one loop nest over the output,
// innermost over the last dim; unit dims of an operand are read at index 0. The outer
// dims are one loop whose iterations may run on any thread (the batch is dynamic: there
// may be enough of them); the last dim is always inside, contiguous.
// CHECK-LABEL: func.func @add_broadcast(%a: memref<?x1x5xf32>, %b: memref<4x1xf32>) -> memref<?x4x5xf32>
// CHECK:         %[[N:.*]] = memref.dim %a, %{{.*}} : memref<?x1x5xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4x5xf32>
// CHECK:         %[[ROWS:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %[[ROWS]] step
// CHECK:           %[[J:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[I:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[A:.*]] = memref.load %a[%[[I]], %[[Z]], %[[K]]] : memref<?x1x5xf32>
// CHECK-NEXT:          %[[Z2:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[B:.*]] = memref.load %b[%[[J]], %[[Z2]]] : memref<4x1xf32>
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[A]], %[[B]] fastmath<contract> : f32
// CHECK-NEXT:          memref.store %[[S]], %[[Y]][%[[I]], %[[J]], %[[K]]] : memref<?x4x5xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:      } {parallel = {{[0-9]+}} : i64}
func.func @add_broadcast(%a: tensor<?x1x5xf32>, %b: tensor<4x1xf32>) -> tensor<?x4x5xf32> {
  %0 = graph.add %a, %b : (tensor<?x1x5xf32>, tensor<4x1xf32>) -> tensor<?x4x5xf32>
  func.return %0 : tensor<?x4x5xf32>
}

// A scalar (rank-0) operand is loaded with no indices.
// CHECK-LABEL: func.func @mul_scalar
// CHECK:         %[[S:.*]] = memref.load %s[] : memref<f32>
// CHECK-NEXT:    %[[X:.*]] = memref.load %x[%{{.*}}] : memref<?xf32>
// CHECK-NEXT:    arith.mulf %[[S]], %[[X]] fastmath<contract> : f32
func.func @mul_scalar(%s: tensor<f32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.mul %s, %x : (tensor<f32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// Unsigned integers are stored signless and use the unsigned forms of the ops.
// CHECK-LABEL: func.func @unsigned(%x: memref<4xi8>, %lo: memref<i8>, %hi: memref<i8>, %d: memref<4xi8>) -> (memref<4xi8>, memref<4xi1>, memref<4xi8>)
// CHECK:         arith.maxui %{{.*}}, %{{.*}} : i8
// CHECK-NEXT:    arith.minui %{{.*}}, %{{.*}} : i8
// CHECK:         arith.cmpi ult, %{{.*}}, %{{.*}} : i8
// CHECK:         arith.divui %{{.*}}, %{{.*}} : i8
func.func @unsigned(%x: tensor<4xui8>, %lo: tensor<ui8>, %hi: tensor<ui8>, %d: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>, tensor<4xui8>) {
  %0 = graph.clip %x, %lo, %hi : (tensor<4xui8>, tensor<ui8>, tensor<ui8>) -> tensor<4xui8>
  %1 = graph.less %x, %d : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %2 = graph.div %x, %d : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  func.return %0, %1, %2 : tensor<4xui8>, tensor<4xi1>, tensor<4xui8>
}

// Casts pick the conversion from both element types (and signedness).
// CHECK-LABEL: func.func @casts
// CHECK:         arith.fptoui %{{.*}} : f32 to i8
// CHECK:         arith.uitofp %{{.*}} : i8 to f32
// CHECK:         arith.extsi %{{.*}} : i8 to i64
// CHECK:         arith.extui %{{.*}} : i1 to i32
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    arith.cmpf une, %{{.*}}, %[[Z]] : f32
// CHECK:         arith.trunci %{{.*}} : i64 to i8
// CHECK:         arith.extf %{{.*}} : f32 to f64
func.func @casts(%f: tensor<4xf32>, %u: tensor<4xui8>, %s: tensor<4xi8>, %b: tensor<4xi1>, %l: tensor<4xi64>) -> (tensor<4xui8>, tensor<4xf32>, tensor<4xi64>, tensor<4xi32>, tensor<4xi1>, tensor<4xi8>, tensor<4xf64>) {
  %0 = graph.cast %f {to = ui8} : (tensor<4xf32>) -> tensor<4xui8>
  %1 = graph.cast %u {to = f32} : (tensor<4xui8>) -> tensor<4xf32>
  %2 = graph.cast %s {to = i64} : (tensor<4xi8>) -> tensor<4xi64>
  %3 = graph.cast %b {to = i32} : (tensor<4xi1>) -> tensor<4xi32>
  %4 = graph.cast %f {to = i1} : (tensor<4xf32>) -> tensor<4xi1>
  %5 = graph.cast %l {to = i8} : (tensor<4xi64>) -> tensor<4xi8>
  %6 = graph.cast %f {to = f64} : (tensor<4xf32>) -> tensor<4xf64>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<4xui8>, tensor<4xf32>, tensor<4xi64>, tensor<4xi32>, tensor<4xi1>, tensor<4xi8>, tensor<4xf64>
}

// Where broadcasts all three operands; the condition is an i1 buffer.
// CHECK-LABEL: func.func @where
// CHECK:         %[[C:.*]] = memref.load %c[%[[J:.*]], %{{.*}}] : memref<3x1xi1>
// CHECK-NEXT:    %[[A:.*]] = memref.load %a[%[[K:.*]]] : memref<4xi64>
// CHECK-NEXT:    %[[B:.*]] = memref.load %b[%{{.*}}, %[[J]], %[[K]]] : memref<2x3x4xi64>
// CHECK-NEXT:    arith.select %[[C]], %[[A]], %[[B]] : i64
func.func @where(%c: tensor<3x1xi1>, %a: tensor<4xi64>, %b: tensor<2x3x4xi64>) -> tensor<2x3x4xi64> {
  %0 = graph.where %c, %a, %b : (tensor<3x1xi1>, tensor<4xi64>, tensor<2x3x4xi64>) -> tensor<2x3x4xi64>
  func.return %0 : tensor<2x3x4xi64>
}

// Mean of three inputs: two adds, one division by 3.
// CHECK-LABEL: func.func @mean
// CHECK:         %[[S1:.*]] = arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[S1]], %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:    %[[N:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:    arith.divf %[[S2]], %[[N]] fastmath<contract> : f32
func.func @mean(%a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<1xf32>) -> tensor<3xf32> {
  %0 = graph.mean %a, %b, %c : (tensor<3xf32>, tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// Identity is the operand's buffer: no loop of its own; the relu reads %x directly.
// CHECK-LABEL: func.func @identity
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK:         memref.load %x
// CHECK-NEXT:    arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    arith.maximumf
// CHECK-NOT:     memref.alloc
// CHECK:         func.return %[[Y]]
func.func @identity(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.identity %x : (tensor<3xf32>) -> tensor<3xf32>
  %1 = graph.relu %0 : (tensor<3xf32>) -> tensor<3xf32>
  func.return %1 : tensor<3xf32>
}

// Sign of an unsigned integer is x != 0 (it has no negative branch); IsInf with
// detect_negative = 0 compares with +inf only; Round halves to even.
// CHECK-LABEL: func.func @sign_isinf_round
// CHECK:         %[[U:.*]] = memref.load %u[%{{.*}}] : memref<4xi8>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i8
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    %[[NZ:.*]] = arith.cmpi ne, %[[U]], %[[Z]] : i8
// CHECK-NEXT:    %[[Z2:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    arith.select %[[NZ]], %[[ONE]], %[[Z2]] : i8
// CHECK:         %[[X:.*]] = memref.load %x[%{{.*}}] : memref<4xf32>
// CHECK-NEXT:    %[[INF:.*]] = arith.constant 0x7f800000 : f32
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpf oeq, %[[X]], %[[INF]] : f32
// CHECK-NEXT:    memref.store %[[EQ]]
// CHECK:         math.roundeven %{{.*}} : f32
func.func @sign_isinf_round(%x: tensor<4xf32>, %u: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>, tensor<4xf32>) {
  %0 = graph.sign %u : (tensor<4xui8>) -> tensor<4xui8>
  %1 = graph.is_inf %x {detect_negative = 0 : i64} : (tensor<4xf32>) -> tensor<4xi1>
  %2 = graph.round %x : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1, %2 : tensor<4xui8>, tensor<4xi1>, tensor<4xf32>
}

// The ops that are one math op, on a dynamic 1-D tensor: each its own loop nest, a
// parallel loop over chunks of 1024 elements (the last one cut at n), the math op on
// each element. The first nest in full, then each op's load, op and store.
// CHECK-LABEL: func.func @math_unary
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?xf32>
// CHECK-NEXT:    %tanh = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK-NEXT:    %[[R:.*]] = arith.constant 1023 : index
// CHECK-NEXT:    %[[UP:.*]] = arith.addi %[[N]], %[[R]] : index
// CHECK-NEXT:    %[[K:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    %[[CHUNKS:.*]] = arith.floordivsi %[[UP]], %[[K]] : index
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %[[CHUNKS]] step
// CHECK:           %[[LO:.*]] = arith.muli %[[C]], %{{.*}} : index
// CHECK:           %[[END:.*]] = arith.addi %[[LO]], %{{.*}} : index
// CHECK-NEXT:      %[[HI:.*]] = arith.minsi %[[END]], %[[N]] : index
// CHECK:           scf.for %[[I:.*]] = %[[LO]] to %[[HI]] step
// CHECK-NEXT:        %[[V:.*]] = memref.load %x[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[T:.*]] = math.tanh %[[V]] : f32
// CHECK-NEXT:        memref.store %[[T]], %tanh[%[[I]]] : memref<?xf32>
// CHECK:         } {parallel = 1024 : i64}
// CHECK:         %log = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.log %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %log[
// CHECK:         %sqrt = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.sqrt %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %sqrt[
// CHECK:         %erf = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.erf %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %erf[
// CHECK:         %floor = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.floor %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %floor[
// CHECK:         %ceil = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.ceil %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %ceil[
// CHECK:         %sin = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.sin %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %sin[
// CHECK:         %cos = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.cos %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %cos[
// CHECK:         %tan = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.tan %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %tan[
// CHECK:         %asin = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.asin %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %asin[
// CHECK:         %acos = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.acos %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %acos[
// CHECK:         %atan = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.atan %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %atan[
// CHECK:         %sinh = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.sinh %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %sinh[
// CHECK:         %cosh = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.cosh %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %cosh[
// CHECK:         %asinh = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.asinh %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %asinh[
// CHECK:         %acosh = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.acosh %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %acosh[
// CHECK:         %atanh = memref.alloc
// CHECK:               %[[V:.*]] = memref.load %x
// CHECK-NEXT:          %[[Y:.*]] = math.atanh %[[V]] : f32
// CHECK-NEXT:          memref.store %[[Y]], %atanh[
func.func @math_unary(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %tanh = graph.tanh %x : (tensor<?xf32>) -> tensor<?xf32>
  %log = graph.log %x : (tensor<?xf32>) -> tensor<?xf32>
  %sqrt = graph.sqrt %x : (tensor<?xf32>) -> tensor<?xf32>
  %erf = graph.erf %x : (tensor<?xf32>) -> tensor<?xf32>
  %floor = graph.floor %x : (tensor<?xf32>) -> tensor<?xf32>
  %ceil = graph.ceil %x : (tensor<?xf32>) -> tensor<?xf32>
  %sin = graph.sin %x : (tensor<?xf32>) -> tensor<?xf32>
  %cos = graph.cos %x : (tensor<?xf32>) -> tensor<?xf32>
  %tan = graph.tan %x : (tensor<?xf32>) -> tensor<?xf32>
  %asin = graph.asin %x : (tensor<?xf32>) -> tensor<?xf32>
  %acos = graph.acos %x : (tensor<?xf32>) -> tensor<?xf32>
  %atan = graph.atan %x : (tensor<?xf32>) -> tensor<?xf32>
  %sinh = graph.sinh %x : (tensor<?xf32>) -> tensor<?xf32>
  %cosh = graph.cosh %x : (tensor<?xf32>) -> tensor<?xf32>
  %asinh = graph.asinh %x : (tensor<?xf32>) -> tensor<?xf32>
  %acosh = graph.acosh %x : (tensor<?xf32>) -> tensor<?xf32>
  %atanh = graph.atanh %x : (tensor<?xf32>) -> tensor<?xf32>
  func.return %tanh, %log, %sqrt, %erf, %floor, %ceil, %sin, %cos, %tan, %asin, %acos, %atan, %sinh, %cosh, %asinh, %acosh, %atanh : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// Smooth activations, one loop nest each: Sigmoid 1 / (1 + e^-x); Softsign
// x / (1 + |x|); Softplus max(x, 0) + log1p(e^-|x|) (no overflow); Mish
// x * tanh(softplus(x)); Reciprocal 1 / x; HardSigmoid max(min(alpha x + beta, 1), 0);
// HardSwish x * hard_sigmoid(x) with 1/6 and 1/2; Gelu 0.5 x (1 + erf(x / sqrt 2)) or,
// approximate = tanh, 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
// CHECK-LABEL: func.func @activations
// CHECK:         %sigmoid = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[NEG]] : f32
// CHECK-NEXT:      %[[D:.*]] = arith.addf %[[ONE]], %[[E]] fastmath<contract> : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.divf %[[ONE]], %[[D]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[Y]], %sigmoid
// CHECK:         %softsign = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[A:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:      %[[D:.*]] = arith.addf %[[ONE]], %[[A]] fastmath<contract> : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.divf %[[X]], %[[D]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[Y]], %softsign
// CHECK:         %softplus = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[A:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:      %[[NA:.*]] = arith.negf %[[A]] : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[X]], %[[Z]] : f32
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[NA]] : f32
// CHECK-NEXT:      %[[L:.*]] = math.log1p %[[E]] : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.addf %[[M]], %[[L]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[Y]], %softplus
// CHECK:         %mish = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK:           %[[SP:.*]] = arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:      %[[T:.*]] = math.tanh %[[SP]] : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[T]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[Y]], %mish
// CHECK:         %reciprocal = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.divf %[[ONE]], %[[X]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[Y]], %reciprocal
// CHECK:         %hard_sigmoid = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[ALPHA:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT:      %[[AX:.*]] = arith.mulf %[[X]], %[[ALPHA]] fastmath<contract> : f32
// CHECK-NEXT:      %[[BETA:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[V:.*]] = arith.addf %[[AX]], %[[BETA]] fastmath<contract> : f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[LO:.*]] = arith.minimumf %[[V]], %[[ONE]] : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.maximumf %[[LO]], %[[Z]] : f32
// CHECK-NEXT:      memref.store %[[Y]], %hard_sigmoid
// CHECK:         %hard_swish = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[SIXTH:.*]] = arith.constant 0.166666672 : f32
// CHECK-NEXT:      arith.mulf %[[X]], %[[SIXTH]] fastmath<contract> : f32
// CHECK:           %[[HS:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[HS]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[Y]], %hard_swish
// CHECK:         %gelu = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[R2:.*]] = arith.constant 0.707106769 : f32
// CHECK-NEXT:      %[[XR:.*]] = arith.mulf %[[X]], %[[R2]] fastmath<contract> : f32
// CHECK-NEXT:      %[[ERF:.*]] = math.erf %[[XR]] : f32
// CHECK-NEXT:      %[[HX:.*]] = arith.mulf %[[HALF]], %[[X]] fastmath<contract> : f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ONE]], %[[ERF]] fastmath<contract> : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[HX]], %[[S]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[Y]], %gelu
// CHECK:         %gelu_tanh = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[C:.*]] = arith.constant 4.471500e-02 : f32
// CHECK-NEXT:      %[[X2:.*]] = arith.mulf %[[X]], %[[X]] fastmath<contract> : f32
// CHECK-NEXT:      %[[X3:.*]] = arith.mulf %[[X]], %[[X2]] fastmath<contract> : f32
// CHECK-NEXT:      %[[CX3:.*]] = arith.mulf %[[C]], %[[X3]] fastmath<contract> : f32
// CHECK-NEXT:      %[[IN:.*]] = arith.addf %[[X]], %[[CX3]] fastmath<contract> : f32
// CHECK-NEXT:      %[[K:.*]] = arith.constant 0.797884583 : f32
// CHECK-NEXT:      %[[KI:.*]] = arith.mulf %[[K]], %[[IN]] fastmath<contract> : f32
// CHECK-NEXT:      math.tanh %[[KI]] : f32
// CHECK:           memref.store %{{.*}}, %gelu_tanh
func.func @activations(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %sigmoid = graph.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
  %softsign = graph.softsign %x : (tensor<4xf32>) -> tensor<4xf32>
  %softplus = graph.softplus %x : (tensor<4xf32>) -> tensor<4xf32>
  %mish = graph.mish %x : (tensor<4xf32>) -> tensor<4xf32>
  %reciprocal = graph.reciprocal %x : (tensor<4xf32>) -> tensor<4xf32>
  %hard_sigmoid = graph.hard_sigmoid %x {alpha = 2.500000e-01 : f32, beta = 5.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %hard_swish = graph.hard_swish %x : (tensor<4xf32>) -> tensor<4xf32>
  %gelu = graph.gelu %x : (tensor<4xf32>) -> tensor<4xf32>
  %gelu_tanh = graph.gelu %x {approximate = "tanh"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %sigmoid, %softsign, %softplus, %mish, %reciprocal, %hard_sigmoid, %hard_swish, %gelu, %gelu_tanh : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Piecewise activations, a select on the sign test (NaN compares false and passes
// through): Elu alpha * expm1(x) where x < 0; Selu gamma * (x <= 0 ? alpha * expm1(x) :
// x); Celu alpha * expm1(x / alpha) where x < 0; LeakyRelu x * alpha where x < 0;
// ThresholdedRelu x where x > alpha, else 0; Shrink x + bias below -lambd, x - bias
// above lambd, else 0.
// CHECK-LABEL: func.func @piecewise
// CHECK:         %elu = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[A:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[EM1:.*]] = math.expm1 %[[X]] : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.mulf %[[A]], %[[EM1]] fastmath<contract> : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[Z]] : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.select %[[LT]], %[[NEG]], %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Y]], %elu
// CHECK:         %selu = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[A:.*]] = arith.constant 1.67326319 : f32
// CHECK-NEXT:      %[[EM1:.*]] = math.expm1 %[[X]] : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.mulf %[[A]], %[[EM1]] fastmath<contract> : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[LE:.*]] = arith.cmpf ole, %[[X]], %[[Z]] : f32
// CHECK-NEXT:      %[[E:.*]] = arith.select %[[LE]], %[[NEG]], %[[X]] : f32
// CHECK-NEXT:      %[[G:.*]] = arith.constant 1.05070102 : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[G]], %[[E]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[Y]], %selu
// CHECK:         %celu = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[A:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[XA:.*]] = arith.divf %[[X]], %[[A]] fastmath<contract> : f32
// CHECK-NEXT:      %[[EM1:.*]] = math.expm1 %[[XA]] : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[Z]] : f32
// CHECK-NEXT:      %[[A2:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.mulf %[[A2]], %[[EM1]] fastmath<contract> : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.select %[[LT]], %[[NEG]], %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Y]], %celu
// CHECK:         %leaky = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[Z]] : f32
// CHECK-NEXT:      %[[A:.*]] = arith.constant 1.000000e-02 : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.mulf %[[X]], %[[A]] fastmath<contract> : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.select %[[LT]], %[[NEG]], %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Y]], %leaky
// CHECK:         %thresholded = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[A:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[A]] : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.select %[[GT]], %[[X]], %[[Z]] : f32
// CHECK-NEXT:      memref.store %[[Y]], %thresholded
// CHECK:         %shrink = memref.alloc
// CHECK:           %[[X:.*]] = memref.load %x
// CHECK-NEXT:      %[[BIAS:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[L:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[L]] : f32
// CHECK-NEXT:      %[[DOWN:.*]] = arith.subf %[[X]], %[[BIAS]] fastmath<contract> : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[UPPER:.*]] = arith.select %[[GT]], %[[DOWN]], %[[Z]] : f32
// CHECK-NEXT:      %[[NL:.*]] = arith.constant -5.000000e-01 : f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[NL]] : f32
// CHECK-NEXT:      %[[UP:.*]] = arith.addf %[[X]], %[[BIAS]] fastmath<contract> : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.select %[[LT]], %[[UP]], %[[UPPER]] : f32
// CHECK-NEXT:      memref.store %[[Y]], %shrink
func.func @piecewise(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %elu = graph.elu %x {alpha = 2.000000e+00 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %selu = graph.selu %x : (tensor<4xf32>) -> tensor<4xf32>
  %celu = graph.celu %x {alpha = 2.000000e+00 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %leaky = graph.leaky_relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %thresholded = graph.thresholded_relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %shrink = graph.shrink %x {bias = 1.000000e+00 : f32, lambd = 5.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %elu, %selu, %celu, %leaky, %thresholded, %shrink : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Abs by type: math.absf on floats, math.absi on signed integers, a plain copy on
// unsigned ones (absi would read them as signed); IsNaN is an unordered self-compare.
// CHECK-LABEL: func.func @abs_is_nan
// CHECK:         %absf = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:           %[[F:.*]] = memref.load %f[%[[I:.*]]] : memref<4xf32>
// CHECK-NEXT:      %[[AF:.*]] = math.absf %[[F]] : f32
// CHECK-NEXT:      memref.store %[[AF]], %absf[%[[I]]] : memref<4xf32>
// CHECK:         %absi = memref.alloc() {alignment = 64 : i64} : memref<4xi32>
// CHECK:           %[[S:.*]] = memref.load %i[%[[I:.*]]] : memref<4xi32>
// CHECK-NEXT:      %[[AI:.*]] = math.absi %[[S]] : i32
// CHECK-NEXT:      memref.store %[[AI]], %absi[%[[I]]] : memref<4xi32>
// CHECK:         %absu = memref.alloc() {alignment = 64 : i64} : memref<4xi8>
// CHECK:           %[[U:.*]] = memref.load %u[%[[I:.*]]] : memref<4xi8>
// CHECK-NEXT:      memref.store %[[U]], %absu[%[[I]]] : memref<4xi8>
// CHECK:         %nan = memref.alloc() {alignment = 64 : i64} : memref<4xi1>
// CHECK:           %[[F:.*]] = memref.load %f[%[[I:.*]]] : memref<4xf32>
// CHECK-NEXT:      %[[UNO:.*]] = arith.cmpf uno, %[[F]], %[[F]] : f32
// CHECK-NEXT:      memref.store %[[UNO]], %nan[%[[I]]] : memref<4xi1>
func.func @abs_is_nan(%f: tensor<4xf32>, %i: tensor<4xi32>, %u: tensor<4xui8>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi1>) {
  %absf = graph.abs %f : (tensor<4xf32>) -> tensor<4xf32>
  %absi = graph.abs %i : (tensor<4xi32>) -> tensor<4xi32>
  %absu = graph.abs %u : (tensor<4xui8>) -> tensor<4xui8>
  %nan = graph.is_nan %f : (tensor<4xf32>) -> tensor<4xi1>
  func.return %absf, %absi, %absu, %nan : tensor<4xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi1>
}

// Binary ops broadcasting a row over a 2 x 3 tensor (b read at the column only): Sub,
// Pow (math.powf), Equal on floats (oeq: NaN is unequal); Greater on unsigned bytes
// compares ugt.
// CHECK-LABEL: func.func @binary
// CHECK:         %sub = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[A:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT:        %[[B:.*]] = memref.load %b[%[[J]]] : memref<3xf32>
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[A]], %[[B]] fastmath<contract> : f32
// CHECK-NEXT:        memref.store %[[D]], %sub[%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK:         %pow = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK:             %[[A:.*]] = memref.load %a
// CHECK-NEXT:        %[[B:.*]] = memref.load %b
// CHECK-NEXT:        %[[P:.*]] = math.powf %[[A]], %[[B]] : f32
// CHECK-NEXT:        memref.store %[[P]], %pow
// CHECK:         %eq = memref.alloc() {alignment = 64 : i64} : memref<2x3xi1>
// CHECK:             %[[A:.*]] = memref.load %a
// CHECK-NEXT:        %[[B:.*]] = memref.load %b
// CHECK-NEXT:        %[[E:.*]] = arith.cmpf oeq, %[[A]], %[[B]] : f32
// CHECK-NEXT:        memref.store %[[E]], %eq
// CHECK:         %gt = memref.alloc() {alignment = 64 : i64} : memref<3xi1>
// CHECK:           %[[U:.*]] = memref.load %u
// CHECK-NEXT:      %[[V:.*]] = memref.load %v
// CHECK-NEXT:      %[[G:.*]] = arith.cmpi ugt, %[[U]], %[[V]] : i8
// CHECK-NEXT:      memref.store %[[G]], %gt
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %u: tensor<3xui8>, %v: tensor<3xui8>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<3xi1>) {
  %sub = graph.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %pow = graph.pow %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %eq = graph.equal %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %gt = graph.greater %u, %v : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
  func.return %sub, %pow, %eq, %gt : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<3xi1>
}

// Sum, Max and Min of several inputs: all loaded (a size-1 input at index 0), then
// folded left; Max on floats is maximumf (NaN-propagating), Min of unsigned bytes
// minui.
// CHECK-LABEL: func.func @variadic
// CHECK:         %sum = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK:           %[[A:.*]] = memref.load %a[%[[I:.*]]] : memref<3xf32>
// CHECK-NEXT:      %[[B:.*]] = memref.load %b[%[[I]]] : memref<3xf32>
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[C:.*]] = memref.load %c[%[[Z]]] : memref<1xf32>
// CHECK-NEXT:      %[[AB:.*]] = arith.addf %[[A]], %[[B]] fastmath<contract> : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[AB]], %[[C]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[S]], %sum[%[[I]]] : memref<3xf32>
// CHECK:         %max = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK:           %[[A:.*]] = memref.load %a
// CHECK-NEXT:      %[[B:.*]] = memref.load %b
// CHECK-NEXT:      arith.constant 0 : index
// CHECK-NEXT:      %[[C:.*]] = memref.load %c
// CHECK-NEXT:      %[[AB:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[AB]], %[[C]] : f32
// CHECK-NEXT:      memref.store %[[M]], %max
// CHECK:         %min = memref.alloc() {alignment = 64 : i64} : memref<3xi8>
// CHECK:           %[[U:.*]] = memref.load %u
// CHECK-NEXT:      %[[V:.*]] = memref.load %v
// CHECK-NEXT:      %[[M:.*]] = arith.minui %[[U]], %[[V]] : i8
// CHECK-NEXT:      memref.store %[[M]], %min
func.func @variadic(%a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<1xf32>, %u: tensor<3xui8>, %v: tensor<3xui8>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xui8>) {
  %sum = graph.sum %a, %b, %c : (tensor<3xf32>, tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  %max = graph.max %a, %b, %c : (tensor<3xf32>, tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  %min = graph.min %u, %v : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  func.return %sum, %max, %min : tensor<3xf32>, tensor<3xf32>, tensor<3xui8>
}

// Dropout (inference) is its operand's buffer, as Identity: one alloc, the relu's,
// which reads %x directly.
// CHECK-LABEL: func.func @dropout
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK:         %[[X:.*]] = memref.load %x
// CHECK-NEXT:    arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    arith.maximumf %[[X]]
// CHECK-NOT:     memref.alloc
// CHECK:         func.return %[[Y]]
func.func @dropout(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.dropout %x : (tensor<3xf32>) -> tensor<3xf32>
  %1 = graph.relu %0 : (tensor<3xf32>) -> tensor<3xf32>
  func.return %1 : tensor<3xf32>
}

// RUN: infer-opt %s -p graph-fuse | filecheck %s
// RUN: infer-opt %s -p graph-fuse | infer-opt | filecheck %s

// conv(x, W, B) + z = conv(x, W, B, z) for z of the conv's type.
// CHECK-LABEL: func.func @conv_add
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %w, %b, %z : (tensor<?x2x4x4xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>, tensor<?x3x2x2xf32>) -> tensor<?x3x2x2xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @conv_add(%x: tensor<?x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %b: tensor<3xf32>, %z: tensor<?x3x2x2xf32>) -> tensor<?x3x2x2xf32> {
  %c = graph.conv %x, %w, %b : (tensor<?x2x4x4xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<?x3x2x2xf32>
  %y = graph.add %c, %z : (tensor<?x3x2x2xf32>, tensor<?x3x2x2xf32>) -> tensor<?x3x2x2xf32>
  func.return %y : tensor<?x3x2x2xf32>
}

// relu(z + conv(x, W)): the summand may come first; a missing bias becomes zeros; the
// Relu then fuses as the conv's activation (ResNet's residual block end).
// CHECK-LABEL: func.func @add_relu
// CHECK-NEXT:    %[[B:.*]] = graph.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %w, %[[B]], %z {activation = "relu"} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @add_relu(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>, %z: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %c = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %a = graph.add %z, %c : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %y = graph.relu %a : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %y : tensor<1x3x4x4xf32>
}

// A two-input Sum is an Add (opset-9 ResNets use it); with two qualifying convs the later
// one takes the earlier one's result as its summand.
// CHECK-LABEL: func.func @sum_of_convs
// CHECK-NEXT:    %[[C:.*]] = graph.conv %x, %w, %b :
// CHECK-NEXT:    %[[Y:.*]] = graph.conv %x, %w2, %b, %[[C]] {activation = "relu"} :
// CHECK-NEXT:    func.return %[[Y]]
func.func @sum_of_convs(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>, %w2: tensor<3x2x1x1xf32>, %b: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %c = graph.conv %x, %w, %b : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  %c2 = graph.conv %x, %w2, %b : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  %s = graph.sum %c, %c2 : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %y = graph.relu %s : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %y : tensor<1x3x4x4xf32>
}

// A summand broadcast along H is not Z (Z has Y's shape): the Add stays.
// CHECK-LABEL: func.func @broadcast
// CHECK:         graph.conv %x, %w :
// CHECK-NEXT:    graph.add
func.func @broadcast(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>, %z: tensor<1x3x1x4xf32>) -> tensor<1x3x4x4xf32> {
  %c = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %y = graph.add %c, %z : (tensor<1x3x4x4xf32>, tensor<1x3x1x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %y : tensor<1x3x4x4xf32>
}

// Nor when the conv has another user (it would see z added), nor after an activation
// (relu(conv) + z is not relu(conv + z)); a conv takes one summand only.
// CHECK-LABEL: func.func @not_fused
// CHECK:         %[[C:.*]] = graph.conv %x, %w :
// CHECK-NEXT:    graph.add %[[C]], %z
// CHECK:         %[[R:.*]] = graph.conv %x, %w {activation = "relu"} :
// CHECK-NEXT:    graph.add %[[R]], %z
// CHECK:         %[[S:.*]] = graph.conv %x, %w, %{{.*}}, %z :
// CHECK-NEXT:    graph.add %[[S]], %z
func.func @not_fused(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>, %z: tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %c = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %a = graph.add %c, %z : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = graph.conv %x, %w {activation = "relu"} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %ra = graph.add %r, %z : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %s = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %s1 = graph.add %s, %z : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %s2 = graph.add %s1, %z : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %c, %a, %ra, %s2 : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// A scale or BatchNormalization would scale Z too: not folded into a conv with a summand;
// a constant bias commutes with Z and is folded.
// CHECK-LABEL: func.func @after_summand
// CHECK:         %[[C:.*]] = graph.conv %x, %[[W:.*]], %{{.*}}, %z :
// CHECK-NEXT:    graph.mul %[[C]]
// CHECK:         %[[B:.*]] = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    graph.conv %x, %{{.*}}, %[[B]], %z :
// CHECK-NOT:     graph.add
func.func @after_summand(%x: tensor<1x2x4x4xf32>, %z: tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %w = graph.constant dense<1.0> : tensor<3x2x1x1xf32>
  %k = graph.constant dense<[[[2.0]], [[3.0]], [[4.0]]]> : tensor<3x1x1xf32>
  %c = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %a = graph.add %c, %z : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %m = graph.mul %a, %k : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %t = graph.constant dense<[[[1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %c2 = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %a2 = graph.add %c2, %z : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %y = graph.add %a2, %t : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
  func.return %m, %y : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

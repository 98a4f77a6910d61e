// PyTorch's channel_shuffle with a dynamic batch: x.view(b, g, c // g, h, w).transpose(1, 2)
// .contiguous().view(b, -1, h, w), sizes from x.size(). The shape chains fold into shape.of
// maps, which reveal the split/merge of C, and the three ops become one channel_shuffle.
// RUN: infer-opt %s -p shape-fusion | filecheck %s

func.func @torch_style(%x: tensor<?x4x3x3xf32>) -> tensor<?x4x3x3xf32> {
  %s = graph.shape %x : (tensor<?x4x3x3xf32>) -> tensor<4xi64>
  %i0 = graph.constant dense<0> : tensor<i64>
  %i1 = graph.constant dense<1> : tensor<i64>
  %i2 = graph.constant dense<2> : tensor<i64>
  %i3 = graph.constant dense<3> : tensor<i64>
  %b = graph.gather %s, %i0 : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %c = graph.gather %s, %i1 : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %h = graph.gather %s, %i2 : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %w = graph.gather %s, %i3 : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %two = graph.constant dense<2> : tensor<i64>
  %cg = graph.div %c, %two : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %cgc = graph.cast %cg {to = i64} : (tensor<i64>) -> tensor<i64>
  %ax = graph.constant dense<0> : tensor<1xi64>
  %bu = graph.unsqueeze %b, %ax : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %cu = graph.unsqueeze %cgc, %ax : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %hu = graph.unsqueeze %h, %ax : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %wu = graph.unsqueeze %w, %ax : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %g = graph.constant dense<2> : tensor<1xi64>
  %m1 = graph.constant dense<-1> : tensor<1xi64>
  %s1 = graph.concat %bu, %g, %cu, %hu, %wu {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xi64>
  %r1 = graph.reshape %x, %s1 : (tensor<?x4x3x3xf32>, tensor<5xi64>) -> tensor<?x?x?x?x?xf32>
  %t = graph.transpose %r1 {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<?x?x?x?x?xf32>) -> tensor<?x?x?x?x?xf32>
  %s2 = graph.concat %bu, %m1, %hu, %wu {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %r2 = graph.reshape %t, %s2 : (tensor<?x?x?x?x?xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %y = graph.relu %r2 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %z = graph.add %y, %x : (tensor<?x?x?x?xf32>, tensor<?x4x3x3xf32>) -> tensor<?x4x3x3xf32>
  func.return %z : tensor<?x4x3x3xf32>
}
// CHECK-LABEL: func.func @torch_style
// CHECK-NEXT:    %{{.*}} = graph.channel_shuffle %x {groups = 2 : i64} : (tensor<?x4x3x3xf32>) -> tensor<?x4x3x3xf32>
// CHECK-NEXT:    %{{.*}} = graph.relu %{{.*}} : (tensor<?x4x3x3xf32>) -> tensor<?x4x3x3xf32>
// CHECK-NEXT:    %z = graph.add
// CHECK-NEXT:    func.return %z

// Constant shapes (a static-batch export), with -1 in the split.
func.func @constant_shapes(%x: tensor<2x6x5x5xf32>) -> tensor<2x6x5x5xf32> {
  %s1 = graph.constant dense<[2, 3, -1, 5, 5]> : tensor<5xi64>
  %r1 = graph.reshape %x, %s1 : (tensor<2x6x5x5xf32>, tensor<5xi64>) -> tensor<2x3x2x5x5xf32>
  %t = graph.transpose %r1 {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<2x3x2x5x5xf32>) -> tensor<2x2x3x5x5xf32>
  %s2 = graph.constant dense<[2, 6, 5, 5]> : tensor<4xi64>
  %r2 = graph.reshape %t, %s2 : (tensor<2x2x3x5x5xf32>, tensor<4xi64>) -> tensor<2x6x5x5xf32>
  func.return %r2 : tensor<2x6x5x5xf32>
}
// CHECK-LABEL: func.func @constant_shapes
// CHECK-NEXT:    %r2 = graph.channel_shuffle %x {groups = 3 : i64} : (tensor<2x6x5x5xf32>) -> tensor<2x6x5x5xf32>
// CHECK-NEXT:    func.return %r2

// Not a shuffle: the transpose swaps other axes.
func.func @other_perm(%x: tensor<2x6x5x5xf32>) -> tensor<2x6x5x5xf32> {
  %s1 = graph.constant dense<[2, 3, 2, 5, 5]> : tensor<5xi64>
  %r1 = graph.reshape %x, %s1 : (tensor<2x6x5x5xf32>, tensor<5xi64>) -> tensor<2x3x2x5x5xf32>
  %t = graph.transpose %r1 {perm = array<i64: 0, 1, 2, 4, 3>} : (tensor<2x3x2x5x5xf32>) -> tensor<2x3x2x5x5xf32>
  %s2 = graph.constant dense<[2, 6, 5, 5]> : tensor<4xi64>
  %r2 = graph.reshape %t, %s2 : (tensor<2x3x2x5x5xf32>, tensor<4xi64>) -> tensor<2x6x5x5xf32>
  func.return %r2 : tensor<2x6x5x5xf32>
}
// CHECK-LABEL: func.func @other_perm
// CHECK-NOT:     graph.channel_shuffle
// CHECK:         func.return

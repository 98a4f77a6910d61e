// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Per row and gram (read from the tables): skip distances (1 for a unigram), start
// positions, a token-by-token match; each match counts into the gram's output entry. TFIDF
// then scales the counts by the weights.
// CHECK-LABEL: func.func @tfidf
// CHECK:         memref.store %{{.*}}, %y[%{{.*}}, %{{.*}}] : memref<2x3xf32>
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[D:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[D]] step %{{.*}} iter_args(%{{.*}}) -> (index)
// CHECK:               scf.for {{.*}} iter_args(%{{.*}}) -> (index)
// CHECK:                 scf.for {{.*}} iter_args(%{{.*}}) -> (i1)
// CHECK:                   %[[T:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK:                   arith.cmpi eq, %[[T]], %{{.*}} : i64
// CHECK:             memref.store %{{.*}}, %y[%[[R]], %{{.*}}] : memref<2x3xf32>
// CHECK:         arith.mulf
func.func @tfidf(%x: tensor<2x?xi32>) -> tensor<2x3xf32> {
  %pool = graph.constant dense<[2, 3, 2, 3]> : tensor<4xi64>
  %starts = graph.constant dense<[0, 1, 2]> : tensor<3xi64>
  %lengths = graph.constant dense<[1, 1, 2]> : tensor<3xi64>
  %outputs = graph.constant dense<[0, 1, 2]> : tensor<3xi64>
  %w = graph.constant dense<[1.0, 0.5, 2.0]> : tensor<3xf32>
  %y = graph.tfidf_vectorizer %x, %pool, %starts, %lengths, %outputs, %w {size = 3 : i64, max_skip = 1 : i64, mode = "TFIDF"} : (tensor<2x?xi32>, tensor<4xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

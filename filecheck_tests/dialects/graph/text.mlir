// TfIdfVectorizer parses, verifies, prints and round-trips.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @tfidf(%x: tensor<2x?xi32>) -> tensor<2x3xf32> {
    %pool = graph.constant dense<[2, 3, 2, 3]> : tensor<4xi64>
    %starts = graph.constant dense<[0, 1, 2]> : tensor<3xi64>
    %lengths = graph.constant dense<[1, 1, 2]> : tensor<3xi64>
    %outputs = graph.constant dense<[0, 1, 2]> : tensor<3xi64>
    %w = graph.constant dense<[1.0, 0.5, 2.0]> : tensor<3xf32>
    %y = graph.tfidf_vectorizer %x, %pool, %starts, %lengths, %outputs, %w {size = 3 : i64, max_skip = 1 : i64, mode = "TFIDF"} : (tensor<2x?xi32>, tensor<4xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xf32>) -> tensor<2x3xf32>
    func.return %y : tensor<2x3xf32>
  }
}

// CHECK-LABEL: func.func @tfidf
// CHECK:         %y = graph.tfidf_vectorizer %x, %pool, %starts, %lengths, %outputs, %w {size = 3 : i64, max_skip = 1 : i64, mode = "TFIDF"} : (tensor<2x?xi32>, tensor<4xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xf32>) -> tensor<2x3xf32>

// RUN: infer-opt %s -p record-signature | filecheck %s
// record-signature writes what callers of each public function see (names, types and
// dim names, as the importer wrote them; defaults input<i>/output<i>) on the module; private
// functions are not entry points.

// CHECK:      builtin.module attributes {infer.model_signature = {
// CHECK-SAME:   main = {inputs = [{name = "x", type = tensor<?x3xui8>, dims = ["N", ""]}, {name = "input1", type = tensor<2xf32>}], outputs = [{name = "y", type = tensor<?x3xui8>}, {name = "output1", type = tensor<2xf32>}]}
// CHECK-SAME:   other = {inputs = [], outputs = []}}} {
func.func @main(%x: tensor<?x3xui8> {graph.name = "x", graph.dims = ["N", ""]}, %z: tensor<2xf32>) -> (tensor<?x3xui8> {graph.name = "y"}, tensor<2xf32>) {
  func.return %x, %z : tensor<?x3xui8>, tensor<2xf32>
}
func.func @other() {
  func.return
}
func.func private @private() {
  func.return
}

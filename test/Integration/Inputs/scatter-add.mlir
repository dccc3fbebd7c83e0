// Scatter-adds (xtensor.scatter_add): a fill of the destination, then
// one kernel over the source whose threads add each element atomically.
// xtile-run's integer inputs are in [1, 4], so many writes meet at one
// element: the atomics must not lose any.
#T = #xtensor.dims<T>

// An embedding's gradient: [2, 37, 100] rows into an [11, 100] table.
func.func @embedding_grad(%g: tensor<2x37x100xf32>, %ids: tensor<2x37xi64>)
    -> tensor<11x100xf32> {
  %z = xtensor.constant dense<0.0> : tensor<11x100xf32>
  %r = xtensor.scatter_add %g into %z[%ids] axis 0
      : tensor<2x37x100xf32>, tensor<2x37xi64> -> tensor<11x100xf32>
  return %r : tensor<11x100xf32>
}

// index_add along a middle axis into an argument that is also returned:
// the fill copies it first.
func.func @index_add(%x: tensor<3x7x5xf64>, %src: tensor<3x9x5xf64>, %idx: tensor<9xi32>)
    -> (tensor<3x7x5xf64>, tensor<3x7x5xf64>) {
  %r = xtensor.scatter_add %src into %x[%idx] axis 1
      : tensor<3x9x5xf64>, tensor<9xi32> -> tensor<3x7x5xf64>
  return %r, %x : tensor<3x7x5xf64>, tensor<3x7x5xf64>
}

// Counts (bincount): a splat source, i32; the destination computed.
func.func @counts(%idx: tensor<1000xi64>, %base: tensor<6xi32>) -> tensor<6xi32> {
  %one = xtensor.constant dense<1> : tensor<1000xi32>
  %two = xtensor.constant dense<2> : tensor<6xi32>
  %d = xtensor.mul %base, %two : tensor<6xi32>
  %r = xtensor.scatter_add %one into %d[%idx] axis 0
      : tensor<1000xi32>, tensor<1000xi64> -> tensor<6xi32>
  return %r : tensor<6xi32>
}

// Over a dynamic token count: the source's rows are T.
func.func @dynamic_tokens(%g: tensor<?x64xf32, #T>, %ids: tensor<?xi64, #T>)
    -> tensor<5x64xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %z = xtensor.constant dense<0.0> : tensor<5x64xf32>
  %r = xtensor.scatter_add %g into %z[%ids] axis 0
      : tensor<?x64xf32, #T>, tensor<?xi64, #T> -> tensor<5x64xf32>
  return %r : tensor<5x64xf32>
}

// The source's and the ids' producers fuse into the adding kernel; the
// source also gathers from the destination's argument (which the fill
// copies, so the adds never read what they change).
func.func @fused_producers(%g: tensor<64x32xf32>, %ids: tensor<64xi64>, %d: tensor<7x32xf32>)
    -> tensor<7x32xf32> {
  %two = xtensor.constant dense<2.0> : tensor<64x32xf32>
  %s = xtensor.mul %g, %two : tensor<64x32xf32>
  %one = xtensor.constant dense<1> : tensor<64xi64>
  %i = xtensor.add %ids, %one : tensor<64xi64>
  %back = xtensor.gather %d[%i] axis 0 : tensor<7x32xf32>, tensor<64xi64> -> tensor<64x32xf32>
  %src = xtensor.add %s, %back : tensor<64x32xf32>
  %r = xtensor.scatter_add %src into %d[%i] axis 0
      : tensor<64x32xf32>, tensor<64xi64> -> tensor<7x32xf32>
  return %r : tensor<7x32xf32>
}

// A chain of flat scatter-adds into one buffer (grid_sample's backward
// adds its taps so): the second and third add into the result of the one
// before, without a fill, and the three become one kernel with three
// accumulating stores, its loop over 20480 sources split into 5 rows of
// 4096 (xloop-split-flat).
func.func @chain(%g: tensor<20480xf32>, %ids: tensor<20480xi64>) -> tensor<8x8xf32> {
  %z = xtensor.constant dense<0.0> : tensor<64xf32>
  %two = xtensor.constant dense<2.0> : tensor<20480xf32>
  %s1 = xtensor.mul %g, %two : tensor<20480xf32>
  %a1 = xtensor.scatter_add %s1 into %z[%ids] axis 0
      : tensor<20480xf32>, tensor<20480xi64> -> tensor<64xf32>
  %one = xtensor.constant dense<1> : tensor<20480xi64>
  %i2 = xtensor.add %ids, %one : tensor<20480xi64>
  %e = xtensor.exp %g : tensor<20480xf32>
  %a2 = xtensor.scatter_add %e into %a1[%i2] axis 0
      : tensor<20480xf32>, tensor<20480xi64> -> tensor<64xf32>
  %a3 = xtensor.scatter_add %g into %a2[%ids] axis 0
      : tensor<20480xf32>, tensor<20480xi64> -> tensor<64xf32>
  %r = xtensor.reshape %a3 : tensor<64xf32> -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

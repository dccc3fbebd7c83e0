// Reductions down the columns of row-major tensors, run as column
// schedules: blocks of adjacent outputs per program, coalesced tiles down
// the reduced dimension (test/Integration/column-reductions.test).

// A bias gradient: a sum over the tokens, ragged in both dimensions.
func.func @bias_grad(%dy: tensor<1000x300xf32>) -> tensor<300xf32> {
  %0 = xtensor.reduce sum %dy dims [0] : tensor<1000x300xf32> -> tensor<300xf32>
  return %0 : tensor<300xf32>
}

// A LayerNorm weight and bias gradient in bf16: sum(dy * xhat) and
// sum(dy) over the tokens, with the per-token statistics read down the
// steps, accumulated in f32.
func.func @norm_grads(%dy: tensor<333x96xbf16>, %x: tensor<333x96xbf16>,
                      %mean: tensor<333x1xf32>, %rstd: tensor<333x1xf32>)
    -> (tensor<96xbf16>, tensor<96xbf16>) {
  %dyf = xtensor.cast %dy : tensor<333x96xbf16> -> tensor<333x96xf32>
  %xf = xtensor.cast %x : tensor<333x96xbf16> -> tensor<333x96xf32>
  %mb = xtensor.broadcast %mean : tensor<333x1xf32> -> tensor<333x96xf32>
  %rb = xtensor.broadcast %rstd : tensor<333x1xf32> -> tensor<333x96xf32>
  %c = xtensor.sub %xf, %mb : tensor<333x96xf32>
  %xhat = xtensor.mul %c, %rb : tensor<333x96xf32>
  %p = xtensor.mul %dyf, %xhat : tensor<333x96xf32>
  %dw = xtensor.reduce sum %p dims [0] : tensor<333x96xf32> -> tensor<96xf32>
  %db = xtensor.reduce sum %dyf dims [0] : tensor<333x96xf32> -> tensor<96xf32>
  %dwb = xtensor.cast %dw : tensor<96xf32> -> tensor<96xbf16>
  %dbb = xtensor.cast %db : tensor<96xf32> -> tensor<96xbf16>
  return %dwb, %dbb : tensor<96xbf16>, tensor<96xbf16>
}

// A maximum and a variance over the batch of a [batch, channels, width]
// tensor (two folds, the second using the first's mean), one column.
func.func @batch_stats(%x: tensor<77x3x1xf32>) -> (tensor<3x1xf32>, tensor<3x1xf32>) {
  %m = xtensor.reduce max %x dims [0] : tensor<77x3x1xf32> -> tensor<3x1xf32>
  %s = xtensor.reduce sum %x dims [0] keepdim : tensor<77x3x1xf32> -> tensor<1x3x1xf32>
  %n = xtensor.constant dense<77.0> : tensor<1x3x1xf32>
  %mean = xtensor.div %s, %n : tensor<1x3x1xf32>
  %mb = xtensor.broadcast %mean : tensor<1x3x1xf32> -> tensor<77x3x1xf32>
  %d = xtensor.sub %x, %mb : tensor<77x3x1xf32>
  %d2 = xtensor.mul %d, %d : tensor<77x3x1xf32>
  %v = xtensor.reduce sum %d2 dims [0] : tensor<77x3x1xf32> -> tensor<3x1xf32>
  %nv = xtensor.constant dense<77.0> : tensor<3x1xf32>
  %var = xtensor.div %v, %nv : tensor<3x1xf32>
  return %m, %var : tensor<3x1xf32>, tensor<3x1xf32>
}

// Integer sums down the columns of a batch of matrices (an outer row).
func.func @batched_int(%x: tensor<5x40x130xi32>) -> tensor<5x130xi32> {
  %0 = xtensor.reduce sum %x dims [1] : tensor<5x40x130xi32> -> tensor<5x130xi32>
  return %0 : tensor<5x130xi32>
}

// A sum over a dynamic number of tokens (a bias gradient at any length).
func.func @dynamic_tokens(%x: tensor<?x200xf32, #xtensor.dims<T>>) -> tensor<200xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 65536>}} {
  %0 = xtensor.reduce sum %x dims [0] : tensor<?x200xf32, #xtensor.dims<T>> -> tensor<200xf32>
  return %0 : tensor<200xf32>
}

// Large enough for the cost model to choose a column schedule on its own
// (test/Integration/column-reductions.test checks it does).
func.func @wide_bias_grad(%dy: tensor<2048x1000xf32>) -> tensor<1000xf32> {
  %0 = xtensor.reduce sum %dy dims [0] : tensor<2048x1000xf32> -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
}

// A bias gradient of 768 features over a dynamic number of tokens: the
// cost model's buckets take a row schedule for the fewest tokens, a
// column schedule, then a split of the tokens over ways (a bucket's
// partials run before its combine).
func.func @dynamic_split(%x: tensor<?x768xf32, #xtensor.dims<T>>) -> tensor<768xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 65536>}} {
  %0 = xtensor.reduce sum %x dims [0] : tensor<?x768xf32, #xtensor.dims<T>> -> tensor<768xf32>
  return %0 : tensor<768xf32>
}

// Normalizations down the columns: a batch norm over the batch of [N, C]
// (the mean, the variance around it, then every element normalized: an
// elementwise loop after the folds), and a bf16 softmax over dim 0, both
// ragged.
func.func @batch_norm(%x: tensor<1000x300xf32>) -> tensor<1000x300xf32> {
  %s = xtensor.reduce sum %x dims [0] keepdim : tensor<1000x300xf32> -> tensor<1x300xf32>
  %n = xtensor.constant dense<1000.0> : tensor<1x300xf32>
  %mean = xtensor.div %s, %n : tensor<1x300xf32>
  %mb = xtensor.broadcast %mean : tensor<1x300xf32> -> tensor<1000x300xf32>
  %d = xtensor.sub %x, %mb : tensor<1000x300xf32>
  %d2 = xtensor.mul %d, %d : tensor<1000x300xf32>
  %v = xtensor.reduce sum %d2 dims [0] keepdim : tensor<1000x300xf32> -> tensor<1x300xf32>
  %var = xtensor.div %v, %n : tensor<1x300xf32>
  %eps = xtensor.constant dense<1.0e-5> : tensor<1x300xf32>
  %ve = xtensor.add %var, %eps : tensor<1x300xf32>
  %r = xtensor.rsqrt %ve : tensor<1x300xf32>
  %rb = xtensor.broadcast %r : tensor<1x300xf32> -> tensor<1000x300xf32>
  %y = xtensor.mul %d, %rb : tensor<1000x300xf32>
  return %y : tensor<1000x300xf32>
}

func.func @softmax_dim0(%x: tensor<999x130xbf16>) -> tensor<999x130xbf16> {
  %y = xtensor.softmax %x dim 0 : tensor<999x130xbf16>
  return %y : tensor<999x130xbf16>
}

// Results returned in place of an argument (xtensor.in_place), from the
// importer: a KV cache's append (index_copy_ of 3 positions, the last
// write to a position winning) read again after it; the same with the old
// cache read after the append (not written in place: computed into a
// temporary, copied into the cache after the last launch); a
// masked_fill_ (the old element where the mask is false).
// test/Integration/in-place.test runs it.
module {
  func.func @append(%arg0: tensor<2x48x16xbf16> {xtensor.in_place = 0 : i64}, %arg1: tensor<3xi64>, %arg2: tensor<2x3x16xbf16>) -> (tensor<2x48x16xbf16>, tensor<2x16xf32>) {
    %1 = xtensor.iota dim 0 : tensor<2x3x16xi64>
    %2 = xtensor.constant dense<0> : tensor<3xi64>
    %3 = xtensor.cmp lt, %arg1, %2 : tensor<3xi64>
    %4 = xtensor.constant dense<48> : tensor<3xi64>
    %5 = xtensor.add %arg1, %4 : tensor<3xi64>
    %6 = xtensor.select %3, %5, %arg1 : tensor<3xi64>
    %7 = xtensor.reshape %6 : tensor<3xi64> -> tensor<1x3x1xi64>
    %8 = xtensor.broadcast %7 : tensor<1x3x1xi64> -> tensor<2x3x16xi64>
    %9 = xtensor.iota dim 2 : tensor<2x3x16xi64>
    %10 = xtensor.constant dense<0> : tensor<3xi64>
    %11 = xtensor.cmp lt, %arg1, %10 : tensor<3xi64>
    %12 = xtensor.constant dense<48> : tensor<3xi64>
    %13 = xtensor.add %arg1, %12 : tensor<3xi64>
    %14 = xtensor.select %11, %13, %arg1 : tensor<3xi64>
    %15 = xtensor.reshape %14 : tensor<3xi64> -> tensor<1x3xi64>
    %16 = xtensor.iota dim 0 : tensor<48x3xi64>
    %17 = xtensor.broadcast %15 : tensor<1x3xi64> -> tensor<48x3xi64>
    %18 = xtensor.cmp eq, %16, %17 : tensor<48x3xi64>
    %19 = xtensor.constant dense<-1> : tensor<48x3xi64>
    %20 = xtensor.iota dim 1 : tensor<48x3xi64>
    %21 = xtensor.select %18, %20, %19 : tensor<48x3xi64>
    %22 = xtensor.reduce max %21 dims [1] : tensor<48x3xi64> -> tensor<48xi64>
    %23 = xtensor.constant dense<0> : tensor<48xi64>
    %24 = xtensor.cmp ge, %22, %23 : tensor<48xi64>
    %25 = xtensor.reshape %24 : tensor<48xi1> -> tensor<1x48x1xi1>
    %26 = xtensor.broadcast %25 : tensor<1x48x1xi1> -> tensor<2x48x16xi1>
    %27 = xtensor.constant dense<0> : tensor<48xi64>
    %28 = xtensor.max %22, %27 : tensor<48xi64>
    %29 = xtensor.gather %arg2[%28] axis 1 : tensor<2x3x16xbf16>, tensor<48xi64> -> tensor<2x48x16xbf16>
    %30 = xtensor.select %26, %29, %arg0 : tensor<2x48x16xbf16>
    %31 = xtensor.cast %30 : tensor<2x48x16xbf16> -> tensor<2x48x16xf32>
    %32 = xtensor.constant dense<2.0> : tensor<2x48x16xf32>
    %33 = xtensor.mul %31, %32 : tensor<2x48x16xf32>
    %34 = xtensor.reduce sum %33 dims [1] : tensor<2x48x16xf32> -> tensor<2x16xf32>
    return %30, %34 : tensor<2x48x16xbf16>, tensor<2x16xf32>
  }
  func.func @read_after(%arg0: tensor<2x48x16xbf16> {xtensor.in_place = 0 : i64}, %arg1: tensor<3xi64>, %arg2: tensor<2x3x16xbf16>) -> (tensor<2x48x16xbf16>, tensor<2x16xf32>) {
    %1 = xtensor.iota dim 0 : tensor<2x3x16xi64>
    %2 = xtensor.constant dense<0> : tensor<3xi64>
    %3 = xtensor.cmp lt, %arg1, %2 : tensor<3xi64>
    %4 = xtensor.constant dense<48> : tensor<3xi64>
    %5 = xtensor.add %arg1, %4 : tensor<3xi64>
    %6 = xtensor.select %3, %5, %arg1 : tensor<3xi64>
    %7 = xtensor.reshape %6 : tensor<3xi64> -> tensor<1x3x1xi64>
    %8 = xtensor.broadcast %7 : tensor<1x3x1xi64> -> tensor<2x3x16xi64>
    %9 = xtensor.iota dim 2 : tensor<2x3x16xi64>
    %10 = xtensor.constant dense<0> : tensor<3xi64>
    %11 = xtensor.cmp lt, %arg1, %10 : tensor<3xi64>
    %12 = xtensor.constant dense<48> : tensor<3xi64>
    %13 = xtensor.add %arg1, %12 : tensor<3xi64>
    %14 = xtensor.select %11, %13, %arg1 : tensor<3xi64>
    %15 = xtensor.reshape %14 : tensor<3xi64> -> tensor<1x3xi64>
    %16 = xtensor.iota dim 0 : tensor<48x3xi64>
    %17 = xtensor.broadcast %15 : tensor<1x3xi64> -> tensor<48x3xi64>
    %18 = xtensor.cmp eq, %16, %17 : tensor<48x3xi64>
    %19 = xtensor.constant dense<-1> : tensor<48x3xi64>
    %20 = xtensor.iota dim 1 : tensor<48x3xi64>
    %21 = xtensor.select %18, %20, %19 : tensor<48x3xi64>
    %22 = xtensor.reduce max %21 dims [1] : tensor<48x3xi64> -> tensor<48xi64>
    %23 = xtensor.constant dense<0> : tensor<48xi64>
    %24 = xtensor.cmp ge, %22, %23 : tensor<48xi64>
    %25 = xtensor.reshape %24 : tensor<48xi1> -> tensor<1x48x1xi1>
    %26 = xtensor.broadcast %25 : tensor<1x48x1xi1> -> tensor<2x48x16xi1>
    %27 = xtensor.constant dense<0> : tensor<48xi64>
    %28 = xtensor.max %22, %27 : tensor<48xi64>
    %29 = xtensor.gather %arg2[%28] axis 1 : tensor<2x3x16xbf16>, tensor<48xi64> -> tensor<2x48x16xbf16>
    %30 = xtensor.select %26, %29, %arg0 : tensor<2x48x16xbf16>
    %31 = xtensor.cast %arg0 : tensor<2x48x16xbf16> -> tensor<2x48x16xf32>
    %32 = xtensor.reduce sum %31 dims [1] : tensor<2x48x16xf32> -> tensor<2x16xf32>
    return %30, %32 : tensor<2x48x16xbf16>, tensor<2x16xf32>
  }
  func.func @fill(%arg0: tensor<1000xf32> {xtensor.in_place = 0 : i64}, %arg1: tensor<1000xi1>) -> (tensor<1000xf32>, tensor<f32>) {
    %1 = xtensor.constant dense<0.0> : tensor<f32>
    %2 = xtensor.broadcast %1 : tensor<f32> -> tensor<1000xf32>
    %3 = xtensor.select %arg1, %2, %arg0 : tensor<1000xf32>
    %4 = xtensor.reduce sum %3 dims [0] : tensor<1000xf32> -> tensor<f32>
    return %3, %4 : tensor<1000xf32>, tensor<f32>
  }
}

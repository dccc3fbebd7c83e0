// Elementwise updates returned in place of an argument, from the
// importer: x.mul_(2); masked_fill_ then add_ (the new value reads the old
// one); a momentum step updating two arguments in one kernel (m, and p
// from the new m, which the kernel computes once and writes beside p).
// Each is written into the argument's buffer, read element by element
// before the element is written (xtile.may_alias).
// test/Integration/in-place.test runs it.
module {
  func.func @scale(%arg0: tensor<1000xf32> {xtensor.in_place = 0 : i64}) -> (tensor<1000xf32>, tensor<f32>) {
    %1 = xtensor.constant dense<2.0> : tensor<1000xf32>
    %2 = xtensor.mul %arg0, %1 : tensor<1000xf32>
    %3 = xtensor.reduce sum %2 dims [0] : tensor<1000xf32> -> tensor<f32>
    return %2, %3 : tensor<1000xf32>, tensor<f32>
  }
  func.func @fill_add(%arg0: tensor<1000xf32> {xtensor.in_place = 0 : i64}, %arg1: tensor<1000xi1>) -> (tensor<1000xf32>, tensor<f32>) {
    %1 = xtensor.constant dense<1.0> : tensor<f32>
    %2 = xtensor.broadcast %1 : tensor<f32> -> tensor<1000xf32>
    %3 = xtensor.select %arg1, %2, %arg0 : tensor<1000xf32>
    %4 = xtensor.constant dense<1.0> : tensor<1000xf32>
    %5 = xtensor.add %3, %4 : tensor<1000xf32>
    %6 = xtensor.reduce sum %5 dims [0] : tensor<1000xf32> -> tensor<f32>
    return %5, %6 : tensor<1000xf32>, tensor<f32>
  }
  func.func @momentum(%arg0: tensor<777xf32> {xtensor.in_place = 0 : i64}, %arg1: tensor<777xf32> {xtensor.in_place = 1 : i64}, %arg2: tensor<777xf32>) -> (tensor<777xf32>, tensor<777xf32>, tensor<f32>) {
    %1 = xtensor.constant dense<0.9> : tensor<777xf32>
    %2 = xtensor.mul %arg1, %1 : tensor<777xf32>
    %3 = xtensor.constant dense<0.1> : tensor<777xf32>
    %4 = xtensor.mul %arg2, %3 : tensor<777xf32>
    %5 = xtensor.add %2, %4 : tensor<777xf32>
    %6 = xtensor.constant dense<-0.01> : tensor<777xf32>
    %7 = xtensor.mul %5, %6 : tensor<777xf32>
    %8 = xtensor.add %arg0, %7 : tensor<777xf32>
    %9 = xtensor.reduce sum %8 dims [0] : tensor<777xf32> -> tensor<f32>
    return %8, %5, %9 : tensor<777xf32>, tensor<777xf32>, tensor<f32>
  }
}

// 8- and 16-bit integers at a function's edge: storage types, cast to i32
// to compute (sign-extended; truncated back to their low bits), moved as
// they are (test/Integration/narrow-integers.test).
func.func @bytes(%x: tensor<4x33xi8>, %y: tensor<4x33xi16>) -> (tensor<4x33xi8>, tensor<4x33xi16>, tensor<4x33xi32>) {
  %a = xtensor.cast %x : tensor<4x33xi8> -> tensor<4x33xi32>
  %b = xtensor.cast %y : tensor<4x33xi16> -> tensor<4x33xi32>
  // Negative and past 8 bits: 100 - 97 * a + b.
  %c97 = xtensor.constant dense<97> : tensor<4x33xi32>
  %c100 = xtensor.constant dense<100> : tensor<4x33xi32>
  %m = xtensor.mul %a, %c97 : tensor<4x33xi32>
  %d = xtensor.sub %c100, %m : tensor<4x33xi32>
  %s = xtensor.add %d, %b : tensor<4x33xi32>
  %t8 = xtensor.cast %s : tensor<4x33xi32> -> tensor<4x33xi8>
  %m16 = xtensor.mul %s, %m : tensor<4x33xi32>
  %t16 = xtensor.cast %m16 : tensor<4x33xi32> -> tensor<4x33xi16>
  return %t8, %t16, %s : tensor<4x33xi8>, tensor<4x33xi16>, tensor<4x33xi32>
}

// Moved in their storage types: a transpose and a slice of bytes, and
// the bytes of a float (a cast through i32, as a quantized image's).
func.func @moved(%x: tensor<5x7xi8>, %f: tensor<5x7xf32>) -> (tensor<7x5xi8>, tensor<5x3xi8>, tensor<5x7xf32>) {
  %t = xtensor.transpose %x perm [1, 0] : tensor<5x7xi8> -> tensor<7x5xi8>
  %s = xtensor.slice %x starts [0, 2] limits [5, 5] strides [1, 1] : tensor<5x7xi8> -> tensor<5x3xi8>
  %i = xtensor.cast %x : tensor<5x7xi8> -> tensor<5x7xi32>
  %w = xtensor.cast %i : tensor<5x7xi32> -> tensor<5x7xf32>
  %y = xtensor.mul %w, %f : tensor<5x7xf32>
  return %t, %s, %y : tensor<7x5xi8>, tensor<5x3xi8>, tensor<5x7xf32>
}

// Every movement op on bytes: select, concat, gather, pad (by a negative
// byte), transpose, reshape, broadcast, and a constant.
func.func @moves(%x: tensor<4x6xi8>, %c: tensor<4x6xi1>, %i: tensor<3xi64>, %h: tensor<4x6xi16>) -> (tensor<4x6xi8>, tensor<3x6xi8>, tensor<8x6xi8>, tensor<6x8xi8>, tensor<2x4x6xi8>, tensor<24xi16>, tensor<4x6xi8>, tensor<6x6xi8>) {
  %s = xtensor.select %c, %x, %x : tensor<4x6xi8>
  %cc = xtensor.concat %x, %s dim 0 : tensor<4x6xi8>, tensor<4x6xi8> -> tensor<8x6xi8>
  %g = xtensor.gather %cc[%i] axis 0 : tensor<8x6xi8>, tensor<3xi64> -> tensor<3x6xi8>
  %p = xtensor.pad %x low [1, 0] high [1, 0] value -7 : i8 : tensor<4x6xi8> -> tensor<6x6xi8>
  %t = xtensor.transpose %cc perm [1, 0] : tensor<8x6xi8> -> tensor<6x8xi8>
  %r = xtensor.reshape %x : tensor<4x6xi8> -> tensor<1x4x6xi8>
  %b = xtensor.broadcast %r : tensor<1x4x6xi8> -> tensor<2x4x6xi8>
  %f = xtensor.reshape %h : tensor<4x6xi16> -> tensor<24xi16>
  %k = xtensor.constant dense<5> : tensor<4x6xi8>
  return %s, %g, %cc, %t, %b, %f, %k, %p : tensor<4x6xi8>, tensor<3x6xi8>, tensor<8x6xi8>, tensor<6x8xi8>, tensor<2x4x6xi8>, tensor<24xi16>, tensor<4x6xi8>, tensor<6x6xi8>
}

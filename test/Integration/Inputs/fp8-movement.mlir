// fp8 tensors moved without a cast: transposed, broadcast, sliced, padded
// with an fp8 value, concatenated, gathered, selected and reshaped, over
// ragged sizes, then widened to f32 (random inputs rounded to fp8).
func.func @movement(%x: tensor<37x130xf8E4M3FN>, %y: tensor<130xf8E4M3FN>,
                    %idx: tensor<9xi64>, %m: tensor<130x37xi1>)
    -> (tensor<130x37xf32>, tensor<130x37xf8E4M3FN>, tensor<40x131xf8E4M3FN>,
        tensor<9x130xf8E4M3FN>, tensor<74x65xf8E4M3FN>) {
  %t = xtensor.transpose %x perm [1, 0] : tensor<37x130xf8E4M3FN> -> tensor<130x37xf8E4M3FN>
  %tf = xtensor.cast %t : tensor<130x37xf8E4M3FN> -> tensor<130x37xf32>
  %yr = xtensor.reshape %y : tensor<130xf8E4M3FN> -> tensor<130x1xf8E4M3FN>
  %yb = xtensor.broadcast %yr : tensor<130x1xf8E4M3FN> -> tensor<130x37xf8E4M3FN>
  %s = xtensor.select %m, %t, %yb : tensor<130x37xf8E4M3FN>
  %p = xtensor.pad %x low [1, 0] high [2, 1] value -4.480000e+02 : f8E4M3FN : tensor<37x130xf8E4M3FN> -> tensor<40x131xf8E4M3FN>
  %g = xtensor.gather %x[%idx] axis 0 : tensor<37x130xf8E4M3FN>, tensor<9xi64> -> tensor<9x130xf8E4M3FN>
  %c = xtensor.concat %x, %x dim 0 : tensor<37x130xf8E4M3FN>, tensor<37x130xf8E4M3FN> -> tensor<74x130xf8E4M3FN>
  %sl = xtensor.slice %c starts [0, 1] limits [74, 130] strides [1, 2] : tensor<74x130xf8E4M3FN> -> tensor<74x65xf8E4M3FN>
  return %tf, %s, %p, %g, %sl : tensor<130x37xf32>, tensor<130x37xf8E4M3FN>, tensor<40x131xf8E4M3FN>, tensor<9x130xf8E4M3FN>, tensor<74x65xf8E4M3FN>
}

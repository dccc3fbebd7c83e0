// Programs as linalg-on-tensors front ends write them, for
// test/Integration/linalg-programs.test: a softmax (reductions into fills,
// broadcasts through indexing maps) and a bf16 MLP block (x W^T
// contractions as linalg.generic, bias, tanh-GELU, residual).
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x1000xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x1000xf32>) outs(%f1 : tensor<64xf32>) {
  ^bb0(%a: f32, %m: f32):
    %r = arith.maximumf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %ex = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<64x1000xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1000xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<64x1000xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<64x1000xf32>) outs(%f2 : tensor<64xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<64x1000xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1000xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x1000xf32>
  return %y : tensor<64x1000xf32>
}

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @mlp(%x: tensor<96x128xbf16>, %w1: tensor<256x128xbf16>, %b1: tensor<256xbf16>, %w2: tensor<128x256xbf16>) -> tensor<96x128xbf16> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<96x256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<96x256xf32>) -> tensor<96x256xf32>
  %h = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w1 : tensor<96x128xbf16>, tensor<256x128xbf16>) outs(%z1 : tensor<96x256xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<96x256xf32>
  // bias, tanh-approximated GELU (0.5 h (1 + tanh(h))), round to bf16
  %e2 = tensor.empty() : tensor<96x256xbf16>
  %g = linalg.generic {indexing_maps = [#rows, #col, #rows], iterator_types = ["parallel", "parallel"]} ins(%h, %b1 : tensor<96x256xf32>, tensor<256xbf16>) outs(%e2 : tensor<96x256xbf16>) {
  ^bb0(%a: f32, %b: bf16, %o: bf16):
    %be = arith.extf %b : bf16 to f32
    %s = arith.addf %a, %be : f32
    %t = math.tanh %s : f32
    %u = arith.addf %t, %one : f32
    %v = arith.mulf %s, %u : f32
    %w = arith.mulf %v, %half : f32
    %r = arith.truncf %w : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<96x256xbf16>
  %e3 = tensor.empty() : tensor<96x128xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<96x128xf32>) -> tensor<96x128xf32>
  %y = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g, %w2 : tensor<96x256xbf16>, tensor<128x256xbf16>) outs(%z3 : tensor<96x128xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<96x128xf32>
  // residual add in f32, rounded once
  %e4 = tensor.empty() : tensor<96x128xbf16>
  %r = linalg.generic {indexing_maps = [#rows, #rows, #rows], iterator_types = ["parallel", "parallel"]} ins(%y, %x : tensor<96x128xf32>, tensor<96x128xbf16>) outs(%e4 : tensor<96x128xbf16>) {
  ^bb0(%a: f32, %b: bf16, %o: bf16):
    %be = arith.extf %b : bf16 to f32
    %s = arith.addf %a, %be : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<96x128xbf16>
  return %r : tensor<96x128xbf16>
}

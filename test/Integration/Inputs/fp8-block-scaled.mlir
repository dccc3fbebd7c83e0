// Block-scaled fp8 products (DeepSeek-V3's): activations [M, K] with a
// scale per row and block of 128 k, a weight [N, K] with a scale per block
// of 128 x 128 (@blocks) or per column and block of k (@columns), as
// torch._scaled_mm's importer writes them: a matmul batched over the K
// blocks, scaled, summed over the blocks. Loop IR fuses them into one
// fold over blocks around each block's contraction; Tile IR scales each K
// step's sum into the total. Ragged M and N, a decode-sized M, a K loop of
// 8 blocks (longer than any pipeline); the block's sum scaled by one
// factor then the other (@blocks), or by their product (@columns, as the
// importer writes it).
func.func @blocks(%x: tensor<70x384xf8E4M3FN>, %w: tensor<136x384xf8E4M3FN>, %sx: tensor<70x3xf32>, %sw: tensor<3x2xf32>) -> tensor<70x136xf32> {
  %x3 = xtensor.reshape %x : tensor<70x384xf8E4M3FN> -> tensor<70x3x128xf8E4M3FN>
  %xt = xtensor.transpose %x3 perm [1, 0, 2] : tensor<70x3x128xf8E4M3FN> -> tensor<3x70x128xf8E4M3FN>
  %w3 = xtensor.reshape %w : tensor<136x384xf8E4M3FN> -> tensor<136x3x128xf8E4M3FN>
  %wt = xtensor.transpose %w3 perm [1, 2, 0] : tensor<136x3x128xf8E4M3FN> -> tensor<3x128x136xf8E4M3FN>
  %p = xtensor.matmul %xt, %wt : tensor<3x70x128xf8E4M3FN>, tensor<3x128x136xf8E4M3FN> -> tensor<3x70x136xf32>
  %sxt = xtensor.transpose %sx perm [1, 0] : tensor<70x3xf32> -> tensor<3x70xf32>
  %sx3 = xtensor.reshape %sxt : tensor<3x70xf32> -> tensor<3x70x1xf32>
  %sxb = xtensor.broadcast %sx3 : tensor<3x70x1xf32> -> tensor<3x70x136xf32>
  %sw3 = xtensor.reshape %sw : tensor<3x2xf32> -> tensor<3x2x1xf32>
  %swb = xtensor.broadcast %sw3 : tensor<3x2x1xf32> -> tensor<3x2x128xf32>
  %swr = xtensor.reshape %swb : tensor<3x2x128xf32> -> tensor<3x256xf32>
  %sws = xtensor.slice %swr starts [0, 0] limits [3, 136] strides [1, 1] : tensor<3x256xf32> -> tensor<3x136xf32>
  %sw4 = xtensor.reshape %sws : tensor<3x136xf32> -> tensor<3x1x136xf32>
  %swc = xtensor.broadcast %sw4 : tensor<3x1x136xf32> -> tensor<3x70x136xf32>
  %m1 = xtensor.mul %p, %sxb : tensor<3x70x136xf32>
  %m2 = xtensor.mul %m1, %swc : tensor<3x70x136xf32>
  %r = xtensor.reduce sum %m2 dims [0] : tensor<3x70x136xf32> -> tensor<70x136xf32>
  return %r : tensor<70x136xf32>
}
func.func @columns(%x: tensor<5x1024xf8E4M3FN>, %w: tensor<96x1024xf8E4M3FN>, %sx: tensor<5x8xf32>, %sw: tensor<8x96xf32>) -> tensor<5x96xbf16> {
  %x3 = xtensor.reshape %x : tensor<5x1024xf8E4M3FN> -> tensor<5x8x128xf8E4M3FN>
  %xt = xtensor.transpose %x3 perm [1, 0, 2] : tensor<5x8x128xf8E4M3FN> -> tensor<8x5x128xf8E4M3FN>
  %w3 = xtensor.reshape %w : tensor<96x1024xf8E4M3FN> -> tensor<96x8x128xf8E4M3FN>
  %wt = xtensor.transpose %w3 perm [1, 2, 0] : tensor<96x8x128xf8E4M3FN> -> tensor<8x128x96xf8E4M3FN>
  %p = xtensor.matmul %xt, %wt : tensor<8x5x128xf8E4M3FN>, tensor<8x128x96xf8E4M3FN> -> tensor<8x5x96xf32>
  %sxt = xtensor.transpose %sx perm [1, 0] : tensor<5x8xf32> -> tensor<8x5xf32>
  %sx3 = xtensor.reshape %sxt : tensor<8x5xf32> -> tensor<8x5x1xf32>
  %sxb = xtensor.broadcast %sx3 : tensor<8x5x1xf32> -> tensor<8x5x96xf32>
  %sw3 = xtensor.reshape %sw : tensor<8x96xf32> -> tensor<8x1x96xf32>
  %swb = xtensor.broadcast %sw3 : tensor<8x1x96xf32> -> tensor<8x5x96xf32>
  %m1 = xtensor.mul %sxb, %swb : tensor<8x5x96xf32>
  %m2 = xtensor.mul %p, %m1 : tensor<8x5x96xf32>
  %r = xtensor.reduce sum %m2 dims [0] : tensor<8x5x96xf32> -> tensor<5x96xf32>
  %o = xtensor.cast %r : tensor<5x96xf32> -> tensor<5x96xbf16>
  return %o : tensor<5x96xbf16>
}
// DeepSeek-V3's MLP: gate and up projections of the same activation, each
// block-scaled, under SiLU(gate) * up: one kernel, the two sums over
// blocks side by side in one K loop.
func.func @swiglu(%x: tensor<70x384xf8E4M3FN>, %wg: tensor<136x384xf8E4M3FN>, %wu: tensor<136x384xf8E4M3FN>, %sx: tensor<70x3xf32>, %sg: tensor<3x136xf32>, %su: tensor<3x136xf32>) -> tensor<70x136xbf16> {
  %x3 = xtensor.reshape %x : tensor<70x384xf8E4M3FN> -> tensor<70x3x128xf8E4M3FN>
  %xt = xtensor.transpose %x3 perm [1, 0, 2] : tensor<70x3x128xf8E4M3FN> -> tensor<3x70x128xf8E4M3FN>
  %sxt = xtensor.transpose %sx perm [1, 0] : tensor<70x3xf32> -> tensor<3x70xf32>
  %sx3 = xtensor.reshape %sxt : tensor<3x70xf32> -> tensor<3x70x1xf32>
  %sxb = xtensor.broadcast %sx3 : tensor<3x70x1xf32> -> tensor<3x70x136xf32>
  %gw3 = xtensor.reshape %wg : tensor<136x384xf8E4M3FN> -> tensor<136x3x128xf8E4M3FN>
  %gwt = xtensor.transpose %gw3 perm [1, 2, 0] : tensor<136x3x128xf8E4M3FN> -> tensor<3x128x136xf8E4M3FN>
  %gp = xtensor.matmul %xt, %gwt : tensor<3x70x128xf8E4M3FN>, tensor<3x128x136xf8E4M3FN> -> tensor<3x70x136xf32>
  %gs3 = xtensor.reshape %sg : tensor<3x136xf32> -> tensor<3x1x136xf32>
  %gsb = xtensor.broadcast %gs3 : tensor<3x1x136xf32> -> tensor<3x70x136xf32>
  %gs = xtensor.mul %sxb, %gsb : tensor<3x70x136xf32>
  %gm = xtensor.mul %gp, %gs : tensor<3x70x136xf32>
  %gr = xtensor.reduce sum %gm dims [0] : tensor<3x70x136xf32> -> tensor<70x136xf32>
  %uw3 = xtensor.reshape %wu : tensor<136x384xf8E4M3FN> -> tensor<136x3x128xf8E4M3FN>
  %uwt = xtensor.transpose %uw3 perm [1, 2, 0] : tensor<136x3x128xf8E4M3FN> -> tensor<3x128x136xf8E4M3FN>
  %up = xtensor.matmul %xt, %uwt : tensor<3x70x128xf8E4M3FN>, tensor<3x128x136xf8E4M3FN> -> tensor<3x70x136xf32>
  %us3 = xtensor.reshape %su : tensor<3x136xf32> -> tensor<3x1x136xf32>
  %usb = xtensor.broadcast %us3 : tensor<3x1x136xf32> -> tensor<3x70x136xf32>
  %us = xtensor.mul %sxb, %usb : tensor<3x70x136xf32>
  %um = xtensor.mul %up, %us : tensor<3x70x136xf32>
  %ur = xtensor.reduce sum %um dims [0] : tensor<3x70x136xf32> -> tensor<70x136xf32>
  %a = xtensor.silu %gr : tensor<70x136xf32>
  %h = xtensor.mul %a, %ur : tensor<70x136xf32>
  %o = xtensor.cast %h : tensor<70x136xf32> -> tensor<70x136xbf16>
  return %o : tensor<70x136xbf16>
}

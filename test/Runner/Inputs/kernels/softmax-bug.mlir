// softmax.mlir with a planted bug: the row sum is off by 1e-3 (a relative
// error of about 1e-4 on every output), which the softmax problem's f32
// tolerance must catch.
func.func @softmax(%X: !tile.view<?x?xf32> {tile.name = "X"},
                   %Y: !tile.view<?x?xf32> {tile.name = "Y"})
    attributes {tile.kernel = {num_warps = 4 : i32, grid = ["X.0", "1", "1"],
                               requires = ["X.1 <= 128"]}} {
  %c0 = arith.constant 0 : i32
  %row = tile.block_id x
  %x = tile.load %X[%row, %c0] shape [1, 128] padding neg_inf
      : !tile.view<?x?xf32> -> tensor<1x128xf32>
  %m = tile.reduce %x max axis 1 keepdims : tensor<1x128xf32> -> tensor<1x1xf32>
  %mb = tile.broadcast %m shape [1, 128] : tensor<1x1xf32> -> tensor<1x128xf32>
  %d = arith.subf %x, %mb : tensor<1x128xf32>
  %log2e = tile.full 1.44269504088896340736 shape [1, 128] : tensor<1x128xf32>
  %t = arith.mulf %d, %log2e : tensor<1x128xf32>
  %e = tile.exp2 %t : tensor<1x128xf32>
  %s = tile.reduce %e sum axis 1 keepdims : tensor<1x128xf32> -> tensor<1x1xf32>
  %bug = tile.full 0.001 shape [1, 1] : tensor<1x1xf32>
  %s2 = arith.addf %s, %bug : tensor<1x1xf32>
  %sb = tile.broadcast %s2 shape [1, 128] : tensor<1x1xf32> -> tensor<1x128xf32>
  %y = tile.div %e, %sb : tensor<1x128xf32>
  tile.store %y, %Y[%row, %c0] : tensor<1x128xf32>, !tile.view<?x?xf32>
  return
}

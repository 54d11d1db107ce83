// A small row softmax with the ABI of kernels/softmax.mlir (BRIEF contract
// C5): a fixture for tile-runner's softmax problem on the cpu backend, not
// the repository's kernel. One row per block, the whole row in one tile.
func.func @softmax(%X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
                   %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"})
    attributes {
      tile.kernel = {num_warps = 4 : i32, grid = ["X.0", "1", "1"],
                     requires = ["X.1 <= BLOCK_N", "Y.0 == X.0", "Y.1 == X.1"]},
      tile.params = {BLOCK_N = 128 : i32, DTYPE = f32}} {
  %c0 = arith.constant 0 : i32
  %row = tile.block_id x
  %x = tile.load %X[%row, %c0] shape [1, BLOCK_N] padding neg_inf
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<1x?x!tile.dtype<"DTYPE">>
  %xf = tile.astype %x : tensor<1x?x!tile.dtype<"DTYPE">> -> tensor<1x?xf32>
  %m = tile.reduce %xf max axis 1 keepdims : tensor<1x?xf32> -> tensor<1x1xf32>
  %mb = tile.broadcast %m shape [1, BLOCK_N] : tensor<1x1xf32> -> tensor<1x?xf32>
  %d = arith.subf %xf, %mb : tensor<1x?xf32>
  %log2e = tile.full 1.44269504088896340736 shape [1, BLOCK_N] : tensor<1x?xf32>
  %t = arith.mulf %d, %log2e : tensor<1x?xf32>
  %e = tile.exp2 %t : tensor<1x?xf32>
  %s = tile.reduce %e sum axis 1 keepdims : tensor<1x?xf32> -> tensor<1x1xf32>
  %sb = tile.broadcast %s shape [1, BLOCK_N] : tensor<1x1xf32> -> tensor<1x?xf32>
  %y = tile.div %e, %sb : tensor<1x?xf32>
  %yo = tile.astype %y : tensor<1x?xf32> -> tensor<1x?x!tile.dtype<"DTYPE">>
  tile.store %yo, %Y[%row, %c0]
      : tensor<1x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  return
}

// Row softmax with whole rows in registers (a stand-in for
// kernels/softmax.mlir): no tensor core, a blocked layout from the load,
// reductions along the row (within a warp, or across warps for one long
// row), masked columns read -inf.
func.func @softmax(%X: !tile.view<?x?xf16> {tile.name = "X"},
                   %Y: !tile.view<?x?xf16> {tile.name = "Y"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(X.0, BLOCK_M)", "1", "1"]},
                tile.params = {BLOCK_M = 4 : i32, BLOCK_N = 1024 : i32}} {
  %c0 = arith.constant 0 : i32
  %bid = tile.block_id x
  %x = tile.load %X[%bid, %c0] shape [BLOCK_M, BLOCK_N] padding neg_inf
      : !tile.view<?x?xf16> -> tensor<?x?xf16>
  %xf = tile.astype %x : tensor<?x?xf16> -> tensor<?x?xf32>
  %m = tile.reduce %xf max axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
  %mb = tile.broadcast %m shape [BLOCK_M, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
  %d = arith.subf %xf, %mb : tensor<?x?xf32>
  %e = math.exp %d : tensor<?x?xf32>
  %s = tile.reduce %e sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
  %sb = tile.broadcast %s shape [BLOCK_M, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
  %y = tile.div %e, %sb : tensor<?x?xf32>
  %yh = tile.astype %y : tensor<?x?xf32> -> tensor<?x?xf16>
  tile.store %yh, %Y[%bid, %c0] : tensor<?x?xf16>, !tile.view<?x?xf16>
  return
}

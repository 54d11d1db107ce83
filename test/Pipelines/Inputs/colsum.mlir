// Column sums S[j] = sum_i X[i, j]: a loop over row blocks carrying the
// partial sums, a reduction along axis 0 (across the warps that split the
// rows) without keepdims, a 1-d store.
func.func @colsum(%X: !tile.view<?x?xf32> {tile.name = "X"},
                  %S: !tile.view<?xf32> {tile.name = "S"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(X.1, BLOCK_N)", "1", "1"]},
                tile.params = {BLOCK_M = 32 : i32, BLOCK_N = 64 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bid = tile.block_id x
  %m = tile.dim %X[0] : !tile.view<?x?xf32>
  %bm = tile.param "BLOCK_M" : i32
  %steps = arith.ceildivsi %m, %bm : i32
  %init = tile.full 0.0 shape [BLOCK_N] : tensor<?xf32>
  %sum = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %init)
      -> (tensor<?xf32>) : i32 {
    %x = tile.load %X[%i, %bid] shape [BLOCK_M, BLOCK_N]
        : !tile.view<?x?xf32> -> tensor<?x?xf32>
    %part = tile.reduce %x sum axis 0 : tensor<?x?xf32> -> tensor<?xf32>
    %next = arith.addf %acc, %part : tensor<?xf32>
    scf.yield %next : tensor<?xf32>
  }
  tile.store %sum, %S[%bid] : tensor<?xf32>, !tile.view<?xf32>
  return
}

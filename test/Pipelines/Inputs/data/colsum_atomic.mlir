// Column sums S[j] += sum_i X[i, j], split over rows as well as columns:
// each block reduces a [BLOCK_M, BLOCK_N] tile along axis 0 and adds the
// partial sums into S with one atomic add per column (S starts at zero).
func.func @colsum_atomic(%X: !tile.view<?x?xf32> {tile.name = "X"},
                         %S: !tile.view<?xf32> {tile.name = "S"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(X.1, BLOCK_N)", "cdiv(X.0, BLOCK_M)", "1"]},
                tile.params = {BLOCK_M = 32 : i32, BLOCK_N = 64 : i32}} {
  %bx = tile.block_id x
  %by = tile.block_id y
  %x = tile.load %X[%by, %bx] shape [BLOCK_M, BLOCK_N]
      : !tile.view<?x?xf32> -> tensor<?x?xf32>
  %part = tile.reduce %x sum axis 0 : tensor<?x?xf32> -> tensor<?xf32>
  tile.atomic add %part, %S[%bx] : tensor<?xf32>, !tile.view<?xf32>
  return
}

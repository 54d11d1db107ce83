// Y[i, j] = alpha * X[i, j] + B[j]: a row-major [M, N] matrix scaled and a
// bias row added, f32 math whatever the storage type. Each block computes
// one [ROWS, BLOCK_N] tile; the grid covers M and N.
func.func @scale_bias(
    %X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
    %B: !tile.view<?x!tile.dtype<"DTYPE">> {tile.name = "B"},
    %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"},
    %alpha: f32 {tile.name = "alpha"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(X.0, ROWS)", "cdiv(X.1, BLOCK_N)", "1"],
                     requires = ["B.0 == X.1", "Y.0 == X.0 && Y.1 == X.1"]},
      tile.params = {ROWS = 16 : i32, BLOCK_N = 128 : i32, DTYPE = f16}} {
  %i = tile.block_id x
  %j = tile.block_id y
  // Rows and columns past the edges load as 0 and are not stored.
  %x_lp = tile.load %X[%i, %j] shape [ROWS, BLOCK_N]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
  %b_lp = tile.load %B[%j] shape [BLOCK_N]
      : !tile.view<?x!tile.dtype<"DTYPE">> -> tensor<?x!tile.dtype<"DTYPE">>
  %b = tile.astype %b_lp : tensor<?x!tile.dtype<"DTYPE">> -> tensor<?xf32>
  // The bias as a [1, BLOCK_N] row, broadcast over the rows.
  %b_row = tile.reshape %b shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
  %b_t = tile.broadcast %b_row shape [ROWS, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>
  %a_t = tile.splat %alpha shape [ROWS, BLOCK_N] : f32 -> tensor<?x?xf32>
  %ax = arith.mulf %a_t, %x : tensor<?x?xf32>
  %y = arith.addf %ax, %b_t : tensor<?x?xf32>
  %y_lp = tile.astype %y : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
  tile.store %y_lp, %Y[%i, %j]
      : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  return
}

// LayerNorm forward over rows (a stand-in for kernels/layernorm.mlir):
// statistics in f32, 1-d weight and bias broadcast over the rows, 1-d mean
// and rstd stored per row. Columns past N are masked out of the variance.
func.func @layernorm(%X: !tile.view<?x?xf16> {tile.name = "X"},
                     %W: !tile.view<?xf16> {tile.name = "W"},
                     %B: !tile.view<?xf16> {tile.name = "B"},
                     %Y: !tile.view<?x?xf16> {tile.name = "Y"},
                     %Mean: !tile.view<?xf32> {tile.name = "Mean"},
                     %Rstd: !tile.view<?xf32> {tile.name = "Rstd"},
                     %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(X.0, BLOCK_M)", "1", "1"]},
                tile.params = {BLOCK_M = 4 : i32, BLOCK_N = 1024 : i32}} {
  %c0 = arith.constant 0 : i32
  %bid = tile.block_id x
  %n = tile.dim %X[1] : !tile.view<?x?xf16>
  %nf = arith.sitofp %n : i32 to f32
  %x = tile.load %X[%bid, %c0] shape [BLOCK_M, BLOCK_N]
      : !tile.view<?x?xf16> -> tensor<?x?xf16>
  %xf = tile.astype %x : tensor<?x?xf16> -> tensor<?x?xf32>
  %count = tile.splat %nf shape [BLOCK_M, 1] : f32 -> tensor<?x1xf32>
  %sum = tile.reduce %xf sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
  %mean = arith.divf %sum, %count : tensor<?x1xf32>
  %mean_b = tile.broadcast %mean shape [BLOCK_M, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
  // Centered values, zero past the row's end.
  %cols = tile.iota shape [1, BLOCK_N] dim 1 : tensor<1x?xi32>
  %n_t = tile.splat %n shape [1, BLOCK_N] : i32 -> tensor<1x?xi32>
  %in_row = arith.cmpi slt, %cols, %n_t : tensor<1x?xi32>
  %in_row_b = tile.broadcast %in_row shape [BLOCK_M, BLOCK_N] : tensor<1x?xi1> -> tensor<?x?xi1>
  %zero = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
  %diff = arith.subf %xf, %mean_b : tensor<?x?xf32>
  %xc = tile.select %in_row_b, %diff, %zero : tensor<?x?xi1>, tensor<?x?xf32>
  %sq = arith.mulf %xc, %xc : tensor<?x?xf32>
  %ssum = tile.reduce %sq sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
  %var = arith.divf %ssum, %count : tensor<?x1xf32>
  %eps_t = tile.splat %eps shape [BLOCK_M, 1] : f32 -> tensor<?x1xf32>
  %var_eps = arith.addf %var, %eps_t : tensor<?x1xf32>
  %rstd = math.rsqrt %var_eps : tensor<?x1xf32>
  %rstd_b = tile.broadcast %rstd shape [BLOCK_M, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
  // Weight and bias: 1-d tiles made rows of the block.
  %w = tile.load %W[%c0] shape [BLOCK_N] : !tile.view<?xf16> -> tensor<?xf16>
  %wf = tile.astype %w : tensor<?xf16> -> tensor<?xf32>
  %w2 = tile.reshape %wf shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
  %w_b = tile.broadcast %w2 shape [BLOCK_M, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>
  %b = tile.load %B[%c0] shape [BLOCK_N] : !tile.view<?xf16> -> tensor<?xf16>
  %bf = tile.astype %b : tensor<?xf16> -> tensor<?xf32>
  %b2 = tile.reshape %bf shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
  %b_b = tile.broadcast %b2 shape [BLOCK_M, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>
  %xn = arith.mulf %xc, %rstd_b : tensor<?x?xf32>
  %xw = arith.mulf %xn, %w_b : tensor<?x?xf32>
  %y = arith.addf %xw, %b_b : tensor<?x?xf32>
  %yh = tile.astype %y : tensor<?x?xf32> -> tensor<?x?xf16>
  tile.store %yh, %Y[%bid, %c0] : tensor<?x?xf16>, !tile.view<?x?xf16>
  %mean1 = tile.reshape %mean shape [BLOCK_M] : tensor<?x1xf32> -> tensor<?xf32>
  tile.store %mean1, %Mean[%bid] : tensor<?xf32>, !tile.view<?xf32>
  %rstd1 = tile.reshape %rstd shape [BLOCK_M] : tensor<?x1xf32> -> tensor<?xf32>
  tile.store %rstd1, %Rstd[%bid] : tensor<?xf32>, !tile.view<?xf32>
  return
}

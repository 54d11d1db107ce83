// Fused residual add + RMSNorm (or LayerNorm) forward over the rows of X,
// the pre-norm block of a transformer:
//   H = X + Res                      (rounded to DTYPE and stored: the
//                                     residual stream the next block adds to)
//   RMSNorm:   rstd = 1 / sqrt(sum(h^2) / N + eps),     Y = h * rstd * W
//   LayerNorm: mean = sum(h) / N, var = sum((h - mean)^2) / N,
//              rstd = 1 / sqrt(var + eps),              Y = (h - mean) * rstd * W + B
// The statistics are taken of H as stored (the DTYPE rounding of x + res),
// as PyTorch's `h = x + res; y = rms_norm(h)` does, so that the backward
// (kernels/add_norm_backward.mlir), which reads H, sees the same numbers.
// Statistics in f32; Rstd (and Mean, LayerNorm only) stored per row for the
// backward. With RMS, B is not read and Mean is not written.
//
// One variant: a block holds ROWS whole rows in registers, [ROWS, BLOCK_N]
// with BLOCK_N >= N (`requires`): X and Res read once, H and Y written once,
// the fewest bytes the op can move (4 x M x N elements). The LayerNorm
// variance is that of the centered row held in registers (no E[h^2] - E[h]^2
// cancellation); columns past N load as 0 and are masked out of it.
//
// Choosing the parameters: as kernels/layernorm.mlir (16-byte coalesced
// accesses along N from the row-major tile, ROWS * BLOCK_N ~= 32 * 32 *
// num_warps f32 values, several blocks an SM): N <= 1024: 4 warps,
// ROWS = 2048 / BLOCK_N; N = 2048-4096: ROWS = 1, 4 warps; N = 8192:
// 8 warps; 16384: 16 warps. bench/compile_bundles.sh OUT norms holds them.
//
// Parameters: ROWS (rows per block), BLOCK_N (columns, >= N), RMS (RMSNorm
// instead of LayerNorm), DTYPE (f16, bf16 or f32: X, Res, W, B, H, Y).
//
// Arguments: X, Res [M, N]; W, B [N]; H, Y [M, N] (outputs); Mean, Rstd [M]
// (f32 outputs); the f32 scalar eps.

func.func @add_norm(
    %X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
    %Res: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Res"},
    %W: !tile.view<?x!tile.dtype<"DTYPE">> {tile.name = "W"},
    %B: !tile.view<?x!tile.dtype<"DTYPE">> {tile.name = "B"},
    %H: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "H"},
    %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"},
    %Mean: !tile.view<?xf32> {tile.name = "Mean"},
    %Rstd: !tile.view<?xf32> {tile.name = "Rstd"},
    %eps: f32 {tile.name = "eps"})
    attributes {
      tile.kernel = {num_warps = 4 : i32, grid = ["cdiv(X.0, ROWS)", "1", "1"],
                     requires = ["X.1 >= 1", "X.1 <= BLOCK_N",
                                 "Res.0 == X.0 && Res.1 == X.1",
                                 "H.0 == X.0 && H.1 == X.1",
                                 "Y.0 == X.0 && Y.1 == X.1", "W.0 == X.1",
                                 "RMS || (B.0 == X.1 && Mean.0 == X.0)",
                                 "Rstd.0 == X.0"]},
      tile.params = {ROWS = 4 : i32, BLOCK_N = 1024 : i32, RMS = true,
                     DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %true = arith.constant true
  %rms = tile.param "RMS" : i1
  %row_block = tile.block_id x
  %n = tile.dim %X[1] : !tile.view<?x?x!tile.dtype<"DTYPE">>
  %n_f = arith.sitofp %n : i32 to f32
  %n_r = tile.splat %n_f shape [ROWS, 1] : f32 -> tensor<?x1xf32>
  %eps_r = tile.splat %eps shape [ROWS, 1] : f32 -> tensor<?x1xf32>
  %zero_t = tile.full 0.0 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
  %zero_r = tile.full 0.0 shape [ROWS, 1] : tensor<?x1xf32>
  %cols = tile.iota shape [1, BLOCK_N] dim 1 : tensor<1x?xi32>

  // H = X + Res, added in f32 and rounded once; stored before the
  // reductions, the rounded value is what the statistics see.
  %x_lp = tile.load %X[%row_block, %c0] shape [ROWS, BLOCK_N]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %r_lp = tile.load %Res[%row_block, %c0] shape [ROWS, BLOCK_N]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
  %r = tile.astype %r_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
  %h_sum = arith.addf %x, %r : tensor<?x?xf32>
  %h_lp = tile.astype %h_sum : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
  tile.store %h_lp, %H[%row_block, %c0]
      : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  %h = tile.astype %h_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>

  // Statistics; hc is h itself for RMSNorm, the centered row for LayerNorm.
  %mean, %rstd, %hc = scf.if %rms -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>) {
    %sq = arith.mulf %h, %h : tensor<?x?xf32>
    %sq_sum = tile.reduce %sq sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %ms = tile.div %sq_sum, %n_r : tensor<?x1xf32>
    %ms_eps = arith.addf %ms, %eps_r : tensor<?x1xf32>
    %rstd_r = math.rsqrt %ms_eps : tensor<?x1xf32>
    scf.yield %zero_r, %rstd_r, %h : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>
  } else {
    %sum = tile.reduce %h sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %mean_r = tile.div %sum, %n_r : tensor<?x1xf32>
    %mean_t = tile.broadcast %mean_r shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
    // The padding columns would each add mean^2 to the variance.
    %n_t = tile.splat %n shape [1, BLOCK_N] : i32 -> tensor<1x?xi32>
    %in_row = arith.cmpi slt, %cols, %n_t : tensor<1x?xi32>
    %in_row_t = tile.broadcast %in_row shape [ROWS, BLOCK_N]
        : tensor<1x?xi1> -> tensor<?x?xi1>
    %hc_all = arith.subf %h, %mean_t : tensor<?x?xf32>
    %hc_r = tile.select %in_row_t, %hc_all, %zero_t : tensor<?x?xi1>, tensor<?x?xf32>
    %sq = arith.mulf %hc_r, %hc_r : tensor<?x?xf32>
    %sq_sum = tile.reduce %sq sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %var = tile.div %sq_sum, %n_r : tensor<?x1xf32>
    %var_eps = arith.addf %var, %eps_r : tensor<?x1xf32>
    %rstd_r = math.rsqrt %var_eps : tensor<?x1xf32>
    scf.yield %mean_r, %rstd_r, %hc_r : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>
  }

  %rstd_v = tile.reshape %rstd shape [ROWS] : tensor<?x1xf32> -> tensor<?xf32>
  tile.store %rstd_v, %Rstd[%row_block] : tensor<?xf32>, !tile.view<?xf32>
  %layer = arith.xori %rms, %true : i1
  scf.if %layer {
    %mean_v = tile.reshape %mean shape [ROWS] : tensor<?x1xf32> -> tensor<?xf32>
    tile.store %mean_v, %Mean[%row_block] : tensor<?xf32>, !tile.view<?xf32>
  }

  // Y = hc * rstd * W (+ B); W and B read after the reductions (only the
  // row is live across them).
  %rstd_t = tile.broadcast %rstd shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
  %w_lp = tile.load %W[%c0] shape [BLOCK_N]
      : !tile.view<?x!tile.dtype<"DTYPE">> -> tensor<?x!tile.dtype<"DTYPE">>
  %w = tile.astype %w_lp : tensor<?x!tile.dtype<"DTYPE">> -> tensor<?xf32>
  %w_row = tile.reshape %w shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
  %w_t = tile.broadcast %w_row shape [ROWS, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>
  %hn = arith.mulf %hc, %rstd_t : tensor<?x?xf32>
  %yw = arith.mulf %hn, %w_t : tensor<?x?xf32>
  %y = scf.if %rms -> tensor<?x?xf32> {
    scf.yield %yw : tensor<?x?xf32>
  } else {
    %b_lp = tile.load %B[%c0] shape [BLOCK_N]
        : !tile.view<?x!tile.dtype<"DTYPE">> -> tensor<?x!tile.dtype<"DTYPE">>
    %b = tile.astype %b_lp : tensor<?x!tile.dtype<"DTYPE">> -> tensor<?xf32>
    %b_row = tile.reshape %b shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
    %b_t = tile.broadcast %b_row shape [ROWS, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>
    %yb = arith.addf %yw, %b_t : tensor<?x?xf32>
    scf.yield %yb : tensor<?x?xf32>
  }
  %y_lp = tile.astype %y : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
  tile.store %y_lp, %Y[%row_block, %c0]
      : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  return
}

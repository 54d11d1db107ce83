// LayerNorm and RMSNorm forward over the rows of X in the tile dialect,
// written once for every variant. Statistics in f32, biased variance:
//   LayerNorm: mean = sum(x) / N, var = sum((x - mean)^2) / N,
//              rstd = 1 / sqrt(var + eps), Y = (X - mean) * rstd * W + B
//   RMSNorm:   rstd = 1 / sqrt(sum(x^2) / N + eps), Y = X * rstd * W
// Mean (LayerNorm only) and Rstd are stored per row (f32) for a backward
// pass. With RMS, B is not read and Mean is not written.
//
// Two variants, chosen by ONLINE (the same switch as kernels/softmax.mlir):
//   whole row (ONLINE = false): one block holds ROWS full rows in registers,
//     [ROWS, BLOCK_N] with BLOCK_N >= N (the `requires` clause): the mean,
//     then the variance of the centered row (two reductions, no second
//     read, no E[x^2] - E[x]^2 cancellation), then Y: one read, one write.
//   online (ONLINE = true): any N. A first loop over column blocks computes
//     each block's mean and centered sum of squares and merges them into the
//     running ones (Chan et al.: exact in exact arithmetic, as stable as the
//     two-pass formula); a second loop normalizes. X is read twice (the
//     second read of a block's own rows mostly hits L2).
// Columns past N load as 0 and are masked out of the centered sums. Mean
// and Rstd are stored, and W and B read, after the reductions: nothing but
// the row is live across them, which is what lets more blocks share an SM.
//
// Choosing the parameters: a memory-bound kernel, 16-byte coalesced
// accesses along N from the row-major tile; about 32 f32 values a thread
// (ROWS * BLOCK_N ~= 32 * 32 * num_warps) and as many blocks an SM as the
// registers allow, so that enough bytes are in flight: BLOCK_N the next
// power of two >= N for the whole row (at least 8); N <= 1024: 4 warps,
// ROWS = 2048 / BLOCK_N; N = 4096: 4 warps and --occupancy=6; N = 8192:
// 8 warps and --occupancy=3 (80 registers, no spills); 16384: 32 warps;
// above that the online variant with BLOCK_N = 8192 (measured on the H200,
// docs/perf.md).
//
// Parameters (tile.params, bound by tile-specialize):
//   ROWS      rows per block
//   BLOCK_N   columns per tile (the whole row, or one column block)
//   ONLINE    loop over column blocks (any N)
//   RMS       RMSNorm instead of LayerNorm
//   DTYPE     element type of X, W, B and Y (f16, bf16 or f32)
//
// Arguments: X [M, N], W [N], B [N], Y [M, N], Mean [M] and Rstd [M] (f32),
// the f32 scalar eps.

func.func @layernorm(
    %X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
    %W: !tile.view<?x!tile.dtype<"DTYPE">> {tile.name = "W"},
    %B: !tile.view<?x!tile.dtype<"DTYPE">> {tile.name = "B"},
    %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"},
    %Mean: !tile.view<?xf32> {tile.name = "Mean"},
    %Rstd: !tile.view<?xf32> {tile.name = "Rstd"},
    %eps: f32 {tile.name = "eps"})
    attributes {
      tile.kernel = {num_warps = 4 : i32, grid = ["cdiv(X.0, ROWS)", "1", "1"],
                     requires = ["X.1 >= 1", "ONLINE || X.1 <= BLOCK_N",
                                 "Y.0 == X.0 && Y.1 == X.1", "W.0 == X.1",
                                 "RMS || (B.0 == X.1 && Mean.0 == X.0)",
                                 "Rstd.0 == X.0"]},
      tile.params = {ROWS = 4 : i32, BLOCK_N = 1024 : i32, ONLINE = false,
                     RMS = false, DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %block_n = tile.param "BLOCK_N" : i32
  %online = tile.param "ONLINE" : i1
  %rms = tile.param "RMS" : i1
  %row_block = tile.block_id x
  %n = tile.dim %X[1] : !tile.view<?x?x!tile.dtype<"DTYPE">>
  %n_f = arith.sitofp %n : i32 to f32
  %n_r = tile.splat %n_f shape [ROWS, 1] : f32 -> tensor<?x1xf32>
  %eps_r = tile.splat %eps shape [ROWS, 1] : f32 -> tensor<?x1xf32>
  %zero_t = tile.full 0.0 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
  %zero_r = tile.full 0.0 shape [ROWS, 1] : tensor<?x1xf32>
  %cols = tile.iota shape [1, BLOCK_N] dim 1 : tensor<1x?xi32>

  // Statistics: per row, the mean and rstd; the whole-row variant also
  // keeps the centered row (x itself for RMSNorm) for the output.
  %num_blocks = arith.ceildivsi %n, %block_n : i32
  %mean, %rstd, %xc = scf.if %online
      -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>) {
    // Pass 1: statistics, one column block at a time.
    %stats:2 = scf.for %j = %c0 to %num_blocks step %c1
        iter_args(%mean_a = %zero_r, %acc_a = %zero_r)
        -> (tensor<?x1xf32>, tensor<?x1xf32>) : i32 {
      %x_lp = tile.load %X[%row_block, %j] shape [ROWS, BLOCK_N]
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
      %r:2 = scf.if %rms -> (tensor<?x1xf32>, tensor<?x1xf32>) {
        // RMSNorm: acc is the running sum of squares (padding adds 0).
        %sq = arith.mulf %x, %x : tensor<?x?xf32>
        %sq_sum = tile.reduce %sq sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
        %acc = arith.addf %acc_a, %sq_sum : tensor<?x1xf32>
        scf.yield %mean_a, %acc : tensor<?x1xf32>, tensor<?x1xf32>
      } else {
        // LayerNorm: merge this block (n_b columns, mean_b, centered sum of
        // squares m2_b) into the first n_a columns (mean_a, acc_a = m2_a).
        %start = arith.muli %j, %block_n : i32
        %left = arith.subi %n, %start : i32
        %count = arith.minsi %left, %block_n : i32
        %n_a = arith.sitofp %start : i32 to f32
        %n_b = arith.sitofp %count : i32 to f32
        %n_ab = arith.addf %n_a, %n_b : f32
        %w_b = arith.divf %n_b, %n_ab : f32
        %w_ab = arith.mulf %n_a, %w_b : f32
        %n_b_r = tile.splat %n_b shape [ROWS, 1] : f32 -> tensor<?x1xf32>
        %w_b_r = tile.splat %w_b shape [ROWS, 1] : f32 -> tensor<?x1xf32>
        %w_ab_r = tile.splat %w_ab shape [ROWS, 1] : f32 -> tensor<?x1xf32>
        %sum = tile.reduce %x sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
        %mean_b = tile.div %sum, %n_b_r : tensor<?x1xf32>
        %mean_b_t = tile.broadcast %mean_b shape [ROWS, BLOCK_N]
            : tensor<?x1xf32> -> tensor<?x?xf32>
        %start_t = tile.splat %start shape [1, BLOCK_N] : i32 -> tensor<1x?xi32>
        %col_idx = arith.addi %cols, %start_t : tensor<1x?xi32>
        %n_t = tile.splat %n shape [1, BLOCK_N] : i32 -> tensor<1x?xi32>
        %in_row = arith.cmpi slt, %col_idx, %n_t : tensor<1x?xi32>
        %in_row_t = tile.broadcast %in_row shape [ROWS, BLOCK_N]
            : tensor<1x?xi1> -> tensor<?x?xi1>
        %d_all = arith.subf %x, %mean_b_t : tensor<?x?xf32>
        %d = tile.select %in_row_t, %d_all, %zero_t : tensor<?x?xi1>, tensor<?x?xf32>
        %d2 = arith.mulf %d, %d : tensor<?x?xf32>
        %m2_b = tile.reduce %d2 sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
        // mean = mean_a + delta n_b / n_ab; m2 = m2_a + m2_b + delta^2 n_a n_b / n_ab.
        %delta = arith.subf %mean_b, %mean_a : tensor<?x1xf32>
        %shift = arith.mulf %delta, %w_b_r : tensor<?x1xf32>
        %mean_ab = arith.addf %mean_a, %shift : tensor<?x1xf32>
        %delta2 = arith.mulf %delta, %delta : tensor<?x1xf32>
        %cross = arith.mulf %delta2, %w_ab_r : tensor<?x1xf32>
        %m2_sum = arith.addf %acc_a, %m2_b : tensor<?x1xf32>
        %m2_ab = arith.addf %m2_sum, %cross : tensor<?x1xf32>
        scf.yield %mean_ab, %m2_ab : tensor<?x1xf32>, tensor<?x1xf32>
      }
      scf.yield %r#0, %r#1 : tensor<?x1xf32>, tensor<?x1xf32>
    }
    // Both variants: rstd = 1 / sqrt(acc / N + eps).
    %var = tile.div %stats#1, %n_r : tensor<?x1xf32>
    %var_eps = arith.addf %var, %eps_r : tensor<?x1xf32>
    %rstd_o = math.rsqrt %var_eps : tensor<?x1xf32>
    scf.yield %stats#0, %rstd_o, %zero_t : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>
  } else {
    // The whole row at once.
    %x_lp = tile.load %X[%row_block, %c0] shape [ROWS, BLOCK_N]
        : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
    %res:3 = scf.if %rms -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>) {
      %sq = arith.mulf %x, %x : tensor<?x?xf32>
      %sq_sum = tile.reduce %sq sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
      %ms = tile.div %sq_sum, %n_r : tensor<?x1xf32>
      %ms_eps = arith.addf %ms, %eps_r : tensor<?x1xf32>
      %rstd_r = math.rsqrt %ms_eps : tensor<?x1xf32>
      scf.yield %zero_r, %rstd_r, %x : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>
    } else {
      %sum = tile.reduce %x sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
      %mean_r = tile.div %sum, %n_r : tensor<?x1xf32>
      %mean_t = tile.broadcast %mean_r shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
      // Centered row; the padding columns would contribute mean^2 each.
      %n_t = tile.splat %n shape [1, BLOCK_N] : i32 -> tensor<1x?xi32>
      %in_row = arith.cmpi slt, %cols, %n_t : tensor<1x?xi32>
      %in_row_t = tile.broadcast %in_row shape [ROWS, BLOCK_N]
          : tensor<1x?xi1> -> tensor<?x?xi1>
      %xc_all = arith.subf %x, %mean_t : tensor<?x?xf32>
      %xc_r = tile.select %in_row_t, %xc_all, %zero_t : tensor<?x?xi1>, tensor<?x?xf32>
      %sq = arith.mulf %xc_r, %xc_r : tensor<?x?xf32>
      %sq_sum = tile.reduce %sq sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
      %var = tile.div %sq_sum, %n_r : tensor<?x1xf32>
      %var_eps = arith.addf %var, %eps_r : tensor<?x1xf32>
      %rstd_r = math.rsqrt %var_eps : tensor<?x1xf32>
      scf.yield %mean_r, %rstd_r, %xc_r : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>
    }
    scf.yield %res#0, %res#1, %res#2 : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>
  }

  // Per-row statistics, [ROWS] slices of Mean and Rstd, stored before the
  // output so that they are not live across it.
  %rstd_v = tile.reshape %rstd shape [ROWS] : tensor<?x1xf32> -> tensor<?xf32>
  tile.store %rstd_v, %Rstd[%row_block] : tensor<?xf32>, !tile.view<?xf32>
  %layer = arith.xori %rms, %true : i1
  scf.if %layer {
    %mean_v = tile.reshape %mean shape [ROWS] : tensor<?x1xf32> -> tensor<?xf32>
    tile.store %mean_v, %Mean[%row_block] : tensor<?xf32>, !tile.view<?xf32>
  }

  // Output: Y = (X - mean) * rstd * W (+ B). W and B are read here, after
  // the reductions, so their registers are not live across them.
  %mean_t = tile.broadcast %mean shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
  %rstd_t = tile.broadcast %rstd shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
  // One pass over the column blocks for the online variant (reading X
  // again), one step on the registers of the whole row otherwise.
  %passes = arith.select %online, %num_blocks, %c1 : i32
  scf.for %j = %c0 to %passes step %c1 : i32 {
    %xc_j = scf.if %online -> tensor<?x?xf32> {
      %x_lp = tile.load %X[%row_block, %j] shape [ROWS, BLOCK_N]
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
      %d = scf.if %rms -> tensor<?x?xf32> {
        scf.yield %x : tensor<?x?xf32>
      } else {
        %x_mean = arith.subf %x, %mean_t : tensor<?x?xf32>
        scf.yield %x_mean : tensor<?x?xf32>
      }
      scf.yield %d : tensor<?x?xf32>
    } else {
      scf.yield %xc : tensor<?x?xf32>
    }
    %w_lp = tile.load %W[%j] shape [BLOCK_N]
        : !tile.view<?x!tile.dtype<"DTYPE">> -> tensor<?x!tile.dtype<"DTYPE">>
    %w = tile.astype %w_lp : tensor<?x!tile.dtype<"DTYPE">> -> tensor<?xf32>
    %w_row = tile.reshape %w shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
    %w_t = tile.broadcast %w_row shape [ROWS, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>
    %xn = arith.mulf %xc_j, %rstd_t : tensor<?x?xf32>
    %yw = arith.mulf %xn, %w_t : tensor<?x?xf32>
    %y = scf.if %rms -> tensor<?x?xf32> {
      scf.yield %yw : tensor<?x?xf32>
    } else {
      %b_lp = tile.load %B[%j] shape [BLOCK_N]
          : !tile.view<?x!tile.dtype<"DTYPE">> -> tensor<?x!tile.dtype<"DTYPE">>
      %b = tile.astype %b_lp : tensor<?x!tile.dtype<"DTYPE">> -> tensor<?xf32>
      %b_row = tile.reshape %b shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
      %b_t = tile.broadcast %b_row shape [ROWS, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>
      %yb = arith.addf %yw, %b_t : tensor<?x?xf32>
      scf.yield %yb : tensor<?x?xf32>
    }
    %y_lp = tile.astype %y : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
    tile.store %y_lp, %Y[%row_block, %j]
        : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  }
  return
}

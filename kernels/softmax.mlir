// Row softmax in the tile dialect: Y[i, :] = softmax(X[i, :]), written once
// for every variant. The math runs in f32 whatever the storage type:
//   m = max_j X[i, j],  p_j = 2^((X[i, j] - m) * log2(e)),  Y[i, j] = p_j / sum p
//
// Two variants, chosen by ONLINE:
//   whole row (ONLINE = false): one block holds ROWS full rows in registers,
//     [ROWS, BLOCK_N] with BLOCK_N >= N (the `requires` clause): one read and
//     one write of every element, the minimum a memory-bound kernel can do.
//   online (ONLINE = true): any N. A first loop over column blocks keeps a
//     running max m and sum l (l is rescaled by 2^(m_old - m_new) whenever the
//     max grows); a second loop recomputes p from X and stores p / l. X is
//     read twice, but the second read of a block's own rows mostly hits L2.
// Columns past N load as -inf (they take no part in the max and contribute
// 2^-inf = 0 to the sum); rows past M load as -inf too and are never stored.
// A row whose elements are all -inf stores 0 (no NaN from -inf - -inf).
//
// Choosing the parameters (a memory-bound kernel: the goal is to keep enough
// bytes in flight to saturate HBM and to read each row with 16-byte,
// coalesced accesses along N, which the compiler derives from the row-major
// [ROWS, BLOCK_N] tile):
//   - BLOCK_N: the next power of two >= N for the whole-row variant (at least
//     8 so that a thread's 16-byte vector of f16 is full); 1024-4096 for the
//     online variant.
//   - ROWS and num_warps: 16-32 f32 values per thread, i.e.
//     ROWS * BLOCK_N ~= 16-32 * 32 * num_warps: N <= 1024: 4 warps and
//     ROWS = 2048 / BLOCK_N (several rows per block: a short row alone
//     leaves most lanes idle); N = 2048-8192: ROWS = 1 with 8 warps;
//     16384: ROWS = 1 with 16 warps; 32768: whole row with 16 warps (64
//     values per thread) or the online variant with BLOCK_N = 4096.
//   Up to N = 8192 these tiles leave registers for 4 or more blocks per SM
//   (4-16 KB in flight each), more than the ~25 KB per SM that an H200's
//   bandwidth-latency product asks for, and the grid (M / ROWS blocks) is
//   many waves deep. Measured on the H200: docs/perf.md.
//
// Parameters (tile.params, bound by tile-specialize):
//   ROWS      rows per block
//   BLOCK_N   columns per tile (the whole row, or one column block)
//   ONLINE    the online max/sum loop over column blocks (any N)
//   DTYPE     element type of X and Y (f16, bf16 or f32)
//
// Arguments: X [M, N] and Y [M, N], row-major (innermost stride 1).

func.func @softmax(
    %X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
    %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"})
    attributes {
      tile.kernel = {num_warps = 4 : i32, grid = ["cdiv(X.0, ROWS)", "1", "1"],
                     requires = ["ONLINE || X.1 <= BLOCK_N",
                                 "Y.0 == X.0 && Y.1 == X.1"]},
      tile.params = {ROWS = 4 : i32, BLOCK_N = 1024 : i32, ONLINE = false,
                     DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %block_n = tile.param "BLOCK_N" : i32
  %online = tile.param "ONLINE" : i1
  %row_block = tile.block_id x

  // Per-row constants, [ROWS, 1].
  %ninf_r = tile.full -inf shape [ROWS, 1] : tensor<?x1xf32>
  %zero_r = tile.full 0.0 shape [ROWS, 1] : tensor<?x1xf32>
  %one_r = tile.full 1.0 shape [ROWS, 1] : tensor<?x1xf32>
  %log2e_r = tile.splat %log2e shape [ROWS, 1] : f32 -> tensor<?x1xf32>
  %log2e_t = tile.splat %log2e shape [ROWS, BLOCK_N] : f32 -> tensor<?x?xf32>

  scf.if %online {
    // Pass 1: running max m and running sum l = sum 2^((x - m) log2 e).
    %n = tile.dim %X[1] : !tile.view<?x?x!tile.dtype<"DTYPE">>
    %num_blocks = arith.ceildivsi %n, %block_n : i32
    %m, %l = scf.for %j = %c0 to %num_blocks step %c1
        iter_args(%m_i = %ninf_r, %l_i = %zero_r)
        -> (tensor<?x1xf32>, tensor<?x1xf32>) : i32 {
      %x_lp = tile.load %X[%row_block, %j] shape [ROWS, BLOCK_N] padding neg_inf
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
      %x_max = tile.reduce %x max axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
      %m_new = arith.maximumf %m_i, %x_max : tensor<?x1xf32>
      // While a row has seen only -inf, shift by 0 instead of -inf.
      %empty = arith.cmpf oeq, %m_new, %ninf_r : tensor<?x1xf32>
      %m_sub = tile.select %empty, %zero_r, %m_new : tensor<?x1xi1>, tensor<?x1xf32>
      %m_sub_b = tile.broadcast %m_sub shape [ROWS, BLOCK_N]
          : tensor<?x1xf32> -> tensor<?x?xf32>
      %shifted = arith.subf %x, %m_sub_b : tensor<?x?xf32>
      %t = arith.mulf %shifted, %log2e_t : tensor<?x?xf32>
      %p = tile.exp2 %t : tensor<?x?xf32>
      %p_sum = tile.reduce %p sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
      // Rescale the old sum to the new max: l = l * 2^((m_old - m_new) log2 e).
      %dm = arith.subf %m_i, %m_sub : tensor<?x1xf32>
      %dm2 = arith.mulf %dm, %log2e_r : tensor<?x1xf32>
      %alpha = tile.exp2 %dm2 : tensor<?x1xf32>
      %l_old = arith.mulf %l_i, %alpha : tensor<?x1xf32>
      %l_new = arith.addf %l_old, %p_sum : tensor<?x1xf32>
      scf.yield %m_new, %l_new : tensor<?x1xf32>, tensor<?x1xf32>
    }

    // Pass 2: Y = 2^((x - m) log2 e) / l, one reciprocal per row.
    %empty = arith.cmpf oeq, %m, %ninf_r : tensor<?x1xf32>
    %m_sub = tile.select %empty, %zero_r, %m : tensor<?x1xi1>, tensor<?x1xf32>
    %no_sum = arith.cmpf oeq, %l, %zero_r : tensor<?x1xf32>
    %l_safe = tile.select %no_sum, %one_r, %l : tensor<?x1xi1>, tensor<?x1xf32>
    %inv_l = tile.div %one_r, %l_safe : tensor<?x1xf32>
    %m_sub_b = tile.broadcast %m_sub shape [ROWS, BLOCK_N]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    %inv_l_b = tile.broadcast %inv_l shape [ROWS, BLOCK_N]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    scf.for %j = %c0 to %num_blocks step %c1 : i32 {
      %x_lp = tile.load %X[%row_block, %j] shape [ROWS, BLOCK_N] padding neg_inf
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
      %shifted = arith.subf %x, %m_sub_b : tensor<?x?xf32>
      %t = arith.mulf %shifted, %log2e_t : tensor<?x?xf32>
      %p = tile.exp2 %t : tensor<?x?xf32>
      %y = arith.mulf %p, %inv_l_b : tensor<?x?xf32>
      %y_lp = tile.astype %y : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
      tile.store %y_lp, %Y[%row_block, %j]
          : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
    }
  } else {
    // The whole row at once: one read, one write.
    %x_lp = tile.load %X[%row_block, %c0] shape [ROWS, BLOCK_N] padding neg_inf
        : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
    %m = tile.reduce %x max axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %empty = arith.cmpf oeq, %m, %ninf_r : tensor<?x1xf32>
    %m_sub = tile.select %empty, %zero_r, %m : tensor<?x1xi1>, tensor<?x1xf32>
    %m_sub_b = tile.broadcast %m_sub shape [ROWS, BLOCK_N]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    %shifted = arith.subf %x, %m_sub_b : tensor<?x?xf32>
    %t = arith.mulf %shifted, %log2e_t : tensor<?x?xf32>
    %p = tile.exp2 %t : tensor<?x?xf32>
    // l >= 1 (the max contributes 2^0) unless the row is all -inf: then 0.
    %l = tile.reduce %p sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %no_sum = arith.cmpf oeq, %l, %zero_r : tensor<?x1xf32>
    %l_safe = tile.select %no_sum, %one_r, %l : tensor<?x1xi1>, tensor<?x1xf32>
    %inv_l = tile.div %one_r, %l_safe : tensor<?x1xf32>
    %inv_l_b = tile.broadcast %inv_l shape [ROWS, BLOCK_N]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    %y = arith.mulf %p, %inv_l_b : tensor<?x?xf32>
    %y_lp = tile.astype %y : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
    tile.store %y_lp, %Y[%row_block, %c0]
        : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  }
  return
}

// Grouped GEMM for a mixture of experts, in the tile dialect, written once
// for every variant:
//   Y[r, :] = X[r, :] @ W[e]                  for Offsets[e] <= r < Offsets[e + 1]
//   Y[r, :] = silu(X[r, :] @ W[e]) * (X[r, :] @ Wup[e])   with SWIGLU
// X [T, K] holds the tokens already sorted by expert (the permute kernel of
// moe_routing.mlir gathers them); Offsets [E + 1] (i32, on the device:
// data, not a launch argument) gives each expert's rows, nondecreasing,
// Offsets[E] <= T. W [E, K, N] row-major, or [E, N, K] with TRANS_W (the
// layout of nn.Linear weights); f16 or bf16 inputs, f32 accumulation on the
// tensor cores, Y [T, N] in f16, bf16 or f32. Rows of Y outside every
// expert's range are not written.
//
// SwiGLU: the fused gate-up weight [E, K, 2I] holds the gate in its first I
// columns and up in its last I ("[gate | up]" halves); the kernel takes the
// two halves as two views, W (gate) and Wup (up), which may be strided
// views of one tensor (w[:, :, :I] and w[:, :, I:], no copy; with TRANS_W
// w[:, :I, :] and w[:, I:, :]) or two tensors. A block accumulates both
// products of its BLOCK_M x BLOCK_N tile (two accumulators, as a BLOCK_M x
// 2 BLOCK_N GEMM tile) and writes silu(gate) * up = gate / (1 + 2^(-gate
// log2 e)) * up in f32 before rounding. Y is then [T, I].
//
// Which block does what: expert e has cdiv(Offsets[e+1] - Offsets[e],
// BLOCK_M) row tiles, R of them in all; the R x cdiv(N, BLOCK_N) tiles are
// numbered without gaps in grouped order as in gemm.mlir (GROUP_M row tiles
// at a time, column by column, so that the blocks running together share
// panels of X and W in L2), and block b takes tiles b, b + blocks, ...
// (MAX_BLOCKS = the number of SMs: a persistent grid). Each block computes
// R in one pass over Offsets (E scalar reads, tile.read, cached); the grid
// is an upper bound fixed by the shapes alone, (floor(T / BLOCK_M) + E)
// column tiles' worth (no host read of the offsets, so the launch can be
// captured in a CUDA graph; blocks past the tiles exit). A tile finds its
// expert by walking a cursor (expert e, P(e) = the row tiles before it)
// carried from the block's previous tile, a step or two, and starts at row
// Offsets[e] + BLOCK_M j, j = v - P(e). (A first version numbered
// floor(Offsets[e] / BLOCK_M) + e "virtual" row tiles per expert, found by
// a binary search: one idle tile per expert, which unbalanced the blocks by
// a whole wave at 8 experts of 2048 rows.) Its rows never cross into the
// next expert: X is read at element offsets (rows past the expert read the
// next expert's tokens, which only reach Y's rows that are not written),
// and a tile whose rows run past the expert's end (at most one per expert
// and column of tiles) is written by a masked scatter; full tiles by a
// plain store at element offsets.
//
// Parameters (tile.params, bound by tile-specialize):
//   BLOCK_M, BLOCK_N, BLOCK_K  the tile of Y and the K step
//   GROUP_M     row tiles in a group of the tile order
//   MAX_BLOCKS  the most blocks launched (the number of SMs: persistent)
//   TRANS_W     W (and Wup) stored [E, N, K]
//   SWIGLU      Y = silu(X @ W) * (X @ Wup); otherwise Wup is not read
//   IN_DTYPE    element type of X, W and Wup (f16 or bf16)
//   OUT_DTYPE   element type of Y (f16, bf16 or f32)
//
// Arguments: X, W, Wup, Offsets, Y (named as above).

func.func @grouped_gemm(
    %X: !tile.view<?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "X"},
    %W: !tile.view<?x?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "W"},
    %Wup: !tile.view<?x?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "Wup"},
    %Offsets: !tile.view<?xi32> {tile.name = "Offsets"},
    %Y: !tile.view<?x?x!tile.dtype<"OUT_DTYPE">> {tile.name = "Y"})
    attributes {
      tile.kernel = {num_warps = 8 : i32, occupancy = 1 : i32,
                     grid = ["min((X.0 / BLOCK_M + W.0) * cdiv(Y.1, BLOCK_N), MAX_BLOCKS)",
                             "1", "1"],
                     requires = ["Y.0 == X.0", "Offsets.0 == W.0 + 1",
                                 "!TRANS_W || (W.1 == Y.1 && W.2 == X.1)",
                                 "TRANS_W || (W.1 == X.1 && W.2 == Y.1)",
                                 "!SWIGLU || (Wup.0 == W.0 && Wup.1 == W.1 && Wup.2 == W.2)"],
                     hints = {sm_90 = {warp_specialize = 1 : i32, tma = 1 : i32,
                                       coalesce_stores = 1 : i32}}},
      tile.params = {BLOCK_M = 128 : i32, BLOCK_N = 128 : i32, BLOCK_K = 64 : i32,
                     GROUP_M = 8 : i32, MAX_BLOCKS = 2147483647 : i32,
                     TRANS_W = false, SWIGLU = false,
                     IN_DTYPE = f16, OUT_DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %block_k = tile.param "BLOCK_K" : i32
  %trans_w = tile.param "TRANS_W" : i1
  %swiglu = tile.param "SWIGLU" : i1
  %block_m = tile.param "BLOCK_M" : i32
  %block_n = tile.param "BLOCK_N" : i32
  %group_m = tile.param "GROUP_M" : i32
  %t_size = tile.dim %X[0] : !tile.view<?x?x!tile.dtype<"IN_DTYPE">>
  %k_size = tile.dim %X[1] : !tile.view<?x?x!tile.dtype<"IN_DTYPE">>
  %num_k = arith.ceildivsi %k_size, %block_k : i32
  %n_size = tile.dim %Y[1] : !tile.view<?x?x!tile.dtype<"OUT_DTYPE">>
  %experts = tile.dim %W[0] : !tile.view<?x?x?x!tile.dtype<"IN_DTYPE">>
  // Row tiles of each expert, cdiv(count, BLOCK_M), and their sum R: one
  // pass over Offsets a block (E scalar reads, cached), so that the tiles
  // are numbered without gaps and the blocks share them as evenly as a
  // dense GEMM's.
  %off_first = tile.read %Offsets[%c0] : !tile.view<?xi32> -> i32
  %tiles_m, %off_last = scf.for %ex = %c0 to %experts step %c1
      iter_args(%r = %c0, %prev = %off_first) -> (i32, i32) : i32 {
    %ex1 = arith.addi %ex, %c1 : i32
    %o = tile.read %Offsets[%ex1] : !tile.view<?xi32> -> i32
    %cnt = arith.subi %o, %prev : i32
    %nt = arith.ceildivsi %cnt, %block_m : i32
    %r2 = arith.addi %r, %nt : i32
    scf.yield %r2, %o : i32, i32
  }
  %tiles_n = arith.ceildivsi %n_size, %block_n : i32
  %tiles = arith.muli %tiles_m, %tiles_n : i32
  %group_tiles = arith.muli %group_m, %tiles_n : i32
  %first = tile.block_id x
  %blocks = tile.num_blocks x
  // The loop carries a cursor: expert ec and P(ec), the row tiles of the
  // experts before it.
  %cur_e, %cur_p = scf.for %tile = %first to %tiles step %blocks
      iter_args(%ec = %c0, %pc = %c0) -> (i32, i32) : i32 {
    // Tile `tile` in grouped order (gemm.mlir): row tile v, column tile
    // bid_n.
    %group = arith.divsi %tile, %group_tiles : i32
    %group_first = arith.muli %group, %group_m : i32
    %group_left = arith.subi %tiles_m, %group_first : i32
    %group_rows = arith.minsi %group_left, %group_m : i32
    %in_group = arith.remsi %tile, %group_tiles : i32
    %row_in_group = arith.remsi %in_group, %group_rows : i32
    %v = arith.addi %group_first, %row_in_group : i32
    %bid_n = arith.divsi %in_group, %group_rows : i32

    // The expert e with P(e) <= v < P(e + 1): the cursor walks back while
    // P(e) > v, then forward while P(e + 1) <= v (experts of no rows have
    // no tiles and are stepped over). Consecutive tiles of a block are
    // close in v, so a walk is a step or two; P(0) = 0 <= v < P(E) = R
    // bounds both walks.
    %eb, %pb = scf.while (%e0 = %ec, %p0 = %pc) : (i32, i32) -> (i32, i32) {
      %back = arith.cmpi sgt, %p0, %v : i32
      scf.condition(%back) %e0, %p0 : i32, i32
    } do {
    ^bb0(%e0: i32, %p0: i32):
      %em = arith.subi %e0, %c1 : i32
      %o_lo = tile.read %Offsets[%em] : !tile.view<?xi32> -> i32
      %o_hi = tile.read %Offsets[%e0] : !tile.view<?xi32> -> i32
      %n_back = arith.subi %o_hi, %o_lo : i32
      %t_back = arith.ceildivsi %n_back, %block_m : i32
      %pm = arith.subi %p0, %t_back : i32
      scf.yield %em, %pm : i32, i32
    }
    %e, %p = scf.while (%e0 = %eb, %p0 = %pb) : (i32, i32) -> (i32, i32) {
      %e0n = arith.addi %e0, %c1 : i32
      %o_lo = tile.read %Offsets[%e0] : !tile.view<?xi32> -> i32
      %o_hi = tile.read %Offsets[%e0n] : !tile.view<?xi32> -> i32
      %n_fwd = arith.subi %o_hi, %o_lo : i32
      %t_fwd = arith.ceildivsi %n_fwd, %block_m : i32
      %p_next = arith.addi %p0, %t_fwd : i32
      %fwd = arith.cmpi sle, %p_next, %v : i32
      %e_out = arith.select %fwd, %e0n, %e0 : i32
      %p_out = arith.select %fwd, %p_next, %p0 : i32
      scf.condition(%fwd) %e_out, %p_out : i32, i32
    } do {
    ^bb0(%e1: i32, %p1: i32):
      scf.yield %e1, %p1 : i32, i32
    }
    %e1 = arith.addi %e, %c1 : i32
    %start = tile.read %Offsets[%e] : !tile.view<?xi32> -> i32
    %end = tile.read %Offsets[%e1] : !tile.view<?xi32> -> i32
    %j = arith.subi %v, %p : i32
    %j_rows = arith.muli %j, %block_m : i32
    %row0 = arith.addi %start, %j_rows : i32
    %col0 = arith.muli %bid_n, %block_n : i32
    // acc = X[row0 .., :] @ W[e][:, bid_n], and with SWIGLU the same with
    // Wup, K in steps of BLOCK_K.
    %acc_init = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
    %acc:2 = scf.for %k = %c0 to %num_k step %c1
        iter_args(%acc_g = %acc_init, %acc_u = %acc_init)
        -> (tensor<?x?xf32>, tensor<?x?xf32>) : i32 {
      %k0 = arith.muli %k, %block_k : i32
      %a = tile.load %X at [%row0, %k0] shape [BLOCK_M, BLOCK_K] latency 4
          : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
      %b3 = scf.if %trans_w -> tensor<1x?x?x!tile.dtype<"IN_DTYPE">> {
        // W[e] is [N, K]: tile dimension 1 walks K (view dimension 2).
        %bt = tile.load %W[%e, %k, %bid_n] shape [1, BLOCK_K, BLOCK_N] order [0, 2, 1]
            latency 4
            : !tile.view<?x?x?x!tile.dtype<"IN_DTYPE">> -> tensor<1x?x?x!tile.dtype<"IN_DTYPE">>
        scf.yield %bt : tensor<1x?x?x!tile.dtype<"IN_DTYPE">>
      } else {
        %bn = tile.load %W[%e, %k, %bid_n] shape [1, BLOCK_K, BLOCK_N] latency 4
            : !tile.view<?x?x?x!tile.dtype<"IN_DTYPE">> -> tensor<1x?x?x!tile.dtype<"IN_DTYPE">>
        scf.yield %bn : tensor<1x?x?x!tile.dtype<"IN_DTYPE">>
      }
      %b = tile.reshape %b3 shape [BLOCK_K, BLOCK_N]
          : tensor<1x?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
      %g_next = tile.mma %a, %b, %acc_g
          : tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?xf32>
      %u_next = scf.if %swiglu -> tensor<?x?xf32> {
        %u3 = scf.if %trans_w -> tensor<1x?x?x!tile.dtype<"IN_DTYPE">> {
          %ut = tile.load %Wup[%e, %k, %bid_n] shape [1, BLOCK_K, BLOCK_N] order [0, 2, 1]
              latency 4
              : !tile.view<?x?x?x!tile.dtype<"IN_DTYPE">> -> tensor<1x?x?x!tile.dtype<"IN_DTYPE">>
          scf.yield %ut : tensor<1x?x?x!tile.dtype<"IN_DTYPE">>
        } else {
          %un = tile.load %Wup[%e, %k, %bid_n] shape [1, BLOCK_K, BLOCK_N] latency 4
              : !tile.view<?x?x?x!tile.dtype<"IN_DTYPE">> -> tensor<1x?x?x!tile.dtype<"IN_DTYPE">>
          scf.yield %un : tensor<1x?x?x!tile.dtype<"IN_DTYPE">>
        }
        %u = tile.reshape %u3 shape [BLOCK_K, BLOCK_N]
            : tensor<1x?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
        %u_acc = tile.mma %a, %u, %acc_u
            : tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?xf32>
        scf.yield %u_acc : tensor<?x?xf32>
      } else {
        scf.yield %acc_u : tensor<?x?xf32>
      }
      scf.yield %g_next, %u_next : tensor<?x?xf32>, tensor<?x?xf32>
    }

    // Epilogue in f32: silu(gate) * up = gate * up / (1 + 2^(-gate log2 e))
    // (one exp2 and one division; -0 for very negative gate, no Inf / Inf).
    %out = scf.if %swiglu -> tensor<?x?xf32> {
      %one = tile.full 1.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
      %nlog2e = tile.full -1.4426950408889634 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
      %t = arith.mulf %acc#0, %nlog2e : tensor<?x?xf32>
      %ex = tile.exp2 %t : tensor<?x?xf32>
      %den = arith.addf %one, %ex : tensor<?x?xf32>
      %gu = arith.mulf %acc#0, %acc#1 : tensor<?x?xf32>
      %y = tile.div %gu, %den : tensor<?x?xf32>
      scf.yield %y : tensor<?x?xf32>
    } else {
      scf.yield %acc#0 : tensor<?x?xf32>
    }
    %y_lp = tile.astype %out : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"OUT_DTYPE">>

    // Rows row0 .. row0 + BLOCK_M - 1: all the expert's, a plain store; the
    // expert's last tile, when its rows run past the end, a scatter with
    // the rows from `end` on masked off (columns past N are outside Y).
    %row_end = arith.addi %row0, %block_m : i32
    %whole = arith.cmpi sle, %row_end, %end : i32
    scf.if %whole {
      tile.store %y_lp, %Y at [%row0, %col0]
          : tensor<?x?x!tile.dtype<"OUT_DTYPE">>, !tile.view<?x?x!tile.dtype<"OUT_DTYPE">>
    } else {
      %row0_t = tile.splat %row0 shape [BLOCK_M, BLOCK_N] : i32 -> tensor<?x?xi32>
      %r_iota = tile.iota shape [BLOCK_M, BLOCK_N] dim 0 : tensor<?x?xi32>
      %rows = arith.addi %r_iota, %row0_t : tensor<?x?xi32>
      %col0_t = tile.splat %col0 shape [BLOCK_M, BLOCK_N] : i32 -> tensor<?x?xi32>
      %c_iota = tile.iota shape [BLOCK_M, BLOCK_N] dim 1 : tensor<?x?xi32>
      %cols = arith.addi %c_iota, %col0_t : tensor<?x?xi32>
      // Rows i < end - row0 are the expert's (a compare of an iota with a
      // splat: built in any layout for free, so the mask takes the
      // accumulator's layout without a conversion through shared memory,
      // which would cost a pipeline stage).
      %left = arith.subi %end, %row0 : i32
      %left_t = tile.splat %left shape [BLOCK_M, BLOCK_N] : i32 -> tensor<?x?xi32>
      %mine = arith.cmpi slt, %r_iota, %left_t : tensor<?x?xi32>
      tile.scatter %y_lp, %Y[%rows, %cols] mask %mine : tensor<?x?xi1>
          : tensor<?x?x!tile.dtype<"OUT_DTYPE">>, !tile.view<?x?x!tile.dtype<"OUT_DTYPE">>,
            tensor<?x?xi32>, tensor<?x?xi32>
    }
    scf.yield %e, %p : i32, i32
  }
  return
}

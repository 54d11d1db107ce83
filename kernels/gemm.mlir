// GEMM with a fused epilogue in the tile dialect, written once for every
// variant:
//   C = act(scale * (A @ B) + Bias)
// A [M, K] row-major; B [K, N] row-major, or [N, K] (B transposed, TRANS_B);
// f16 or bf16 inputs, f32 accumulation on the tensor cores, C in f16, bf16
// or f32. Bias [N] (read only with HAS_BIAS) is added to every row.
//
// A block computes BLOCK_M x BLOCK_N tiles of C, walking K in steps of
// BLOCK_K. The tiles are numbered in grouped order (GROUP_M rows of tiles
// at a time, column by column, so that the blocks running together share
// panels of A and B in L2), and block b takes tiles b, b + blocks, ... With
// the default MAX_BLOCKS every block has one tile; with MAX_BLOCKS = the
// number of SMs the grid is persistent: a block walks several tiles, and a
// producer warpgroup issues the next tile's copies while the consumers
// finish this one's epilogue. M, N and K need not be multiples of the
// tiles: loads past the edges read zeros, which add nothing to the dot
// products, and stores past the edges are dropped. The `latency` hints on the two loads let the
// software pipeliner issue the copies of the next K steps while the tensor
// cores work on this one (latency 4: three shared-memory stages, 96 KB with
// the default tiles).
//
// Parameters (tile.params, bound by tile-specialize):
//   BLOCK_M, BLOCK_N, BLOCK_K  the tile of C and the K step
//   GROUP_M     rows of tiles in a group of the tile order
//   MAX_BLOCKS  the most blocks launched (the number of SMs: persistent)
//   TRANS_B     B is stored [N, K] (loaded transposed with `order [1, 0]`)
//   HAS_BIAS    add Bias[n] to column n
//   ACTIVATION  0 none, 1 ReLU, 2 GELU (tanh approximation)
//   IN_DTYPE    element type of A and B (f16 or bf16)
//   OUT_DTYPE   element type of C and Bias (f16, bf16 or f32)
//
// The defaults suit a Hopper GPU: 128x128x64 tiles with 8 warps (two
// warpgroups, each a 64x128 wgmma accumulator: 64 f32 registers per thread)
// fed by a producer warpgroup whose copies are TMA tensor copies (the sm_90
// hints ask for both and fail loudly where the compiler cannot give them;
// TMA measured 17-20% faster than cp.async at 4096^3-8192^3, docs/perf.md).
// The third sm_90 hint stores C through shared memory in 16-byte accesses
// instead of the accumulator layout's 4-byte ones (the stores took 9-12%
// of the time at 4096^3; one pipeline stage fewer pays for the space).
// On Ampere the same tile runs as 8 warps of mma.sync. One block per SM on
// both. The fastest tiles on the H200 are 128x256 (12 warps) with
// MAX_BLOCKS = 132.
//
// Arguments: A, B, C, Bias (named as above) and the f32 scalar `scale`.

func.func @gemm(
    %A: !tile.view<?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "A"},
    %B: !tile.view<?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "B"},
    %C: !tile.view<?x?x!tile.dtype<"OUT_DTYPE">> {tile.name = "C"},
    %Bias: !tile.view<?x!tile.dtype<"OUT_DTYPE">> {tile.name = "Bias"},
    %scale: f32 {tile.name = "scale"})
    attributes {
      tile.kernel = {num_warps = 8 : i32, occupancy = 1 : i32,
                     grid = ["min(cdiv(C.0, BLOCK_M) * cdiv(C.1, BLOCK_N), MAX_BLOCKS)",
                             "1", "1"],
                     requires = ["C.0 == A.0",
                                 "!TRANS_B || (B.0 == C.1 && B.1 == A.1)",
                                 "TRANS_B || (B.0 == A.1 && B.1 == C.1)",
                                 "!HAS_BIAS || Bias.0 == C.1"],
                     hints = {sm_90 = {warp_specialize = 1 : i32, tma = 1 : i32,
                                       coalesce_stores = 1 : i32}}},
      tile.params = {BLOCK_M = 128 : i32, BLOCK_N = 128 : i32, BLOCK_K = 64 : i32,
                     GROUP_M = 8 : i32, MAX_BLOCKS = 2147483647 : i32,
                     TRANS_B = false, HAS_BIAS = false, ACTIVATION = 0 : i32,
                     IN_DTYPE = f16, OUT_DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %block_k = tile.param "BLOCK_K" : i32
  %trans_b = tile.param "TRANS_B" : i1
  %has_bias = tile.param "HAS_BIAS" : i1
  %activation = tile.param "ACTIVATION" : i32
  %block_m = tile.param "BLOCK_M" : i32
  %block_n = tile.param "BLOCK_N" : i32
  %group_m = tile.param "GROUP_M" : i32
  %k_size = tile.dim %A[1] : !tile.view<?x?x!tile.dtype<"IN_DTYPE">>
  %num_k = arith.ceildivsi %k_size, %block_k : i32
  %m_size = tile.dim %C[0] : !tile.view<?x?x!tile.dtype<"OUT_DTYPE">>
  %n_size = tile.dim %C[1] : !tile.view<?x?x!tile.dtype<"OUT_DTYPE">>
  %tiles_m = arith.ceildivsi %m_size, %block_m : i32
  %tiles_n = arith.ceildivsi %n_size, %block_n : i32
  %tiles = arith.muli %tiles_m, %tiles_n : i32
  %group_tiles = arith.muli %group_m, %tiles_n : i32
  %first = tile.block_id x
  %blocks = tile.num_blocks x
  scf.for %tile = %first to %tiles step %blocks : i32 {
    // Tile `tile` in grouped order: group g holds the rows of tiles from
    // g * GROUP_M (fewer in the last group), numbered down each column.
    %group = arith.divsi %tile, %group_tiles : i32
    %group_first = arith.muli %group, %group_m : i32
    %group_left = arith.subi %tiles_m, %group_first : i32
    %group_rows = arith.minsi %group_left, %group_m : i32
    %in_group = arith.remsi %tile, %group_tiles : i32
    %row_in_group = arith.remsi %in_group, %group_rows : i32
    %bid_m = arith.addi %group_first, %row_in_group : i32
    %bid_n = arith.divsi %in_group, %group_rows : i32

    // acc = A[bid_m, :] @ B[:, bid_n], K in steps of BLOCK_K.
    %acc_init = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
    %acc = scf.for %k = %c0 to %num_k step %c1 iter_args(%acc_i = %acc_init)
        -> (tensor<?x?xf32>) : i32 {
      %a = tile.load %A[%bid_m, %k] shape [BLOCK_M, BLOCK_K] latency 4
          : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
      %b = scf.if %trans_b -> tensor<?x?x!tile.dtype<"IN_DTYPE">> {
        // B is [N, K]: tile dimension 0 walks K (view dimension 1).
        %bt = tile.load %B[%k, %bid_n] shape [BLOCK_K, BLOCK_N] order [1, 0] latency 4
            : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
        scf.yield %bt : tensor<?x?x!tile.dtype<"IN_DTYPE">>
      } else {
        %bn = tile.load %B[%k, %bid_n] shape [BLOCK_K, BLOCK_N] latency 4
            : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
        scf.yield %bn : tensor<?x?x!tile.dtype<"IN_DTYPE">>
      }
      %acc_next = tile.mma %a, %b, %acc_i
          : tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?xf32>
      scf.yield %acc_next : tensor<?x?xf32>
    }

    // Epilogue in f32: scale, bias, activation.
    %scale_t = tile.splat %scale shape [BLOCK_M, BLOCK_N] : f32 -> tensor<?x?xf32>
    %scaled = arith.mulf %acc, %scale_t : tensor<?x?xf32>
    %biased = scf.if %has_bias -> tensor<?x?xf32> {
      %bias_lp = tile.load %Bias[%bid_n] shape [BLOCK_N]
          : !tile.view<?x!tile.dtype<"OUT_DTYPE">> -> tensor<?x!tile.dtype<"OUT_DTYPE">>
      %bias = tile.astype %bias_lp : tensor<?x!tile.dtype<"OUT_DTYPE">> -> tensor<?xf32>
      %bias_row = tile.reshape %bias shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
      %bias_b = tile.broadcast %bias_row shape [BLOCK_M, BLOCK_N]
          : tensor<1x?xf32> -> tensor<?x?xf32>
      %sum = arith.addf %scaled, %bias_b : tensor<?x?xf32>
      scf.yield %sum : tensor<?x?xf32>
    } else {
      scf.yield %scaled : tensor<?x?xf32>
    }
    %is_relu = arith.cmpi eq, %activation, %c1 : i32
    %is_gelu = arith.cmpi eq, %activation, %c2 : i32
    %out = scf.if %is_relu -> tensor<?x?xf32> {
      %zero = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
      %relu = arith.maximumf %biased, %zero : tensor<?x?xf32>
      scf.yield %relu : tensor<?x?xf32>
    } else {
      %act = scf.if %is_gelu -> tensor<?x?xf32> {
        // GELU, tanh form: 0.5 x (1 + tanh(u)), u = sqrt(2 / pi) (x + 0.044715 x^3),
        // computed as x / (1 + 2^(-2 u log2(e))): the same function (1 + tanh(u)
        // = 2 / (1 + e^(-2u))) with one exp2 and one division, and the right
        // limits (x for large x, -0 for very negative x) with no Inf / Inf.
        %one = tile.full 1.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
        %k1 = tile.full 0.044715 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
        // -2 sqrt(2 / pi) log2(e)
        %k2 = tile.full -2.302208198144325 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
        %x2 = arith.mulf %biased, %biased : tensor<?x?xf32>
        %x3 = arith.mulf %x2, %biased : tensor<?x?xf32>
        %cubic = arith.mulf %x3, %k1 : tensor<?x?xf32>
        %inner = arith.addf %biased, %cubic : tensor<?x?xf32>
        %t = arith.mulf %inner, %k2 : tensor<?x?xf32>
        %e = tile.exp2 %t : tensor<?x?xf32>
        %den = arith.addf %one, %e : tensor<?x?xf32>
        %gelu = tile.div %biased, %den : tensor<?x?xf32>
        scf.yield %gelu : tensor<?x?xf32>
      } else {
        scf.yield %biased : tensor<?x?xf32>
      }
      scf.yield %act : tensor<?x?xf32>
    }

    %c_lp = tile.astype %out : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"OUT_DTYPE">>
    tile.store %c_lp, %C[%bid_m, %bid_n]
        : tensor<?x?x!tile.dtype<"OUT_DTYPE">>, !tile.view<?x?x!tile.dtype<"OUT_DTYPE">>
  }
  return
}

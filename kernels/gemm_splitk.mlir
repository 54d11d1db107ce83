// Split-K GEMM for skinny shapes (few rows, long K), with the epilogues of
// kernels/gemm.mlir:
//   C = act(scale * (A @ B) + Bias)
// A [M, K], B [K, N] (or [N, K] with TRANS_B), f16/bf16 in, f32
// accumulation, C f16/bf16/f32; Bias [N] with HAS_BIAS.
//
// Why: with M = 16 and N = K = 8192 a grid of 128-wide tiles has 64 blocks
// on a 132-SM GPU, and each block streams a whole K x BLOCK_N panel of B:
// the kernel is bound by the bytes of B in flight, not by the tensor cores.
// Splitting K over SPLIT_K blocks per tile of C multiplies the blocks (and
// the bytes in flight) by SPLIT_K.
//
// How the partial sums meet, in one launch (CUTLASS's serial split-K, with a
// ticket instead of a turn order): every block adds its f32 partial tile
// into the workspace Work [M, N] with tile atomics, then takes a ticket on
// Locks[tile] (a scalar acq_rel atomic: the block's adds are released before
// it, and the block drawing the last ticket acquires everyone's). That block
// (ticket SPLIT_K - 1) reads the sum, puts the workspace tile and the lock
// back to zero, and runs the epilogue (scale, bias, activation, conversion).
// So Work and Locks must be zero before the first launch (torch.zeros) and
// are zero again after each launch that completes.
//
// The order in which the partial sums are added varies from run to run, so
// the f32 sum's rounding does too (a few ulp of f32 before the conversion).
//
// Parameters (tile.params, bound by tile-specialize):
//   BLOCK_M, BLOCK_N, BLOCK_K  the tile of C and the K step
//   SPLIT_K     blocks per tile of C, each a contiguous range of K steps
//               (1: no workspace traffic, one block per tile)
//   TRANS_B, HAS_BIAS, ACTIVATION, IN_DTYPE, OUT_DTYPE  as kernels/gemm.mlir
//
// Arguments: A, B, C, Bias, Work (f32 [M, N]), Locks (i32, at least one per
// tile of C: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)), and the f32 `scale`.

func.func @gemm_splitk(
    %A: !tile.view<?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "A"},
    %B: !tile.view<?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "B"},
    %C: !tile.view<?x?x!tile.dtype<"OUT_DTYPE">> {tile.name = "C"},
    %Bias: !tile.view<?x!tile.dtype<"OUT_DTYPE">> {tile.name = "Bias"},
    %Work: !tile.view<?x?xf32> {tile.name = "Work"},
    %Locks: !tile.view<?xi32> {tile.name = "Locks"},
    %scale: f32 {tile.name = "scale"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(C.0, BLOCK_M) * cdiv(C.1, BLOCK_N)", "SPLIT_K", "1"],
                     requires = ["C.0 == A.0",
                                 "!TRANS_B || (B.0 == C.1 && B.1 == A.1)",
                                 "TRANS_B || (B.0 == A.1 && B.1 == C.1)",
                                 "!HAS_BIAS || Bias.0 == C.1",
                                 "SPLIT_K == 1 || (Work.0 == C.0 && Work.1 == C.1)",
                                 "SPLIT_K == 1 || Locks.0 >= cdiv(C.0, BLOCK_M) * cdiv(C.1, BLOCK_N)"]},
      tile.params = {BLOCK_M = 64 : i32, BLOCK_N = 128 : i32, BLOCK_K = 64 : i32,
                     SPLIT_K = 4 : i32,
                     TRANS_B = false, HAS_BIAS = false, ACTIVATION = 0 : i32,
                     IN_DTYPE = f16, OUT_DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %block_k = tile.param "BLOCK_K" : i32
  %block_n = tile.param "BLOCK_N" : i32
  %split_k = tile.param "SPLIT_K" : i32
  %trans_b = tile.param "TRANS_B" : i1
  %has_bias = tile.param "HAS_BIAS" : i1
  %activation = tile.param "ACTIVATION" : i32
  %k_size = tile.dim %A[1] : !tile.view<?x?x!tile.dtype<"IN_DTYPE">>
  %num_k = arith.ceildivsi %k_size, %block_k : i32
  %n_size = tile.dim %C[1] : !tile.view<?x?x!tile.dtype<"OUT_DTYPE">>
  %tiles_n = arith.ceildivsi %n_size, %block_n : i32
  // Tiles numbered along N first: the blocks running together share A's
  // few rows and read disjoint panels of B (the bytes that matter).
  %tile = tile.block_id x
  %split = tile.block_id y
  %bid_m = arith.divsi %tile, %tiles_n : i32
  %bid_n = arith.remsi %tile, %tiles_n : i32
  // This block's K steps [k_begin, k_end): SPLIT_K ranges of equal length
  // (the last ones shorter or empty).
  %k_per = arith.ceildivsi %num_k, %split_k : i32
  %k_first = arith.muli %split, %k_per : i32
  %k_begin = arith.minsi %k_first, %num_k : i32
  %k_last = arith.addi %k_begin, %k_per : i32
  %k_end = arith.minsi %k_last, %num_k : i32

  %acc_init = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
  %acc = scf.for %k = %k_begin to %k_end step %c1 iter_args(%acc_i = %acc_init)
      -> (tensor<?x?xf32>) : i32 {
    %a = tile.load %A[%bid_m, %k] shape [BLOCK_M, BLOCK_K] latency 4
        : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
    %b = scf.if %trans_b -> tensor<?x?x!tile.dtype<"IN_DTYPE">> {
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

  // The sum of the SPLIT_K partial tiles, in the block that finishes last.
  %is_split = arith.cmpi sgt, %split_k, %c1 : i32
  %last_ticket = arith.subi %split_k, %c1 : i32
  %done:2 = scf.if %is_split -> (i1, tensor<?x?xf32>) {
    tile.atomic add %acc, %Work[%bid_m, %bid_n] : tensor<?x?xf32>, !tile.view<?x?xf32>
    %ticket = tile.atomic add %c1, %Locks[%tile] sem acq_rel
        : i32, !tile.view<?xi32> -> i32
    %is_last = arith.cmpi eq, %ticket, %last_ticket : i32
    %sum = scf.if %is_last -> tensor<?x?xf32> {
      %total = tile.load %Work[%bid_m, %bid_n] shape [BLOCK_M, BLOCK_N]
          : !tile.view<?x?xf32> -> tensor<?x?xf32>
      %zeros = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
      tile.store %zeros, %Work[%bid_m, %bid_n] : tensor<?x?xf32>, !tile.view<?x?xf32>
      %unlock = tile.splat %c0 shape [1] : i32 -> tensor<1xi32>
      tile.store %unlock, %Locks at [%tile] : tensor<1xi32>, !tile.view<?xi32>
      scf.yield %total : tensor<?x?xf32>
    } else {
      scf.yield %acc : tensor<?x?xf32>
    }
    scf.yield %is_last, %sum : i1, tensor<?x?xf32>
  } else {
    %true = arith.constant true
    scf.yield %true, %acc : i1, tensor<?x?xf32>
  }

  scf.if %done#0 {
    // Epilogue in f32: scale, bias, activation.
    %scale_t = tile.splat %scale shape [BLOCK_M, BLOCK_N] : f32 -> tensor<?x?xf32>
    %scaled = arith.mulf %done#1, %scale_t : tensor<?x?xf32>
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

// FP8 GEMM with scales, written once for every variant:
//   C = act((A @ B^T) * sa * sb + Bias)
// A [M, K] and B [N, K], both fp8 (IN_DTYPE: f8E4M3FN, or f8E5M2) and both
// K-major in memory: Hopper's fp8 wgmma (m64nNk32) reads both operands
// K-major from shared memory and has no transposed form, so B comes as
// [N, K] (PyTorch's `torch._scaled_mm(a, b.t(), ...)` with b [N, K]). The
// products accumulate in f32 on the tensor cores; the scales and the rest
// of the epilogue run in f32 and C is OUT_DTYPE (bf16, f16 or f32).
//
// Scales (f32, in device memory, as torch._scaled_mm takes them):
//   ScaleA  [1] per tensor, or [M] with ROW_SCALE (sa = ScaleA[m])
//   ScaleB  [1] per tensor, or [N] with COL_SCALE (sb = ScaleB[n])
// A per-tensor scale is read once per block (tile.read), a per-row or
// per-column scale as a [BLOCK_M] or [BLOCK_N] tile broadcast over the
// accumulator, as the gemm's bias is.
//
// The tile walk is kernels/gemm.mlir's: BLOCK_M x BLOCK_N tiles of C in
// grouped order (GROUP_M rows of tiles, column by column, for L2 reuse),
// block b takes tiles b, b + blocks, ... (persistent with MAX_BLOCKS = the
// number of SMs), K in steps of BLOCK_K. BLOCK_K = 128 fp8 elements is one
// 128-byte row of the 128B swizzle, the same bytes as the f16 GEMM's 64:
// the TMA boxes are 128 elements wide and each stage holds as many bytes
// as an f16 stage of half the K. M, N and K need not be multiples of the
// tiles: loads past the edges read zeros (TMA fills them), which add
// nothing, and stores past the edges are dropped. The views must be
// 16-byte aligned with row strides a multiple of 16 bytes (K % 16 == 0
// for fp8), as TMA requires.
//
// Parameters (tile.params, bound by tile-specialize):
//   BLOCK_M, BLOCK_N, BLOCK_K  the tile of C and the K step (K step a
//                              multiple of 32, the fp8 wgmma's K)
//   GROUP_M     rows of tiles in a group of the tile order
//   MAX_BLOCKS  the most blocks launched (the number of SMs: persistent)
//   ROW_SCALE   ScaleA has one scale per row of A (else one for all)
//   COL_SCALE   ScaleB has one scale per row of B (column of C)
//   PROMOTE     two-level accumulation: each K step's products go into a
//               fresh accumulator that is added to the running f32 sum
//               (twice the accumulator registers: 128x128 tiles)
//   HAS_BIAS    add Bias[n] to column n (after the scales)
//   ACTIVATION  0 none, 1 ReLU, 2 GELU (tanh approximation)
//   IN_DTYPE    f8E4M3FN (e4m3) or f8E5M2 (e5m2)
//   OUT_DTYPE   element type of C and Bias (bf16, f16 or f32)
//
// Only sm_90a runs it (wgmma); elsewhere tilegpu-assign-layouts says that
// fp8 needs wgmma. The sm_90 hints are the f16 GEMM's: a producer
// warpgroup issuing TMA copies, and C stored through shared memory.

func.func @gemm_fp8(
    %A: !tile.view<?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "A"},
    %B: !tile.view<?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "B"},
    %C: !tile.view<?x?x!tile.dtype<"OUT_DTYPE">> {tile.name = "C"},
    %ScaleA: !tile.view<?xf32> {tile.name = "ScaleA"},
    %ScaleB: !tile.view<?xf32> {tile.name = "ScaleB"},
    %Bias: !tile.view<?x!tile.dtype<"OUT_DTYPE">> {tile.name = "Bias"})
    attributes {
      tile.kernel = {num_warps = 8 : i32, occupancy = 1 : i32,
                     grid = ["min(cdiv(C.0, BLOCK_M) * cdiv(C.1, BLOCK_N), MAX_BLOCKS)",
                             "1", "1"],
                     requires = ["C.0 == A.0", "B.0 == C.1", "B.1 == A.1",
                                 "!ROW_SCALE || ScaleA.0 == C.0",
                                 "ROW_SCALE || ScaleA.0 == 1",
                                 "!COL_SCALE || ScaleB.0 == C.1",
                                 "COL_SCALE || ScaleB.0 == 1",
                                 "!HAS_BIAS || Bias.0 == C.1"],
                     hints = {sm_90 = {warp_specialize = 1 : i32, tma = 1 : i32,
                                       coalesce_stores = 1 : i32}}},
      tile.params = {BLOCK_M = 128 : i32, BLOCK_N = 128 : i32, BLOCK_K = 128 : i32,
                     GROUP_M = 8 : i32, MAX_BLOCKS = 2147483647 : i32,
                     ROW_SCALE = false, COL_SCALE = false, PROMOTE = false,
                     HAS_BIAS = false, ACTIVATION = 0 : i32,
                     IN_DTYPE = f8E4M3FN, OUT_DTYPE = bf16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %one_f = arith.constant 1.0 : f32
  %block_k = tile.param "BLOCK_K" : i32
  %row_scale = tile.param "ROW_SCALE" : i1
  %col_scale = tile.param "COL_SCALE" : i1
  %has_bias = tile.param "HAS_BIAS" : i1
  %promote = tile.param "PROMOTE" : i1
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

  // The per-tensor scales, once per block (1 where the scales are per row
  // or column: those multiply the tile below).
  %sa = scf.if %row_scale -> f32 {
    scf.yield %one_f : f32
  } else {
    %s = tile.read %ScaleA[%c0] : !tile.view<?xf32> -> f32
    scf.yield %s : f32
  }
  %sb = scf.if %col_scale -> f32 {
    scf.yield %one_f : f32
  } else {
    %s = tile.read %ScaleB[%c0] : !tile.view<?xf32> -> f32
    scf.yield %s : f32
  }
  %sab = arith.mulf %sa, %sb : f32

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

    // acc = A[bid_m, :] @ B[bid_n, :]^T, K in steps of BLOCK_K. B's tile is
    // read K x N with `order [1, 0]`: tile dimension 0 walks the view's K
    // (its dimension 1), so it stays K-major in shared memory.
    %acc_init = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
    %acc = scf.for %k = %c0 to %num_k step %c1 iter_args(%acc_i = %acc_init)
        -> (tensor<?x?xf32>) : i32 {
      %a = tile.load %A[%bid_m, %k] shape [BLOCK_M, BLOCK_K] latency 4
          : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
      %b = tile.load %B[%k, %bid_n] shape [BLOCK_K, BLOCK_N] order [1, 0] latency 4
          : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
      %acc_next = scf.if %promote -> tensor<?x?xf32> {
        // Two-level accumulation: this K step's products into a fresh
        // accumulator, added to the running sum in f32 (the fp8 tensor
        // cores keep fewer bits of a long sum than f32 does).
        %zero = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
        %part = tile.mma %a, %b, %zero
            : tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?xf32>
        %sum = arith.addf %acc_i, %part : tensor<?x?xf32>
        scf.yield %sum : tensor<?x?xf32>
      } else {
        %r = tile.mma %a, %b, %acc_i
            : tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?xf32>
        scf.yield %r : tensor<?x?xf32>
      }
      scf.yield %acc_next : tensor<?x?xf32>
    }

    // Epilogue in f32: the scales, bias, activation.
    %sab_t = tile.splat %sab shape [BLOCK_M, BLOCK_N] : f32 -> tensor<?x?xf32>
    %scaled0 = arith.mulf %acc, %sab_t : tensor<?x?xf32>
    %scaled1 = scf.if %row_scale -> tensor<?x?xf32> {
      %rs = tile.load %ScaleA[%bid_m] shape [BLOCK_M]
          : !tile.view<?xf32> -> tensor<?xf32>
      %rs_col = tile.reshape %rs shape [BLOCK_M, 1] : tensor<?xf32> -> tensor<?x1xf32>
      %rs_b = tile.broadcast %rs_col shape [BLOCK_M, BLOCK_N]
          : tensor<?x1xf32> -> tensor<?x?xf32>
      %r = arith.mulf %scaled0, %rs_b : tensor<?x?xf32>
      scf.yield %r : tensor<?x?xf32>
    } else {
      scf.yield %scaled0 : tensor<?x?xf32>
    }
    %scaled = scf.if %col_scale -> tensor<?x?xf32> {
      %cs = tile.load %ScaleB[%bid_n] shape [BLOCK_N]
          : !tile.view<?xf32> -> tensor<?xf32>
      %cs_row = tile.reshape %cs shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
      %cs_b = tile.broadcast %cs_row shape [BLOCK_M, BLOCK_N]
          : tensor<1x?xf32> -> tensor<?x?xf32>
      %r = arith.mulf %scaled1, %cs_b : tensor<?x?xf32>
      scf.yield %r : tensor<?x?xf32>
    } else {
      scf.yield %scaled1 : tensor<?x?xf32>
    }
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
        // GELU as kernels/gemm.mlir computes it: x / (1 + 2^(-2 u log2 e)),
        // u = sqrt(2 / pi) (x + 0.044715 x^3), equal to 0.5 x (1 + tanh(u)).
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

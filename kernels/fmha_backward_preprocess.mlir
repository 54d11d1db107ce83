// Flash-attention backward, step 1 of 3 (FlashAttention-2/3's preprocess):
//   Delta[b, h, m] = sum_d dO[b, h, m, d] * Out[b, h, m, d]   (f32)
//   DQacc[b, h, m, :] = 0                                    (f32)
// One block handles TILE_M query rows of one (batch, head).
//
// Delta is the row term of the softmax backward, dS = P * (dP - Delta):
// rowsum(dO * O) equals rowsum(P * dP) and costs one pass over O instead of
// a second pass over the keys. DQacc is the f32 accumulator that the main
// kernel (fmha_backward.mlir) adds its partial dQ tiles into with atomics;
// it must start at zero, and zeroing it here saves a memset launch.
//
// The forward's LSE (kernels/fmha.mlir, WITH_LSE=true) is already in the
// exp2 domain the main kernel uses (m + log2(l) with m the row max of
// S * qk_scale * log2(e); FLT_MAX for a row that sees no key), so there is
// nothing to convert: the main kernel reads it as it is.
//
// With DQ_TRANSPOSED the accumulator is [B, H, D, Sq] (the main kernel
// with two consumer warpgroups adds dQ^T into it).
//
// Parameters: TILE_M (rows per block), HEAD_DIM (D), DTYPE (f16 or bf16),
// DQ_TRANSPOSED. Arguments: Out and dO [B, H, Sq, D] (DTYPE), Delta
// [B, H, Sq] (f32), DQacc [B, H, Sq, D] (f32; [B, H, D, Sq] with
// DQ_TRANSPOSED).

func.func @fmha_backward_preprocess(
    %Out: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "Out"},
    %dO: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "dO"},
    %Delta: !tile.view<?x?x?xf32> {tile.name = "Delta", tile.align = 4 : i64},
    %DQacc: !tile.view<?x?x?x?xf32> {tile.name = "DQacc"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(Out.2, TILE_M)", "Out.0 * Out.1", "1"],
                     requires = ["Out.3 == HEAD_DIM", "dO.3 == HEAD_DIM",
                                 "dO.2 == Out.2", "dO.1 == Out.1",
                                 "dO.0 == Out.0",
                                 "DQ_TRANSPOSED || (DQacc.3 == HEAD_DIM && DQacc.2 == Out.2)",
                                 "!DQ_TRANSPOSED || (DQacc.2 == HEAD_DIM && DQacc.3 == Out.2)"]},
      tile.params = {TILE_M = 64 : i32, HEAD_DIM = 128 : i32,
                     DTYPE = f16, DQ_TRANSPOSED = false}} {
  %c0 = arith.constant 0 : i32
  %bid_x = tile.block_id x
  %bid_y = tile.block_id y
  %num_heads = tile.dim %Out[1] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %batch = arith.divsi %bid_y, %num_heads : i32
  %head = arith.remsi %bid_y, %num_heads : i32

  // Rows past Sq read 0 and their Delta is not stored.
  %o4 = tile.load %Out[%batch, %head, %bid_x, %c0] shape [1, 1, TILE_M, HEAD_DIM]
      : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
  %do4 = tile.load %dO[%batch, %head, %bid_x, %c0] shape [1, 1, TILE_M, HEAD_DIM]
      : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
  %o = tile.astype %o4 : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?xf32>
  %do = tile.astype %do4 : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?xf32>
  %prod = arith.mulf %o, %do : tensor<1x1x?x?xf32>
  %delta = tile.reduce %prod sum axis 3 : tensor<1x1x?x?xf32> -> tensor<1x1x?xf32>
  tile.store %delta, %Delta[%batch, %head, %bid_x]
      : tensor<1x1x?xf32>, !tile.view<?x?x?xf32>

  %dq_transposed = tile.param "DQ_TRANSPOSED" : i1
  scf.if %dq_transposed {
    %zero_t = tile.full 0.0 shape [1, 1, HEAD_DIM, TILE_M] : tensor<1x1x?x?xf32>
    tile.store %zero_t, %DQacc[%batch, %head, %c0, %bid_x]
        : tensor<1x1x?x?xf32>, !tile.view<?x?x?x?xf32>
  } else {
    %zero = tile.full 0.0 shape [1, 1, TILE_M, HEAD_DIM] : tensor<1x1x?x?xf32>
    tile.store %zero, %DQacc[%batch, %head, %bid_x, %c0]
        : tensor<1x1x?x?xf32>, !tile.view<?x?x?x?xf32>
  }
  return
}

// Flash-attention backward, step 3 of 3 (FlashAttention-2/3's
// postprocess): dQ = DQacc * qk_scale, converted to DTYPE.
// One block handles TILE_M query rows of one (batch, head).
//
// The main kernel (fmha_backward.mlir) accumulates dS K without the softmax
// scale (dS is the gradient of the scaled scores); the scale is applied once
// here rather than on every partial tile.
//
// With DQ_TRANSPOSED the accumulator is [B, H, D, Sq] (the main kernel
// with two consumer warpgroups adds dQ^T into it): it is read with `order`.
//
// Parameters: TILE_M (rows per block), HEAD_DIM (D), DTYPE (f16 or bf16),
// DQ_TRANSPOSED. Arguments: DQacc [B, H, Sq, D] (f32; [B, H, D, Sq] with
// DQ_TRANSPOSED), dQ [B, H, Sq, D] (DTYPE), the softmax scale qk_scale (the
// forward's).

func.func @fmha_backward_postprocess(
    %DQacc: !tile.view<?x?x?x?xf32> {tile.name = "DQacc"},
    %dQ: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "dQ"},
    %qk_scale: f32 {tile.name = "qk_scale"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(dQ.2, TILE_M)", "dQ.0 * dQ.1", "1"],
                     requires = ["dQ.3 == HEAD_DIM",
                                 "DQ_TRANSPOSED || (DQacc.3 == HEAD_DIM && DQacc.2 == dQ.2)",
                                 "!DQ_TRANSPOSED || (DQacc.2 == HEAD_DIM && DQacc.3 == dQ.2)",
                                 "DQacc.1 == dQ.1", "DQacc.0 == dQ.0"]},
      tile.params = {TILE_M = 64 : i32, HEAD_DIM = 128 : i32,
                     DTYPE = f16, DQ_TRANSPOSED = false}} {
  %c0 = arith.constant 0 : i32
  %bid_x = tile.block_id x
  %bid_y = tile.block_id y
  %num_heads = tile.dim %dQ[1] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %batch = arith.divsi %bid_y, %num_heads : i32
  %head = arith.remsi %bid_y, %num_heads : i32

  %dq_transposed = tile.param "DQ_TRANSPOSED" : i1
  %acc = scf.if %dq_transposed -> tensor<1x1x?x?xf32> {
    %t = tile.load %DQacc[%batch, %head, %bid_x, %c0] shape [1, 1, TILE_M, HEAD_DIM]
        order [0, 1, 3, 2]
        : !tile.view<?x?x?x?xf32> -> tensor<1x1x?x?xf32>
    scf.yield %t : tensor<1x1x?x?xf32>
  } else {
    %t = tile.load %DQacc[%batch, %head, %bid_x, %c0] shape [1, 1, TILE_M, HEAD_DIM]
        : !tile.view<?x?x?x?xf32> -> tensor<1x1x?x?xf32>
    scf.yield %t : tensor<1x1x?x?xf32>
  }
  %scale = tile.splat %qk_scale shape [1, 1, TILE_M, HEAD_DIM] : f32 -> tensor<1x1x?x?xf32>
  %dq = arith.mulf %acc, %scale : tensor<1x1x?x?xf32>
  %dq_lp = tile.astype %dq : tensor<1x1x?x?xf32> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
  tile.store %dq_lp, %dQ[%batch, %head, %bid_x, %c0]
      : tensor<1x1x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  return
}

// A small GEMM with the ABI of kernels/gemm.mlir (BRIEF contract C5),
// C = act(scale * (A @ B) + Bias): a fixture for tile-runner's gemm problem
// on the cpu backend, not the repository's kernel. Activation 0 or 1 (ReLU).
func.func @gemm(%A: !tile.view<?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "A"},
                %B: !tile.view<?x?x!tile.dtype<"IN_DTYPE">> {tile.name = "B"},
                %C: !tile.view<?x?x!tile.dtype<"OUT_DTYPE">> {tile.name = "C"},
                %Bias: !tile.view<?x!tile.dtype<"OUT_DTYPE">> {tile.name = "Bias"},
                %scale: f32 {tile.name = "scale"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(C.1, BLOCK_N)", "cdiv(C.0, BLOCK_M)", "1"],
                     requires = ["A.0 == C.0", "TRANS_B == 0 || (B.1 == A.1 && B.0 == C.1)",
                                 "TRANS_B == 1 || (B.0 == A.1 && B.1 == C.1)",
                                 "HAS_BIAS == 0 || Bias.0 == C.1", "ACTIVATION <= 1"]},
      tile.params = {BLOCK_M = 16 : i32, BLOCK_N = 16 : i32, BLOCK_K = 16 : i32,
                     TRANS_B = false, HAS_BIAS = false, ACTIVATION = 0 : i32,
                     IN_DTYPE = f16, OUT_DTYPE = f32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bk = tile.param "BLOCK_K" : i32
  %trans_b = tile.param "TRANS_B" : i1
  %has_bias = tile.param "HAS_BIAS" : i1
  %act = tile.param "ACTIVATION" : i32
  %bn = tile.block_id x
  %bm = tile.block_id y
  %k = tile.dim %A[1] : !tile.view<?x?x!tile.dtype<"IN_DTYPE">>
  %nk = arith.ceildivsi %k, %bk : i32
  %zero = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
  %acc = scf.for %kt = %c0 to %nk step %c1 iter_args(%a_acc = %zero) -> (tensor<?x?xf32>) : i32 {
    %a = tile.load %A[%bm, %kt] shape [BLOCK_M, BLOCK_K]
        : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
    %b = scf.if %trans_b -> tensor<?x?x!tile.dtype<"IN_DTYPE">> {
      %bt = tile.load %B[%kt, %bn] shape [BLOCK_K, BLOCK_N] order [1, 0]
          : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
      scf.yield %bt : tensor<?x?x!tile.dtype<"IN_DTYPE">>
    } else {
      %bb = tile.load %B[%kt, %bn] shape [BLOCK_K, BLOCK_N]
          : !tile.view<?x?x!tile.dtype<"IN_DTYPE">> -> tensor<?x?x!tile.dtype<"IN_DTYPE">>
      scf.yield %bb : tensor<?x?x!tile.dtype<"IN_DTYPE">>
    }
    %next = tile.mma %a, %b, %a_acc
        : tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?x!tile.dtype<"IN_DTYPE">>, tensor<?x?xf32>
    scf.yield %next : tensor<?x?xf32>
  }
  %s = tile.splat %scale shape [BLOCK_M, BLOCK_N] : f32 -> tensor<?x?xf32>
  %scaled = arith.mulf %acc, %s : tensor<?x?xf32>
  %biased = scf.if %has_bias -> tensor<?x?xf32> {
    %bias = tile.load %Bias[%bn] shape [BLOCK_N]
        : !tile.view<?x!tile.dtype<"OUT_DTYPE">> -> tensor<?x!tile.dtype<"OUT_DTYPE">>
    %bias32 = tile.astype %bias : tensor<?x!tile.dtype<"OUT_DTYPE">> -> tensor<?xf32>
    %bias2 = tile.reshape %bias32 shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
    %biasb = tile.broadcast %bias2 shape [BLOCK_M, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>
    %sum = arith.addf %scaled, %biasb : tensor<?x?xf32>
    scf.yield %sum : tensor<?x?xf32>
  } else {
    scf.yield %scaled : tensor<?x?xf32>
  }
  %is_relu = arith.cmpi eq, %act, %c1 : i32
  %out = scf.if %is_relu -> tensor<?x?xf32> {
    %r = arith.maximumf %biased, %zero : tensor<?x?xf32>
    scf.yield %r : tensor<?x?xf32>
  } else {
    scf.yield %biased : tensor<?x?xf32>
  }
  %o = tile.astype %out : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"OUT_DTYPE">>
  tile.store %o, %C[%bm, %bn] : tensor<?x?x!tile.dtype<"OUT_DTYPE">>, !tile.view<?x?x!tile.dtype<"OUT_DTYPE">>
  return
}

// C = A^T B^T with both operands the permutes of plain loads: A is stored
// [K, M] and B [N, K] (a weight-gradient GEMM, dW = X^T dY, has this A).
// Each mma operand is `tile.permute [1, 0]` of a tile loaded as it is
// stored, so the compiler reads the load's shared buffer transposed
// (tilegpu.mma transpose_a / transpose_b): no second buffer, no copy.
// A K loop with `latency` hints, so the buffers are pipelined (and on
// sm_90a fed by TMA from a producer warpgroup) as in the real kernels.
// test/Kernels/mma-transposed.test runs it on the CPU executor and
// compiles it for sm_80 and sm_90a.
//
// Parameters: BLOCK_M, BLOCK_N, BLOCK_K (the tile of C and the K step),
// DTYPE (f16 or bf16). Arguments: A [K, M], B [N, K] (DTYPE), C [M, N]
// (f32).

func.func @mma_transposed(
    %A: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "A"},
    %B: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "B"},
    %C: !tile.view<?x?xf32> {tile.name = "C"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(C.0, BLOCK_M)", "cdiv(C.1, BLOCK_N)", "1"],
                     requires = ["A.1 == C.0", "B.0 == C.1", "A.0 == B.1"]},
      tile.params = {BLOCK_M = 64 : i32, BLOCK_N = 64 : i32, BLOCK_K = 64 : i32,
                     DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %block_k = tile.param "BLOCK_K" : i32
  %bid_m = tile.block_id x
  %bid_n = tile.block_id y
  %k_size = tile.dim %A[0] : !tile.view<?x?x!tile.dtype<"DTYPE">>
  %num_k = arith.ceildivsi %k_size, %block_k : i32
  %zero = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
  %acc = scf.for %k = %c0 to %num_k step %c1 iter_args(%c = %zero)
      -> (tensor<?x?xf32>) : i32 {
    // A's [BLOCK_K, BLOCK_M] tile as stored (M contiguous), B's
    // [BLOCK_N, BLOCK_K] (K contiguous); the mma takes their transposes.
    %a = tile.load %A[%k, %bid_m] shape [BLOCK_K, BLOCK_M] latency 2
        : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %b = tile.load %B[%bid_n, %k] shape [BLOCK_N, BLOCK_K] latency 2
        : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %at = tile.permute %a [1, 0]
        : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %bt = tile.permute %b [1, 0]
        : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %d = tile.mma %at, %bt, %c
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
    scf.yield %d : tensor<?x?xf32>
  }
  tile.store %acc, %C[%bid_m, %bid_n] : tensor<?x?xf32>, !tile.view<?x?xf32>
  return
}

// C = act(A @ (B * scale) + bias) (a stand-in for kernels/gemm.mlir): a
// K loop of mma.sync/wgmma whose B operand is computed in registers (scaled
// in f32, rounded to f16) and staged by tilegpu.local_store, a 1-d bias
// broadcast over the rows, ReLU, a masked store of the edges.
func.func @gemm(%A: !tile.view<?x?xf16> {tile.name = "A"},
                %B: !tile.view<?x?xf16> {tile.name = "B"},
                %C: !tile.view<?x?xf16> {tile.name = "C"},
                %Bias: !tile.view<?xf32> {tile.name = "Bias"},
                %scale: f32 {tile.name = "scale"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(C.0, BLOCK_M)", "cdiv(C.1, BLOCK_N)", "1"]},
                tile.params = {BLOCK_M = 64 : i32, BLOCK_N = 64 : i32,
                               BLOCK_K = 32 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bm = tile.block_id x
  %bn = tile.block_id y
  %k = tile.dim %A[1] : !tile.view<?x?xf16>
  %bk = tile.param "BLOCK_K" : i32
  %steps = arith.ceildivsi %k, %bk : i32
  %scale_t = tile.splat %scale shape [BLOCK_K, BLOCK_N] : f32 -> tensor<?x?xf32>
  %zero = tile.full 0.0 shape [BLOCK_M, BLOCK_N] : tensor<?x?xf32>
  %acc = scf.for %kk = %c0 to %steps step %c1 iter_args(%c = %zero)
      -> (tensor<?x?xf32>) : i32 {
    %a = tile.load %A[%bm, %kk] shape [BLOCK_M, BLOCK_K] latency 2
        : !tile.view<?x?xf16> -> tensor<?x?xf16>
    %b = tile.load %B[%kk, %bn] shape [BLOCK_K, BLOCK_N]
        : !tile.view<?x?xf16> -> tensor<?x?xf16>
    %bf = tile.astype %b : tensor<?x?xf16> -> tensor<?x?xf32>
    %bs = arith.mulf %bf, %scale_t : tensor<?x?xf32>
    %bh = tile.astype %bs : tensor<?x?xf32> -> tensor<?x?xf16>
    %d = tile.mma %a, %bh, %c : tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf32>
    scf.yield %d : tensor<?x?xf32>
  }
  %bias = tile.load %Bias[%bn] shape [BLOCK_N] : !tile.view<?xf32> -> tensor<?xf32>
  %bias2 = tile.reshape %bias shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
  %bias_b = tile.broadcast %bias2 shape [BLOCK_M, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>
  %biased = arith.addf %acc, %bias_b : tensor<?x?xf32>
  %relu = arith.maximumf %biased, %zero : tensor<?x?xf32>
  %out = tile.astype %relu : tensor<?x?xf32> -> tensor<?x?xf16>
  tile.store %out, %C[%bm, %bn] : tensor<?x?xf16>, !tile.view<?x?xf16>
  return
}

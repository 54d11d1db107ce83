// A small LayerNorm / RMSNorm with the ABI of kernels/layernorm.mlir (BRIEF
// contract C5): a fixture for tile-runner's layernorm problem on the cpu
// backend, not the repository's kernel. One row per block, the whole row in
// one tile (padding zero: the sums are unaffected).
func.func @layernorm(%X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
                     %W: !tile.view<?x!tile.dtype<"DTYPE">> {tile.name = "W"},
                     %B: !tile.view<?x!tile.dtype<"DTYPE">> {tile.name = "B"},
                     %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"},
                     %Mean: !tile.view<?xf32> {tile.name = "Mean", tile.align = 4 : i64},
                     %Rstd: !tile.view<?xf32> {tile.name = "Rstd", tile.align = 4 : i64},
                     %eps: f32 {tile.name = "eps"})
    attributes {
      tile.kernel = {num_warps = 4 : i32, grid = ["X.0", "1", "1"],
                     requires = ["X.1 <= BLOCK_N"]},
      tile.params = {BLOCK_N = 128 : i32, RMS = false, DTYPE = f32}} {
  %c0 = arith.constant 0 : i32
  %rms = tile.param "RMS" : i1
  %row = tile.block_id x
  %n = tile.dim %X[1] : !tile.view<?x?x!tile.dtype<"DTYPE">>
  %nf = arith.sitofp %n : i32 to f32
  %nt = tile.splat %nf shape [1, 1] : f32 -> tensor<1x1xf32>
  %x = tile.load %X[%row, %c0] shape [1, BLOCK_N]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<1x?x!tile.dtype<"DTYPE">>
  %xf = tile.astype %x : tensor<1x?x!tile.dtype<"DTYPE">> -> tensor<1x?xf32>
  %cols = tile.iota shape [1, BLOCK_N] dim 1 : tensor<1x?xi32>
  %nb = tile.splat %n shape [1, BLOCK_N] : i32 -> tensor<1x?xi32>
  %inside = arith.cmpi slt, %cols, %nb : tensor<1x?xi32>
  %zeros = tile.full 0.0 shape [1, BLOCK_N] : tensor<1x?xf32>
  %sum = tile.reduce %xf sum axis 1 keepdims : tensor<1x?xf32> -> tensor<1x1xf32>
  %mean = tile.div %sum, %nt : tensor<1x1xf32>
  %zero1 = tile.full 0.0 shape [1, 1] : tensor<1x1xf32>
  %center = arith.select %rms, %zero1, %mean : tensor<1x1xf32>
  %cb = tile.broadcast %center shape [1, BLOCK_N] : tensor<1x1xf32> -> tensor<1x?xf32>
  %d0 = arith.subf %xf, %cb : tensor<1x?xf32>
  %d = tile.select %inside, %d0, %zeros : tensor<1x?xi1>, tensor<1x?xf32>
  %sq = arith.mulf %d, %d : tensor<1x?xf32>
  %ss = tile.reduce %sq sum axis 1 keepdims : tensor<1x?xf32> -> tensor<1x1xf32>
  %var = tile.div %ss, %nt : tensor<1x1xf32>
  %epst = tile.splat %eps shape [1, 1] : f32 -> tensor<1x1xf32>
  %ve = arith.addf %var, %epst : tensor<1x1xf32>
  %sd = math.sqrt %ve : tensor<1x1xf32>
  %one = tile.full 1.0 shape [1, 1] : tensor<1x1xf32>
  %rstd = tile.div %one, %sd : tensor<1x1xf32>
  %rb = tile.broadcast %rstd shape [1, BLOCK_N] : tensor<1x1xf32> -> tensor<1x?xf32>
  %xhat = arith.mulf %d, %rb : tensor<1x?xf32>
  %w = tile.load %W[%c0] shape [BLOCK_N]
      : !tile.view<?x!tile.dtype<"DTYPE">> -> tensor<?x!tile.dtype<"DTYPE">>
  %w32 = tile.astype %w : tensor<?x!tile.dtype<"DTYPE">> -> tensor<?xf32>
  %w2 = tile.reshape %w32 shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
  %yw = arith.mulf %xhat, %w2 : tensor<1x?xf32>
  %y = scf.if %rms -> tensor<1x?xf32> {
    scf.yield %yw : tensor<1x?xf32>
  } else {
    %b = tile.load %B[%c0] shape [BLOCK_N]
        : !tile.view<?x!tile.dtype<"DTYPE">> -> tensor<?x!tile.dtype<"DTYPE">>
    %b32 = tile.astype %b : tensor<?x!tile.dtype<"DTYPE">> -> tensor<?xf32>
    %b2 = tile.reshape %b32 shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
    %yb = arith.addf %yw, %b2 : tensor<1x?xf32>
    scf.yield %yb : tensor<1x?xf32>
  }
  %yo = tile.astype %y : tensor<1x?xf32> -> tensor<1x?x!tile.dtype<"DTYPE">>
  tile.store %yo, %Y[%row, %c0]
      : tensor<1x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  %r1 = tile.reshape %rstd shape [1] : tensor<1x1xf32> -> tensor<1xf32>
  tile.store %r1, %Rstd[%row] : tensor<1xf32>, !tile.view<?xf32>
  scf.if %rms {
  } else {
    %m1 = tile.reshape %mean shape [1] : tensor<1x1xf32> -> tensor<1xf32>
    tile.store %m1, %Mean[%row] : tensor<1xf32>, !tile.view<?xf32>
  }
  return
}

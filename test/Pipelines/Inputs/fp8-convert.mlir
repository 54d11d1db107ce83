// fp8 conversions on the GPU (test/Pipelines/gemm-fp8.test): f32 -> e4m3
// and e5m2 (cvt.rn.satfinite), e4m3 -> bf16 (cvt.rn.f16x2 then f16 -> bf16).
func.func @fp8_convert(%X: !tile.view<?x?xf32> {tile.name = "X"},
                       %E: !tile.view<?x?xf8E4M3FN> {tile.name = "E"},
                       %D: !tile.view<?x?xf8E5M2> {tile.name = "D"},
                       %Y: !tile.view<?x?xbf16> {tile.name = "Y"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(X.0, 64)", "1", "1"],
                               requires = ["E.0 == X.0", "E.1 == X.1",
                                           "D.0 == X.0", "D.1 == X.1",
                                           "Y.0 == X.0", "Y.1 == X.1"]}} {
  %c0 = arith.constant 0 : i32
  %bid = tile.block_id x
  %x = tile.load %X[%bid, %c0] shape [64, 64] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %e = tile.astype %x : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>
  tile.store %e, %E[%bid, %c0] : tensor<64x64xf8E4M3FN>, !tile.view<?x?xf8E4M3FN>
  %d = tile.astype %x : tensor<64x64xf32> -> tensor<64x64xf8E5M2>
  tile.store %d, %D[%bid, %c0] : tensor<64x64xf8E5M2>, !tile.view<?x?xf8E5M2>
  %y = tile.astype %e : tensor<64x64xf8E4M3FN> -> tensor<64x64xbf16>
  tile.store %y, %Y[%bid, %c0] : tensor<64x64xbf16>, !tile.view<?x?xbf16>
  return
}

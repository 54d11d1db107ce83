// A small kernel that uses every register-level lowering whose PTX comes
// from an NVVM intrinsic (exp2, log2, every division variant, row
// reductions, broadcasts) around one tensor-core mma, so that ptxas checks
// each intrinsic's PTX. One warp, 16x16 tiles. Q and K are loaded as the
// attention kernel loads them, with a unit dimension reshaped away (a 2-d
// load feeding tile.mma directly is not staged: tilegpu-lower-memory-ops
// leaves a same-shape tile.reshape between them).
func.func @elementwise(%Q: !tile.view<?x?x?xf16> {tile.name = "Q"},
                       %K: !tile.view<?x?x?xf16> {tile.name = "K"},
                       %O: !tile.view<?x?xf16> {tile.name = "O"},
                       %R: !tile.view<?xf32> {tile.name = "R"})
    attributes {tile.kernel = {num_warps = 1 : i32, grid = ["1", "1", "1"]}} {
  %c0 = arith.constant 0 : i32
  %q3 = tile.load %Q[%c0, %c0, %c0] shape [1, 16, 16]
      : !tile.view<?x?x?xf16> -> tensor<1x16x16xf16>
  %q = tile.reshape %q3 shape [16, 16] : tensor<1x16x16xf16> -> tensor<16x16xf16>
  %k3 = tile.load %K[%c0, %c0, %c0] shape [1, 16, 16] order [0, 2, 1]
      : !tile.view<?x?x?xf16> -> tensor<1x16x16xf16>
  %k = tile.reshape %k3 shape [16, 16] : tensor<1x16x16xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %s = tile.mma %q, %k, %z : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  %m = tile.reduce %s max axis 1 keepdims : tensor<16x16xf32> -> tensor<16x1xf32>
  %mb = tile.broadcast %m shape [16, 16] : tensor<16x1xf32> -> tensor<16x16xf32>
  %x = arith.subf %s, %mb : tensor<16x16xf32>
  %e1 = tile.exp2 %x flush_to_zero : tensor<16x16xf32>
  %e2 = tile.exp2 %e1 : tensor<16x16xf32>
  %e3 = math.exp2 %e2 : tensor<16x16xf32>
  %e4 = math.log2 %e3 : tensor<16x16xf32>
  %d1 = tile.div %e4, %s : tensor<16x16xf32>
  %d2 = tile.div %d1, %s rounding approx : tensor<16x16xf32>
  %d3 = tile.div %d2, %s rounding approx flush_to_zero : tensor<16x16xf32>
  %d4 = tile.div %d3, %s rounding full : tensor<16x16xf32>
  %d5 = tile.div %d4, %s rounding full flush_to_zero : tensor<16x16xf32>
  %d6 = tile.div %d5, %s flush_to_zero : tensor<16x16xf32>
  %l = tile.reduce %d6 sum axis 1 keepdims : tensor<16x16xf32> -> tensor<16x1xf32>
  %o = tile.astype %d6 : tensor<16x16xf32> -> tensor<16x16xf16>
  tile.store %o, %O[%c0, %c0] : tensor<16x16xf16>, !tile.view<?x?xf16>
  %l1 = tile.reshape %l shape [16] : tensor<16x1xf32> -> tensor<16xf32>
  tile.store %l1, %R[%c0] : tensor<16xf32>, !tile.view<?xf32>
  return
}

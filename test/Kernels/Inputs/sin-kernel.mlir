// A valid attention-shaped kernel with an op the executor does not model
// (fmha-errors.test): math.sin on line 13.
func.func @fmha(%Q: !tile.view<?x?x?x?xf16> {tile.name = "Q"},
                %K: !tile.view<?x?x?x?xf16> {tile.name = "K"},
                %V: !tile.view<?x?x?x?xf16> {tile.name = "V"},
                %Out: !tile.view<?x?x?x?xf16> {tile.name = "Out"},
                %Lse: !tile.view<?x?x?xf32> {tile.name = "Lse"},
                %qk_scale: f32 {tile.name = "qk_scale"},
                %input_pos: i32 {tile.name = "input_pos"})
    attributes {tile.kernel = {grid = ["Q.2", "1", "1"]}} {
  %c0 = arith.constant 0 : i32
  %x = tile.full 1.0 shape [1, 1, 1, 64] : tensor<1x1x1x64xf32>
  %y = math.sin %x : tensor<1x1x1x64xf32>
  %z = tile.astype %y : tensor<1x1x1x64xf32> -> tensor<1x1x1x64xf16>
  tile.store %z, %Out[%c0, %c0, %c0, %c0] : tensor<1x1x1x64xf16>, !tile.view<?x?x?x?xf16>
  return
}

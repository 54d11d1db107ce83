// The math functions that lower without libdevice, on f32 and f16 tiles, for
// math-ptxas.test.
func.func @math(%X: !tile.view<?xf32> {tile.name = "X"}, %Y: !tile.view<?xf32> {tile.name = "Y"})
    attributes {tile.kernel = {num_warps = 4 : i32, grid = ["cdiv(X.0, 256)", "1", "1"]}} {
  %bx = tile.block_id x
  %x = tile.load %X[%bx] shape [256] : !tile.view<?xf32> -> tensor<256xf32>
  %a = math.absf %x : tensor<256xf32>
  %s = math.sqrt %a : tensor<256xf32>
  %f = math.floor %s : tensor<256xf32>
  %c = math.ceil %x : tensor<256xf32>
  %cs = math.copysign %f, %c : tensor<256xf32>
  %h = tile.astype %cs : tensor<256xf32> -> tensor<256xf16>
  %ha = math.absf %h : tensor<256xf16>
  %hc = math.copysign %ha, %h : tensor<256xf16>
  %y = tile.astype %hc : tensor<256xf16> -> tensor<256xf32>
  tile.store %y, %Y[%bx] : tensor<256xf32>, !tile.view<?xf32>
  return
}

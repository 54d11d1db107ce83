// A kernel that divides by a parameter bound to 0 (hostile-inputs.test).
func.func @div_zero(%X: !tile.view<?xi32> {tile.name = "X"})
    attributes {tile.kernel = {grid = ["1", "1", "1"]}, tile.params = {D = 3 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tile.load %X[%c0] shape [16] : !tile.view<?xi32> -> tensor<16xi32>
  %d = tile.param "D" : i32
  %s = tile.splat %d shape [16] : i32 -> tensor<16xi32>
  %q = arith.divsi %a, %s : tensor<16xi32>
  tile.store %q, %X[%c0] : tensor<16xi32>, !tile.view<?xi32>
  return
}

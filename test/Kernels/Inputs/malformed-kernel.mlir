// A kernel with a syntax error on line 5 (fmha-errors.test).
func.func @fmha(%Q: !tile.view<?x?x?x?xf16> {tile.name = "Q"})
    attributes {tile.kernel = {grid = ["1", "1", "1"]}} {
  %c0 = arith.constant 0 : i32
  %x = tile.load %Q[%c0, %c0, %c0 shape [1, 1, 1, 1]
  return
}

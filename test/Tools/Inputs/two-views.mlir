// Two rank-3 views (the input of tile-exec-arguments.test).
func.func @two(%A: !tile.view<?x?x?xf32> {tile.name = "A"},
               %B: !tile.view<?x?x?xi8> {tile.name = "B"}) {
  return
}

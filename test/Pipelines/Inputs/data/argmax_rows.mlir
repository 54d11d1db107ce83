// Per row of X: the index of its largest element and its smallest value
// (a whole row in one tile, BLOCK_N >= N; columns past N pad with -inf for
// the argmax and +inf for the min, so they never win).
func.func @argmax_rows(%X: !tile.view<?x?xf32> {tile.name = "X"},
                       %Idx: !tile.view<?xi32> {tile.name = "Idx"},
                       %Min: !tile.view<?xf32> {tile.name = "Min"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(X.0, ROWS)", "1", "1"],
                               requires = ["X.1 <= BLOCK_N"]},
                tile.params = {ROWS = 4 : i32, BLOCK_N = 256 : i32}} {
  %c0 = arith.constant 0 : i32
  %bx = tile.block_id x
  %x = tile.load %X[%bx, %c0] shape [ROWS, BLOCK_N] padding neg_inf
      : !tile.view<?x?xf32> -> tensor<?x?xf32>
  %i = tile.reduce %x argmax axis 1 : tensor<?x?xf32> -> tensor<?xi32>
  tile.store %i, %Idx[%bx] : tensor<?xi32>, !tile.view<?xi32>
  %y = tile.load %X[%bx, %c0] shape [ROWS, BLOCK_N] padding pos_inf
      : !tile.view<?x?xf32> -> tensor<?x?xf32>
  %m = tile.reduce %y min axis 1 : tensor<?x?xf32> -> tensor<?xf32>
  tile.store %m, %Min[%bx] : tensor<?xf32>, !tile.view<?xf32>
  return
}

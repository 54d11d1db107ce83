// Rows moved by a permutation: Out[r, :] = X[Perm[r], :] (a gather of
// rows, an embedding lookup) and Back[Perm[r], :] = X[r, :] (the matching
// scatter). Ids outside X's rows read zero and are not written.
func.func @permute_rows(%X: !tile.view<?x?xf16> {tile.name = "X"},
                        %Perm: !tile.view<?xi32> {tile.name = "Perm"},
                        %Out: !tile.view<?x?xf16> {tile.name = "Out"},
                        %Back: !tile.view<?x?xf16> {tile.name = "Back"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(Perm.0, ROWS)", "cdiv(X.1, BLOCK_N)", "1"]},
                tile.params = {ROWS = 16 : i32, BLOCK_N = 64 : i32}} {
  %bx = tile.block_id x
  %by = tile.block_id y
  %ids = tile.load %Perm[%bx] shape [ROWS] : !tile.view<?xi32> -> tensor<?xi32>
  %ids2 = tile.reshape %ids shape [ROWS, 1] : tensor<?xi32> -> tensor<?x1xi32>
  %rows = tile.broadcast %ids2 shape [ROWS, BLOCK_N] : tensor<?x1xi32> -> tensor<?x?xi32>
  %bn = tile.param "BLOCK_N" : i32
  %c0 = arith.constant 0 : i32
  %col0 = arith.muli %by, %bn : i32
  %col0t = tile.splat %col0 shape [ROWS, BLOCK_N] : i32 -> tensor<?x?xi32>
  %iota = tile.iota shape [ROWS, BLOCK_N] dim 1 : tensor<?x?xi32>
  %cols = arith.addi %iota, %col0t : tensor<?x?xi32>
  // Rows of this block past the end of Perm have no id: masked.
  %n = tile.dim %Perm[0] : !tile.view<?xi32>
  %rm = tile.param "ROWS" : i32
  %row0 = arith.muli %bx, %rm : i32
  %row0t = tile.splat %row0 shape [ROWS, BLOCK_N] : i32 -> tensor<?x?xi32>
  %riota = tile.iota shape [ROWS, BLOCK_N] dim 0 : tensor<?x?xi32>
  %r = arith.addi %riota, %row0t : tensor<?x?xi32>
  %nt = tile.splat %n shape [ROWS, BLOCK_N] : i32 -> tensor<?x?xi32>
  %valid = arith.cmpi slt, %r, %nt : tensor<?x?xi32>
  %g = tile.gather %X[%rows, %cols] mask %valid : tensor<?x?xi1>
      : !tile.view<?x?xf16>, tensor<?x?xi32>, tensor<?x?xi32> -> tensor<?x?xf16>
  tile.store %g, %Out[%bx, %by] : tensor<?x?xf16>, !tile.view<?x?xf16>
  %x = tile.load %X[%bx, %by] shape [ROWS, BLOCK_N] : !tile.view<?x?xf16> -> tensor<?x?xf16>
  tile.scatter %x, %Back[%rows, %cols] mask %valid : tensor<?x?xi1>
      : tensor<?x?xf16>, !tile.view<?x?xf16>, tensor<?x?xi32>, tensor<?x?xi32>
  return
}

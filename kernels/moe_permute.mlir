// The permute of a mixture of experts (the routing gather), in the tile
// dialect: the token rows in expert-sorted order, for grouped_gemm.mlir.
//   Out[s, :] = X[Order[s] / TOPK, :]       s < S = T * TOPK
//   Pos[Order[s]] = s                       (the inverse permutation)
// Order [S] lists the (token, slot) pairs, flattened as token * TOPK + j,
// sorted by the expert chosen for them (a stable argsort of the router's
// Ids flattened: torch.argsort(ids.view(-1), stable=True)); Pos, its
// inverse, is what moe_unpermute.mlir gathers with (Pos[t * TOPK + j] is
// the sorted row of token t's j-th expert, viewed as [T, TOPK] there). An
// entry of Order outside [0, S) (a dropped slot) gathers a zero row and
// writes no Pos entry.
//
// A block copies ROWS sorted rows, BLOCK_N columns: a gather of X's rows
// (one broadcast row id a row: consecutive lanes read consecutive columns),
// stored as a plain tile. The blocks of the first column of tiles write
// Pos (a scatter; Order is a permutation, so no element is written twice).
//
// Parameters: ROWS, BLOCK_N (the tile), TOPK (slots per token), DTYPE.
// Arguments: X [T, H], Order [S] (i32), Out [S, H], Pos [S] (i32).

func.func @moe_permute(
    %X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
    %Order: !tile.view<?xi32> {tile.name = "Order"},
    %Out: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Out"},
    %Pos: !tile.view<?xi32> {tile.name = "Pos"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(Order.0, ROWS)", "cdiv(X.1, BLOCK_N)", "1"],
                     requires = ["Order.0 == X.0 * TOPK", "Out.0 == Order.0",
                                 "Out.1 == X.1", "Pos.0 == Order.0"]},
      tile.params = {ROWS = 16 : i32, BLOCK_N = 128 : i32, TOPK = 2 : i32,
                     DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %bx = tile.block_id x
  %by = tile.block_id y
  %rows_p = tile.param "ROWS" : i32
  %bn = tile.param "BLOCK_N" : i32
  %topk = tile.param "TOPK" : i32
  %s_size = tile.dim %Order[0] : !tile.view<?xi32>
  %row0 = arith.muli %bx, %rows_p : i32
  // Order entries of this block's rows (past S: padding 0, masked below).
  %slot = tile.load %Order[%bx] shape [ROWS] : !tile.view<?xi32> -> tensor<?xi32>
  %topk_t = tile.splat %topk shape [ROWS] : i32 -> tensor<?xi32>
  %tok = arith.divsi %slot, %topk_t : tensor<?xi32>
  %r_iota = tile.iota shape [ROWS] dim 0 : tensor<?xi32>
  %row0_t = tile.splat %row0 shape [ROWS] : i32 -> tensor<?xi32>
  %rows = arith.addi %r_iota, %row0_t : tensor<?xi32>
  %s_t = tile.splat %s_size shape [ROWS] : i32 -> tensor<?xi32>
  %zero_t = tile.splat %c0 shape [ROWS] : i32 -> tensor<?xi32>
  // A slot id is valid in [0, S) (a negative one would divide to token 0).
  %in_s = arith.cmpi slt, %rows, %s_t : tensor<?xi32>
  %nonneg = arith.cmpi sge, %slot, %zero_t : tensor<?xi32>
  %below = arith.cmpi slt, %slot, %s_t : tensor<?xi32>
  %ok0 = arith.andi %in_s, %nonneg : tensor<?xi1>
  %ok = arith.andi %ok0, %below : tensor<?xi1>

  %tok2 = tile.reshape %tok shape [ROWS, 1] : tensor<?xi32> -> tensor<?x1xi32>
  %tok_b = tile.broadcast %tok2 shape [ROWS, BLOCK_N] : tensor<?x1xi32> -> tensor<?x?xi32>
  %ok2 = tile.reshape %ok shape [ROWS, 1] : tensor<?xi1> -> tensor<?x1xi1>
  %ok_b = tile.broadcast %ok2 shape [ROWS, BLOCK_N] : tensor<?x1xi1> -> tensor<?x?xi1>
  %col0 = arith.muli %by, %bn : i32
  %col0_t = tile.splat %col0 shape [ROWS, BLOCK_N] : i32 -> tensor<?x?xi32>
  %c_iota = tile.iota shape [ROWS, BLOCK_N] dim 1 : tensor<?x?xi32>
  %cols = arith.addi %c_iota, %col0_t : tensor<?x?xi32>
  %g = tile.gather %X[%tok_b, %cols] mask %ok_b : tensor<?x?xi1>
      : !tile.view<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xi32>, tensor<?x?xi32>
      -> tensor<?x?x!tile.dtype<"DTYPE">>
  tile.store %g, %Out[%bx, %by]
      : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>

  %first_col = arith.cmpi eq, %by, %c0 : i32
  scf.if %first_col {
    tile.scatter %rows, %Pos[%slot] mask %ok : tensor<?xi1>
        : tensor<?xi32>, !tile.view<?xi32>, tensor<?xi32>
  }
  return
}

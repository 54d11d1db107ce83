// The weighted un-permute of a mixture of experts, in the tile dialect: each
// token's expert outputs, weighted by its routing weights, summed in f32:
//   Y[t, :] = sum_{j < TOPK} Weights[t, j] * Yexp[Pos[t, j], :]
// Yexp [S, H] holds grouped_gemm.mlir's output rows in expert-sorted order;
// Pos [T, TOPK] the sorted row of each (token, slot) (moe_permute.mlir's
// Pos, viewed as [T, TOPK]); Weights [T, TOPK] f32 (moe_router.mlir's). A
// Pos entry outside Yexp's rows (a dropped slot) adds nothing.
//
// This is the gather form of the scatter-add: a token knows its TOPK rows,
// so each output element is one sum in the fixed order j = 0 .. TOPK - 1,
// with no atomics: deterministic, bitwise the same run to run, and Y needs
// no zeroing (every element is written once). A block takes ROWS tokens and
// BLOCK_N columns; per slot one [ROWS, 1] load of Pos and of Weights (at
// element offsets, column j) and one gather of the rows.
//
// Parameters: ROWS, BLOCK_N (the tile), TOPK, DTYPE (of Yexp and Y).
// Arguments: Yexp [S, H], Pos [T, TOPK] (i32), Weights [T, TOPK] (f32),
// Y [T, H].

func.func @moe_unpermute(
    %Yexp: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Yexp"},
    %Pos: !tile.view<?x?xi32> {tile.name = "Pos"},
    %Weights: !tile.view<?x?xf32> {tile.name = "Weights"},
    %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(Y.0, ROWS)", "cdiv(Y.1, BLOCK_N)", "1"],
                     requires = ["Pos.0 == Y.0", "Pos.1 == TOPK",
                                 "Weights.0 == Y.0", "Weights.1 == TOPK",
                                 "Yexp.1 == Y.1"]},
      tile.params = {ROWS = 16 : i32, BLOCK_N = 128 : i32, TOPK = 2 : i32,
                     DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bx = tile.block_id x
  %by = tile.block_id y
  %rows_p = tile.param "ROWS" : i32
  %bn = tile.param "BLOCK_N" : i32
  %topk = tile.param "TOPK" : i32
  %row0 = arith.muli %bx, %rows_p : i32
  %col0 = arith.muli %by, %bn : i32
  %col0_t = tile.splat %col0 shape [ROWS, BLOCK_N] : i32 -> tensor<?x?xi32>
  %c_iota = tile.iota shape [ROWS, BLOCK_N] dim 1 : tensor<?x?xi32>
  %cols = arith.addi %c_iota, %col0_t : tensor<?x?xi32>
  %acc0 = tile.full 0.0 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
  %acc = scf.for %j = %c0 to %topk step %c1 iter_args(%acc_j = %acc0)
      -> (tensor<?x?xf32>) : i32 {
    // Column j of Pos and Weights for these tokens (rows past T: padding,
    // 0, whose sums are not stored).
    %pos = tile.load %Pos at [%row0, %j] shape [ROWS, 1]
        : !tile.view<?x?xi32> -> tensor<?x1xi32>
    %w = tile.load %Weights at [%row0, %j] shape [ROWS, 1]
        : !tile.view<?x?xf32> -> tensor<?x1xf32>
    %pos_b = tile.broadcast %pos shape [ROWS, BLOCK_N] : tensor<?x1xi32> -> tensor<?x?xi32>
    %w_b = tile.broadcast %w shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
    %rows_lp = tile.gather %Yexp[%pos_b, %cols]
        : !tile.view<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xi32>, tensor<?x?xi32>
        -> tensor<?x?x!tile.dtype<"DTYPE">>
    %rows = tile.astype %rows_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
    %term = arith.mulf %rows, %w_b : tensor<?x?xf32>
    %acc_next = arith.addf %acc_j, %term : tensor<?x?xf32>
    scf.yield %acc_next : tensor<?x?xf32>
  }
  %y = tile.astype %acc : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
  tile.store %y, %Y[%bx, %by] : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  return
}

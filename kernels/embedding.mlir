// Embedding lookup: Out[t, :] = W[Ids[t], :] for the T tokens of Ids.
// An id outside [0, V) (negative, or past the table) gives a row of zeros:
// the row read is masked at the table's edges, never out of bounds (PyTorch
// raises instead; a caller that wants an error checks the ids first).
//
// Each block copies ROWS token rows, BLOCK_N columns at a time (grid y):
// the id is a scalar read from memory (tile.read, one L1 line for all the
// block's threads), the row a tile load at element offsets [id, col]. The
// column offset is a multiple of BLOCK_N, so the load and the store stay
// 16-byte vectors a thread (a gather by an index tile would go element by
// element). Bytes: the ids, and each output row read once and written
// once: 2 x T x N elements.
//
// Choosing the parameters: BLOCK_N the whole row up to 4096-8192 (8-32
// f16 values a thread), ROWS 1-4 (a block keeps two rows in flight: the
// next row is loaded before this one is stored); registers are few (two
// rows and their addresses), so many blocks share an SM.
//
// Parameters: ROWS (tokens per block), BLOCK_N (columns per step), DTYPE
// (f16, bf16, f32: W and Out).
//
// Arguments: W [V, N], Ids [T] i32, Out [T, N].

func.func @embedding(
    %W: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "W"},
    %Ids: !tile.view<?xi32> {tile.name = "Ids"},
    %Out: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Out"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(Ids.0, ROWS)", "cdiv(W.1, BLOCK_N)", "1"],
                     requires = ["Out.0 == Ids.0", "Out.1 == W.1"]},
      tile.params = {ROWS = 1 : i32, BLOCK_N = 4096 : i32, DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rows = tile.param "ROWS" : i32
  %block_n = tile.param "BLOCK_N" : i32
  %bx = tile.block_id x
  %by = tile.block_id y
  %t0 = arith.muli %bx, %rows : i32
  %col = arith.muli %by, %block_n : i32
  %t_end0 = arith.addi %t0, %rows : i32
  %tokens = tile.dim %Ids[0] : !tile.view<?xi32>
  %t_end = arith.minsi %t_end0, %tokens : i32
  // Two rows in flight a block: the next token's row is loaded before this
  // one is stored, and the id after it read one more step ahead (its
  // latency hides too). Past the block's last token the row index is -1:
  // the load is masked off (no memory access).
  %m1 = arith.constant -1 : i32
  %c2 = arith.constant 2 : i32
  %id0 = tile.read %Ids[%t0] : !tile.view<?xi32> -> i32
  %t0_1 = arith.addi %t0, %c1 : i32
  %id1_raw = tile.read %Ids[%t0_1] : !tile.view<?xi32> -> i32
  %has1 = arith.cmpi slt, %t0_1, %t_end : i32
  %id1 = arith.select %has1, %id1_raw, %m1 : i32
  %row0 = tile.load %W at [%id0, %col] shape [1, BLOCK_N]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<1x?x!tile.dtype<"DTYPE">>
  %last:2 = scf.for %t = %t0 to %t_end step %c1 iter_args(%row = %row0, %id_next = %id1)
      -> (tensor<1x?x!tile.dtype<"DTYPE">>, i32) : i32 {
    %row_next = tile.load %W at [%id_next, %col] shape [1, BLOCK_N]
        : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<1x?x!tile.dtype<"DTYPE">>
    %t2 = arith.addi %t, %c2 : i32
    %id2_raw = tile.read %Ids[%t2] : !tile.view<?xi32> -> i32
    %has2 = arith.cmpi slt, %t2, %t_end : i32
    %id2 = arith.select %has2, %id2_raw, %m1 : i32
    tile.store %row, %Out at [%t, %col]
        : tensor<1x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
    scf.yield %row_next, %id2 : tensor<1x?x!tile.dtype<"DTYPE">>, i32
  }
  return
}

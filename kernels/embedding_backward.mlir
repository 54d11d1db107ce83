// Embedding backward: DW[Ids[t], :] += DOut[t, :] for the T tokens of Ids,
// the scatter-add of kernels/embedding.mlir's lookup. DW is f32 and is
// accumulated by atomic adds (the caller zeroes it, or passes a gradient to
// add to): tokens with the same id add into one row, in an order that
// varies from run to run on the GPU (the last bits of a row hit by many
// tokens vary with it; the CPU executor runs blocks in order). An id
// outside [0, V) adds nothing (the atomic is masked at DW's edges).
//
// Each block takes ROWS tokens, BLOCK_N columns at a time (grid y): the id
// is a scalar read from memory and the add one atomic a column at element
// offsets [id, col]. With LANE_ATOMICS (the default) DOut's row is read one
// element a lane (a gather), so that each atomic instruction of a warp
// covers 128 consecutive bytes; without, by 16-byte vectors (fewer load
// instructions, 8 times the L2 sectors per atomic instruction). No sort and no
// segment reduction (PyTorch's dense embedding backward sorts the ids):
// the atomics resolve duplicates in L2.
//
// Parameters: ROWS (tokens per block), BLOCK_N (columns per step),
// LANE_ATOMICS (the layout above), DTYPE (f16, bf16, f32: DOut).
//
// Arguments: DOut [T, N], Ids [T] i32, DW [V, N] f32 (accumulated).

func.func @embedding_backward(
    %DOut: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "DOut"},
    %Ids: !tile.view<?xi32> {tile.name = "Ids"},
    %DW: !tile.view<?x?xf32> {tile.name = "DW"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(Ids.0, ROWS)", "cdiv(DW.1, BLOCK_N)", "1"],
                     requires = ["DOut.0 == Ids.0", "DOut.1 == DW.1"]},
      tile.params = {ROWS = 1 : i32, BLOCK_N = 4096 : i32, LANE_ATOMICS = true,
                     DTYPE = f16}} {
  %c1 = arith.constant 1 : i32
  %lanes = tile.param "LANE_ATOMICS" : i1
  %rows = tile.param "ROWS" : i32
  %block_n = tile.param "BLOCK_N" : i32
  %bx = tile.block_id x
  %by = tile.block_id y
  %t0 = arith.muli %bx, %rows : i32
  %col = arith.muli %by, %block_n : i32
  %t_end0 = arith.addi %t0, %rows : i32
  %tokens = tile.dim %Ids[0] : !tile.view<?xi32>
  %t_end = arith.minsi %t_end0, %tokens : i32
  %iota = tile.iota shape [1, BLOCK_N] dim 1 : tensor<1x?xi32>
  %col_t = tile.splat %col shape [1, BLOCK_N] : i32 -> tensor<1x?xi32>
  %cols = arith.addi %iota, %col_t : tensor<1x?xi32>
  // The next token's id is read one step ahead (its latency hides behind
  // this row's adds; a read past the end gives 0, unused).
  %id0 = tile.read %Ids[%t0] : !tile.view<?xi32> -> i32
  %last = scf.for %t = %t0 to %t_end step %c1 iter_args(%id = %id0) -> (i32) : i32 {
    %t1 = arith.addi %t, %c1 : i32
    %id_next = tile.read %Ids[%t1] : !tile.view<?xi32> -> i32
    scf.if %lanes {
      // DOut's row through a gather rather than a load, for its layout:
      // one element a lane along the row, so that each atomic instruction
      // of a warp adds 32 consecutive f32 (128 bytes, whole L2 sectors).
      %t_row = tile.splat %t shape [1, BLOCK_N] : i32 -> tensor<1x?xi32>
      %d_lp = tile.gather %DOut[%t_row, %cols]
          : !tile.view<?x?x!tile.dtype<"DTYPE">>, tensor<1x?xi32>, tensor<1x?xi32>
          -> tensor<1x?x!tile.dtype<"DTYPE">>
      %d = tile.astype %d_lp : tensor<1x?x!tile.dtype<"DTYPE">> -> tensor<1x?xf32>
      tile.atomic add %d, %DW at [%id, %col] : tensor<1x?xf32>, !tile.view<?x?xf32>
    } else {
      // A 16-byte-vector load: each thread holds 8 consecutive elements and
      // each atomic instruction of a warp touches 32 scattered sectors (8
      // times the L2 atomic operations; there are no vector atomics yet).
      %d_lp = tile.load %DOut at [%t, %col] shape [1, BLOCK_N]
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<1x?x!tile.dtype<"DTYPE">>
      %d = tile.astype %d_lp : tensor<1x?x!tile.dtype<"DTYPE">> -> tensor<1x?xf32>
      tile.atomic add %d, %DW at [%id, %col] : tensor<1x?xf32>, !tile.view<?x?xf32>
    }
    scf.yield %id_next : i32
  }
  return
}

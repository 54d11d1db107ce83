// Top-k router of a mixture of experts, in the tile dialect:
//   P = softmax(Logits[t, :])             over the E experts, in f32
//   Ids[t, j], Weights[t, j] = the j-th largest P and its expert, j < TOPK
// (descending; ties go to the lowest expert id, as argmax), and with RENORM
// the weights divided by their sum (Mixtral's top-k renormalization:
// softmax over the chosen logits).
//
// A block takes ROWS tokens, each whole row of E <= BLOCK_E logits in one
// tile (padding -inf: exp2 gives 0, never chosen while a real expert is
// left). The top k are TOPK rounds of an argmax and a max along the row;
// each round knocks its winner out (-1, below every probability) for the
// next. E is small (8-256), so TOPK rounds over a row in registers beat a
// sort. The results collect in [ROWS, BLOCK_K] tiles (column j from round
// j) stored once; columns past TOPK fall outside the views.
//
// Parameters:
//   ROWS      tokens per block
//   BLOCK_E   the row tile (a power of two >= E)
//   TOPK      experts per token (1 .. BLOCK_K)
//   BLOCK_K   the result tile's width (a power of two >= TOPK)
//   RENORM    divide the chosen weights by their sum
//   DTYPE     element type of Logits (f16, bf16 or f32)
//
// Arguments: Logits [T, E], Ids [T, TOPK] (i32), Weights [T, TOPK] (f32).

func.func @moe_router(
    %Logits: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Logits"},
    %Ids: !tile.view<?x?xi32> {tile.name = "Ids"},
    %Weights: !tile.view<?x?xf32> {tile.name = "Weights"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(Logits.0, ROWS)", "1", "1"],
                     requires = ["Logits.1 <= BLOCK_E", "TOPK <= BLOCK_K",
                                 "TOPK <= Logits.1",
                                 "Ids.0 == Logits.0", "Ids.1 == TOPK",
                                 "Weights.0 == Logits.0", "Weights.1 == TOPK"]},
      tile.params = {ROWS = 4 : i32, BLOCK_E = 64 : i32, TOPK = 2 : i32,
                     BLOCK_K = 2 : i32, RENORM = false, DTYPE = f32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %topk = tile.param "TOPK" : i32
  %renorm = tile.param "RENORM" : i1
  %bx = tile.block_id x
  %x_lp = tile.load %Logits[%bx, %c0] shape [ROWS, BLOCK_E] padding neg_inf
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>

  // Softmax in f32: 2^((x - max) log2 e) / sum.
  %m = tile.reduce %x max axis 1 : tensor<?x?xf32> -> tensor<?xf32>
  %m2 = tile.reshape %m shape [ROWS, 1] : tensor<?xf32> -> tensor<?x1xf32>
  %mb = tile.broadcast %m2 shape [ROWS, BLOCK_E] : tensor<?x1xf32> -> tensor<?x?xf32>
  %log2e = tile.full 1.4426950408889634 shape [ROWS, BLOCK_E] : tensor<?x?xf32>
  %d = arith.subf %x, %mb : tensor<?x?xf32>
  %dl = arith.mulf %d, %log2e : tensor<?x?xf32>
  %ex = tile.exp2 %dl : tensor<?x?xf32>
  %s = tile.reduce %ex sum axis 1 : tensor<?x?xf32> -> tensor<?xf32>
  %s2 = tile.reshape %s shape [ROWS, 1] : tensor<?xf32> -> tensor<?x1xf32>
  %sb = tile.broadcast %s2 shape [ROWS, BLOCK_E] : tensor<?x1xf32> -> tensor<?x?xf32>
  %p = tile.div %ex, %sb : tensor<?x?xf32>

  // TOPK rounds: the winner's id and probability go to column j.
  %e_iota = tile.iota shape [ROWS, BLOCK_E] dim 1 : tensor<?x?xi32>
  %k_iota = tile.iota shape [ROWS, BLOCK_K] dim 1 : tensor<?x?xi32>
  %knocked = tile.full -1.0 shape [ROWS, BLOCK_E] : tensor<?x?xf32>
  %ids0 = tile.full 0 shape [ROWS, BLOCK_K] : tensor<?x?xi32>
  %w0 = tile.full 0.0 shape [ROWS, BLOCK_K] : tensor<?x?xf32>
  %left, %ids, %w = scf.for %j = %c0 to %topk step %c1
      iter_args(%pj = %p, %ids_j = %ids0, %w_j = %w0)
      -> (tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>) : i32 {
    %best = tile.reduce %pj argmax axis 1 : tensor<?x?xf32> -> tensor<?xi32>
    %top = tile.reduce %pj max axis 1 : tensor<?x?xf32> -> tensor<?xf32>
    %best2 = tile.reshape %best shape [ROWS, 1] : tensor<?xi32> -> tensor<?x1xi32>
    %top2 = tile.reshape %top shape [ROWS, 1] : tensor<?xf32> -> tensor<?x1xf32>
    // Knock the winner out.
    %best_e = tile.broadcast %best2 shape [ROWS, BLOCK_E] : tensor<?x1xi32> -> tensor<?x?xi32>
    %won = arith.cmpi eq, %e_iota, %best_e : tensor<?x?xi32>
    %p_next = tile.select %won, %knocked, %pj : tensor<?x?xi1>, tensor<?x?xf32>
    // Column j of the results.
    %jt = tile.splat %j shape [ROWS, BLOCK_K] : i32 -> tensor<?x?xi32>
    %here = arith.cmpi eq, %k_iota, %jt : tensor<?x?xi32>
    %best_k = tile.broadcast %best2 shape [ROWS, BLOCK_K] : tensor<?x1xi32> -> tensor<?x?xi32>
    %top_k = tile.broadcast %top2 shape [ROWS, BLOCK_K] : tensor<?x1xf32> -> tensor<?x?xf32>
    %ids_next = tile.select %here, %best_k, %ids_j : tensor<?x?xi1>, tensor<?x?xi32>
    %w_next = tile.select %here, %top_k, %w_j : tensor<?x?xi1>, tensor<?x?xf32>
    scf.yield %p_next, %ids_next, %w_next : tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>
  }

  // RENORM: the chosen weights over their sum (columns past TOPK hold 0).
  %w_out = scf.if %renorm -> tensor<?x?xf32> {
    %ws = tile.reduce %w sum axis 1 : tensor<?x?xf32> -> tensor<?xf32>
    %ws2 = tile.reshape %ws shape [ROWS, 1] : tensor<?xf32> -> tensor<?x1xf32>
    %wsb = tile.broadcast %ws2 shape [ROWS, BLOCK_K] : tensor<?x1xf32> -> tensor<?x?xf32>
    %wn = tile.div %w, %wsb : tensor<?x?xf32>
    scf.yield %wn : tensor<?x?xf32>
  } else {
    scf.yield %w : tensor<?x?xf32>
  }
  tile.store %ids, %Ids[%bx, %c0] : tensor<?x?xi32>, !tile.view<?x?xi32>
  tile.store %w_out, %Weights[%bx, %c0] : tensor<?x?xf32>, !tile.view<?x?xf32>
  return
}

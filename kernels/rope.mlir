// Rotary position embedding (RoPE) of Q and K in one launch, in place, by
// position ids: token t of Q [T, HQ, D] and K [T, HK, D] (GQA: HQ and HK
// differ) is rotated by the angles of position p = Pos[t], read from the
// tables Cos, Sin [max_pos, HALF] (f32: cos(p * theta_i), sin(p * theta_i)).
// The first ROT = 2 * HALF dimensions of each head are rotated (partial
// rotary when ROT < D; the rest is left as it is, free in place):
//   half rotation (GPT-NeoX, Llama; INTERLEAVED = false), pairs (i, i + HALF):
//     y[i]        = x[i] cos_i - x[i + HALF] sin_i
//     y[i + HALF] = x[i + HALF] cos_i + x[i] sin_i
//   interleaved (GPT-J; INTERLEAVED = true), pairs (2i, 2i + 1):
//     y[2i]       = x[2i] cos_i - x[2i + 1] sin_i
//     y[2i + 1]   = x[2i + 1] cos_i + x[2i] sin_i
// Math in f32, one rounding to DTYPE. In place: every element of Q and K is
// read and written once and nothing else is allocated (vLLM's and
// FlashInfer's rotary ops work in place too); an out-of-place caller copies
// first. A position outside [0, max_pos) reads cos = sin = 0 (the gather is
// masked, never out of bounds): its rows of Q and K become 0.
//
// Grid [cdiv(T, ROWS), cdiv(HQ, BLOCK_H) + cdiv(HK, BLOCK_H)]: block (x, y)
// takes tokens x ROWS .. and BLOCK_H heads of Q (y < cdiv(HQ, BLOCK_H)) or
// of K (the rest): one launch for both, each block one load and one store
// of a [ROWS, BLOCK_H, ROT] slab. The positions and the [ROWS, HALF] angles
// are gathered by each block (small: they stay in L2).
// Half rotation reads the two halves as two tiles at element offsets 0 and
// HALF (16-byte vectors when HALF * 2 bytes is a multiple of 16); the
// interleaved form reads the rotated dims as one tile, splits it into pairs
// (a reshape to [.., HALF, 2], free in registers) and takes each pair's
// partner by masked sums over the pair axis (inside a thread).
//
// Choosing the parameters: tiles of 8-32 f32 values a thread; D = 128
// (HALF = 64): ROWS = 4, BLOCK_H = 8, 4 warps.
//
// Parameters: ROWS (tokens per block), BLOCK_H (heads per block), HALF (half
// the rotated dims; Cos.1 == HALF), ROT (= 2 * HALF), INTERLEAVED, DTYPE
// (f16, bf16, f32: Q, K).
//
// Arguments: Q [T, HQ, D], K [T, HK, D] (in place), Cos, Sin [P, HALF] f32,
// Pos [T] i32.

func.func @rope(
    %Q: !tile.view<?x?x?x!tile.dtype<"DTYPE">> {tile.name = "Q"},
    %K: !tile.view<?x?x?x!tile.dtype<"DTYPE">> {tile.name = "K"},
    %Cos: !tile.view<?x?xf32> {tile.name = "Cos"},
    %Sin: !tile.view<?x?xf32> {tile.name = "Sin"},
    %Pos: !tile.view<?xi32> {tile.name = "Pos"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(Q.0, ROWS)", "cdiv(Q.1, BLOCK_H) + cdiv(K.1, BLOCK_H)", "1"],
                     requires = ["ROT == 2 * HALF", "K.0 == Q.0", "K.2 == Q.2",
                                 "Q.2 >= ROT", "Cos.1 == HALF", "Sin.0 == Cos.0",
                                 "Sin.1 == HALF", "Pos.0 == Q.0"]},
      tile.params = {ROWS = 4 : i32, BLOCK_H = 8 : i32, HALF = 64 : i32, ROT = 128 : i32,
                     INTERLEAVED = false, DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %interleaved = tile.param "INTERLEAVED" : i1
  %rows = tile.param "ROWS" : i32
  %block_h = tile.param "BLOCK_H" : i32
  %half = tile.param "HALF" : i32
  %bx = tile.block_id x
  %by = tile.block_id y
  %t0 = arith.muli %bx, %rows : i32

  // Q or K (one body for each: a view is an argument, not a value to
  // choose), and which heads of it.
  %hq = tile.dim %Q[1] : !tile.view<?x?x?x!tile.dtype<"DTYPE">>
  %nq = arith.ceildivsi %hq, %block_h : i32
  %is_q = arith.cmpi slt, %by, %nq : i32
  %hb_k = arith.subi %by, %nq : i32
  %hb = arith.select %is_q, %by, %hb_k : i32
  %h0 = arith.muli %hb, %block_h : i32

  // The angles of each token's position: [ROWS, HALF], gathered (tokens
  // past T read position 0 and are never stored).
  %pos = tile.load %Pos[%bx] shape [ROWS] : !tile.view<?xi32> -> tensor<?xi32>
  %pos_c = tile.reshape %pos shape [ROWS, 1] : tensor<?xi32> -> tensor<?x1xi32>
  %pos_t = tile.broadcast %pos_c shape [ROWS, HALF] : tensor<?x1xi32> -> tensor<?x?xi32>
  %cols = tile.iota shape [ROWS, HALF] dim 1 : tensor<?x?xi32>
  %cos2 = tile.gather %Cos[%pos_t, %cols]
      : !tile.view<?x?xf32>, tensor<?x?xi32>, tensor<?x?xi32> -> tensor<?x?xf32>
  %sin2 = tile.gather %Sin[%pos_t, %cols]
      : !tile.view<?x?xf32>, tensor<?x?xi32>, tensor<?x?xi32> -> tensor<?x?xf32>

  scf.if %is_q {
    scf.if %interleaved {
      // Pairs (2i, 2i + 1): [ROWS, BLOCK_H, HALF, 2].
      %x_lp = tile.load %Q at [%t0, %h0, %c0] shape [ROWS, BLOCK_H, ROT]
          : !tile.view<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      %x3 = tile.astype %x_lp : tensor<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?xf32>
      %x = tile.reshape %x3 shape [ROWS, BLOCK_H, HALF, 2] : tensor<?x?x?xf32> -> tensor<?x?x?x2xf32>
      %lane = tile.iota shape [ROWS, BLOCK_H, HALF, 2] dim 3 : tensor<?x?x?x2xi32>
      %zero_i = tile.full 0 shape [ROWS, BLOCK_H, HALF, 2] : tensor<?x?x?x2xi32>
      %is_even = arith.cmpi eq, %lane, %zero_i : tensor<?x?x?x2xi32>
      %zero = tile.full 0.0 shape [ROWS, BLOCK_H, HALF, 2] : tensor<?x?x?x2xf32>
      // x_even and x_odd of each pair (a sum with one zero term: exact).
      %ev = tile.select %is_even, %x, %zero : tensor<?x?x?x2xi1>, tensor<?x?x?x2xf32>
      %od = tile.select %is_even, %zero, %x : tensor<?x?x?x2xi1>, tensor<?x?x?x2xf32>
      %x_even = tile.reduce %ev sum axis 3 keepdims : tensor<?x?x?x2xf32> -> tensor<?x?x?x1xf32>
      %x_odd = tile.reduce %od sum axis 3 keepdims : tensor<?x?x?x2xf32> -> tensor<?x?x?x1xf32>
      %x_even_t = tile.broadcast %x_even shape [ROWS, BLOCK_H, HALF, 2]
          : tensor<?x?x?x1xf32> -> tensor<?x?x?x2xf32>
      %x_odd_t = tile.broadcast %x_odd shape [ROWS, BLOCK_H, HALF, 2]
          : tensor<?x?x?x1xf32> -> tensor<?x?x?x2xf32>
      %neg_odd = arith.negf %x_odd_t : tensor<?x?x?x2xf32>
      // partner: -x_odd at the even place, x_even at the odd one.
      %partner = tile.select %is_even, %neg_odd, %x_even_t : tensor<?x?x?x2xi1>, tensor<?x?x?x2xf32>
      %cos4 = tile.reshape %cos2 shape [ROWS, 1, HALF, 1] : tensor<?x?xf32> -> tensor<?x1x?x1xf32>
      %sin4 = tile.reshape %sin2 shape [ROWS, 1, HALF, 1] : tensor<?x?xf32> -> tensor<?x1x?x1xf32>
      %cos_t = tile.broadcast %cos4 shape [ROWS, BLOCK_H, HALF, 2]
          : tensor<?x1x?x1xf32> -> tensor<?x?x?x2xf32>
      %sin_t = tile.broadcast %sin4 shape [ROWS, BLOCK_H, HALF, 2]
          : tensor<?x1x?x1xf32> -> tensor<?x?x?x2xf32>
      %a = arith.mulf %x, %cos_t : tensor<?x?x?x2xf32>
      %b = arith.mulf %partner, %sin_t : tensor<?x?x?x2xf32>
      %y = arith.addf %a, %b : tensor<?x?x?x2xf32>
      %y3 = tile.reshape %y shape [ROWS, BLOCK_H, ROT] : tensor<?x?x?x2xf32> -> tensor<?x?x?xf32>
      %y_lp = tile.astype %y3 : tensor<?x?x?xf32> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      tile.store %y_lp, %Q at [%t0, %h0, %c0]
          : tensor<?x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x!tile.dtype<"DTYPE">>
    } else {
      // Halves (i, i + HALF): two tiles at element offsets 0 and HALF.
      %x1_lp = tile.load %Q at [%t0, %h0, %c0] shape [ROWS, BLOCK_H, HALF]
          : !tile.view<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      %x2_lp = tile.load %Q at [%t0, %h0, %half] shape [ROWS, BLOCK_H, HALF]
          : !tile.view<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      %x1 = tile.astype %x1_lp : tensor<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?xf32>
      %x2 = tile.astype %x2_lp : tensor<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?xf32>
      %cos3 = tile.reshape %cos2 shape [ROWS, 1, HALF] : tensor<?x?xf32> -> tensor<?x1x?xf32>
      %sin3 = tile.reshape %sin2 shape [ROWS, 1, HALF] : tensor<?x?xf32> -> tensor<?x1x?xf32>
      %cos_t = tile.broadcast %cos3 shape [ROWS, BLOCK_H, HALF] : tensor<?x1x?xf32> -> tensor<?x?x?xf32>
      %sin_t = tile.broadcast %sin3 shape [ROWS, BLOCK_H, HALF] : tensor<?x1x?xf32> -> tensor<?x?x?xf32>
      %a1 = arith.mulf %x1, %cos_t : tensor<?x?x?xf32>
      %b1 = arith.mulf %x2, %sin_t : tensor<?x?x?xf32>
      %y1 = arith.subf %a1, %b1 : tensor<?x?x?xf32>
      %a2 = arith.mulf %x2, %cos_t : tensor<?x?x?xf32>
      %b2 = arith.mulf %x1, %sin_t : tensor<?x?x?xf32>
      %y2 = arith.addf %a2, %b2 : tensor<?x?x?xf32>
      %y1_lp = tile.astype %y1 : tensor<?x?x?xf32> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      %y2_lp = tile.astype %y2 : tensor<?x?x?xf32> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      tile.store %y1_lp, %Q at [%t0, %h0, %c0]
          : tensor<?x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x!tile.dtype<"DTYPE">>
      tile.store %y2_lp, %Q at [%t0, %h0, %half]
          : tensor<?x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x!tile.dtype<"DTYPE">>
    }
  } else {
    scf.if %interleaved {
      // Pairs (2i, 2i + 1): [ROWS, BLOCK_H, HALF, 2].
      %x_lp = tile.load %K at [%t0, %h0, %c0] shape [ROWS, BLOCK_H, ROT]
          : !tile.view<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      %x3 = tile.astype %x_lp : tensor<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?xf32>
      %x = tile.reshape %x3 shape [ROWS, BLOCK_H, HALF, 2] : tensor<?x?x?xf32> -> tensor<?x?x?x2xf32>
      %lane = tile.iota shape [ROWS, BLOCK_H, HALF, 2] dim 3 : tensor<?x?x?x2xi32>
      %zero_i = tile.full 0 shape [ROWS, BLOCK_H, HALF, 2] : tensor<?x?x?x2xi32>
      %is_even = arith.cmpi eq, %lane, %zero_i : tensor<?x?x?x2xi32>
      %zero = tile.full 0.0 shape [ROWS, BLOCK_H, HALF, 2] : tensor<?x?x?x2xf32>
      // x_even and x_odd of each pair (a sum with one zero term: exact).
      %ev = tile.select %is_even, %x, %zero : tensor<?x?x?x2xi1>, tensor<?x?x?x2xf32>
      %od = tile.select %is_even, %zero, %x : tensor<?x?x?x2xi1>, tensor<?x?x?x2xf32>
      %x_even = tile.reduce %ev sum axis 3 keepdims : tensor<?x?x?x2xf32> -> tensor<?x?x?x1xf32>
      %x_odd = tile.reduce %od sum axis 3 keepdims : tensor<?x?x?x2xf32> -> tensor<?x?x?x1xf32>
      %x_even_t = tile.broadcast %x_even shape [ROWS, BLOCK_H, HALF, 2]
          : tensor<?x?x?x1xf32> -> tensor<?x?x?x2xf32>
      %x_odd_t = tile.broadcast %x_odd shape [ROWS, BLOCK_H, HALF, 2]
          : tensor<?x?x?x1xf32> -> tensor<?x?x?x2xf32>
      %neg_odd = arith.negf %x_odd_t : tensor<?x?x?x2xf32>
      // partner: -x_odd at the even place, x_even at the odd one.
      %partner = tile.select %is_even, %neg_odd, %x_even_t : tensor<?x?x?x2xi1>, tensor<?x?x?x2xf32>
      %cos4 = tile.reshape %cos2 shape [ROWS, 1, HALF, 1] : tensor<?x?xf32> -> tensor<?x1x?x1xf32>
      %sin4 = tile.reshape %sin2 shape [ROWS, 1, HALF, 1] : tensor<?x?xf32> -> tensor<?x1x?x1xf32>
      %cos_t = tile.broadcast %cos4 shape [ROWS, BLOCK_H, HALF, 2]
          : tensor<?x1x?x1xf32> -> tensor<?x?x?x2xf32>
      %sin_t = tile.broadcast %sin4 shape [ROWS, BLOCK_H, HALF, 2]
          : tensor<?x1x?x1xf32> -> tensor<?x?x?x2xf32>
      %a = arith.mulf %x, %cos_t : tensor<?x?x?x2xf32>
      %b = arith.mulf %partner, %sin_t : tensor<?x?x?x2xf32>
      %y = arith.addf %a, %b : tensor<?x?x?x2xf32>
      %y3 = tile.reshape %y shape [ROWS, BLOCK_H, ROT] : tensor<?x?x?x2xf32> -> tensor<?x?x?xf32>
      %y_lp = tile.astype %y3 : tensor<?x?x?xf32> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      tile.store %y_lp, %K at [%t0, %h0, %c0]
          : tensor<?x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x!tile.dtype<"DTYPE">>
    } else {
      // Halves (i, i + HALF): two tiles at element offsets 0 and HALF.
      %x1_lp = tile.load %K at [%t0, %h0, %c0] shape [ROWS, BLOCK_H, HALF]
          : !tile.view<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      %x2_lp = tile.load %K at [%t0, %h0, %half] shape [ROWS, BLOCK_H, HALF]
          : !tile.view<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      %x1 = tile.astype %x1_lp : tensor<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?xf32>
      %x2 = tile.astype %x2_lp : tensor<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x?xf32>
      %cos3 = tile.reshape %cos2 shape [ROWS, 1, HALF] : tensor<?x?xf32> -> tensor<?x1x?xf32>
      %sin3 = tile.reshape %sin2 shape [ROWS, 1, HALF] : tensor<?x?xf32> -> tensor<?x1x?xf32>
      %cos_t = tile.broadcast %cos3 shape [ROWS, BLOCK_H, HALF] : tensor<?x1x?xf32> -> tensor<?x?x?xf32>
      %sin_t = tile.broadcast %sin3 shape [ROWS, BLOCK_H, HALF] : tensor<?x1x?xf32> -> tensor<?x?x?xf32>
      %a1 = arith.mulf %x1, %cos_t : tensor<?x?x?xf32>
      %b1 = arith.mulf %x2, %sin_t : tensor<?x?x?xf32>
      %y1 = arith.subf %a1, %b1 : tensor<?x?x?xf32>
      %a2 = arith.mulf %x2, %cos_t : tensor<?x?x?xf32>
      %b2 = arith.mulf %x1, %sin_t : tensor<?x?x?xf32>
      %y2 = arith.addf %a2, %b2 : tensor<?x?x?xf32>
      %y1_lp = tile.astype %y1 : tensor<?x?x?xf32> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      %y2_lp = tile.astype %y2 : tensor<?x?x?xf32> -> tensor<?x?x?x!tile.dtype<"DTYPE">>
      tile.store %y1_lp, %K at [%t0, %h0, %c0]
          : tensor<?x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x!tile.dtype<"DTYPE">>
      tile.store %y2_lp, %K at [%t0, %h0, %half]
          : tensor<?x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x!tile.dtype<"DTYPE">>
    }
  }
  return
}

// Flash-attention forward over a packed batch of sequences of different
// lengths (issue 23), in one launch: FlashAttention's
// flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, ...).
//
// Layouts (packed, token-major as FlashAttention's varlen API):
//   Q, Out       [total_q, H, D]       sequence b's queries are rows
//                                      CuSeqlensQ[b] .. CuSeqlensQ[b + 1]
//   K, V         [total_k, H_kv, D]    its keys CuSeqlensK[b] .. CuSeqlensK[b + 1]
//   CuSeqlensQ,  [B + 1] i32           prefix sums of the lengths (0 first)
//   CuSeqlensK
//   Lse          [H, total_q] f32      natural-log sum of exp of the scaled
//                                      scores (-inf for a row that sees no key)
// H = H_kv * QUERY_GROUP_SIZE (GQA). CAUSAL is bottom-right aligned per
// sequence: query i of a sequence with Lq queries and Lk keys sees keys
// 0 .. i + Lk - Lq (the KV-cache prefill case); a query row that sees no
// key (Lk = 0, or causal with Lq > Lk) stores 0 and Lse -inf.
//
// The grid: y is the head; x walks query tiles of all sequences without a
// table on the host: sequence b's tiles take the slots
// floor(CuSeqlensQ[b] / TILE_M) + b .., which never overlap (a sequence of
// L rows from row a spans floor((a + L) / TILE_M) - floor(a / TILE_M) + 1
// >= cdiv(L, TILE_M) slots) and need cdiv(total_q, TILE_M) + B slots at
// most, so at most B + 1 blocks of the grid find no tile and exit at once.
// A block finds its sequence by a binary search over CuSeqlensQ (tile.read,
// log2(B) reads). Loads start at element offsets of the sequence's first
// row (`at`): the offsets along D stay 0, so K and V still take 16-byte
// cp.async copies into the software pipeline, whose loop bounds are read
// from memory. Rows of a tile past its sequence's end read the next
// sequence's rows: their scores are masked, and the last, partial tile of a
// sequence is stored with a masked scatter (full tiles keep the vectorized
// store), so no block writes another sequence's rows.
//
// Parameters: TILE_M, TILE_N, HEAD_DIM, QUERY_GROUP_SIZE, CAUSAL, DTYPE as
// in fmha.mlir.
func.func @varlen_fmha(
    %Q: !tile.view<?x?x?x!tile.dtype<"DTYPE">> {tile.name = "Q"},
    %K: !tile.view<?x?x?x!tile.dtype<"DTYPE">> {tile.name = "K"},
    %V: !tile.view<?x?x?x!tile.dtype<"DTYPE">> {tile.name = "V"},
    %CuSeqlensQ: !tile.view<?xi32> {tile.name = "CuSeqlensQ", tile.align = 4 : i64},
    %CuSeqlensK: !tile.view<?xi32> {tile.name = "CuSeqlensK", tile.align = 4 : i64},
    %Out: !tile.view<?x?x?x!tile.dtype<"DTYPE">> {tile.name = "Out"},
    %Lse: !tile.view<?x?xf32> {tile.name = "Lse", tile.align = 4 : i64},
    %qk_scale: f32 {tile.name = "qk_scale"})
    attributes {
      tile.kernel = {num_warps = 4 : i32, occupancy = 1 : i32,
                     grid = ["cdiv(Q.0, TILE_M) + CuSeqlensQ.0 - 1", "Q.1", "1"],
                     requires = ["Q.2 == HEAD_DIM", "K.2 == HEAD_DIM", "V.2 == HEAD_DIM",
                                 "Q.1 == K.1 * QUERY_GROUP_SIZE",
                                 "V.0 == K.0", "V.1 == K.1",
                                 "CuSeqlensK.0 == CuSeqlensQ.0",
                                 "Out.0 == Q.0", "Out.1 == Q.1", "Out.2 == HEAD_DIM",
                                 "Lse.0 == Q.1", "Lse.1 == Q.0"],
                     hints = {sm_90 = {num_warps = 8 : i32}}},
      tile.params = {TILE_M = 64 : i32, TILE_N = 64 : i32,
                     HEAD_DIM = 128 : i32, QUERY_GROUP_SIZE = 1 : i32,
                     CAUSAL = true, DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %inv_log_2 = arith.constant 1.44269504088896340736 : f32
  %ln_2 = arith.constant 0.693147180559945309417 : f32
  %tile_m = tile.param "TILE_M" : i32
  %tile_n = tile.param "TILE_N" : i32
  %group_size = tile.param "QUERY_GROUP_SIZE" : i32
  %causal = tile.param "CAUSAL" : i1

  %slot = tile.block_id x
  %head = tile.block_id y
  %kv_head = arith.divsi %head, %group_size : i32
  %cu_len = tile.dim %CuSeqlensQ[0] : !tile.view<?xi32>
  %num_seqs = arith.subi %cu_len, %c1 : i32

  // The sequence whose slots hold this block: the largest b < B with
  // floor(CuSeqlensQ[b] / TILE_M) + b <= slot (b = 0 always qualifies).
  %b, %hi_unused = scf.while (%lo = %c0, %hi = %num_seqs) : (i32, i32) -> (i32, i32) {
    %span = arith.subi %hi, %lo : i32
    %more = arith.cmpi sgt, %span, %c1 : i32
    scf.condition(%more) %lo, %hi : i32, i32
  } do {
  ^bb0(%lo: i32, %hi: i32):
    %sum = arith.addi %lo, %hi : i32
    %mid = arith.divsi %sum, %c2 : i32
    %start = tile.read %CuSeqlensQ[%mid] : !tile.view<?xi32> -> i32
    %start_tiles = arith.divsi %start, %tile_m : i32
    %first_slot = arith.addi %start_tiles, %mid : i32
    %le = arith.cmpi sle, %first_slot, %slot : i32
    %lo2 = arith.select %le, %mid, %lo : i32
    %hi2 = arith.select %le, %hi, %mid : i32
    scf.yield %lo2, %hi2 : i32, i32
  }
  %b1 = arith.addi %b, %c1 : i32
  %q_start = tile.read %CuSeqlensQ[%b] : !tile.view<?xi32> -> i32
  %q_end = tile.read %CuSeqlensQ[%b1] : !tile.view<?xi32> -> i32
  %k_start = tile.read %CuSeqlensK[%b] : !tile.view<?xi32> -> i32
  %k_end = tile.read %CuSeqlensK[%b1] : !tile.view<?xi32> -> i32
  %len_q = arith.subi %q_end, %q_start : i32
  %len_k = arith.subi %k_end, %k_start : i32
  %q_tiles0 = arith.divsi %q_start, %tile_m : i32
  %seq_slot0 = arith.addi %q_tiles0, %b : i32
  %tile_idx = arith.subi %slot, %seq_slot0 : i32
  %row0 = arith.muli %tile_idx, %tile_m : i32
  %has_rows = arith.cmpi slt, %row0, %len_q : i32

  // exp(x * s) = exp2(x * s / ln 2).
  %scale = arith.mulf %qk_scale, %inv_log_2 : f32
  %q_row0 = arith.addi %q_start, %row0 : i32

  // Query i of the tile is row row0 + i of its sequence; with the causal
  // offset Lk - Lq it sees keys below i + row0 + Lk - Lq + 1.
  %shift = arith.subi %len_k, %len_q : i32
  %m_start = arith.addi %row0, %shift : i32
  %rows = tile.iota shape [TILE_M, 1] dim 0 : tensor<?x1xi32>
  %m_start_t = tile.splat %m_start shape [TILE_M, 1] : i32 -> tensor<?x1xi32>
  %offs_m = arith.addi %rows, %m_start_t : tensor<?x1xi32>
  %cols = tile.iota shape [1, TILE_N] dim 1 : tensor<1x?xi32>

  %m_init = tile.full -inf shape [TILE_M, 1] : tensor<?x1xf32>
  %l_init = tile.full 0.0 shape [TILE_M, 1] : tensor<?x1xf32>
  %acc_init = tile.full 0.0 shape [TILE_M, HEAD_DIM] : tensor<?x?xf32>

  %q3 = tile.load %Q at [%q_row0, %head, %c0] shape [TILE_M, 1, HEAD_DIM]
      : !tile.view<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x1x?x!tile.dtype<"DTYPE">>
  %q = tile.reshape %q3 shape [TILE_M, HEAD_DIM]
      : tensor<?x1x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>

  // Key tiles to visit: all of the sequence's, or for causal those up to
  // the tile's last query (none when it sees no key).
  %m_end = arith.addi %m_start, %tile_m : i32
  %kv_end = scf.if %causal -> i32 {
    %e = arith.minsi %m_end, %len_k : i32
    %e0 = arith.maxsi %e, %c0 : i32
    scf.yield %e0 : i32
  } else {
    scf.yield %len_k : i32
  }
  // A block past its sequence's tiles runs no iteration and stores nothing
  // (kept out of a branch: the pipeline wants the loop at the top level).
  %k_tiles = arith.ceildivsi %kv_end, %tile_n : i32
  %num_k_tiles = arith.select %has_rows, %k_tiles, %c0 : i32

  %ninf = tile.full -inf shape [TILE_M, TILE_N] : tensor<?x?xf32>
  %zero_qk = tile.full 0.0 shape [TILE_M, TILE_N] : tensor<?x?xf32>
  %scale_rows = tile.splat %scale shape [TILE_M, 1] : f32 -> tensor<?x1xf32>
  %scale_qk = tile.splat %scale shape [TILE_M, TILE_N] : f32 -> tensor<?x?xf32>
  %k_len_t = tile.splat %len_k shape [TILE_M, TILE_N] : i32 -> tensor<?x?xi32>

  %m_f, %l_f, %acc_f = scf.for %j = %c0 to %num_k_tiles step %c1
      iter_args(%m_i = %m_init, %l_i = %l_init, %acc = %acc_init)
      -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>) : i32 {
    %n_start = arith.muli %j, %tile_n : i32
    %k_row = arith.addi %k_start, %n_start : i32
    // K^T: [D, TILE_N] walking K's dims (head, D, row).
    %k3 = tile.load %K at [%kv_head, %c0, %k_row] shape [1, HEAD_DIM, TILE_N]
        order [1, 2, 0] latency 2
        : !tile.view<?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x?x?x!tile.dtype<"DTYPE">>
    %k = tile.reshape %k3 shape [HEAD_DIM, TILE_N]
        : tensor<1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %qk_raw = tile.mma %q, %k, %zero_qk
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>

    // Keys past the sequence's end (the next sequence's rows) and, for
    // causal, keys after the query score -inf.
    %n_start_t = tile.splat %n_start shape [1, TILE_N] : i32 -> tensor<1x?xi32>
    %offs_n = arith.addi %cols, %n_start_t : tensor<1x?xi32>
    %offs_n_b = tile.broadcast %offs_n shape [TILE_M, TILE_N]
        : tensor<1x?xi32> -> tensor<?x?xi32>
    %in_seq = arith.cmpi slt, %offs_n_b, %k_len_t : tensor<?x?xi32>
    %mask = scf.if %causal -> tensor<?x?xi1> {
      %offs_m_b = tile.broadcast %offs_m shape [TILE_M, TILE_N]
          : tensor<?x1xi32> -> tensor<?x?xi32>
      %ge = arith.cmpi sge, %offs_m_b, %offs_n_b : tensor<?x?xi32>
      %and = arith.andi %in_seq, %ge : tensor<?x?xi1>
      scf.yield %and : tensor<?x?xi1>
    } else {
      scf.yield %in_seq : tensor<?x?xi1>
    }
    %qk = tile.select %mask, %qk_raw, %ninf : tensor<?x?xi1>, tensor<?x?xf32>

    // Online softmax update.
    %qk_max = tile.reduce %qk max axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %qk_max_scaled = arith.mulf %qk_max, %scale_rows : tensor<?x1xf32>
    %m_ij = arith.maximumf %m_i, %qk_max_scaled : tensor<?x1xf32>
    %m_ninf = tile.full -inf shape [TILE_M, 1] : tensor<?x1xf32>
    %m_zero = tile.full 0.0 shape [TILE_M, 1] : tensor<?x1xf32>
    %no_key = arith.cmpf oeq, %m_ij, %m_ninf : tensor<?x1xf32>
    %m_sub = tile.select %no_key, %m_zero, %m_ij : tensor<?x1xi1>, tensor<?x1xf32>
    %qk_scaled = arith.mulf %qk, %scale_qk : tensor<?x?xf32>
    %m_sub_b = tile.broadcast %m_sub shape [TILE_M, TILE_N]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    %qk_shifted = arith.subf %qk_scaled, %m_sub_b : tensor<?x?xf32>
    %p = tile.exp2 %qk_shifted : tensor<?x?xf32>
    %l_ij = tile.reduce %p sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %alpha_arg = arith.subf %m_i, %m_sub : tensor<?x1xf32>
    %alpha = tile.exp2 %alpha_arg : tensor<?x1xf32>
    %l_scaled = arith.mulf %l_i, %alpha : tensor<?x1xf32>
    %l_new = arith.addf %l_scaled, %l_ij : tensor<?x1xf32>
    %alpha_b = tile.broadcast %alpha shape [TILE_M, HEAD_DIM]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    %acc_scaled = arith.mulf %acc, %alpha_b : tensor<?x?xf32>

    // O += P V.
    %v3 = tile.load %V at [%k_row, %kv_head, %c0] shape [TILE_N, 1, HEAD_DIM]
        latency 4
        : !tile.view<?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x1x?x!tile.dtype<"DTYPE">>
    %v = tile.reshape %v3 shape [TILE_N, HEAD_DIM]
        : tensor<?x1x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %p_lp = tile.astype %p : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %acc_new = tile.mma %p_lp, %v, %acc_scaled
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
    scf.yield %m_ij, %l_new, %acc_new : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>
  }

  // O = acc / l; a row that saw no key has acc = 0 and l = 0 and stores 0.
  %l_zero = tile.full 0.0 shape [TILE_M, 1] : tensor<?x1xf32>
  %l_one = tile.full 1.0 shape [TILE_M, 1] : tensor<?x1xf32>
  %l_empty = arith.cmpf oeq, %l_f, %l_zero : tensor<?x1xf32>
  %l_safe = tile.select %l_empty, %l_one, %l_f : tensor<?x1xi1>, tensor<?x1xf32>
  %l_b = tile.broadcast %l_safe shape [TILE_M, HEAD_DIM]
      : tensor<?x1xf32> -> tensor<?x?xf32>
  %o = tile.div %acc_f, %l_b : tensor<?x?xf32>
  %o_lp = tile.astype %o : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %o3 = tile.reshape %o_lp shape [TILE_M, 1, HEAD_DIM]
      : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x1x?x!tile.dtype<"DTYPE">>
  // Natural-log LSE: (m + log2 l) ln 2; -inf for a row that saw no key.
  %log_l = math.log2 %l_safe : tensor<?x1xf32>
  %lse2 = arith.addf %m_f, %log_l : tensor<?x1xf32>
  %ln2_t = tile.splat %ln_2 shape [TILE_M, 1] : f32 -> tensor<?x1xf32>
  %lse_e = arith.mulf %lse2, %ln2_t : tensor<?x1xf32>
  %ninf_rows = tile.full -inf shape [TILE_M, 1] : tensor<?x1xf32>
  %lse = tile.select %l_empty, %ninf_rows, %lse_e : tensor<?x1xi1>, tensor<?x1xf32>
  %lse_row = tile.reshape %lse shape [1, TILE_M] : tensor<?x1xf32> -> tensor<1x?xf32>

  scf.if %has_rows {
    %row_end = arith.addi %row0, %tile_m : i32
    %full = arith.cmpi sle, %row_end, %len_q : i32
    scf.if %full {
      tile.store %o3, %Out at [%q_row0, %head, %c0]
          : tensor<?x1x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x!tile.dtype<"DTYPE">>
      tile.store %lse_row, %Lse at [%head, %q_row0] : tensor<1x?xf32>, !tile.view<?x?xf32>
    } else {
      // The sequence's last tile: only its own rows.
      %r3 = tile.iota shape [TILE_M, 1, HEAD_DIM] dim 0 : tensor<?x1x?xi32>
      %q_row0_3 = tile.splat %q_row0 shape [TILE_M, 1, HEAD_DIM] : i32 -> tensor<?x1x?xi32>
      %rows3 = arith.addi %r3, %q_row0_3 : tensor<?x1x?xi32>
      %heads3 = tile.splat %head shape [TILE_M, 1, HEAD_DIM] : i32 -> tensor<?x1x?xi32>
      %cols3 = tile.iota shape [TILE_M, 1, HEAD_DIM] dim 2 : tensor<?x1x?xi32>
      %q_end3 = tile.splat %q_end shape [TILE_M, 1, HEAD_DIM] : i32 -> tensor<?x1x?xi32>
      %mine3 = arith.cmpi slt, %rows3, %q_end3 : tensor<?x1x?xi32>
      tile.scatter %o3, %Out[%rows3, %heads3, %cols3] mask %mine3 : tensor<?x1x?xi1>
          : tensor<?x1x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x!tile.dtype<"DTYPE">>,
            tensor<?x1x?xi32>, tensor<?x1x?xi32>, tensor<?x1x?xi32>
      %ri = tile.iota shape [1, TILE_M] dim 1 : tensor<1x?xi32>
      %q_row0_r = tile.splat %q_row0 shape [1, TILE_M] : i32 -> tensor<1x?xi32>
      %rows_r = arith.addi %ri, %q_row0_r : tensor<1x?xi32>
      %heads_r = tile.splat %head shape [1, TILE_M] : i32 -> tensor<1x?xi32>
      %q_end_r = tile.splat %q_end shape [1, TILE_M] : i32 -> tensor<1x?xi32>
      %mine_r = arith.cmpi slt, %rows_r, %q_end_r : tensor<1x?xi32>
      tile.scatter %lse_row, %Lse[%heads_r, %rows_r] mask %mine_r : tensor<1x?xi1>
          : tensor<1x?xf32>, !tile.view<?x?xf32>, tensor<1x?xi32>, tensor<1x?xi32>
    }
  }
  return
}

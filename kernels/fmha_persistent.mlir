// Flash-attention forward in persistent form: kernels/fmha.mlir's kernel,
// with one block walking many (query tile, batch, head) tiles instead of
// one, so that the producer warpgroup loads the next tile's Q, K and V
// while the consumers finish this one (tilegpu-pipeline carries the ring
// slots across the tiles; Q gets a ring of two stages). The body of the
// tile loop is fmha.mlir's kernel body; see there for the algorithm and
// the parameters.
//
// Tiles are numbered head by head, query tiles fastest (the blocks that run
// together read the same K/V from L2), or with HEADS_FASTEST query tile by
// query tile (every head's tile of one length, then the next length: an
// even share of each length for every block); causal kernels take the
// query tiles from the last (the most keys) to the first. Block b takes
// tiles b, b + grid, b + 2 grid, ...
//
// Causal tiles have unequal lengths: with PAIRED (the default; causal and
// not HEADS_FASTEST) a block takes the query tiles of a head in pairs,
// n - 1 - i then i (n query tiles: n + 1 key tiles a pair, the same for
// every pair), pairs b, b + grid, ... in rounds 0 and 1, 2 and 3, ...; the
// second of the middle pair of an odd n is an empty tile.
//
// Extra parameters:
//   MAX_BLOCKS     the most blocks launched: the number of SMs for a
//                  persistent launch; the default gives one tile a block.
//   HEADS_FASTEST  number the tiles query tile by query tile
//   PAIRED         causal: balance the blocks with pairs of query tiles

func.func @fmha(
    %Q: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "Q"},
    %K: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "K"},
    %V: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "V"},
    %Out: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "Out"},
    %Lse: !tile.view<?x?x?xf32> {tile.name = "Lse", tile.align = 4 : i64},
    %qk_scale: f32 {tile.name = "qk_scale"},
    %input_pos: i32 {tile.name = "input_pos"})
    attributes {
      tile.kernel = {num_warps = 4 : i32, occupancy = 1 : i32,
                     grid = ["min(cdiv(Q.2, TILE_M) * Q.0 * Q.1, MAX_BLOCKS)", "1", "1"],
                     requires = ["Q.3 == HEAD_DIM", "K.3 == HEAD_DIM",
                                 "Q.1 == K.1 * QUERY_GROUP_SIZE",
                                 "EVEN_K == 0 || K.2 % TILE_N == 0"],
                     hints = {sm_90 = {num_warps = 8 : i32}}},
      tile.params = {TILE_M = 64 : i32, TILE_N = 64 : i32,
                     HEAD_DIM = 128 : i32, QUERY_GROUP_SIZE = 1 : i32,
                     CAUSAL = true, EVEN_K = true, WITH_LSE = false,
                     DTYPE = f16, MAX_BLOCKS = 2147483647 : i32,
                     HEADS_FASTEST = false, PAIRED = true}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true_c = arith.constant true
  %inv_log_2 = arith.constant 1.44269504088896340736 : f32
  %tile_m = tile.param "TILE_M" : i32
  %tile_n = tile.param "TILE_N" : i32
  %group_size = tile.param "QUERY_GROUP_SIZE" : i32
  %causal = tile.param "CAUSAL" : i1
  %even_k = tile.param "EVEN_K" : i1
  %with_lse = tile.param "WITH_LSE" : i1
  %heads_fastest = tile.param "HEADS_FASTEST" : i1
  %paired_param = tile.param "PAIRED" : i1

  %num_heads = tile.dim %Q[1] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %num_batch = tile.dim %Q[0] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %q_seqlen = tile.dim %Q[2] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %num_q_tiles = arith.ceildivsi %q_seqlen, %tile_m : i32
  %bh = arith.muli %num_batch, %num_heads : i32
  %tiles = arith.muli %num_q_tiles, %bh : i32
  %last_q_tile = arith.subi %num_q_tiles, %c1 : i32
  %first = tile.block_id x
  %blocks = tile.num_blocks x
  // PAIRED: this block's pairs are first, first + blocks, ... below
  // `pairs`; two rounds (tiles) each.
  %c2 = arith.constant 2 : i32
  %not_heads_fastest = arith.xori %heads_fastest, %true_c : i1
  %paired_causal = arith.andi %causal, %paired_param : i1
  %paired = arith.andi %paired_causal, %not_heads_fastest : i1
  %pairs_per_head = arith.ceildivsi %num_q_tiles, %c2 : i32
  %pairs = arith.muli %bh, %pairs_per_head : i32
  %pairs_left = arith.subi %pairs, %first : i32
  %my_pairs_raw = arith.ceildivsi %pairs_left, %blocks : i32
  %my_pairs = arith.maxsi %my_pairs_raw, %c0 : i32
  %my_rounds = arith.muli %my_pairs, %c2 : i32
  %paired_span = arith.muli %my_rounds, %blocks : i32
  %paired_end = arith.addi %first, %paired_span : i32
  %end = arith.select %paired, %paired_end, %tiles : i32
  scf.for %t = %first to %end step %blocks : i32 {
    // Tile t: x walks query tiles (from the last when causal), y walks
    // (batch, head) pairs; HEADS_FASTEST swaps which one varies fastest.
    %bid_y_q = arith.divsi %t, %num_q_tiles : i32
    %q_index_q = arith.remsi %t, %num_q_tiles : i32
    %bid_y_h = arith.remsi %t, %bh : i32
    %q_index_h = arith.divsi %t, %bh : i32
    %bid_y_n = arith.select %heads_fastest, %bid_y_h, %bid_y_q : i32
    %q_index = arith.select %heads_fastest, %q_index_h, %q_index_q : i32
    %q_reversed = arith.subi %last_q_tile, %q_index : i32
    %bid_x_n = arith.select %causal, %q_reversed, %q_index : i32
    // PAIRED: round r = (t - first) / blocks takes member r % 2 of pair
    // (r / 2) * blocks + first: query tile n - 1 - i, then i.
    %t_off = arith.subi %t, %first : i32
    %round = arith.divsi %t_off, %blocks : i32
    %member = arith.remsi %round, %c2 : i32
    %pair_round = arith.divsi %round, %c2 : i32
    %pair_base = arith.muli %pair_round, %blocks : i32
    %pair = arith.addi %pair_base, %first : i32
    %bid_y_p = arith.divsi %pair, %pairs_per_head : i32
    %pair_i = arith.remsi %pair, %pairs_per_head : i32
    %pair_long = arith.subi %last_q_tile, %pair_i : i32
    %second = arith.cmpi eq, %member, %c1 : i32
    // The second of a pair whose two tiles are one (odd n): tile n, empty.
    %same = arith.cmpi eq, %pair_long, %pair_i : i32
    %none = arith.andi %second, %same : i1
    %pair_q0 = arith.select %second, %pair_i, %pair_long : i32
    %pair_q = arith.select %none, %num_q_tiles, %pair_q0 : i32
    %bid_y = arith.select %paired, %bid_y_p, %bid_y_n : i32
    %bid_x = arith.select %paired, %pair_q, %bid_x_n : i32
    %batch = arith.divsi %bid_y, %num_heads : i32
    %head = arith.remsi %bid_y, %num_heads : i32
    %kv_head = arith.divsi %head, %group_size : i32

    // Softmax runs in the exp2 domain: exp(x * s) = exp2(x * s / ln 2).
    %scale = arith.mulf %qk_scale, %inv_log_2 : f32

    // Positions of this block's query rows, [TILE_M, 1], and key columns.
    %block_row = arith.muli %bid_x, %tile_m : i32
    %m_start = arith.addi %input_pos, %block_row : i32
    %rows = tile.iota shape [TILE_M, 1] dim 0 : tensor<?x1xi32>
    %m_start_t = tile.splat %m_start shape [TILE_M, 1] : i32 -> tensor<?x1xi32>
    %offs_m = arith.addi %rows, %m_start_t : tensor<?x1xi32>
    %cols = tile.iota shape [1, TILE_N] dim 1 : tensor<1x?xi32>

    // Online-softmax state: running max m_i, running sum l_i, accumulator.
    %m_init = tile.full -inf shape [TILE_M, 1] : tensor<?x1xf32>
    %l_init = tile.full 0.0 shape [TILE_M, 1] : tensor<?x1xf32>
    %acc_init = tile.full 0.0 shape [TILE_M, HEAD_DIM] : tensor<?x?xf32>

    // The query tile, loaded once.
    %q4 = tile.load %Q[%batch, %head, %bid_x, %c0] shape [1, 1, TILE_M, HEAD_DIM]
        : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
    %q = tile.reshape %q4 shape [TILE_M, HEAD_DIM]
        : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>

    // Key tiles to visit: all of them, or for causal only those up to the
    // block's last query position.
    %k_seqlen = tile.dim %K[2] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
    %m_end = arith.addi %m_start, %tile_m : i32
    %kv_end = scf.if %causal -> i32 {
      %e = arith.minsi %m_end, %k_seqlen : i32
      scf.yield %e : i32
    } else {
      scf.yield %k_seqlen : i32
    }
    %k_tiles_all = arith.ceildivsi %kv_end, %tile_n : i32
    // An empty tile (past the last query tile) visits no key.
    %has_rows = arith.cmpi slt, %bid_x, %num_q_tiles : i32
    %num_k_tiles = arith.select %has_rows, %k_tiles_all, %c0 : i32
    %true = arith.constant true
    %ragged_k = arith.xori %even_k, %true : i1
    %need_mask = arith.ori %causal, %ragged_k : i1

    %ninf = tile.full -inf shape [TILE_M, TILE_N] : tensor<?x?xf32>
    %zero_qk = tile.full 0.0 shape [TILE_M, TILE_N] : tensor<?x?xf32>
    %scale_rows = tile.splat %scale shape [TILE_M, 1] : f32 -> tensor<?x1xf32>
    %scale_qk = tile.splat %scale shape [TILE_M, TILE_N] : f32 -> tensor<?x?xf32>

    %m_f, %l_f, %acc_f = scf.for %j = %c0 to %num_k_tiles step %c1
        iter_args(%m_i = %m_init, %l_i = %l_init, %acc = %acc_init)
        -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>) : i32 {
      // S = Q K^T: K is loaded transposed, [HEAD_DIM, TILE_N].
      %k4 = tile.load %K[%batch, %kv_head, %c0, %j] shape [1, 1, HEAD_DIM, TILE_N]
          order [0, 1, 3, 2] latency 2
          : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
      %k = tile.reshape %k4 shape [HEAD_DIM, TILE_N]
          : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %qk_raw = tile.mma %q, %k, %zero_qk
          : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>

      // Mask: keys past the end (!EVEN_K) and keys after the query (CAUSAL)
      // score -inf.
      %qk = scf.if %need_mask -> tensor<?x?xf32> {
        %n_start = arith.muli %j, %tile_n : i32
        %n_start_t = tile.splat %n_start shape [1, TILE_N] : i32 -> tensor<1x?xi32>
        %offs_n = arith.addi %cols, %n_start_t : tensor<1x?xi32>
        %offs_n_b = tile.broadcast %offs_n shape [TILE_M, TILE_N]
            : tensor<1x?xi32> -> tensor<?x?xi32>
        %all = tile.full true shape [TILE_M, TILE_N] : tensor<?x?xi1>
        %in_bounds = scf.if %even_k -> tensor<?x?xi1> {
          scf.yield %all : tensor<?x?xi1>
        } else {
          %k_len = tile.splat %k_seqlen shape [TILE_M, TILE_N] : i32 -> tensor<?x?xi32>
          %lt = arith.cmpi slt, %offs_n_b, %k_len : tensor<?x?xi32>
          %and = arith.andi %all, %lt : tensor<?x?xi1>
          scf.yield %and : tensor<?x?xi1>
        }
        %mask = scf.if %causal -> tensor<?x?xi1> {
          %offs_m_b = tile.broadcast %offs_m shape [TILE_M, TILE_N]
              : tensor<?x1xi32> -> tensor<?x?xi32>
          %ge = arith.cmpi sge, %offs_m_b, %offs_n_b : tensor<?x?xi32>
          %and = arith.andi %in_bounds, %ge : tensor<?x?xi1>
          scf.yield %and : tensor<?x?xi1>
        } else {
          scf.yield %in_bounds : tensor<?x?xi1>
        }
        %masked = tile.select %mask, %qk_raw, %ninf : tensor<?x?xi1>, tensor<?x?xf32>
        scf.yield %masked : tensor<?x?xf32>
      } else {
        scf.yield %qk_raw : tensor<?x?xf32>
      }

      // Online softmax update.
      %qk_max = tile.reduce %qk max axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
      %qk_max_scaled = arith.mulf %qk_max, %scale_rows : tensor<?x1xf32>
      %m_ij = arith.maximumf %m_i, %qk_max_scaled : tensor<?x1xf32>
      // A row that has seen only masked keys keeps m = -inf; subtract 0 there
      // instead, so that exp2(-inf - (-inf)) never makes a NaN.
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
      %v4 = tile.load %V[%batch, %kv_head, %j, %c0] shape [1, 1, TILE_N, HEAD_DIM]
          latency 4
          : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
      %v = tile.reshape %v4 shape [TILE_N, HEAD_DIM]
          : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
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
    %o4 = tile.reshape %o_lp shape [1, 1, TILE_M, HEAD_DIM]
        : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
    tile.store %o4, %Out[%batch, %head, %bid_x, %c0]
        : tensor<1x1x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>

    // Log-sum-exp in the exp2 domain, m + log2(l), for a backward pass. A row
    // that saw no key stores the largest finite float: like FlashAttention's
    // +inf it makes every recomputed probability 0, and it is never Inf.
    scf.if %with_lse {
      %log_l = math.log2 %l_safe : tensor<?x1xf32>
      %lse_rows = arith.addf %m_f, %log_l : tensor<?x1xf32>
      %flt_max = tile.full 3.40282347e+38 shape [TILE_M, 1] : tensor<?x1xf32>
      %lse = tile.select %l_empty, %flt_max, %lse_rows : tensor<?x1xi1>, tensor<?x1xf32>
      %lse3 = tile.reshape %lse shape [1, 1, TILE_M]
          : tensor<?x1xf32> -> tensor<1x1x?xf32>
      tile.store %lse3, %Lse[%batch, %head, %bid_x]
          : tensor<1x1x?xf32>, !tile.view<?x?x?xf32>
    }
  }
  return
}

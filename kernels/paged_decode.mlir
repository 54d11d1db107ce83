// Decode attention over a paged KV cache (issue 23): a few new query
// tokens per sequence (1 to Q_TILE: plain decode or speculative decoding)
// attend to that sequence's cached keys, which live in fixed-size pages
// named by a block table. Split-KV with the combine in the same launch.
//
// Layouts (vLLM / FlashInfer "NHD"; FlashAttention's flash_attn_with_kvcache):
//   Q, Out      [B, Sq, H, D]            Sq = the query length, 1..Q_TILE
//   KCache,     [num_pages, PAGE_SIZE, H_kv, D]
//   VCache
//   BlockTable  [B, max_pages] i32       page of keys p*PAGE_SIZE.. of sequence b
//   SeqLens     [B] i32                  keys of sequence b, new tokens included
//   Lse         [B, Sq, H] f32           natural-log sum of exp of the scaled scores
//   PartO       [B, H_kv, SPLITS, ROWS, D] f32   workspace: split partials
//   PartLse     [B, H_kv, SPLITS, ROWS] f32
//   Count       [B, H_kv] i32            tickets; zero before the first launch,
//                                        left zero by every launch
// H = H_kv * G (G = QUERY_GROUP_SIZE). The grid is [SPLITS, H_kv, B]: the
// number of splits is PartLse's dimension 2, chosen by the caller when it
// sizes the workspace (1: no split; each split walks a contiguous run of
// key tiles).
//
// Query token s of a sequence of length L sits at position L - Sq + s and
// sees the keys 0 .. L - Sq + s (bottom-right causal, as decoding and
// speculative verification need). L = 0 stores Out = 0 and Lse = -inf; so
// does a query row that sees no key (L < Sq). Block-table entries past a
// sequence's pages are never read; cache rows past L in its last page may
// hold anything (NaN included): their scores are masked and their V rows
// zeroed before they meet P.
//
// GQA is packed into the tile's rows (FlashAttention 3's pack_gqa): one
// block owns one KV head and all G query heads that share it, for up to
// Q_TILE query tokens: row r = s * G + g is query token s of head
// kv_head * G + g, read with one load at element offset kv_head * G along
// H. So the K and V tiles are read once for G heads and the mma's M is the
// group, not padding.
//
// Pages: a key tile of TILE_N rows lies inside one page (TILE_N divides
// PAGE_SIZE, both powers of two), so it is a plain tile load at the page
// read from the block table (tile.read) — no per-row gather.
//
// Split-KV in one launch: each block normalizes its partial output and
// stores it with its log-sum-exp into the workspace, then takes a ticket
// from Count[b, kv_head] (a scalar atomic add, acq_rel: the block's
// partial stores are published before it, the last block's reads ordered
// after it). The block that draws the last ticket merges the SPLITS
// partials (scaled by exp(lse_i - lse_max)), stores Out and Lse and puts
// the counter back to 0. With one split the block stores Out directly.
//
// Parameters:
//   PAGE_SIZE         keys per page (a power of two, 16 to 256)
//   TILE_N            keys per tile (a power of two dividing PAGE_SIZE)
//   Q_TILE            the most query tokens per sequence
//   QUERY_GROUP_SIZE  G, query heads per KV head
//   ROWS              Q_TILE * G, the tile's rows (at least 16: an mma's M)
//   HEAD_DIM          D (64 or 128)
//   DTYPE             f16 or bf16 (Q, caches, Out)
func.func @paged_decode(
    %Q: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "Q"},
    %KCache: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "KCache"},
    %VCache: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "VCache"},
    %BlockTable: !tile.view<?x?xi32> {tile.name = "BlockTable", tile.align = 4 : i64},
    %SeqLens: !tile.view<?xi32> {tile.name = "SeqLens", tile.align = 4 : i64},
    %Out: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "Out"},
    %Lse: !tile.view<?x?x?xf32> {tile.name = "Lse", tile.align = 4 : i64},
    %PartO: !tile.view<?x?x?x?x?xf32> {tile.name = "PartO"},
    %PartLse: !tile.view<?x?x?x?xf32> {tile.name = "PartLse", tile.align = 4 : i64},
    %Count: !tile.view<?x?xi32> {tile.name = "Count", tile.align = 4 : i64},
    %qk_scale: f32 {tile.name = "qk_scale"})
    attributes {
      tile.kernel = {num_warps = 1 : i32,
                     grid = ["PartLse.2", "KCache.2", "Q.0"],
                     requires = ["Q.3 == HEAD_DIM", "KCache.3 == HEAD_DIM",
                                 "VCache.3 == HEAD_DIM",
                                 "Q.2 == KCache.2 * QUERY_GROUP_SIZE",
                                 "Q.1 <= Q_TILE",
                                 "KCache.1 == PAGE_SIZE",
                                 "VCache.0 == KCache.0", "VCache.1 == PAGE_SIZE",
                                 "VCache.2 == KCache.2",
                                 "BlockTable.0 == Q.0", "SeqLens.0 == Q.0",
                                 "Out.0 == Q.0", "Out.1 == Q.1", "Out.2 == Q.2",
                                 "Out.3 == HEAD_DIM",
                                 "Lse.0 == Q.0", "Lse.1 == Q.1", "Lse.2 == Q.2",
                                 "PartO.0 == Q.0", "PartO.1 == KCache.2",
                                 "PartO.2 == PartLse.2",
                                 "PartO.3 == ROWS",
                                 "PartO.4 == HEAD_DIM",
                                 "PartLse.0 == Q.0", "PartLse.1 == KCache.2",
                                 "PartLse.3 == ROWS",
                                 "Count.0 == Q.0", "Count.1 == KCache.2",
                                 "PAGE_SIZE % TILE_N == 0",
                                 "ROWS == Q_TILE * QUERY_GROUP_SIZE", "ROWS >= 16"],
                     // Scalar atomics are not lowered in warp-specialized
                     // kernels; decode streams K and V through cp.async
                     // rings (mbarrier stages) in every warp.
                     hints = {sm_90 = {warp_specialize = 0 : i32}}},
      tile.params = {PAGE_SIZE = 64 : i32, TILE_N = 64 : i32, Q_TILE = 4 : i32,
                     ROWS = 16 : i32,
                     QUERY_GROUP_SIZE = 4 : i32, HEAD_DIM = 128 : i32,
                     DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %inv_log_2 = arith.constant 1.44269504088896340736 : f32
  %ln_2 = arith.constant 0.693147180559945309417 : f32
  %tile_n = tile.param "TILE_N" : i32
  %page_size = tile.param "PAGE_SIZE" : i32
  %group = tile.param "QUERY_GROUP_SIZE" : i32

  %split = tile.block_id x
  %kv_head = tile.block_id y
  %b = tile.block_id z
  %num_splits = tile.dim %PartLse[2] : !tile.view<?x?x?x?xf32>
  %q_len = tile.dim %Q[1] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %seq_len = tile.read %SeqLens[%b] : !tile.view<?xi32> -> i32
  %head0 = arith.muli %kv_head, %group : i32

  // exp(x * s) = exp2(x * s / ln 2): the softmax runs in the exp2 domain.
  %scale = arith.mulf %qk_scale, %inv_log_2 : f32

  // This split's key tiles: a contiguous run of cdiv(tiles, SPLITS).
  %num_tiles = arith.ceildivsi %seq_len, %tile_n : i32
  %per_split = arith.ceildivsi %num_tiles, %num_splits : i32
  %t_begin_raw = arith.muli %split, %per_split : i32
  %t_begin = arith.minsi %t_begin_raw, %num_tiles : i32
  %t_end_raw = arith.addi %t_begin, %per_split : i32
  %t_end = arith.minsi %t_end_raw, %num_tiles : i32
  // Tiles wholly inside the sequence run in the loop; a ragged last tile
  // (keys past seq_len in its page) after it, its V rows zeroed.
  %full_tiles = arith.divsi %seq_len, %tile_n : i32
  %loop_end_raw = arith.minsi %t_end, %full_tiles : i32
  %loop_end = arith.maxsi %loop_end_raw, %t_begin : i32
  %has_tail = arith.cmpi sgt, %t_end, %loop_end : i32

  // The packed query tile: [1, Q_TILE, G, D] at (b, 0, kv_head * G, 0),
  // rows s * G + g. Tokens past q_len read 0 (and are never stored).
  %q4 = tile.load %Q at [%b, %c0, %head0, %c0] shape [1, Q_TILE, QUERY_GROUP_SIZE, HEAD_DIM]
      : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x?x?x?x!tile.dtype<"DTYPE">>
  %q = tile.reshape %q4 shape [ROWS, HEAD_DIM]
      : tensor<1x?x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>

  // Row r sees the keys below limit_r = min(L - Sq + s + 1, L), s = r / G.
  %rows = tile.iota shape [ROWS, 1] dim 0 : tensor<?x1xi32>
  %group_t = tile.splat %group shape [ROWS, 1] : i32 -> tensor<?x1xi32>
  %tok = arith.divsi %rows, %group_t : tensor<?x1xi32>
  %first_vis = arith.subi %seq_len, %q_len : i32
  %first_vis1 = arith.addi %first_vis, %c1 : i32
  %first_t = tile.splat %first_vis1 shape [ROWS, 1] : i32 -> tensor<?x1xi32>
  %lim_raw = arith.addi %tok, %first_t : tensor<?x1xi32>
  %seq_t = tile.splat %seq_len shape [ROWS, 1] : i32 -> tensor<?x1xi32>
  %lim = arith.minsi %lim_raw, %seq_t : tensor<?x1xi32>
  %lim_b = tile.broadcast %lim shape [ROWS, TILE_N]
      : tensor<?x1xi32> -> tensor<?x?xi32>
  %cols = tile.iota shape [ROWS, TILE_N] dim 1 : tensor<?x?xi32>

  %m_init = tile.full -inf shape [ROWS, 1] : tensor<?x1xf32>
  %l_init = tile.full 0.0 shape [ROWS, 1] : tensor<?x1xf32>
  %acc_init = tile.full 0.0 shape [ROWS, HEAD_DIM] : tensor<?x?xf32>
  %ninf = tile.full -inf shape [ROWS, TILE_N] : tensor<?x?xf32>
  %zero_qk = tile.full 0.0 shape [ROWS, TILE_N] : tensor<?x?xf32>
  %m_ninf = tile.full -inf shape [ROWS, 1] : tensor<?x1xf32>
  %m_zero = tile.full 0.0 shape [ROWS, 1] : tensor<?x1xf32>
  %scale_rows = tile.splat %scale shape [ROWS, 1] : f32 -> tensor<?x1xf32>
  %scale_qk = tile.splat %scale shape [ROWS, TILE_N] : f32 -> tensor<?x?xf32>

  // The key tiles wholly inside the sequence. Only the causal limit of the
  // last query tokens can mask here; the mask is a few integer ops on a
  // [rows, TILE_N] tile beside two [TILE_N, D] loads.
  %m_l, %l_l, %acc_l = scf.for %j = %t_begin to %loop_end step %c1
      iter_args(%m_i = %m_init, %l_i = %l_init, %acc = %acc_init)
      -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>) : i32 {
    %key0 = arith.muli %j, %tile_n : i32
    %slot = arith.divsi %key0, %page_size : i32
    %page = tile.read %BlockTable[%b, %slot] : !tile.view<?x?xi32> -> i32
    %in_page = arith.remsi %key0, %page_size : i32
    %sub = arith.divsi %in_page, %tile_n : i32
    // K^T of the tile: [D, TILE_N] walking the cache's dims (D, row).
    %k4 = tile.load %KCache[%page, %kv_head, %c0, %sub] shape [1, 1, HEAD_DIM, TILE_N]
        order [0, 2, 3, 1] latency 4
        : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
    %k = tile.reshape %k4 shape [HEAD_DIM, TILE_N]
        : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %qk_raw = tile.mma %q, %k, %zero_qk
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
    %key0_t = tile.splat %key0 shape [ROWS, TILE_N] : i32 -> tensor<?x?xi32>
    %keys = arith.addi %cols, %key0_t : tensor<?x?xi32>
    %vis = arith.cmpi slt, %keys, %lim_b : tensor<?x?xi32>
    %qk = tile.select %vis, %qk_raw, %ninf : tensor<?x?xi1>, tensor<?x?xf32>

    %qk_max = tile.reduce %qk max axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %qk_max_s = arith.mulf %qk_max, %scale_rows : tensor<?x1xf32>
    %m_new = arith.maximumf %m_i, %qk_max_s : tensor<?x1xf32>
    // A row with no visible key yet keeps m = -inf: subtract 0 there, so
    // exp2(-inf - (-inf)) never makes a NaN.
    %no_key = arith.cmpf oeq, %m_new, %m_ninf : tensor<?x1xf32>
    %m_sub = tile.select %no_key, %m_zero, %m_new : tensor<?x1xi1>, tensor<?x1xf32>
    %qk_s = arith.mulf %qk, %scale_qk : tensor<?x?xf32>
    %m_sub_b = tile.broadcast %m_sub shape [ROWS, TILE_N]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    %sh = arith.subf %qk_s, %m_sub_b : tensor<?x?xf32>
    %p = tile.exp2 %sh : tensor<?x?xf32>
    %l_ij = tile.reduce %p sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %alpha_arg = arith.subf %m_i, %m_sub : tensor<?x1xf32>
    %alpha = tile.exp2 %alpha_arg : tensor<?x1xf32>
    %l_sc = arith.mulf %l_i, %alpha : tensor<?x1xf32>
    %l_new = arith.addf %l_sc, %l_ij : tensor<?x1xf32>
    %alpha_b = tile.broadcast %alpha shape [ROWS, HEAD_DIM]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    %acc_sc = arith.mulf %acc, %alpha_b : tensor<?x?xf32>

    %v4 = tile.load %VCache[%page, %sub, %kv_head, %c0] shape [1, TILE_N, 1, HEAD_DIM]
        latency 4
        : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x?x1x?x!tile.dtype<"DTYPE">>
    %v = tile.reshape %v4 shape [TILE_N, HEAD_DIM]
        : tensor<1x?x1x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %p_lp = tile.astype %p : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %acc_new = tile.mma %p_lp, %v, %acc_sc
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
    scf.yield %m_new, %l_new, %acc_new : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>
  }

  // The ragged last tile, in sub-tiles of 16 keys (sub-tiles of a tile lie
  // in its page): the same step with the V rows past seq_len zeroed, since
  // 0 * NaN would poison the row otherwise. The select takes V through
  // registers, hence the small sub-tiles.
  %tail_begin = arith.muli %loop_end, %tile_n : i32
  %tail_end = arith.select %has_tail, %seq_len, %tail_begin : i32
  %c16 = arith.constant 16 : i32
  %sub_begin = arith.divsi %tail_begin, %c16 : i32
  %sub_end = arith.ceildivsi %tail_end, %c16 : i32
  %cols16 = tile.iota shape [ROWS, 16] dim 1 : tensor<?x16xi32>
  %lim16 = tile.broadcast %lim shape [ROWS, 16] : tensor<?x1xi32> -> tensor<?x16xi32>
  %ninf16 = tile.full -inf shape [ROWS, 16] : tensor<?x16xf32>
  %zero16 = tile.full 0.0 shape [ROWS, 16] : tensor<?x16xf32>
  %scale16 = tile.splat %scale shape [ROWS, 16] : f32 -> tensor<?x16xf32>
  %vrows = tile.iota shape [16, HEAD_DIM] dim 0 : tensor<16x?xi32>
  %vseq = tile.splat %seq_len shape [16, HEAD_DIM] : i32 -> tensor<16x?xi32>
  %vzero = tile.full 0.0 shape [16, HEAD_DIM] : tensor<16x?x!tile.dtype<"DTYPE">>
  %m_f, %l_f, %acc_f = scf.for %jt = %sub_begin to %sub_end step %c1
      iter_args(%m_i = %m_l, %l_i = %l_l, %acc = %acc_l)
      -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>) : i32 {
    %key0 = arith.muli %jt, %c16 : i32
    %slot = arith.divsi %key0, %page_size : i32
    %page = tile.read %BlockTable[%b, %slot] : !tile.view<?x?xi32> -> i32
    %in_page = arith.remsi %key0, %page_size : i32
    %sub = arith.divsi %in_page, %c16 : i32
    %k4 = tile.load %KCache[%page, %kv_head, %c0, %sub] shape [1, 1, HEAD_DIM, 16]
        order [0, 2, 3, 1]
        : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x16x!tile.dtype<"DTYPE">>
    %k = tile.reshape %k4 shape [HEAD_DIM, 16]
        : tensor<1x1x?x16x!tile.dtype<"DTYPE">> -> tensor<?x16x!tile.dtype<"DTYPE">>
    %qk_raw = tile.mma %q, %k, %zero16
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x16x!tile.dtype<"DTYPE">>, tensor<?x16xf32>
    %key0_t = tile.splat %key0 shape [ROWS, 16] : i32 -> tensor<?x16xi32>
    %keys = arith.addi %cols16, %key0_t : tensor<?x16xi32>
    %vis = arith.cmpi slt, %keys, %lim16 : tensor<?x16xi32>
    %qk = tile.select %vis, %qk_raw, %ninf16 : tensor<?x16xi1>, tensor<?x16xf32>

    %qk_max = tile.reduce %qk max axis 1 keepdims : tensor<?x16xf32> -> tensor<?x1xf32>
    %qk_max_s = arith.mulf %qk_max, %scale_rows : tensor<?x1xf32>
    %m_new = arith.maximumf %m_i, %qk_max_s : tensor<?x1xf32>
    %no_key = arith.cmpf oeq, %m_new, %m_ninf : tensor<?x1xf32>
    %m_sub = tile.select %no_key, %m_zero, %m_new : tensor<?x1xi1>, tensor<?x1xf32>
    %qk_s = arith.mulf %qk, %scale16 : tensor<?x16xf32>
    %m_sub_b = tile.broadcast %m_sub shape [ROWS, 16] : tensor<?x1xf32> -> tensor<?x16xf32>
    %sh = arith.subf %qk_s, %m_sub_b : tensor<?x16xf32>
    %p = tile.exp2 %sh : tensor<?x16xf32>
    %l_ij = tile.reduce %p sum axis 1 keepdims : tensor<?x16xf32> -> tensor<?x1xf32>
    %alpha_arg = arith.subf %m_i, %m_sub : tensor<?x1xf32>
    %alpha = tile.exp2 %alpha_arg : tensor<?x1xf32>
    %l_sc = arith.mulf %l_i, %alpha : tensor<?x1xf32>
    %l_new = arith.addf %l_sc, %l_ij : tensor<?x1xf32>
    %alpha_b = tile.broadcast %alpha shape [ROWS, HEAD_DIM]
        : tensor<?x1xf32> -> tensor<?x?xf32>
    %acc_sc = arith.mulf %acc, %alpha_b : tensor<?x?xf32>

    %v4 = tile.load %VCache[%page, %sub, %kv_head, %c0] shape [1, 16, 1, HEAD_DIM]
        : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x16x1x?x!tile.dtype<"DTYPE">>
    %v_raw = tile.reshape %v4 shape [16, HEAD_DIM]
        : tensor<1x16x1x?x!tile.dtype<"DTYPE">> -> tensor<16x?x!tile.dtype<"DTYPE">>
    %vkey0 = tile.splat %key0 shape [16, HEAD_DIM] : i32 -> tensor<16x?xi32>
    %vkeys = arith.addi %vrows, %vkey0 : tensor<16x?xi32>
    %vin = arith.cmpi slt, %vkeys, %vseq : tensor<16x?xi32>
    %v = tile.select %vin, %v_raw, %vzero
        : tensor<16x?xi1>, tensor<16x?x!tile.dtype<"DTYPE">>
    %p_lp = tile.astype %p : tensor<?x16xf32> -> tensor<?x16x!tile.dtype<"DTYPE">>
    %acc_new = tile.mma %p_lp, %v, %acc_sc
        : tensor<?x16x!tile.dtype<"DTYPE">>, tensor<16x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
    scf.yield %m_new, %l_new, %acc_new : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>
  }

  // This split's normalized output and log-sum-exp (exp2 domain, -inf for a
  // row that saw no key, whose acc and l are 0 and which stores 0).
  %l_zero = tile.full 0.0 shape [ROWS, 1] : tensor<?x1xf32>
  %l_one = tile.full 1.0 shape [ROWS, 1] : tensor<?x1xf32>
  %l_empty = arith.cmpf oeq, %l_f, %l_zero : tensor<?x1xf32>
  %l_safe = tile.select %l_empty, %l_one, %l_f : tensor<?x1xi1>, tensor<?x1xf32>
  %l_b = tile.broadcast %l_safe shape [ROWS, HEAD_DIM]
      : tensor<?x1xf32> -> tensor<?x?xf32>
  %o = tile.div %acc_f, %l_b : tensor<?x?xf32>
  %log_l = math.log2 %l_safe : tensor<?x1xf32>
  %lse_raw = arith.addf %m_f, %log_l : tensor<?x1xf32>
  %lse2 = tile.select %l_empty, %m_ninf, %lse_raw : tensor<?x1xi1>, tensor<?x1xf32>

  %one_split = arith.cmpi eq, %num_splits, %c1 : i32
  scf.if %one_split {
    // No split: this block is the whole answer.
    %o_lp = tile.astype %o : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %o4 = tile.reshape %o_lp shape [1, Q_TILE, QUERY_GROUP_SIZE, HEAD_DIM]
        : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<1x?x?x?x!tile.dtype<"DTYPE">>
    tile.store %o4, %Out at [%b, %c0, %head0, %c0]
        : tensor<1x?x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
    %ln2_t = tile.splat %ln_2 shape [ROWS, 1] : f32 -> tensor<?x1xf32>
    %lse_e = arith.mulf %lse2, %ln2_t : tensor<?x1xf32>
    %lse3 = tile.reshape %lse_e shape [1, Q_TILE, QUERY_GROUP_SIZE]
        : tensor<?x1xf32> -> tensor<1x?x?xf32>
    tile.store %lse3, %Lse at [%b, %c0, %head0]
        : tensor<1x?x?xf32>, !tile.view<?x?x?xf32>
  } else {
    %o5 = tile.reshape %o shape [1, 1, 1, ROWS, HEAD_DIM]
        : tensor<?x?xf32> -> tensor<1x1x1x?x?xf32>
    tile.store %o5, %PartO[%b, %kv_head, %split, %c0, %c0]
        : tensor<1x1x1x?x?xf32>, !tile.view<?x?x?x?x?xf32>
    %lse4 = tile.reshape %lse2 shape [1, 1, 1, ROWS]
        : tensor<?x1xf32> -> tensor<1x1x1x?xf32>
    tile.store %lse4, %PartLse[%b, %kv_head, %split, %c0]
        : tensor<1x1x1x?xf32>, !tile.view<?x?x?x?xf32>
    // The ticket: acq_rel publishes this block's partials (the scalar
    // atomic synchronizes the block before it) and, for the last block,
    // orders its reads of the others' partials after it.
    %ticket = tile.atomic add %c1, %Count[%b, %kv_head] sem acq_rel
        : i32, !tile.view<?x?xi32> -> i32
    %last_ticket = arith.subi %num_splits, %c1 : i32
    %is_last = arith.cmpi eq, %ticket, %last_ticket : i32
    scf.if %is_last {
      // Merge, per chunk of 64 columns, in one pass over the splits with a
      // running max (as the online softmax): per split, its lse_i and its
      // partial O_i chunk are loaded together (independent loads: one
      // memory round trip a split and chunk; a pass for the max and one per
      // 32 columns cost five at D = 128, which made the merge, not the keys,
      // the cost at 16+ splits), then
      //   m' = max(m, lse_i), a = exp2(m - m'), w = exp2(lse_i - m'),
      //   den = den a + w, acc = acc a + w O_i;
      // lse = m + log2(den), O = acc / den. (Whole rows at once need a
      // [ROWS, D] sum and partial live: spills at 128 registers.)
      %cm_init = tile.full -inf shape [ROWS, 1] : tensor<?x1xf32>
      %cd_init = tile.full 0.0 shape [ROWS, 1] : tensor<?x1xf32>
      %co_init = tile.full 0.0 shape [ROWS, 64] : tensor<?x64xf32>
      %c64 = arith.constant 64 : i32
      %head_dim = tile.param "HEAD_DIM" : i32
      %chunks = arith.ceildivsi %head_dim, %c64 : i32
      %cm, %cd = scf.for %ch = %c0 to %chunks step %c1
          iter_args(%mx_c = %cm_init, %den_c = %cd_init) -> (tensor<?x1xf32>, tensor<?x1xf32>) : i32 {
        %mx_f, %den_f, %co = scf.for %s = %c0 to %num_splits step %c1
            iter_args(%mx = %cm_init, %den = %cd_init, %oacc = %co_init)
            -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x64xf32>) : i32 {
          %pl4 = tile.load %PartLse[%b, %kv_head, %s, %c0] shape [1, 1, 1, ROWS]
              : !tile.view<?x?x?x?xf32> -> tensor<1x1x1x?xf32>
          %pl = tile.reshape %pl4 shape [ROWS, 1] : tensor<1x1x1x?xf32> -> tensor<?x1xf32>
          %po5 = tile.load %PartO[%b, %kv_head, %s, %c0, %ch] shape [1, 1, 1, ROWS, 64]
              : !tile.view<?x?x?x?x?xf32> -> tensor<1x1x1x?x64xf32>
          %po = tile.reshape %po5 shape [ROWS, 64] : tensor<1x1x1x?x64xf32> -> tensor<?x64xf32>
          %mx_new = arith.maximumf %mx, %pl : tensor<?x1xf32>
          %none = arith.cmpf oeq, %mx_new, %m_ninf : tensor<?x1xf32>
          %mx_sub = tile.select %none, %m_zero, %mx_new : tensor<?x1xi1>, tensor<?x1xf32>
          %a_arg = arith.subf %mx, %mx_sub : tensor<?x1xf32>
          %a = tile.exp2 %a_arg : tensor<?x1xf32>
          %w_arg = arith.subf %pl, %mx_sub : tensor<?x1xf32>
          %w = tile.exp2 %w_arg : tensor<?x1xf32>
          %den_a = arith.mulf %den, %a : tensor<?x1xf32>
          %den_new = arith.addf %den_a, %w : tensor<?x1xf32>
          %a_b = tile.broadcast %a shape [ROWS, 64] : tensor<?x1xf32> -> tensor<?x64xf32>
          %w_b = tile.broadcast %w shape [ROWS, 64] : tensor<?x1xf32> -> tensor<?x64xf32>
          %acc_a = arith.mulf %oacc, %a_b : tensor<?x64xf32>
          %o_w = arith.mulf %po, %w_b : tensor<?x64xf32>
          %o_new = arith.addf %acc_a, %o_w : tensor<?x64xf32>
          scf.yield %mx_new, %den_new, %o_new : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x64xf32>
        }
        // A row no split saw a key in: den = 0, O = 0.
        %d_empty_c = arith.cmpf oeq, %den_f, %l_zero : tensor<?x1xf32>
        %d_safe_c = tile.select %d_empty_c, %l_one, %den_f : tensor<?x1xi1>, tensor<?x1xf32>
        %d_b = tile.broadcast %d_safe_c shape [ROWS, 64] : tensor<?x1xf32> -> tensor<?x64xf32>
        %co_n = arith.divf %co, %d_b : tensor<?x64xf32>
        %co_lp = tile.astype %co_n : tensor<?x64xf32> -> tensor<?x64x!tile.dtype<"DTYPE">>
        %co4 = tile.reshape %co_lp shape [1, Q_TILE, QUERY_GROUP_SIZE, 64]
            : tensor<?x64x!tile.dtype<"DTYPE">> -> tensor<1x?x?x64x!tile.dtype<"DTYPE">>
        %col0 = arith.muli %ch, %c64 : i32
        tile.store %co4, %Out at [%b, %c0, %head0, %col0]
            : tensor<1x?x?x64x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
        scf.yield %mx_f, %den_f : tensor<?x1xf32>, tensor<?x1xf32>
      }
      // lse = m + log2(den); -inf for a row no split saw a key in.
      %d_empty = arith.cmpf oeq, %cd, %l_zero : tensor<?x1xf32>
      %d_safe = tile.select %d_empty, %l_one, %cd : tensor<?x1xi1>, tensor<?x1xf32>
      %log_d = math.log2 %d_safe : tensor<?x1xf32>
      %lse_m = arith.addf %cm, %log_d : tensor<?x1xf32>
      %lse_f = tile.select %d_empty, %m_ninf, %lse_m : tensor<?x1xi1>, tensor<?x1xf32>
      %ln2_t = tile.splat %ln_2 shape [ROWS, 1] : f32 -> tensor<?x1xf32>
      %lse_e = arith.mulf %lse_f, %ln2_t : tensor<?x1xf32>
      %lse3 = tile.reshape %lse_e shape [1, Q_TILE, QUERY_GROUP_SIZE]
          : tensor<?x1xf32> -> tensor<1x?x?xf32>
      tile.store %lse3, %Lse at [%b, %c0, %head0]
          : tensor<1x?x?xf32>, !tile.view<?x?x?xf32>
      // Ready for the next launch.
      tile.atomic xchg %c0, %Count[%b, %kv_head] : i32, !tile.view<?x?xi32>
    }
  }
  return
}

// Flash-attention forward in the tile dialect: the cuTile post's kernel
// (seeds/000), written once for every variant.
//
// One block computes TILE_M query rows of one (batch, head):
//   S = Q K^T, online softmax in the exp2 domain, O += P V, O /= l.
//
// This is the post's *baseline*: the mask is built on every iteration when
// CAUSAL or !EVEN_K, exp2 and the final division are precise, and blocks run
// in grid order. The optimization ladder is applied by compiler passes, not
// by editing this file: tile-fast-math (flush_to_zero, approximate division,
// FMA), tile-split-loop (unmasked loop + masked tail), tile-remap-blocks
// (heaviest blocks first), software pipelining from the `latency` hints.
// The sm_90 hint: 8 warps (two wgmma warpgroups) for 128-row tiles; with the
// default 64-row tiles the kernel's 4 warps are used. TMA applies where it can
// (a producer warpgroup, 16-byte aligned views): 2-9% faster than cp.async
// at every S, causal or not (docs/perf.md, 2026-12-02, h11 against h8);
// `--tma=off` turns it off.
//
// Parameters (tile.params, bound by tile-specialize):
//   TILE_M, TILE_N    query rows and key columns per tile
//   HEAD_DIM          D, the head dimension
//   QUERY_GROUP_SIZE  query heads per KV head (GQA; H for MQA)
//   CAUSAL            query at position input_pos + i sees keys 0..input_pos+i
//   EVEN_K            Sk is a multiple of TILE_N (no masked tail needed)
//   WITH_LSE          also store the log-sum-exp m + log2(l) per row (exp2
//                     domain, for a backward pass; FLT_MAX for empty rows)
//   DTYPE             element type of Q, K, V and Out (f16 or bf16)
//   WINDOW_LEFT, WINDOW_RIGHT
//                     sliding window, FlashAttention's window_size: the query
//                     at position p sees keys in [p - LEFT, p + RIGHT]
//                     (intersected with CAUSAL); -1 = unlimited on that side
//   SOFTCAP           logit soft-cap, an integer (Gemma 2: 50, Grok: 30):
//                     s = SOFTCAP * tanh(s * qk_scale / SOFTCAP) before the
//                     softmax (FlashAttention's softcap, on the scaled
//                     scores); 0 = off
//
// The window and the cap are compile-time parameters, not arguments as in
// FlashAttention: the defaults leave the kernel's ABI, IR and PTX as they
// were; constant window sizes make the loop bounds and tile-split-loop's
// split points plain arithmetic on the block's position; and models fix both
// per layer (a bundle per distinct window). The key loop visits only the key
// tiles the block's window touches (time grows with Sq * W, not Sq * Sk);
// tile-split-loop derives from the mask which of them are fully visible and
// leaves masked loops only at the window's two edges.
//
// Arguments: Q [B, H, Sq, D], K and V [B, H / QUERY_GROUP_SIZE, Sk, D],
// Out [B, H, Sq, D], Lse [B, H, Sq] (f32, written only WITH_LSE), the softmax
// scale (usually 1/sqrt(D)) and input_pos, the position of query row 0
// (0: top-left causal alignment; Sk - Sq: bottom-right, the KV-cache
// prefill case). Rows that see no key produce 0.

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
                     grid = ["cdiv(Q.2, TILE_M)", "Q.0 * Q.1", "1"],
                     requires = ["Q.3 == HEAD_DIM", "K.3 == HEAD_DIM",
                                 "Q.1 == K.1 * QUERY_GROUP_SIZE",
                                 "EVEN_K == 0 || K.2 % TILE_N == 0"],
                     hints = {sm_90 = {num_warps = 8 : i32}}},
      tile.params = {TILE_M = 64 : i32, TILE_N = 64 : i32,
                     HEAD_DIM = 128 : i32, QUERY_GROUP_SIZE = 1 : i32,
                     CAUSAL = true, EVEN_K = true, WITH_LSE = false,
                     DTYPE = f16, WINDOW_LEFT = -1 : i32,
                     WINDOW_RIGHT = -1 : i32, SOFTCAP = 0 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %inv_log_2 = arith.constant 1.44269504088896340736 : f32
  %tile_m = tile.param "TILE_M" : i32
  %tile_n = tile.param "TILE_N" : i32
  %group_size = tile.param "QUERY_GROUP_SIZE" : i32
  %causal = tile.param "CAUSAL" : i1
  %even_k = tile.param "EVEN_K" : i1
  %with_lse = tile.param "WITH_LSE" : i1
  %window_left = tile.param "WINDOW_LEFT" : i32
  %window_right = tile.param "WINDOW_RIGHT" : i32
  %softcap = tile.param "SOFTCAP" : i32
  %has_left = arith.cmpi sge, %window_left, %c0 : i32
  %has_right = arith.cmpi sge, %window_right, %c0 : i32
  %has_softcap = arith.cmpi sgt, %softcap, %c0 : i32

  // Block ids: x walks query tiles, y walks (batch, head) pairs.
  %bid_x = tile.block_id x
  %bid_y = tile.block_id y
  %num_heads = tile.dim %Q[1] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %batch = arith.divsi %bid_y, %num_heads : i32
  %head = arith.remsi %bid_y, %num_heads : i32
  %kv_head = arith.divsi %head, %group_size : i32

  // Softmax runs in the exp2 domain: exp(x * s) = exp2(x * s / ln 2). With
  // the soft-cap the loop keeps t = tanh(s * qk_scale / cap) and the
  // exponent is t * cap / ln 2: the cap's multiply folds into this scale.
  %cap_f = arith.sitofp %softcap : i32 to f32
  %scale = scf.if %has_softcap -> f32 {
    %s = arith.mulf %cap_f, %inv_log_2 : f32
    scf.yield %s : f32
  } else {
    %s = arith.mulf %qk_scale, %inv_log_2 : f32
    scf.yield %s : f32
  }

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
  // block's last query position; a window's right edge ends them at the
  // last query position + RIGHT, its left edge starts them at the tile of
  // the first query position - LEFT.
  %k_seqlen = tile.dim %K[2] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %m_end = arith.addi %m_start, %tile_m : i32
  %kv_end_c = scf.if %causal -> i32 {
    %e = arith.minsi %m_end, %k_seqlen : i32
    scf.yield %e : i32
  } else {
    scf.yield %k_seqlen : i32
  }
  %kv_end = scf.if %has_right -> i32 {
    %r = arith.addi %m_end, %window_right : i32
    %e = arith.minsi %kv_end_c, %r : i32
    scf.yield %e : i32
  } else {
    scf.yield %kv_end_c : i32
  }
  %num_k_tiles = arith.ceildivsi %kv_end, %tile_n : i32
  %first_k_tile = scf.if %has_left -> i32 {
    %l = arith.subi %m_start, %window_left : i32
    %l0 = arith.maxsi %l, %c0 : i32
    %t = arith.divsi %l0, %tile_n : i32
    scf.yield %t : i32
  } else {
    scf.yield %c0 : i32
  }
  %true = arith.constant true
  %ragged_k = arith.xori %even_k, %true : i1
  %need_mask_k = arith.ori %causal, %ragged_k : i1
  %has_window = arith.ori %has_left, %has_right : i1
  %need_mask = arith.ori %need_mask_k, %has_window : i1
  %cap_scale = arith.divf %qk_scale, %cap_f : f32
  %cap_scale_qk = tile.splat %cap_scale shape [TILE_M, TILE_N] : f32 -> tensor<?x?xf32>

  %ninf = tile.full -inf shape [TILE_M, TILE_N] : tensor<?x?xf32>
  %zero_qk = tile.full 0.0 shape [TILE_M, TILE_N] : tensor<?x?xf32>
  %scale_rows = tile.splat %scale shape [TILE_M, 1] : f32 -> tensor<?x1xf32>
  %scale_qk = tile.splat %scale shape [TILE_M, TILE_N] : f32 -> tensor<?x?xf32>

  %m_f, %l_f, %acc_f = scf.for %j = %first_k_tile to %num_k_tiles step %c1
      iter_args(%m_i = %m_init, %l_i = %l_init, %acc = %acc_init)
      -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x?xf32>) : i32 {
    // S = Q K^T: K is loaded transposed, [HEAD_DIM, TILE_N].
    %k4 = tile.load %K[%batch, %kv_head, %c0, %j] shape [1, 1, HEAD_DIM, TILE_N]
        order [0, 1, 3, 2] latency 2
        : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
    %k = tile.reshape %k4 shape [HEAD_DIM, TILE_N]
        : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %qk_mma = tile.mma %q, %k, %zero_qk
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
    // Soft-cap: tanh(s * qk_scale / cap); the cap multiplies in %scale.
    %qk_raw = scf.if %has_softcap -> tensor<?x?xf32> {
      %x = arith.mulf %qk_mma, %cap_scale_qk : tensor<?x?xf32>
      %t = math.tanh %x : tensor<?x?xf32>
      scf.yield %t : tensor<?x?xf32>
    } else {
      scf.yield %qk_mma : tensor<?x?xf32>
    }

    // Mask: keys past the end (!EVEN_K), keys after the query (CAUSAL) and
    // keys outside the window score -inf.
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
      %mask_c = scf.if %causal -> tensor<?x?xi1> {
        %offs_m_b = tile.broadcast %offs_m shape [TILE_M, TILE_N]
            : tensor<?x1xi32> -> tensor<?x?xi32>
        %ge = arith.cmpi sge, %offs_m_b, %offs_n_b : tensor<?x?xi32>
        %and = arith.andi %in_bounds, %ge : tensor<?x?xi1>
        scf.yield %and : tensor<?x?xi1>
      } else {
        scf.yield %in_bounds : tensor<?x?xi1>
      }
      // The window: key >= query - LEFT and key <= query + RIGHT.
      %mask_l = scf.if %has_left -> tensor<?x?xi1> {
        %left_t = tile.splat %window_left shape [TILE_M, 1] : i32 -> tensor<?x1xi32>
        %lo = arith.subi %offs_m, %left_t : tensor<?x1xi32>
        %lo_b = tile.broadcast %lo shape [TILE_M, TILE_N]
            : tensor<?x1xi32> -> tensor<?x?xi32>
        %ge = arith.cmpi sge, %offs_n_b, %lo_b : tensor<?x?xi32>
        %and = arith.andi %mask_c, %ge : tensor<?x?xi1>
        scf.yield %and : tensor<?x?xi1>
      } else {
        scf.yield %mask_c : tensor<?x?xi1>
      }
      %mask = scf.if %has_right -> tensor<?x?xi1> {
        %right_t = tile.splat %window_right shape [TILE_M, 1] : i32 -> tensor<?x1xi32>
        %hi = arith.addi %offs_m, %right_t : tensor<?x1xi32>
        %hi_b = tile.broadcast %hi shape [TILE_M, TILE_N]
            : tensor<?x1xi32> -> tensor<?x?xi32>
        %le = arith.cmpi sle, %offs_n_b, %hi_b : tensor<?x?xi32>
        %and = arith.andi %mask_l, %le : tensor<?x?xi1>
        scf.yield %and : tensor<?x?xi1>
      } else {
        scf.yield %mask_l : tensor<?x?xi1>
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
  return
}

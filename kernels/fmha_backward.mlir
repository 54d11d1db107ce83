// Flash-attention backward, step 2 of 3: the main kernel (FlashAttention-2's
// structure). Steps 1 and 3 are fmha_backward_preprocess.mlir (Delta, the
// zeroed dQ accumulator) and fmha_backward_postprocess.mlir (dQ scaled and
// converted).
//
// One block owns TILE_N keys of one (batch, KV head) and walks the query
// tiles that see them. It computes the scores transposed, keys as rows
// (FlashAttention-3's "swapAB" for S and dP): with s = qk_scale * log2(e)
// and LSE the forward's log-sum-exp in the exp2 domain, per query tile:
//   S^T  = K Q^T                    [TILE_N, TILE_M]
//   P^T  = exp2(S^T * s - LSE)      (the forward's probabilities, recomputed)
//   dV  += P^T dO                   [TILE_N, D]
//   dP^T = V dO^T
//   dS^T = P^T * (dP^T - Delta)     (Delta = rowsum(dO * O), the preprocess)
//   dK  += dS^T Q                   [TILE_N, D]
//   DQacc += dS K                   (f32 atomic add of a [TILE_M, D] tile)
// dK and dV stay in registers across the whole walk and are stored once,
// dK multiplied by qk_scale (dS is the gradient of the scaled scores), dQ is
// scaled by the postprocess.
//
// GQA: the block walks the query tiles of each of the QUERY_GROUP_SIZE query
// heads of its KV head (one loop over the pairs), so dK and dV are summed over the group in registers and
// stored once, in DTYPE: no f32 dK/dV buffers, no atomics for them, and the
// sum is in a fixed order (deterministic). The cost is parallelism: the grid
// is cdiv(Sk, TILE_N) * B * H_kv blocks, which is small for MQA at short S;
// FlashAttention-3's alternative (atomics into f32 dK/dV, then a convert)
// needs two more buffers and a fourth kernel.
//
// The transposed operands: P^T and dS^T are computed in the accumulator
// layout, so as the A operands of dV and dK they stay in registers (as P
// does in the forward). dS = (dS^T)^T, the A operand of dQ, is a
// `tile.permute` of a computed tile (the compiler stages it through shared
// memory). Q^T and dO^T (the B operands of S^T and dP^T) are permutes of
// the loaded Q and dO: the mmas read Q's and dO's shared tiles transposed
// (wgmma K-major instead of MN-major, ldmatrix without .trans), so each is
// loaded once per step (172,540 -> 106,996 bytes of shared memory on
// sm_90a at D 128); K and V are loaded once per block. (The first version
// computed S = Q K^T and permuted P and dS: both through shared memory,
// 5% slower on the H200: docs/perf.md, 2026-12-03.)
//
// Causal (CAUSAL): query row m is at position input_pos + m and sees keys
// 0 .. input_pos + m (input_pos 0: top-left alignment; Sk - Sq:
// bottom-right). The key tile starting at n0 is seen only by query tiles
// i >= (n0 - input_pos) / TILE_M, so the walk starts there. Rows that see no
// key have LSE = FLT_MAX (the forward's convention), so P = 0 there.
// Query rows past Sq read LSE = +inf (padding), so their P is 0; keys past
// Sk are masked unless EVEN_K says there are none.
//
// Sliding window (WINDOW_LEFT, WINDOW_RIGHT, -1 = unlimited): query
// position p sees keys in [p - LEFT, p + RIGHT] as in the forward; the walk
// covers only the query tiles whose rows reach this block's keys (from the
// first row at n0 - RIGHT, to the last at n0 + TILE_N - 1 + LEFT), and the
// mask gains both edges. Soft-cap (SOFTCAP > 0): the forward's scores are
// s' = cap * t, t = tanh(x / cap), x = S * qk_scale, so P = exp2(t * cap *
// log2(e) - LSE) and the gradient of x is dS * (1 - t^2).
//
// Two consumer warpgroups (DQ_TRANSPOSED, FlashAttention-3's shape for
// D = 128): TILE_N = 128 keys on 8 warps (--num-warps=8; on sm_90a a
// producer warpgroup feeds them). The warps split M only, so every mma
// needs M = 128: S^T, dP^T, dV and dK have M = TILE_N, but dQ = dS K has
// M = TILE_M = 64, so the kernel computes dQ^T = K^T dS^T instead
// (M = D = 128; K^T reads K's shared tile transposed, dS^T is the computed
// B operand) and adds it into a transposed accumulator DQacc [B, H, D, Sq]
// (contiguous along Sq: the accumulator's column pairs stay vector
// reductions). The pre- and postprocess take the same DQ_TRANSPOSED.
//
// Parameters (tile.params): TILE_M, TILE_N, HEAD_DIM, QUERY_GROUP_SIZE,
// CAUSAL, EVEN_K, DTYPE (f16 or bf16), WINDOW_LEFT, WINDOW_RIGHT, SOFTCAP:
// as in fmha.mlir (the forward's values); DQ_TRANSPOSED.
//
// Arguments: Q and dO [B, H, Sq, D], K and V [B, H / QUERY_GROUP_SIZE, Sk,
// D] (DTYPE), Lse and Delta [B, H, Sq] (f32), DQacc [B, H, Sq, D] (f32,
// [B, H, D, Sq] with DQ_TRANSPOSED; zeroed by the preprocess, added into
// here), dK and dV [B, H_kv, Sk, D] (DTYPE, written), the forward's
// qk_scale and input_pos.

func.func @fmha_backward(
    %Q: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "Q"},
    %K: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "K"},
    %V: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "V"},
    %dO: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "dO"},
    %Lse: !tile.view<?x?x?xf32> {tile.name = "Lse", tile.align = 4 : i64},
    %Delta: !tile.view<?x?x?xf32> {tile.name = "Delta", tile.align = 4 : i64},
    %DQacc: !tile.view<?x?x?x?xf32> {tile.name = "DQacc"},
    %dK: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "dK"},
    %dV: !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> {tile.name = "dV"},
    %qk_scale: f32 {tile.name = "qk_scale"},
    %input_pos: i32 {tile.name = "input_pos"})
    attributes {
      tile.kernel = {num_warps = 4 : i32, occupancy = 1 : i32,
                     grid = ["cdiv(K.2, TILE_N)", "K.0 * K.1", "1"],
                     requires = ["Q.3 == HEAD_DIM", "K.3 == HEAD_DIM",
                                 "Q.1 == K.1 * QUERY_GROUP_SIZE",
                                 "EVEN_K == 0 || K.2 % TILE_N == 0",
                                 "DQ_TRANSPOSED || (DQacc.2 == Q.2 && DQacc.3 == HEAD_DIM)",
                                 "!DQ_TRANSPOSED || (DQacc.2 == HEAD_DIM && DQacc.3 == Q.2)"]},
      tile.params = {TILE_M = 64 : i32, TILE_N = 64 : i32,
                     HEAD_DIM = 128 : i32, QUERY_GROUP_SIZE = 1 : i32,
                     CAUSAL = true, EVEN_K = true, DTYPE = f16,
                     WINDOW_LEFT = -1 : i32, WINDOW_RIGHT = -1 : i32,
                     SOFTCAP = 0 : i32, DQ_TRANSPOSED = false}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %tile_m = tile.param "TILE_M" : i32
  %tile_n = tile.param "TILE_N" : i32
  %group_size = tile.param "QUERY_GROUP_SIZE" : i32
  %causal = tile.param "CAUSAL" : i1
  %even_k = tile.param "EVEN_K" : i1
  %window_left = tile.param "WINDOW_LEFT" : i32
  %window_right = tile.param "WINDOW_RIGHT" : i32
  %softcap = tile.param "SOFTCAP" : i32
  %has_left = arith.cmpi sge, %window_left, %c0 : i32
  %has_right = arith.cmpi sge, %window_right, %c0 : i32
  %has_softcap = arith.cmpi sgt, %softcap, %c0 : i32
  %dq_transposed = tile.param "DQ_TRANSPOSED" : i1

  // Block ids: x walks key tiles, y walks (batch, KV head) pairs.
  %bid_x = tile.block_id x
  %bid_y = tile.block_id y
  %num_kv_heads = tile.dim %K[1] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %batch = arith.divsi %bid_y, %num_kv_heads : i32
  %kv_head = arith.remsi %bid_y, %num_kv_heads : i32
  %head0 = arith.muli %kv_head, %group_size : i32
  // With the soft-cap, P = exp2(t * cap * log2(e) - LSE), t = tanh(x / cap).
  %cap_f = arith.sitofp %softcap : i32 to f32
  %scale = scf.if %has_softcap -> f32 {
    %sc = arith.mulf %cap_f, %log2e : f32
    scf.yield %sc : f32
  } else {
    %sc = arith.mulf %qk_scale, %log2e : f32
    scf.yield %sc : f32
  }

  // This block's keys and values, loaded once, [TILE_N, D]: the A operands
  // of S^T = K Q^T and dP^T = V dO^T, and K the B operand of dQ = dS K.
  %k4 = tile.load %K[%batch, %kv_head, %bid_x, %c0] shape [1, 1, TILE_N, HEAD_DIM]
      : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
  %k = tile.reshape %k4 shape [TILE_N, HEAD_DIM]
      : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %v4 = tile.load %V[%batch, %kv_head, %bid_x, %c0] shape [1, 1, TILE_N, HEAD_DIM]
      : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
  %v = tile.reshape %v4 shape [TILE_N, HEAD_DIM]
      : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
  // K^T [D, TILE_N], the A operand of dQ^T = K^T dS^T (DQ_TRANSPOSED): K's
  // shared tile read transposed.
  %kt = tile.permute %k [1, 0]
      : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>

  // Query tiles to walk: all, or for causal those from the first one whose
  // last row (position input_pos + (i + 1) * TILE_M - 1) reaches this
  // block's first key n0: i >= floor((n0 - input_pos) / TILE_M).
  %q_seqlen = tile.dim %Q[2] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %k_seqlen = tile.dim %K[2] : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %n_start = arith.muli %bid_x, %tile_n : i32
  // A left window ends the walk at the tile of the last row that still
  // reaches this block's last key: row m < n0 + TILE_N + LEFT - input_pos.
  %num_q_tiles = scf.if %has_left -> i32 {
    %e0 = arith.addi %n_start, %tile_n : i32
    %e1 = arith.addi %e0, %window_left : i32
    %e2 = arith.subi %e1, %input_pos : i32
    %e3 = arith.minsi %e2, %q_seqlen : i32
    %e4 = arith.maxsi %e3, %c0 : i32
    %t = arith.ceildivsi %e4, %tile_m : i32
    scf.yield %t : i32
  } else {
    %t = arith.ceildivsi %q_seqlen, %tile_m : i32
    scf.yield %t : i32
  }
  // A right window (without causal, which starts later) starts it at the
  // tile of row n0 - RIGHT - input_pos.
  %first_q_tile = scf.if %causal -> i32 {
    %lag = arith.subi %n_start, %input_pos : i32
    %lag0 = arith.maxsi %lag, %c0 : i32
    %t = arith.divsi %lag0, %tile_m : i32
    scf.yield %t : i32
  } else {
    %t = scf.if %has_right -> i32 {
      %lag = arith.subi %n_start, %input_pos : i32
      %lag_r = arith.subi %lag, %window_right : i32
      %lag0 = arith.maxsi %lag_r, %c0 : i32
      %tr = arith.divsi %lag0, %tile_m : i32
      scf.yield %tr : i32
    } else {
      scf.yield %c0 : i32
    }
    scf.yield %t : i32
  }

  // Key positions of this block, [TILE_N, 1] (the rows of the transposed
  // scores), and query columns, [1, TILE_M].
  %rows = tile.iota shape [TILE_N, 1] dim 0 : tensor<?x1xi32>
  %n_start_t = tile.splat %n_start shape [TILE_N, 1] : i32 -> tensor<?x1xi32>
  %offs_n = arith.addi %rows, %n_start_t : tensor<?x1xi32>
  %offs_n_b = tile.broadcast %offs_n shape [TILE_N, TILE_M]
      : tensor<?x1xi32> -> tensor<?x?xi32>
  %cols = tile.iota shape [1, TILE_M] dim 1 : tensor<1x?xi32>
  %true = arith.constant true
  %ragged_k = arith.xori %even_k, %true : i1
  %need_mask_k = arith.ori %causal, %ragged_k : i1
  %has_window = arith.ori %has_left, %has_right : i1
  %need_mask = arith.ori %need_mask_k, %has_window : i1
  %cap_scale = arith.divf %qk_scale, %cap_f : f32
  %cap_scale_kq = tile.splat %cap_scale shape [TILE_N, TILE_M] : f32 -> tensor<?x?xf32>
  %one_kq = tile.full 1.0 shape [TILE_N, TILE_M] : tensor<?x?xf32>

  %zero_kq = tile.full 0.0 shape [TILE_N, TILE_M] : tensor<?x?xf32>
  %zero_q = tile.full 0.0 shape [TILE_M, HEAD_DIM] : tensor<?x?xf32>
  %zero_qt = tile.full 0.0 shape [HEAD_DIM, TILE_M] : tensor<?x?xf32>
  %ninf = tile.full -inf shape [TILE_N, TILE_M] : tensor<?x?xf32>
  %scale_kq = tile.splat %scale shape [TILE_N, TILE_M] : f32 -> tensor<?x?xf32>
  %dk_init = tile.full 0.0 shape [TILE_N, HEAD_DIM] : tensor<?x?xf32>
  %dv_init = tile.full 0.0 shape [TILE_N, HEAD_DIM] : tensor<?x?xf32>

  // One loop over (query head of the group, query tile) pairs, heads
  // outer: a single loop pipelines across the heads' boundaries, and keeps
  // fewer values live than two nested loops (sm_80, D = 128, spilled).
  %q_tiles_raw = arith.subi %num_q_tiles, %first_q_tile : i32
  %q_tiles = arith.maxsi %q_tiles_raw, %c0 : i32
  %steps = arith.muli %q_tiles, %group_size : i32
  // Never 0 as a divisor (the loop does not run then).
  %q_tiles_div = arith.maxsi %q_tiles, %c1 : i32
  %dk_f, %dv_f = scf.for %t = %c0 to %steps step %c1
    iter_args(%dk = %dk_init, %dv = %dv_init)
    -> (tensor<?x?xf32>, tensor<?x?xf32>) : i32 {
    %g = arith.divsi %t, %q_tiles_div : i32
    %i_rel = arith.remsi %t, %q_tiles_div : i32
    %i = arith.addi %i_rel, %first_q_tile : i32
    %head = arith.addi %head0, %g : i32
    // Q and dO [TILE_M, D] (the B operands of dK += dS^T Q and
    // dV += P^T dO), and their transposes Q^T and dO^T [D, TILE_M] (the B
    // operands of S^T and dP^T): the compiler reads the same shared tiles
    // transposed (tilegpu.mma transpose_b), loaded once.
    %q4 = tile.load %Q[%batch, %head, %i, %c0] shape [1, 1, TILE_M, HEAD_DIM]
        latency 2
        : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
    %q = tile.reshape %q4 shape [TILE_M, HEAD_DIM]
        : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %qt = tile.permute %q [1, 0]
        : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %do4 = tile.load %dO[%batch, %head, %i, %c0] shape [1, 1, TILE_M, HEAD_DIM]
        latency 2
        : !tile.view<?x?x?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
    %do = tile.reshape %do4 shape [TILE_M, HEAD_DIM]
        : tensor<1x1x?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %dot = tile.permute %do [1, 0]
        : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    // LSE and Delta as rows [1, TILE_M]. Query columns past Sq read +inf,
    // so that their P is exactly 0.
    %lse3 = tile.load %Lse[%batch, %head, %i] shape [1, 1, TILE_M] padding pos_inf
        : !tile.view<?x?x?xf32> -> tensor<1x1x?xf32>
    %lse = tile.reshape %lse3 shape [1, TILE_M] : tensor<1x1x?xf32> -> tensor<1x?xf32>
    %delta3 = tile.load %Delta[%batch, %head, %i] shape [1, 1, TILE_M]
        : !tile.view<?x?x?xf32> -> tensor<1x1x?xf32>
    %delta = tile.reshape %delta3 shape [1, TILE_M] : tensor<1x1x?xf32> -> tensor<1x?xf32>

    // S^T = K Q^T, then the exponent S^T * s - LSE, -inf where masked.
    %s_mma = tile.mma %k, %qt, %zero_kq
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
    // Soft-cap: t = tanh(S^T * qk_scale / cap) in place of S^T.
    %s = scf.if %has_softcap -> tensor<?x?xf32> {
      %x = arith.mulf %s_mma, %cap_scale_kq : tensor<?x?xf32>
      %th = math.tanh %x : tensor<?x?xf32>
      scf.yield %th : tensor<?x?xf32>
    } else {
      scf.yield %s_mma : tensor<?x?xf32>
    }
    %s_scaled = arith.mulf %s, %scale_kq : tensor<?x?xf32>
    %lse_b = tile.broadcast %lse shape [TILE_N, TILE_M] : tensor<1x?xf32> -> tensor<?x?xf32>
    %arg_raw = arith.subf %s_scaled, %lse_b : tensor<?x?xf32>
    %arg = scf.if %need_mask -> tensor<?x?xf32> {
      %all = tile.full true shape [TILE_N, TILE_M] : tensor<?x?xi1>
      %in_bounds = scf.if %even_k -> tensor<?x?xi1> {
        scf.yield %all : tensor<?x?xi1>
      } else {
        %k_len = tile.splat %k_seqlen shape [TILE_N, TILE_M] : i32 -> tensor<?x?xi32>
        %lt = arith.cmpi slt, %offs_n_b, %k_len : tensor<?x?xi32>
        scf.yield %lt : tensor<?x?xi1>
      }
      %mask_c = scf.if %causal -> tensor<?x?xi1> {
        %m_start = arith.muli %i, %tile_m : i32
        %m_pos = arith.addi %m_start, %input_pos : i32
        %m_pos_t = tile.splat %m_pos shape [1, TILE_M] : i32 -> tensor<1x?xi32>
        %offs_m = arith.addi %cols, %m_pos_t : tensor<1x?xi32>
        %offs_m_b = tile.broadcast %offs_m shape [TILE_N, TILE_M]
            : tensor<1x?xi32> -> tensor<?x?xi32>
        %ge = arith.cmpi sge, %offs_m_b, %offs_n_b : tensor<?x?xi32>
        %and = arith.andi %in_bounds, %ge : tensor<?x?xi1>
        scf.yield %and : tensor<?x?xi1>
      } else {
        scf.yield %in_bounds : tensor<?x?xi1>
      }
      // The window: key >= query - LEFT and key <= query + RIGHT.
      %mask = scf.if %has_window -> tensor<?x?xi1> {
        %m_start = arith.muli %i, %tile_m : i32
        %m_pos = arith.addi %m_start, %input_pos : i32
        %m_pos_t = tile.splat %m_pos shape [1, TILE_M] : i32 -> tensor<1x?xi32>
        %offs_m = arith.addi %cols, %m_pos_t : tensor<1x?xi32>
        %mask_l = scf.if %has_left -> tensor<?x?xi1> {
          %left_t = tile.splat %window_left shape [1, TILE_M] : i32 -> tensor<1x?xi32>
          %lo = arith.subi %offs_m, %left_t : tensor<1x?xi32>
          %lo_b = tile.broadcast %lo shape [TILE_N, TILE_M]
              : tensor<1x?xi32> -> tensor<?x?xi32>
          %ge = arith.cmpi sge, %offs_n_b, %lo_b : tensor<?x?xi32>
          %and = arith.andi %mask_c, %ge : tensor<?x?xi1>
          scf.yield %and : tensor<?x?xi1>
        } else {
          scf.yield %mask_c : tensor<?x?xi1>
        }
        %mask_r = scf.if %has_right -> tensor<?x?xi1> {
          %right_t = tile.splat %window_right shape [1, TILE_M] : i32 -> tensor<1x?xi32>
          %hi = arith.addi %offs_m, %right_t : tensor<1x?xi32>
          %hi_b = tile.broadcast %hi shape [TILE_N, TILE_M]
              : tensor<1x?xi32> -> tensor<?x?xi32>
          %le = arith.cmpi sle, %offs_n_b, %hi_b : tensor<?x?xi32>
          %and = arith.andi %mask_l, %le : tensor<?x?xi1>
          scf.yield %and : tensor<?x?xi1>
        } else {
          scf.yield %mask_l : tensor<?x?xi1>
        }
        scf.yield %mask_r : tensor<?x?xi1>
      } else {
        scf.yield %mask_c : tensor<?x?xi1>
      }
      %masked = tile.select %mask, %arg_raw, %ninf : tensor<?x?xi1>, tensor<?x?xf32>
      scf.yield %masked : tensor<?x?xf32>
    } else {
      scf.yield %arg_raw : tensor<?x?xf32>
    }
    %p = tile.exp2 %arg : tensor<?x?xf32>
    %p_lp = tile.astype %p : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>

    // Soft-cap: d(cap * tanh(x / cap)) / dx = 1 - t^2, folded into the P
    // that dS takes right away (t is then dead: one tile fewer live across
    // the dP product).
    %p_ds = scf.if %has_softcap -> tensor<?x?xf32> {
      %t2 = arith.mulf %s, %s : tensor<?x?xf32>
      %dt = arith.subf %one_kq, %t2 : tensor<?x?xf32>
      %d = arith.mulf %p, %dt : tensor<?x?xf32>
      scf.yield %d : tensor<?x?xf32>
    } else {
      scf.yield %p : tensor<?x?xf32>
    }

    // dV += P^T dO (P^T is in the accumulator layout: a register operand).
    // With DQ_TRANSPOSED, after dS^T (below): P^T in f32 is then dead
    // before the mmas issue, which keeps the two warpgroups' consumers
    // within 240 registers.
    %dv_early = scf.if %dq_transposed -> tensor<?x?xf32> {
      scf.yield %dv : tensor<?x?xf32>
    } else {
      %r = tile.mma %p_lp, %do, %dv
          : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
      scf.yield %r : tensor<?x?xf32>
    }

    // dP^T = V dO^T; dS^T = P^T * (dP^T - Delta).
    %dp = tile.mma %v, %dot, %zero_kq
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
    %delta_b = tile.broadcast %delta shape [TILE_N, TILE_M]
        : tensor<1x?xf32> -> tensor<?x?xf32>
    %dp_c = arith.subf %dp, %delta_b : tensor<?x?xf32>
    %ds = arith.mulf %p_ds, %dp_c : tensor<?x?xf32>
    %ds_lp = tile.astype %ds : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>

    %dv_new = scf.if %dq_transposed -> tensor<?x?xf32> {
      %r = tile.mma %p_lp, %do, %dv
          : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
      scf.yield %r : tensor<?x?xf32>
    } else {
      scf.yield %dv_early : tensor<?x?xf32>
    }

    // dK += dS^T Q (a register operand again).
    %dk_new = tile.mma %ds_lp, %q, %dk
        : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>

    scf.if %dq_transposed {
      // DQacc^T += K^T dS^T [D, TILE_M]: dS^T is the B operand (staged
      // through shared memory), K^T reads K's tile (columns past Sq are
      // outside the view: not added).
      %dqt = tile.mma %kt, %ds_lp, %zero_qt
          : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
      %dqt4 = tile.reshape %dqt shape [1, 1, HEAD_DIM, TILE_M]
          : tensor<?x?xf32> -> tensor<1x1x?x?xf32>
      tile.atomic add %dqt4, %DQacc[%batch, %head, %c0, %i]
          : tensor<1x1x?x?xf32>, !tile.view<?x?x?x?xf32>
    } else {
      // DQacc += dS K: dS = (dS^T)^T, the one operand that goes through
      // shared memory (rows past Sq are outside the view: not added).
      %dst = tile.permute %ds_lp [1, 0]
          : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %dq = tile.mma %dst, %k, %zero_q
          : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?xf32>
      %dq4 = tile.reshape %dq shape [1, 1, TILE_M, HEAD_DIM]
          : tensor<?x?xf32> -> tensor<1x1x?x?xf32>
      tile.atomic add %dq4, %DQacc[%batch, %head, %i, %c0]
          : tensor<1x1x?x?xf32>, !tile.view<?x?x?x?xf32>
    }
    scf.yield %dk_new, %dv_new : tensor<?x?xf32>, tensor<?x?xf32>
  }

  // dK = qk_scale * sum dS^T Q; dV as accumulated. Keys past Sk are
  // outside the views: not stored.
  %scale_kd = tile.splat %qk_scale shape [TILE_N, HEAD_DIM] : f32 -> tensor<?x?xf32>
  %dk_scaled = arith.mulf %dk_f, %scale_kd : tensor<?x?xf32>
  %dk_lp = tile.astype %dk_scaled : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %dk4 = tile.reshape %dk_lp shape [1, 1, TILE_N, HEAD_DIM]
      : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
  tile.store %dk4, %dK[%batch, %kv_head, %bid_x, %c0]
      : tensor<1x1x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  %dv_lp = tile.astype %dv_f : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %dv4 = tile.reshape %dv_lp shape [1, 1, TILE_N, HEAD_DIM]
      : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<1x1x?x?x!tile.dtype<"DTYPE">>
  tile.store %dv4, %dV[%batch, %kv_head, %bid_x, %c0]
      : tensor<1x1x?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x?x?x!tile.dtype<"DTYPE">>
  return
}

// Backward of kernels/add_norm.mlir (residual add + RMSNorm or LayerNorm),
// from H (the stored x + res), Rstd (and Mean) of the forward and DY:
//   hhat = (h - mean) * rstd          (mean = 0 for RMSNorm)
//   g    = DY * W
//   RMSNorm:   dh = rstd * (g - hhat * sum(g * hhat) / N)
//   LayerNorm: dh = rstd * (g - hhat * sum(g * hhat) / N - sum(g) / N)
//   DX = dh (+ DRes with HAS_DRES: the gradient that reaches H along the
//        residual stream); since H = X + Res, DX is also the gradient of Res.
//   DW += sum over rows of DY * hhat,  DB += sum over rows of DY (LayerNorm)
// DW and DB are f32 and accumulated with atomic adds: the caller zeroes them
// (and casts them to the weights' dtype if it wants). Per row, f32 math.
//
// Each block walks row blocks b, b + blocks, ... (grid-stride: at most
// MAX_BLOCKS blocks, a few waves of SMs), keeps its partial DW (and DB) as a
// [ROWS, BLOCK_N] f32 tile in registers across the walk and adds it into DW
// once at the end: blocks x N atomics in all, not M x N, and no partial
// buffer or second kernel (the lock + partial-buffer pattern of Triton's
// LayerNorm tutorial needs both). The order of the atomic adds, and so the
// last bits of DW, varies from run to run on the GPU.
//
// Bytes: DY, H (and DRes) read, DX written, W, Rstd (Mean) read: the
// least this backward can move. ROWS rows whole (BLOCK_N >= N, `requires`).
// Columns past N load as 0: g = 0 there, so they add nothing to the sums
// (hhat is -mean * rstd there, multiplied by g = 0 or DY = 0); rows past M
// load DY = H = 0, Rstd = 0 and add nothing.
//
// Parameters: ROWS (rows per step), BLOCK_N (columns, >= N), MAX_BLOCKS (the
// most blocks: several per SM), PREFETCH (load the next row block's DY and
// H one step ahead: two row blocks in flight a block, for a few more
// registers), RMS, HAS_DRES, DTYPE (f16, bf16, f32: DY, H, W, DRes, DX).
//
// Arguments: DY, H [M, N]; W [N]; Mean (not read with RMS), Rstd [M] f32;
// DRes [M, N] (read with HAS_DRES); DX [M, N] (output); DW, DB [N] f32
// (accumulated; DB not touched with RMS).

func.func @add_norm_backward(
    %DY: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "DY"},
    %H: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "H"},
    %W: !tile.view<?x!tile.dtype<"DTYPE">> {tile.name = "W"},
    %Mean: !tile.view<?xf32> {tile.name = "Mean"},
    %Rstd: !tile.view<?xf32> {tile.name = "Rstd"},
    %DRes: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "DRes"},
    %DX: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "DX"},
    %DW: !tile.view<?xf32> {tile.name = "DW"},
    %DB: !tile.view<?xf32> {tile.name = "DB"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["min(cdiv(DY.0, ROWS), MAX_BLOCKS)", "1", "1"],
                     requires = ["DY.0 >= 1", "DY.1 >= 1", "DY.1 <= BLOCK_N",
                                 "H.0 == DY.0 && H.1 == DY.1",
                                 "DX.0 == DY.0 && DX.1 == DY.1",
                                 "W.0 == DY.1", "DW.0 == DY.1", "Rstd.0 == DY.0",
                                 "RMS || (Mean.0 == DY.0 && DB.0 == DY.1)",
                                 "!HAS_DRES || (DRes.0 == DY.0 && DRes.1 == DY.1)"]},
      tile.params = {ROWS = 1 : i32, BLOCK_N = 4096 : i32, MAX_BLOCKS = 1056 : i32,
                     PREFETCH = true, RMS = true, HAS_DRES = false, DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %rms = tile.param "RMS" : i1
  %has_dres = tile.param "HAS_DRES" : i1
  %prefetch = tile.param "PREFETCH" : i1
  %rows = tile.param "ROWS" : i32
  %bid = tile.block_id x
  %blocks = tile.num_blocks x
  %m = tile.dim %DY[0] : !tile.view<?x?x!tile.dtype<"DTYPE">>
  %n = tile.dim %DY[1] : !tile.view<?x?x!tile.dtype<"DTYPE">>
  %row_blocks = arith.ceildivsi %m, %rows : i32
  %inv_n = arith.constant 1.0 : f32
  %n_f = arith.sitofp %n : i32 to f32
  %rn = arith.divf %inv_n, %n_f : f32
  %rn_r = tile.splat %rn shape [ROWS, 1] : f32 -> tensor<?x1xf32>
  %zero_t = tile.full 0.0 shape [ROWS, BLOCK_N] : tensor<?x?xf32>

  // W once per block, for every row block it walks.
  %w_lp = tile.load %W[%c0] shape [BLOCK_N]
      : !tile.view<?x!tile.dtype<"DTYPE">> -> tensor<?x!tile.dtype<"DTYPE">>
  %w = tile.astype %w_lp : tensor<?x!tile.dtype<"DTYPE">> -> tensor<?xf32>
  %w_row = tile.reshape %w shape [1, BLOCK_N] : tensor<?xf32> -> tensor<1x?xf32>
  %w_t = tile.broadcast %w_row shape [ROWS, BLOCK_N] : tensor<1x?xf32> -> tensor<?x?xf32>

  // With PREFETCH, DY and H of the next row block are loaded one step
  // ahead (kept in DTYPE: few registers), so that a block has two row
  // blocks in flight: their loads overlap this one's reductions and
  // stores. Past the last row block the loads are masked off (zeros, no
  // memory access).
  %dy0 = tile.load %DY[%bid, %c0] shape [ROWS, BLOCK_N]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %h0 = tile.load %H[%bid, %c0] shape [ROWS, BLOCK_N]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %acc:4 = scf.for %rb = %bid to %row_blocks step %blocks
      iter_args(%dw_a = %zero_t, %db_a = %zero_t, %dy_lp = %dy0, %h_lp = %h0)
      -> (tensor<?x?xf32>, tensor<?x?xf32>,
          tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>) : i32 {
    %rb_next = arith.addi %rb, %blocks : i32
    %cur:2, %next:2 = scf.if %prefetch
        -> (tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>,
            tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>) {
      %dy_n = tile.load %DY[%rb_next, %c0] shape [ROWS, BLOCK_N]
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %h_n = tile.load %H[%rb_next, %c0] shape [ROWS, BLOCK_N]
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      scf.yield %dy_lp, %h_lp, %dy_n, %h_n
          : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>,
            tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>
    } else {
      // Without PREFETCH the carried tiles pass through unused (and fold
      // away): this row block's loads, here.
      %dy_c = tile.load %DY[%rb, %c0] shape [ROWS, BLOCK_N]
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %h_c = tile.load %H[%rb, %c0] shape [ROWS, BLOCK_N]
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      scf.yield %dy_c, %h_c, %dy_lp, %h_lp
          : tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>,
            tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>
    }
    %rstd_v = tile.load %Rstd[%rb] shape [ROWS] : !tile.view<?xf32> -> tensor<?xf32>
    %dy = tile.astype %cur#0 : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
    %h = tile.astype %cur#1 : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
    %rstd_r = tile.reshape %rstd_v shape [ROWS, 1] : tensor<?xf32> -> tensor<?x1xf32>
    %rstd_t = tile.broadcast %rstd_r shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
    %hc = scf.if %rms -> tensor<?x?xf32> {
      scf.yield %h : tensor<?x?xf32>
    } else {
      %mean_v = tile.load %Mean[%rb] shape [ROWS] : !tile.view<?xf32> -> tensor<?xf32>
      %mean_r = tile.reshape %mean_v shape [ROWS, 1] : tensor<?xf32> -> tensor<?x1xf32>
      %mean_t = tile.broadcast %mean_r shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
      %d = arith.subf %h, %mean_t : tensor<?x?xf32>
      scf.yield %d : tensor<?x?xf32>
    }
    %hhat = arith.mulf %hc, %rstd_t : tensor<?x?xf32>
    %g = arith.mulf %dy, %w_t : tensor<?x?xf32>
    %gh = arith.mulf %g, %hhat : tensor<?x?xf32>
    %c1_sum = tile.reduce %gh sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %c1 = arith.mulf %c1_sum, %rn_r : tensor<?x1xf32>
    %c1_t = tile.broadcast %c1 shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
    %proj = arith.mulf %hhat, %c1_t : tensor<?x?xf32>
    %inner = scf.if %rms -> tensor<?x?xf32> {
      %gi = arith.subf %g, %proj : tensor<?x?xf32>
      scf.yield %gi : tensor<?x?xf32>
    } else {
      %g_sum = tile.reduce %g sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
      %c2 = arith.mulf %g_sum, %rn_r : tensor<?x1xf32>
      %c2_t = tile.broadcast %c2 shape [ROWS, BLOCK_N] : tensor<?x1xf32> -> tensor<?x?xf32>
      %gp = arith.subf %g, %proj : tensor<?x?xf32>
      %gi = arith.subf %gp, %c2_t : tensor<?x?xf32>
      scf.yield %gi : tensor<?x?xf32>
    }
    %dh = arith.mulf %inner, %rstd_t : tensor<?x?xf32>
    %dx = scf.if %has_dres -> tensor<?x?xf32> {
      %dr_lp = tile.load %DRes[%rb, %c0] shape [ROWS, BLOCK_N]
          : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
      %dr = tile.astype %dr_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
      %s = arith.addf %dh, %dr : tensor<?x?xf32>
      scf.yield %s : tensor<?x?xf32>
    } else {
      scf.yield %dh : tensor<?x?xf32>
    }
    %dx_lp = tile.astype %dx : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
    tile.store %dx_lp, %DX[%rb, %c0]
        : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
    %dyh = arith.mulf %dy, %hhat : tensor<?x?xf32>
    %dw_n = arith.addf %dw_a, %dyh : tensor<?x?xf32>
    %db_n = scf.if %rms -> tensor<?x?xf32> {
      scf.yield %db_a : tensor<?x?xf32>
    } else {
      %s = arith.addf %db_a, %dy : tensor<?x?xf32>
      scf.yield %s : tensor<?x?xf32>
    }
    scf.yield %dw_n, %db_n, %next#0, %next#1
        : tensor<?x?xf32>, tensor<?x?xf32>,
          tensor<?x?x!tile.dtype<"DTYPE">>, tensor<?x?x!tile.dtype<"DTYPE">>
  }

  // The block's partial sums, one atomic add per column.
  %dw_part = tile.reduce %acc#0 sum axis 0 : tensor<?x?xf32> -> tensor<?xf32>
  tile.atomic add %dw_part, %DW[%c0] : tensor<?xf32>, !tile.view<?xf32>
  %true = arith.constant true
  %ln = arith.xori %rms, %true : i1
  scf.if %ln {
    %db_part = tile.reduce %acc#1 sum axis 0 : tensor<?x?xf32> -> tensor<?xf32>
    tile.atomic add %db_part, %DB[%c0] : tensor<?xf32>, !tile.view<?xf32>
  }
  return
}

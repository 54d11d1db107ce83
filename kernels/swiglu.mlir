// SwiGLU, forward and backward, elementwise over [T, F] tiles:
//   forward   Out = silu(G) * U,           silu(g) = g * s,  s = sigmoid(g)
//   backward  dG = dOut * U * s * (1 + g * (1 - s)),   dU = dOut * silu(G)
// in f32 whatever the storage type. sigmoid(g) = 1 / (1 + 2^(-g log2 e)):
// one exp2 and one division (`rounding full`, 2 ulp), exact limits at both
// tails (2^+inf = inf gives s = 0, 2^-inf = 0 gives s = 1).
//
// Two tensors or one fused [T, 2F] tensor: G and U are views with their
// own row strides, so a fused gate-up tensor GU (torch's
// `gate, up = gu.chunk(2, dim=-1)`) is passed as its two column halves,
// G = GU[:, :F] and U = GU[:, F:] (row stride 2F), with no copy. (dG and
// dU as the halves of one [T, 2F] gradient run on the executor, but
// tile_launcher refuses written views whose address ranges interleave.)
// The second half
// starts F elements in: 16-byte vectors need F * sizeof(DTYPE) % 16 == 0,
// which the launcher checks against the bundle's alignment (a bundle
// compiled with --view-align=2 takes any F).
//
// Bytes moved (E = element size): forward 3 T F E (read G, U; write Out),
// backward 5 T F E (read G, U, dOut; write dG, dU).
//
// Parameters: ROWS, BLOCK_N (the tile), BACKWARD, DTYPE (f16, bf16, f32).
// Arguments: G, U [T, F]; forward: Out [T, F]; backward: DOut [T, F] read,
// DG, DU [T, F] written (the views the variant does not use are not
// touched; pass any tensor of the right rank). Grid [cdiv(T, ROWS),
// cdiv(F, BLOCK_N)].

// The types, spelled once (MLIR type aliases): a view and a tile of the
// storage type, and a tile of the f32 math.
!view = !tile.view<?x?x!tile.dtype<"DTYPE">>
!tile_lp = tensor<?x?x!tile.dtype<"DTYPE">>
!tile_f32 = tensor<?x?xf32>

func.func @swiglu(%G: !view {tile.name = "G"}, %U: !view {tile.name = "U"},
                   %Out: !view {tile.name = "Out"},
                   %DOut: !view {tile.name = "DOut"},
                   %DG: !view {tile.name = "DG"}, %DU: !view {tile.name = "DU"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(G.0, ROWS)", "cdiv(G.1, BLOCK_N)", "1"],
                     requires = ["U.0 == G.0 && U.1 == G.1",
                                 "BACKWARD || (Out.0 == G.0 && Out.1 == G.1)",
                                 "!BACKWARD || (DOut.0 == G.0 && DOut.1 == G.1)",
                                 "!BACKWARD || (DG.0 == G.0 && DG.1 == G.1)",
                                 "!BACKWARD || (DU.0 == G.0 && DU.1 == G.1)"]},
      tile.params = {ROWS = 8 : i32, BLOCK_N = 512 : i32, BACKWARD = false,
                     DTYPE = f16}} {
  %neg_log2e = arith.constant -1.44269504088896340736 : f32
  %backward = tile.param "BACKWARD" : i1
  %bx = tile.block_id x
  %by = tile.block_id y
  %one = tile.full 1.0 shape [ROWS, BLOCK_N] : !tile_f32
  %nl2e = tile.splat %neg_log2e shape [ROWS, BLOCK_N] : f32 -> !tile_f32

  %g_lp = tile.load %G[%bx, %by] shape [ROWS, BLOCK_N] : !view -> !tile_lp
  %u_lp = tile.load %U[%bx, %by] shape [ROWS, BLOCK_N] : !view -> !tile_lp
  %g = tile.astype %g_lp : !tile_lp -> !tile_f32
  %u = tile.astype %u_lp : !tile_lp -> !tile_f32
  // s = 1 / (1 + 2^(-g log2 e))
  %t = arith.mulf %g, %nl2e : !tile_f32
  %e = tile.exp2 %t : !tile_f32
  %den = arith.addf %one, %e : !tile_f32
  %s = tile.div %one, %den rounding full : !tile_f32
  %silu = arith.mulf %g, %s : !tile_f32

  scf.if %backward {
    %do_lp = tile.load %DOut[%bx, %by] shape [ROWS, BLOCK_N] : !view -> !tile_lp
    %do = tile.astype %do_lp : !tile_lp -> !tile_f32
    // silu'(g) = s + g s (1 - s) = s (1 + g (1 - s))
    %one_m_s = arith.subf %one, %s : !tile_f32
    %g1ms = arith.mulf %g, %one_m_s : !tile_f32
    %inner = arith.addf %one, %g1ms : !tile_f32
    %dsilu = arith.mulf %s, %inner : !tile_f32
    %do_u = arith.mulf %do, %u : !tile_f32
    %dg = arith.mulf %do_u, %dsilu : !tile_f32
    %du = arith.mulf %do, %silu : !tile_f32
    %dg_lp = tile.astype %dg : !tile_f32 -> !tile_lp
    %du_lp = tile.astype %du : !tile_f32 -> !tile_lp
    tile.store %dg_lp, %DG[%bx, %by] : !tile_lp, !view
    tile.store %du_lp, %DU[%bx, %by] : !tile_lp, !view
  } else {
    %out = arith.mulf %silu, %u : !tile_f32
    %out_lp = tile.astype %out : !tile_f32 -> !tile_lp
    tile.store %out_lp, %Out[%bx, %by] : !tile_lp, !view
  }
  return
}

// GeLU, forward and backward, elementwise over [T, F] tiles, as torch's
// F.gelu(x, approximate='tanh' | 'none'):
//   tanh form  Y = 0.5 x (1 + tanh(u)),  u = sqrt(2/pi) (x + 0.044715 x^3)
//              computed as the equal x * sigmoid(2u) = x / (1 + 2^(-2u log2 e))
//              (one exp2 and one division, exact limits at both tails; the
//              GEMM epilogue's GELU is the same);
//              dY/dx = s + 2 x s (1 - s) u',  s = sigmoid(2u),
//              u' = sqrt(2/pi) (1 + 3 * 0.044715 x^2)
//   erf form   Y = x Phi(x),  Phi(x) = 0.5 (1 + erf(x / sqrt 2))
//              dY/dx = Phi(x) + x exp(-x^2 / 2) / sqrt(2 pi)
// The dialect has no erf (nor does the GPU: CUDA's erff is a libdevice
// polynomial), so the kernel computes it: with z = |x| / sqrt 2,
// Phi(x) = 0.5 erfc(z) for x < 0 and 1 - 0.5 erfc(z) otherwise, where
// erfc(z) = t exp(-z^2 - 1.26551223 + t P(t)), t = 1 / (1 + z / 2), P of
// degree 8 (Numerical Recipes' erfcc, Chebyshev-fitted: relative error
// below 1.2e-7 for every z >= 0). Through erfc of |x| the small values of
// Phi at x << 0 keep their relative precision (1 - erf would cancel).
// The math runs in f32 whatever the storage type.
//
// Bytes moved (E = element size): forward 2 T F E, backward 3 T F E (read
// X, dY; write dX).
//
// Parameters: ROWS, BLOCK_N, TANH (the tanh form, else erf), BACKWARD,
// DTYPE (f16, bf16, f32). Arguments: X [T, F]; forward: Y [T, F];
// backward: DY [T, F] read, DX [T, F] written. Grid [cdiv(T, ROWS),
// cdiv(F, BLOCK_N)].

func.func @gelu(
    %X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
    %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"},
    %DY: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "DY"},
    %DX: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "DX"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(X.0, ROWS)", "cdiv(X.1, BLOCK_N)", "1"],
                     requires = ["BACKWARD || (Y.0 == X.0 && Y.1 == X.1)",
                                 "!BACKWARD || (DY.0 == X.0 && DY.1 == X.1)",
                                 "!BACKWARD || (DX.0 == X.0 && DX.1 == X.1)"]},
      tile.params = {ROWS = 8 : i32, BLOCK_N = 512 : i32, TANH = true,
                     BACKWARD = false, DTYPE = f16}} {
  %tanh_form = tile.param "TANH" : i1
  %backward = tile.param "BACKWARD" : i1
  %bx = tile.block_id x
  %by = tile.block_id y
  %one = tile.full 1.0 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
  %half = tile.full 0.5 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
  %zero = tile.full 0.0 shape [ROWS, BLOCK_N] : tensor<?x?xf32>

  %x_lp = tile.load %X[%bx, %by] shape [ROWS, BLOCK_N]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
  %x = tile.astype %x_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
  %x2 = arith.mulf %x, %x : tensor<?x?xf32>

  // (Phi-like factor c, derivative d): Y = x c, dY/dx = d.
  %c, %d = scf.if %tanh_form -> (tensor<?x?xf32>, tensor<?x?xf32>) {
    // u = sqrt(2/pi) (x + 0.044715 x^3); s = sigmoid(2u)
    %k1 = tile.full 0.044715 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %k0 = tile.full 0.79788456080286535588 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %k3 = tile.full 0.134145 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %m2l2e = tile.full -2.88539008177792681472 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %two = tile.full 2.0 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %a = arith.mulf %k1, %x2 : tensor<?x?xf32>
    %a1 = arith.addf %one, %a : tensor<?x?xf32>
    %xa = arith.mulf %x, %a1 : tensor<?x?xf32>
    %u = arith.mulf %k0, %xa : tensor<?x?xf32>
    %t = arith.mulf %u, %m2l2e : tensor<?x?xf32>
    %e = tile.exp2 %t : tensor<?x?xf32>
    %den = arith.addf %one, %e : tensor<?x?xf32>
    %s = tile.div %one, %den rounding full : tensor<?x?xf32>
    // d = s + 2 x s (1 - s) u'
    %b = arith.mulf %k3, %x2 : tensor<?x?xf32>
    %b1 = arith.addf %one, %b : tensor<?x?xf32>
    %du = arith.mulf %k0, %b1 : tensor<?x?xf32>
    %oms = arith.subf %one, %s : tensor<?x?xf32>
    %ss = arith.mulf %s, %oms : tensor<?x?xf32>
    %x2s = arith.mulf %two, %x : tensor<?x?xf32>
    %q = arith.mulf %x2s, %ss : tensor<?x?xf32>
    %qd = arith.mulf %q, %du : tensor<?x?xf32>
    %dd = arith.addf %s, %qd : tensor<?x?xf32>
    scf.yield %s, %dd : tensor<?x?xf32>, tensor<?x?xf32>
  } else {
    // z = |x| / sqrt 2, t = 1 / (1 + z / 2)
    %rsqrt2 = tile.full 0.70710678118654752440 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %ax = math.absf %x : tensor<?x?xf32>
    %isneg = arith.cmpf olt, %x, %zero : tensor<?x?xf32>
    %z = arith.mulf %ax, %rsqrt2 : tensor<?x?xf32>
    %hz = arith.mulf %z, %half : tensor<?x?xf32>
    %tden = arith.addf %one, %hz : tensor<?x?xf32>
    %t = tile.div %one, %tden rounding full : tensor<?x?xf32>
    // P(t) by Horner from the highest coefficient.
    %p8 = tile.full 0.17087277 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %a7 = tile.full -0.82215223 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %a6 = tile.full 1.48851587 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %a5 = tile.full -1.13520398 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %a4 = tile.full 0.27886807 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %a3 = tile.full -0.18628806 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %a2 = tile.full 0.09678418 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %a1 = tile.full 0.37409196 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %a0 = tile.full 1.00002368 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %am = tile.full -1.26551223 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %p7 = math.fma %p8, %t, %a7 : tensor<?x?xf32>
    %p6 = math.fma %p7, %t, %a6 : tensor<?x?xf32>
    %p5 = math.fma %p6, %t, %a5 : tensor<?x?xf32>
    %p4 = math.fma %p5, %t, %a4 : tensor<?x?xf32>
    %p3 = math.fma %p4, %t, %a3 : tensor<?x?xf32>
    %p2 = math.fma %p3, %t, %a2 : tensor<?x?xf32>
    %p1 = math.fma %p2, %t, %a1 : tensor<?x?xf32>
    %p0 = math.fma %p1, %t, %a0 : tensor<?x?xf32>
    %pm = math.fma %p0, %t, %am : tensor<?x?xf32>
    // erfc(z) = t exp(pm - z^2); z^2 = x^2 / 2
    %z2 = arith.mulf %x2, %half : tensor<?x?xf32>
    %arg = arith.subf %pm, %z2 : tensor<?x?xf32>
    %ex = math.exp %arg : tensor<?x?xf32>
    %erfc = arith.mulf %t, %ex : tensor<?x?xf32>
    %h = arith.mulf %erfc, %half : tensor<?x?xf32>
    %omh = arith.subf %one, %h : tensor<?x?xf32>
    %phi = tile.select %isneg, %h, %omh : tensor<?x?xi1>, tensor<?x?xf32>
    // d = Phi + x exp(-x^2 / 2) / sqrt(2 pi)
    %mhalf = tile.full -0.5 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %rs2pi = tile.full 0.39894228040143267794 shape [ROWS, BLOCK_N] : tensor<?x?xf32>
    %ga = arith.mulf %x2, %mhalf : tensor<?x?xf32>
    %gauss = math.exp %ga : tensor<?x?xf32>
    %pdf = arith.mulf %gauss, %rs2pi : tensor<?x?xf32>
    %xpdf = arith.mulf %x, %pdf : tensor<?x?xf32>
    %dd = arith.addf %phi, %xpdf : tensor<?x?xf32>
    scf.yield %phi, %dd : tensor<?x?xf32>, tensor<?x?xf32>
  }

  scf.if %backward {
    %dy_lp = tile.load %DY[%bx, %by] shape [ROWS, BLOCK_N]
        : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %dy = tile.astype %dy_lp : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
    %dx = arith.mulf %dy, %d : tensor<?x?xf32>
    %dx_lp = tile.astype %dx : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
    tile.store %dx_lp, %DX[%bx, %by]
        : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  } else {
    %y = arith.mulf %x, %c : tensor<?x?xf32>
    %y_lp = tile.astype %y : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
    tile.store %y_lp, %Y[%bx, %by]
        : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  }
  return
}

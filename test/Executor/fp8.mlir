// fp8 (f8E4M3FN, f8E5M2) on the CPU reference executor: tile.astype from
// f32 rounds to nearest even and saturates as PTX's
// cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 does (finite values and Inf beyond
// the largest finite value give it, with their sign; NaN stays NaN), and
// fp8 -> f32 is exact. Views of fp8 are bytes (--hex prints them).

// e4m3 (bias 7, 3 mantissa bits, largest 448, no Inf, NaN = S.1111.111):
// 1; 1 + 1/16 ties to even (1); 1 + 3/16 ties to even (1.25); 448; 500,
// -1e9 and Inf saturate; 2^-9 is the smallest subnormal, 2^-10 ties to 0,
// 3 * 2^-10 ties to 2 * 2^-9; -0; NaN.
// RUN: tile-exec %s --kernel=to_e4m3 --hex \
// RUN:   --arg='f32[13]=values:1,1.0625,1.1875,448,500,-1e9,inf,0.001953125,0.0009765625,0.0029296875,-0,nan,-3.5' \
// RUN:   --arg='f8E4M3FN[13]=zeros' --print=E | FileCheck %s --check-prefix=E4M3
// E4M3: E: 0x38 0x38 0x3a 0x7e 0x7e 0xfe 0x7e 0x01 0x00 0x02 0x80 0x7f 0xc6
func.func @to_e4m3(%F: !tile.view<?xf32> {tile.name = "F"},
                   %E: !tile.view<?xf8E4M3FN> {tile.name = "E"}) {
  %c0 = arith.constant 0 : i32
  %f = tile.load %F[%c0] shape [13] : !tile.view<?xf32> -> tensor<13xf32>
  %e = tile.astype %f : tensor<13xf32> -> tensor<13xf8E4M3FN>
  tile.store %e, %E[%c0] : tensor<13xf8E4M3FN>, !tile.view<?xf8E4M3FN>
  return
}

// e5m2 (bias 15, 2 mantissa bits, largest 57344, Inf and NaNs): 1; 1.125
// and 1.375 tie to even (1, 1.5); 57344; 1e6 and -Inf saturate; 2^-16 is
// the smallest subnormal; NaN.
// RUN: tile-exec %s --kernel=to_e5m2 --hex \
// RUN:   --arg='f32[8]=values:1,1.125,1.375,57344,1e6,-inf,1.52587890625e-5,nan' \
// RUN:   --arg='f8E5M2[8]=zeros' --print=E | FileCheck %s --check-prefix=E5M2
// E5M2: E: 0x3c 0x3c 0x3e 0x7b 0x7b 0xfb 0x01 0x7f
func.func @to_e5m2(%F: !tile.view<?xf32> {tile.name = "F"},
                   %E: !tile.view<?xf8E5M2> {tile.name = "E"}) {
  %c0 = arith.constant 0 : i32
  %f = tile.load %F[%c0] shape [8] : !tile.view<?xf32> -> tensor<8xf32>
  %e = tile.astype %f : tensor<8xf32> -> tensor<8xf8E5M2>
  tile.store %e, %E[%c0] : tensor<8xf8E5M2>, !tile.view<?xf8E5M2>
  return
}

// fp8 -> f32 is exact: the inputs (rounded to fp8 when tile-exec fills the
// view, the same rounding) come back as the fp8 values, in decimal.
// RUN: tile-exec %s --kernel=from_fp8 \
// RUN:   --arg='f8E4M3FN[6]=values:1.1875,448,-0.001953125,0.3,-1e9,nan' \
// RUN:   --arg='f32[6]=zeros' \
// RUN:   --arg='f8E5M2[4]=values:57344,1.52587890625e-5,-0.3,inf' \
// RUN:   --arg='f32[4]=zeros' --print=F,G | FileCheck %s --check-prefix=BACK
// BACK: F: 1.25 448 -0.001953125 0.3125 -448 nan
// BACK: G: 57344 1.52587891e-05 -0.3125 57344
func.func @from_fp8(%E: !tile.view<?xf8E4M3FN> {tile.name = "E"},
                    %F: !tile.view<?xf32> {tile.name = "F"},
                    %D: !tile.view<?xf8E5M2> {tile.name = "D"},
                    %G: !tile.view<?xf32> {tile.name = "G"}) {
  %c0 = arith.constant 0 : i32
  %e = tile.load %E[%c0] shape [6] : !tile.view<?xf8E4M3FN> -> tensor<6xf8E4M3FN>
  %f = tile.astype %e : tensor<6xf8E4M3FN> -> tensor<6xf32>
  tile.store %f, %F[%c0] : tensor<6xf32>, !tile.view<?xf32>
  %d = tile.load %D[%c0] shape [4] : !tile.view<?xf8E5M2> -> tensor<4xf8E5M2>
  %g = tile.astype %d : tensor<4xf8E5M2> -> tensor<4xf32>
  tile.store %g, %G[%c0] : tensor<4xf32>, !tile.view<?xf32>
  return
}

// tile.mma on fp8: exact products, f32 accumulation. A = [[1, 2]; [0.5,
// -448]], B (K x N) = [[448, 1]; [0.25, 3]] (all exact in e4m3).
// RUN: tile-exec %s --kernel=mma_fp8 \
// RUN:   --arg='f8E4M3FN[2x2]=values:1,2,0.5,-448' \
// RUN:   --arg='f8E4M3FN[2x2]=values:448,1,0.25,3' \
// RUN:   --arg='f32[2x2]=zeros' --print=C | FileCheck %s --check-prefix=MMA
// MMA: C[0]: 448.5 7
// MMA-NEXT: C[1]: 112 -1343.5
func.func @mma_fp8(%A: !tile.view<?x?xf8E4M3FN> {tile.name = "A"},
                   %B: !tile.view<?x?xf8E4M3FN> {tile.name = "B"},
                   %C: !tile.view<?x?xf32> {tile.name = "C"}) {
  %c0 = arith.constant 0 : i32
  %a = tile.load %A[%c0, %c0] shape [2, 2] : !tile.view<?x?xf8E4M3FN> -> tensor<2x2xf8E4M3FN>
  %b = tile.load %B[%c0, %c0] shape [2, 2] : !tile.view<?x?xf8E4M3FN> -> tensor<2x2xf8E4M3FN>
  %z = tile.full 0.0 shape [2, 2] : tensor<2x2xf32>
  %c = tile.mma %a, %b, %z : tensor<2x2xf8E4M3FN>, tensor<2x2xf8E4M3FN>, tensor<2x2xf32>
  tile.store %c, %C[%c0, %c0] : tensor<2x2xf32>, !tile.view<?x?xf32>
  return
}

// GPU numerics on the CPU reference executor: rounding of tile.astype (to
// nearest even, overflow, subnormals, NaN), float <-> integer conversions,
// tile.exp2 with and without flush_to_zero, tile.div rounding modes, and
// tile.mma (exact f16 products, f32 accumulation in k order).

// f32 -> f16 and bf16: ties go to even, 65520 overflows to Inf, 2^-25 ties
// to 0, subnormals keep their sign, NaN stays NaN.
// RUN: tile-exec %s --kernel=astype_float --hex \
// RUN:   --arg='f32[10]=values:1.0009765625,1.00048828125,1.00146484375,65519,65520,5.9604644775390625e-8,2.98023223876953125e-8,4.4703483581542969e-8,-0,nan' \
// RUN:   --arg='f16[10]=zeros' \
// RUN:   --arg='f32[4]=values:1.00390625,1.01171875,3.40282347e38,-1e-40' \
// RUN:   --arg='bf16[4]=zeros' --print=H,B | FileCheck %s --check-prefix=FLOAT
// FLOAT: H: 0x3c01 0x3c00 0x3c02 0x7bff 0x7c00 0x0001 0x0000 0x0001 0x8000 0x7e00
// FLOAT: B: 0x3f80 0x3f82 0x7f80 0x8001
func.func @astype_float(%F: !tile.view<?xf32> {tile.name = "F"},
                        %H: !tile.view<?xf16> {tile.name = "H"},
                        %G: !tile.view<?xf32> {tile.name = "G"},
                        %B: !tile.view<?xbf16> {tile.name = "B"}) {
  %c0 = arith.constant 0 : i32
  %f = tile.load %F[%c0] shape [10] : !tile.view<?xf32> -> tensor<10xf32>
  %h = tile.astype %f : tensor<10xf32> -> tensor<10xf16>
  tile.store %h, %H[%c0] : tensor<10xf16>, !tile.view<?xf16>
  %g = tile.load %G[%c0] shape [4] : !tile.view<?xf32> -> tensor<4xf32>
  %b = tile.astype %g : tensor<4xf32> -> tensor<4xbf16>
  tile.store %b, %B[%c0] : tensor<4xbf16>, !tile.view<?xbf16>
  return
}

// Float -> integer truncates toward zero and saturates (NaN -> 0); integer
// -> float rounds to nearest even, for f32, f16 (overflow to Inf) and bf16.
// RUN: tile-exec %s --kernel=astype_int \
// RUN:   --arg='f32[6]=values:2.7,-2.7,1e10,-1e10,nan,-0.5' --arg='i32[6]=zeros' \
// RUN:   --arg='i32[4]=values:16777217,16777219,-16777219,7' --arg='f32[4]=zeros' \
// RUN:   --arg='i32[4]=values:65519,2049,2051,-70000' --arg='f16[4]=zeros' \
// RUN:   --arg='i32[2]=values:257,259' --arg='bf16[2]=zeros' \
// RUN:   --print=I,F,H,B | FileCheck %s --check-prefix=INT
// INT: I: 2 -2 2147483647 -2147483648 0 0
// INT: F: 16777216 16777220 -16777220 7
// INT: H: 65504 2048 2052 -inf
// INT: B: 256 260
func.func @astype_int(%FIn: !tile.view<?xf32> {tile.name = "FIn"},
                      %I: !tile.view<?xi32> {tile.name = "I"},
                      %IIn: !tile.view<?xi32> {tile.name = "IIn"},
                      %F: !tile.view<?xf32> {tile.name = "F"},
                      %IIn2: !tile.view<?xi32> {tile.name = "IIn2"},
                      %H: !tile.view<?xf16> {tile.name = "H"},
                      %IIn3: !tile.view<?xi32> {tile.name = "IIn3"},
                      %B: !tile.view<?xbf16> {tile.name = "B"}) {
  %c0 = arith.constant 0 : i32
  %f = tile.load %FIn[%c0] shape [6] : !tile.view<?xf32> -> tensor<6xf32>
  %i = tile.astype %f : tensor<6xf32> -> tensor<6xi32>
  tile.store %i, %I[%c0] : tensor<6xi32>, !tile.view<?xi32>
  %j = tile.load %IIn[%c0] shape [4] : !tile.view<?xi32> -> tensor<4xi32>
  %jf = tile.astype %j : tensor<4xi32> -> tensor<4xf32>
  tile.store %jf, %F[%c0] : tensor<4xf32>, !tile.view<?xf32>
  %k = tile.load %IIn2[%c0] shape [4] : !tile.view<?xi32> -> tensor<4xi32>
  %kh = tile.astype %k : tensor<4xi32> -> tensor<4xf16>
  tile.store %kh, %H[%c0] : tensor<4xf16>, !tile.view<?xf16>
  %l = tile.load %IIn3[%c0] shape [2] : !tile.view<?xi32> -> tensor<2xi32>
  %lb = tile.astype %l : tensor<2xi32> -> tensor<2xbf16>
  tile.store %lb, %B[%c0] : tensor<2xbf16>, !tile.view<?xbf16>
  return
}

// exp2: precise keeps subnormal results (2^-126.5, 2^-149); flush_to_zero
// flushes them, and flushes a subnormal input to 0 (2^0 = 1).
// RUN: tile-exec %s --kernel=exp2 --hex \
// RUN:   --arg='f32[6]=values:-126.5,-149,-1e-40,-inf,inf,3' \
// RUN:   --arg='f32[6]=zeros' --arg='f32[6]=zeros' --print=Precise,Ftz \
// RUN:   | FileCheck %s --check-prefix=EXP2
// EXP2: Precise: 0x005a827a 0x00000001 0x3f800000 0x00000000 0x7f800000 0x41000000
// EXP2: Ftz: 0x00000000 0x00000000 0x3f800000 0x00000000 0x7f800000 0x41000000
func.func @exp2(%X: !tile.view<?xf32> {tile.name = "X"},
                %Precise: !tile.view<?xf32> {tile.name = "Precise"},
                %Ftz: !tile.view<?xf32> {tile.name = "Ftz"}) {
  %c0 = arith.constant 0 : i32
  %x = tile.load %X[%c0] shape [6] : !tile.view<?xf32> -> tensor<6xf32>
  %p = tile.exp2 %x : tensor<6xf32>
  %f = tile.exp2 %x flush_to_zero : tensor<6xf32>
  tile.store %p, %Precise[%c0] : tensor<6xf32>, !tile.view<?xf32>
  tile.store %f, %Ftz[%c0] : tensor<6xf32>, !tile.view<?xf32>
  return
}

// div: nearest_even is IEEE (3/7 = 0x3edb6db7); full and approx are
// a * (1/b) (0x3edb6db8); flush_to_zero flushes subnormal inputs (1e-40/1)
// and results (1e-30/1e10).
// RUN: tile-exec %s --kernel=div --hex \
// RUN:   --arg='f32[4]=values:3,1e-40,1e-30,-1' --arg='f32[4]=values:7,1,1e10,0' \
// RUN:   --arg='f32[4]=zeros' --arg='f32[4]=zeros' --arg='f32[4]=zeros' \
// RUN:   --arg='f32[4]=zeros' --print=Ieee,Full,Approx,ApproxFtz \
// RUN:   | FileCheck %s --check-prefix=DIV
// DIV: Ieee: 0x3edb6db7 0x000116c2 0x000116c2 0xff800000
// DIV: Full: 0x3edb6db8 0x000116c2 0x000116c2 0xff800000
// DIV: Approx: 0x3edb6db8 0x000116c2 0x000116c2 0xff800000
// DIV: ApproxFtz: 0x3edb6db8 0x00000000 0x00000000 0xff800000
func.func @div(%A: !tile.view<?xf32> {tile.name = "A"},
               %B: !tile.view<?xf32> {tile.name = "B"},
               %Ieee: !tile.view<?xf32> {tile.name = "Ieee"},
               %Full: !tile.view<?xf32> {tile.name = "Full"},
               %Approx: !tile.view<?xf32> {tile.name = "Approx"},
               %ApproxFtz: !tile.view<?xf32> {tile.name = "ApproxFtz"}) {
  %c0 = arith.constant 0 : i32
  %a = tile.load %A[%c0] shape [4] : !tile.view<?xf32> -> tensor<4xf32>
  %b = tile.load %B[%c0] shape [4] : !tile.view<?xf32> -> tensor<4xf32>
  %q0 = tile.div %a, %b : tensor<4xf32>
  %q1 = tile.div %a, %b rounding full : tensor<4xf32>
  %q2 = tile.div %a, %b rounding approx : tensor<4xf32>
  %q3 = tile.div %a, %b rounding approx flush_to_zero : tensor<4xf32>
  tile.store %q0, %Ieee[%c0] : tensor<4xf32>, !tile.view<?xf32>
  tile.store %q1, %Full[%c0] : tensor<4xf32>, !tile.view<?xf32>
  tile.store %q2, %Approx[%c0] : tensor<4xf32>, !tile.view<?xf32>
  tile.store %q3, %ApproxFtz[%c0] : tensor<4xf32>, !tile.view<?xf32>
  return
}

// mma: C = A B + acc with f16 inputs; and the f32 accumulation order:
// ((0 + 1*1) + 2^-12*2^-12) + 2^-12*2^-12 = 1 in f32 (each 2^-24 is half an
// ulp of 1 and ties to even), where exact arithmetic would give 1 + 2^-23.
// RUN: tile-exec %s --kernel=mma --arg='f16[2x3]=iota' --arg='bf16[3x2]=iota' \
// RUN:   --arg='f16[1x3]=values:1,0.000244140625,0.000244140625' \
// RUN:   --arg='f32[2x2]=zeros' --arg='f32[1x1]=zeros' --print=C,D \
// RUN:   | FileCheck %s --check-prefix=MMA
// MMA:      C[0]: 11 14
// MMA-NEXT: C[1]: 29 41
// MMA-NEXT: D[0]: 1
func.func @mma(%A: !tile.view<?x?xf16> {tile.name = "A"},
               %B: !tile.view<?x?xbf16> {tile.name = "B"},
               %E: !tile.view<?x?xf16> {tile.name = "E"},
               %C: !tile.view<?x?xf32> {tile.name = "C"},
               %D: !tile.view<?x?xf32> {tile.name = "D"}) {
  %c0 = arith.constant 0 : i32
  %a = tile.load %A[%c0, %c0] shape [2, 3] : !tile.view<?x?xf16> -> tensor<2x3xf16>
  %b16 = tile.load %B[%c0, %c0] shape [3, 2] : !tile.view<?x?xbf16> -> tensor<3x2xbf16>
  %b32 = tile.astype %b16 : tensor<3x2xbf16> -> tensor<3x2xf32>
  %b = tile.astype %b32 : tensor<3x2xf32> -> tensor<3x2xf16>
  %acc = tile.full 1.0 shape [2, 2] : tensor<2x2xf32>
  %c = tile.mma %a, %b, %acc : tensor<2x3xf16>, tensor<3x2xf16>, tensor<2x2xf32>
  tile.store %c, %C[%c0, %c0] : tensor<2x2xf32>, !tile.view<?x?xf32>
  %e = tile.load %E[%c0, %c0] shape [1, 3] : !tile.view<?x?xf16> -> tensor<1x3xf16>
  %et = tile.permute %e [1, 0] : tensor<1x3xf16> -> tensor<3x1xf16>
  %zero = tile.full 0.0 shape [1, 1] : tensor<1x1xf32>
  %d = tile.mma %e, %et, %zero : tensor<1x3xf16>, tensor<3x1xf16>, tensor<1x1xf32>
  tile.store %d, %D[%c0, %c0] : tensor<1x1xf32>, !tile.view<?x?xf32>
  return
}

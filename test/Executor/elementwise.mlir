// arith and math ops on the CPU reference executor, on tiles and scalars:
// float arithmetic with IEEE specials (NaN, +-0, Inf), the min/max family,
// f16 results rounded to f16, integer ops with wrap-around and signed or
// unsigned readings, every cmpi/cmpf predicate, selects, casts.

// Rows: addf subf mulf divf remf maximumf minimumf maxnumf minnumf.
// RUN: tile-exec %s --kernel=float_binary --arg='f32[1x6]=values:1,-0,nan,7.5,inf,0.5' \
// RUN:   --arg='f32[1x6]=values:2,0,1,-2,inf,3' --arg='f32[9x6]=zeros' --print=Out \
// RUN:   | FileCheck %s --check-prefix=FBIN
// FBIN:      Out[0]: 3 0 nan 5.5 inf 3.5
// FBIN-NEXT: Out[1]: -1 -0 nan 9.5 nan -2.5
// FBIN-NEXT: Out[2]: 2 -0 nan -15 inf 1.5
// FBIN-NEXT: Out[3]: 0.5 nan nan -3.75 nan 0.166666672
// FBIN-NEXT: Out[4]: 1 nan nan 1.5 nan 0.5
// FBIN-NEXT: Out[5]: 2 0 nan 7.5 inf 3
// FBIN-NEXT: Out[6]: 1 -0 nan -2 inf 0.5
// FBIN-NEXT: Out[7]: 2 0 1 7.5 inf 3
// FBIN-NEXT: Out[8]: 1 -0 1 -2 inf 0.5
func.func @float_binary(%A: !tile.view<?x?xf32> {tile.name = "A"},
                        %B: !tile.view<?x?xf32> {tile.name = "B"},
                        %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %a = tile.load %A[%c0, %c0] shape [1, 6] : !tile.view<?x?xf32> -> tensor<1x6xf32>
  %b = tile.load %B[%c0, %c0] shape [1, 6] : !tile.view<?x?xf32> -> tensor<1x6xf32>
  %r0 = arith.addf %a, %b : tensor<1x6xf32>
  tile.store %r0, %Out[%c0, %c0] : tensor<1x6xf32>, !tile.view<?x?xf32>
  %r1 = arith.subf %a, %b : tensor<1x6xf32>
  tile.store %r1, %Out[%c1, %c0] : tensor<1x6xf32>, !tile.view<?x?xf32>
  %r2 = arith.mulf %a, %b : tensor<1x6xf32>
  tile.store %r2, %Out[%c2, %c0] : tensor<1x6xf32>, !tile.view<?x?xf32>
  %r3 = arith.divf %a, %b : tensor<1x6xf32>
  tile.store %r3, %Out[%c3, %c0] : tensor<1x6xf32>, !tile.view<?x?xf32>
  %r4 = arith.remf %a, %b : tensor<1x6xf32>
  tile.store %r4, %Out[%c4, %c0] : tensor<1x6xf32>, !tile.view<?x?xf32>
  %r5 = arith.maximumf %a, %b : tensor<1x6xf32>
  tile.store %r5, %Out[%c5, %c0] : tensor<1x6xf32>, !tile.view<?x?xf32>
  %r6 = arith.minimumf %a, %b : tensor<1x6xf32>
  tile.store %r6, %Out[%c6, %c0] : tensor<1x6xf32>, !tile.view<?x?xf32>
  %r7 = arith.maxnumf %a, %b : tensor<1x6xf32>
  tile.store %r7, %Out[%c7, %c0] : tensor<1x6xf32>, !tile.view<?x?xf32>
  %r8 = arith.minnumf %a, %b : tensor<1x6xf32>
  tile.store %r8, %Out[%c8, %c0] : tensor<1x6xf32>, !tile.view<?x?xf32>
  return
}
// Rows: negf absf sqrt rsqrt on S; exp2 on E; log2 on L; exp on X; log on
// Y (exactly representable cases); then math.fma, one rounding:
// (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24, next to mulf + addf with
// fastmath<contract>, evaluated as written with two roundings (0); then f16
// arithmetic rounds to f16 (2048 + 1 ties to 2048, 2048 + 3 to 2052).
// RUN: tile-exec %s --kernel=float_unary --arg='f32[1x4]=values:4,-1,0,2.25' \
// RUN:   --arg='f32[1x4]=values:4,-1,0,-inf' --arg='f32[1x4]=values:0.25,8,0,-1' \
// RUN:   --arg='f32[1x4]=values:0,-inf,inf,nan' --arg='f32[1x4]=values:1,0,inf,-1' \
// RUN:   --arg='f32[11x4]=zeros' --print=Out | FileCheck %s --check-prefix=FUN
// FUN:       Out[0]: -4 1 -0 -2.25
// FUN-NEXT:  Out[1]: 4 1 0 2.25
// FUN-NEXT:  Out[2]: 2 nan 0 1.5
// FUN-NEXT:  Out[3]: 0.5 nan inf 0.666666687
// FUN-NEXT:  Out[4]: 16 0.5 1 0
// FUN-NEXT:  Out[5]: -2 3 -inf nan
// FUN-NEXT:  Out[6]: 1 0 inf nan
// FUN-NEXT:  Out[7]: 0 -inf inf nan
// FUN-NEXT:  Out[8]: 5.96046448e-08 5.96046448e-08 5.96046448e-08 5.96046448e-08
// FUN-NEXT:  Out[9]: 0 0 0 0
// FUN-NEXT:  Out[10]: 2048 2052 2048 2052
func.func @float_unary(%S: !tile.view<?x?xf32> {tile.name = "S"},
                       %E: !tile.view<?x?xf32> {tile.name = "E"},
                       %L: !tile.view<?x?xf32> {tile.name = "L"},
                       %X: !tile.view<?x?xf32> {tile.name = "X"},
                       %Y: !tile.view<?x?xf32> {tile.name = "Y"},
                       %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c9 = arith.constant 9 : i32
  %c10 = arith.constant 10 : i32
  %s = tile.load %S[%c0, %c0] shape [1, 4] : !tile.view<?x?xf32> -> tensor<1x4xf32>
  %e = tile.load %E[%c0, %c0] shape [1, 4] : !tile.view<?x?xf32> -> tensor<1x4xf32>
  %l = tile.load %L[%c0, %c0] shape [1, 4] : !tile.view<?x?xf32> -> tensor<1x4xf32>
  %x = tile.load %X[%c0, %c0] shape [1, 4] : !tile.view<?x?xf32> -> tensor<1x4xf32>
  %y = tile.load %Y[%c0, %c0] shape [1, 4] : !tile.view<?x?xf32> -> tensor<1x4xf32>
  %r0 = arith.negf %s : tensor<1x4xf32>
  tile.store %r0, %Out[%c0, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %r1 = math.absf %s : tensor<1x4xf32>
  tile.store %r1, %Out[%c1, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %r2 = math.sqrt %s : tensor<1x4xf32>
  tile.store %r2, %Out[%c2, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %r3 = math.rsqrt %s : tensor<1x4xf32>
  tile.store %r3, %Out[%c3, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %r4 = math.exp2 %e : tensor<1x4xf32>
  tile.store %r4, %Out[%c4, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %r5 = math.log2 %l : tensor<1x4xf32>
  tile.store %r5, %Out[%c5, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %r6 = math.exp %x : tensor<1x4xf32>
  tile.store %r6, %Out[%c6, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %r7 = math.log %y : tensor<1x4xf32>
  tile.store %r7, %Out[%c7, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %u = tile.full 1.000244140625 shape [1, 4] : tensor<1x4xf32>
  %v = tile.full -1.00048828125 shape [1, 4] : tensor<1x4xf32>
  %fused = math.fma %u, %u, %v : tensor<1x4xf32>
  tile.store %fused, %Out[%c8, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %prod = arith.mulf %u, %u fastmath<contract> : tensor<1x4xf32>
  %sum = arith.addf %prod, %v fastmath<contract> : tensor<1x4xf32>
  tile.store %sum, %Out[%c9, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %h2048 = tile.full 2048.0 shape [1, 4] : tensor<1x4xf16>
  %h13 = arith.constant dense<[[1.0, 3.0, 1.0, 3.0]]> : tensor<1x4xf16>
  %hs = arith.addf %h2048, %h13 : tensor<1x4xf16>
  %hs32 = arith.extf %hs : tensor<1x4xf16> to tensor<1x4xf32>
  tile.store %hs32, %Out[%c10, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  return
}

// i8 integer ops wrap around; the unsigned ones read -7 as 249.
// Rows: addi subi muli divsi divui remsi remui ceildivsi ceildivui
//       floordivsi maxsi maxui minsi minui andi ori xori.
// RUN: tile-exec %s --kernel=int_binary --arg='i8[1x5]=values:100,-7,7,-1,-128' \
// RUN:   --arg='i8[1x5]=values:100,2,2,2,3' --arg='i8[17x5]=zeros' --print=Out \
// RUN:   | FileCheck %s --check-prefix=IBIN
// IBIN:      Out[0]: -56 -5 9 1 -125
// IBIN-NEXT: Out[1]: 0 -9 5 -3 125
// IBIN-NEXT: Out[2]: 16 -14 14 -2 -128
// IBIN-NEXT: Out[3]: 1 -3 3 0 -42
// IBIN-NEXT: Out[4]: 1 124 3 127 42
// IBIN-NEXT: Out[5]: 0 -1 1 -1 -2
// IBIN-NEXT: Out[6]: 0 1 1 1 2
// IBIN-NEXT: Out[7]: 1 -3 4 0 -42
// IBIN-NEXT: Out[8]: 1 125 4 -128 43
// IBIN-NEXT: Out[9]: 1 -4 3 -1 -43
// IBIN-NEXT: Out[10]: 100 2 7 2 3
// IBIN-NEXT: Out[11]: 100 -7 7 -1 -128
// IBIN-NEXT: Out[12]: 100 -7 2 -1 -128
// IBIN-NEXT: Out[13]: 100 2 2 2 3
// IBIN-NEXT: Out[14]: 100 0 2 2 0
// IBIN-NEXT: Out[15]: 100 -5 7 -1 -125
// IBIN-NEXT: Out[16]: 0 -5 5 -3 -125
func.func @int_binary(%A: !tile.view<?x?xi8> {tile.name = "A"},
                      %B: !tile.view<?x?xi8> {tile.name = "B"},
                      %Out: !tile.view<?x?xi8> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c9 = arith.constant 9 : i32
  %c10 = arith.constant 10 : i32
  %c11 = arith.constant 11 : i32
  %c12 = arith.constant 12 : i32
  %c13 = arith.constant 13 : i32
  %c14 = arith.constant 14 : i32
  %c15 = arith.constant 15 : i32
  %c16 = arith.constant 16 : i32
  %a = tile.load %A[%c0, %c0] shape [1, 5] : !tile.view<?x?xi8> -> tensor<1x5xi8>
  %b = tile.load %B[%c0, %c0] shape [1, 5] : !tile.view<?x?xi8> -> tensor<1x5xi8>
  %r0 = arith.addi %a, %b : tensor<1x5xi8>
  tile.store %r0, %Out[%c0, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r1 = arith.subi %a, %b : tensor<1x5xi8>
  tile.store %r1, %Out[%c1, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r2 = arith.muli %a, %b : tensor<1x5xi8>
  tile.store %r2, %Out[%c2, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r3 = arith.divsi %a, %b : tensor<1x5xi8>
  tile.store %r3, %Out[%c3, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r4 = arith.divui %a, %b : tensor<1x5xi8>
  tile.store %r4, %Out[%c4, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r5 = arith.remsi %a, %b : tensor<1x5xi8>
  tile.store %r5, %Out[%c5, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r6 = arith.remui %a, %b : tensor<1x5xi8>
  tile.store %r6, %Out[%c6, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r7 = arith.ceildivsi %a, %b : tensor<1x5xi8>
  tile.store %r7, %Out[%c7, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r8 = arith.ceildivui %a, %b : tensor<1x5xi8>
  tile.store %r8, %Out[%c8, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r9 = arith.floordivsi %a, %b : tensor<1x5xi8>
  tile.store %r9, %Out[%c9, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r10 = arith.maxsi %a, %b : tensor<1x5xi8>
  tile.store %r10, %Out[%c10, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r11 = arith.maxui %a, %b : tensor<1x5xi8>
  tile.store %r11, %Out[%c11, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r12 = arith.minsi %a, %b : tensor<1x5xi8>
  tile.store %r12, %Out[%c12, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r13 = arith.minui %a, %b : tensor<1x5xi8>
  tile.store %r13, %Out[%c13, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r14 = arith.andi %a, %b : tensor<1x5xi8>
  tile.store %r14, %Out[%c14, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r15 = arith.ori %a, %b : tensor<1x5xi8>
  tile.store %r15, %Out[%c15, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r16 = arith.xori %a, %b : tensor<1x5xi8>
  tile.store %r16, %Out[%c16, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  return
}

// Shifts: shli shrsi shrui.
// RUN: tile-exec %s --kernel=shifts --arg='i8[1x5]=values:100,-7,7,-1,-128' \
// RUN:   --arg='i8[1x5]=values:1,2,7,0,3' --arg='i8[3x5]=zeros' --print=Out \
// RUN:   | FileCheck %s --check-prefix=SHIFT
// SHIFT:      Out[0]: -56 -28 -128 -1 0
// SHIFT-NEXT: Out[1]: 50 -2 0 -1 -16
// SHIFT-NEXT: Out[2]: 50 62 0 -1 16
func.func @shifts(%A: !tile.view<?x?xi8> {tile.name = "A"},
                  %B: !tile.view<?x?xi8> {tile.name = "B"},
                  %Out: !tile.view<?x?xi8> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %a = tile.load %A[%c0, %c0] shape [1, 5] : !tile.view<?x?xi8> -> tensor<1x5xi8>
  %b = tile.load %B[%c0, %c0] shape [1, 5] : !tile.view<?x?xi8> -> tensor<1x5xi8>
  %r0 = arith.shli %a, %b : tensor<1x5xi8>
  tile.store %r0, %Out[%c0, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r1 = arith.shrsi %a, %b : tensor<1x5xi8>
  tile.store %r1, %Out[%c1, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  %r2 = arith.shrui %a, %b : tensor<1x5xi8>
  tile.store %r2, %Out[%c2, %c0] : tensor<1x5xi8>, !tile.view<?x?xi8>
  return
}

// cmpi, rows: eq ne slt sle sgt sge ult ule ugt uge on (1, 2), (-1, 1), (5, 5).
// RUN: tile-exec %s --kernel=cmpi --arg='i32[1x3]=values:1,-1,5' \
// RUN:   --arg='i32[1x3]=values:2,1,5' --arg='i1[10x3]=zeros' --print=Out \
// RUN:   | FileCheck %s --check-prefix=CMPI
// CMPI:      Out[0]: 0 0 1
// CMPI-NEXT: Out[1]: 1 1 0
// CMPI-NEXT: Out[2]: 1 1 0
// CMPI-NEXT: Out[3]: 1 1 1
// CMPI-NEXT: Out[4]: 0 0 0
// CMPI-NEXT: Out[5]: 0 0 1
// CMPI-NEXT: Out[6]: 1 0 0
// CMPI-NEXT: Out[7]: 1 0 1
// CMPI-NEXT: Out[8]: 0 1 0
// CMPI-NEXT: Out[9]: 0 1 1
func.func @cmpi(%A: !tile.view<?x?xi32> {tile.name = "A"},
                %B: !tile.view<?x?xi32> {tile.name = "B"},
                %Out: !tile.view<?x?xi1> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c9 = arith.constant 9 : i32
  %a = tile.load %A[%c0, %c0] shape [1, 3] : !tile.view<?x?xi32> -> tensor<1x3xi32>
  %b = tile.load %B[%c0, %c0] shape [1, 3] : !tile.view<?x?xi32> -> tensor<1x3xi32>
  %r0 = arith.cmpi eq, %a, %b : tensor<1x3xi32>
  tile.store %r0, %Out[%c0, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  %r1 = arith.cmpi ne, %a, %b : tensor<1x3xi32>
  tile.store %r1, %Out[%c1, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  %r2 = arith.cmpi slt, %a, %b : tensor<1x3xi32>
  tile.store %r2, %Out[%c2, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  %r3 = arith.cmpi sle, %a, %b : tensor<1x3xi32>
  tile.store %r3, %Out[%c3, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  %r4 = arith.cmpi sgt, %a, %b : tensor<1x3xi32>
  tile.store %r4, %Out[%c4, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  %r5 = arith.cmpi sge, %a, %b : tensor<1x3xi32>
  tile.store %r5, %Out[%c5, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  %r6 = arith.cmpi ult, %a, %b : tensor<1x3xi32>
  tile.store %r6, %Out[%c6, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  %r7 = arith.cmpi ule, %a, %b : tensor<1x3xi32>
  tile.store %r7, %Out[%c7, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  %r8 = arith.cmpi ugt, %a, %b : tensor<1x3xi32>
  tile.store %r8, %Out[%c8, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  %r9 = arith.cmpi uge, %a, %b : tensor<1x3xi32>
  tile.store %r9, %Out[%c9, %c0] : tensor<1x3xi1>, !tile.view<?x?xi1>
  return
}

// cmpf, rows: false oeq ogt oge olt ole one ord
//             ueq ugt uge ult ule une uno true
// on (1, 2), (nan, 1), (3, 3), (-0, 0).
// RUN: tile-exec %s --kernel=cmpf --arg='f32[1x4]=values:1,nan,3,-0' \
// RUN:   --arg='f32[1x4]=values:2,1,3,0' --arg='i1[16x4]=zeros' --print=Out \
// RUN:   | FileCheck %s --check-prefix=CMPF
// CMPF:      Out[0]: 0 0 0 0
// CMPF-NEXT: Out[1]: 0 0 1 1
// CMPF-NEXT: Out[2]: 0 0 0 0
// CMPF-NEXT: Out[3]: 0 0 1 1
// CMPF-NEXT: Out[4]: 1 0 0 0
// CMPF-NEXT: Out[5]: 1 0 1 1
// CMPF-NEXT: Out[6]: 1 0 0 0
// CMPF-NEXT: Out[7]: 1 0 1 1
// CMPF-NEXT: Out[8]: 0 1 1 1
// CMPF-NEXT: Out[9]: 0 1 0 0
// CMPF-NEXT: Out[10]: 0 1 1 1
// CMPF-NEXT: Out[11]: 1 1 0 0
// CMPF-NEXT: Out[12]: 1 1 1 1
// CMPF-NEXT: Out[13]: 1 1 0 0
// CMPF-NEXT: Out[14]: 0 1 0 0
// CMPF-NEXT: Out[15]: 1 1 1 1
func.func @cmpf(%A: !tile.view<?x?xf32> {tile.name = "A"},
                %B: !tile.view<?x?xf32> {tile.name = "B"},
                %Out: !tile.view<?x?xi1> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c9 = arith.constant 9 : i32
  %c10 = arith.constant 10 : i32
  %c11 = arith.constant 11 : i32
  %c12 = arith.constant 12 : i32
  %c13 = arith.constant 13 : i32
  %c14 = arith.constant 14 : i32
  %c15 = arith.constant 15 : i32
  %a = tile.load %A[%c0, %c0] shape [1, 4] : !tile.view<?x?xf32> -> tensor<1x4xf32>
  %b = tile.load %B[%c0, %c0] shape [1, 4] : !tile.view<?x?xf32> -> tensor<1x4xf32>
  %r0 = arith.cmpf false, %a, %b : tensor<1x4xf32>
  tile.store %r0, %Out[%c0, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r1 = arith.cmpf oeq, %a, %b : tensor<1x4xf32>
  tile.store %r1, %Out[%c1, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r2 = arith.cmpf ogt, %a, %b : tensor<1x4xf32>
  tile.store %r2, %Out[%c2, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r3 = arith.cmpf oge, %a, %b : tensor<1x4xf32>
  tile.store %r3, %Out[%c3, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r4 = arith.cmpf olt, %a, %b : tensor<1x4xf32>
  tile.store %r4, %Out[%c4, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r5 = arith.cmpf ole, %a, %b : tensor<1x4xf32>
  tile.store %r5, %Out[%c5, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r6 = arith.cmpf one, %a, %b : tensor<1x4xf32>
  tile.store %r6, %Out[%c6, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r7 = arith.cmpf ord, %a, %b : tensor<1x4xf32>
  tile.store %r7, %Out[%c7, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r8 = arith.cmpf ueq, %a, %b : tensor<1x4xf32>
  tile.store %r8, %Out[%c8, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r9 = arith.cmpf ugt, %a, %b : tensor<1x4xf32>
  tile.store %r9, %Out[%c9, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r10 = arith.cmpf uge, %a, %b : tensor<1x4xf32>
  tile.store %r10, %Out[%c10, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r11 = arith.cmpf ult, %a, %b : tensor<1x4xf32>
  tile.store %r11, %Out[%c11, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r12 = arith.cmpf ule, %a, %b : tensor<1x4xf32>
  tile.store %r12, %Out[%c12, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r13 = arith.cmpf une, %a, %b : tensor<1x4xf32>
  tile.store %r13, %Out[%c13, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r14 = arith.cmpf uno, %a, %b : tensor<1x4xf32>
  tile.store %r14, %Out[%c14, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  %r15 = arith.cmpf true, %a, %b : tensor<1x4xf32>
  tile.store %r15, %Out[%c15, %c0] : tensor<1x4xi1>, !tile.view<?x?xi1>
  return
}

// Selects: tile.select and arith.select elementwise, arith.select with a
// scalar condition on whole tiles; logic on i1 tiles.
// RUN: tile-exec %s --kernel=selects --arg='i32[1x4]=values:1,0,0,1' \
// RUN:   --arg='i32=1' --arg='f32[5x4]=zeros' --print=Out \
// RUN:   | FileCheck %s --check-prefix=SEL
// SEL:      Out[0]: 10 20 20 10
// SEL-NEXT: Out[1]: 10 20 20 10
// SEL-NEXT: Out[2]: 10 10 10 10
// SEL-NEXT: Out[3]: 20 20 20 20
// SEL-NEXT: Out[4]: 20 10 10 20
func.func @selects(%M: !tile.view<?x?xi32> {tile.name = "M"}, %flag: i32,
                   %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %m32 = tile.load %M[%c0, %c0] shape [1, 4] : !tile.view<?x?xi32> -> tensor<1x4xi32>
  %zeros = tile.full 0 shape [1, 4] : tensor<1x4xi32>
  %m = arith.cmpi ne, %m32, %zeros : tensor<1x4xi32>
  %ten = tile.full 10.0 shape [1, 4] : tensor<1x4xf32>
  %twenty = tile.full 20.0 shape [1, 4] : tensor<1x4xf32>
  %r0 = tile.select %m, %ten, %twenty : tensor<1x4xi1>, tensor<1x4xf32>
  tile.store %r0, %Out[%c0, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %r1 = arith.select %m, %ten, %twenty : tensor<1x4xi1>, tensor<1x4xf32>
  tile.store %r1, %Out[%c1, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %f = arith.cmpi eq, %flag, %c1 : i32
  %r2 = arith.select %f, %ten, %twenty : tensor<1x4xf32>
  tile.store %r2, %Out[%c2, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  %true = arith.constant true
  %nf = arith.xori %f, %true : i1
  %r3 = arith.select %nf, %ten, %twenty : tensor<1x4xf32>
  tile.store %r3, %Out[%c3, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  // not(m) = m xor true; (m and false) or not(m).
  %all = tile.full true shape [1, 4] : tensor<1x4xi1>
  %none = tile.full false shape [1, 4] : tensor<1x4xi1>
  %notm = arith.xori %m, %all : tensor<1x4xi1>
  %andf = arith.andi %m, %none : tensor<1x4xi1>
  %or = arith.ori %andf, %notm : tensor<1x4xi1>
  %r4 = tile.select %or, %ten, %twenty : tensor<1x4xi1>, tensor<1x4xf32>
  tile.store %r4, %Out[%c4, %c0] : tensor<1x4xf32>, !tile.view<?x?xf32>
  return
}

// Casts on scalars: extsi extui trunci index_cast(ui) sitofp uitofp fptosi
// fptoui (saturating) extf truncf bitcast.
// RUN: tile-exec %s --kernel=casts --arg='i8=-5' --arg='i32=300' \
// RUN:   --arg='f32=-2.5' --arg='f32=300.7' --arg='i32[12]=zeros' \
// RUN:   --arg='f32[4]=zeros' --print=I,F | FileCheck %s --check-prefix=CAST
// CAST: I: -5 251 44 -5 251 -2 255 1065353216 15360 -1 0 -128
// CAST: F: -5 251 1 -1
func.func @casts(%i8v: i8, %i32v: i32, %fneg: f32, %fbig: f32,
                 %I: !tile.view<?xi32> {tile.name = "I"},
                 %F: !tile.view<?xf32> {tile.name = "F"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c9 = arith.constant 9 : i32
  %c10 = arith.constant 10 : i32
  %c11 = arith.constant 11 : i32
  %e0 = arith.extsi %i8v : i8 to i32
  %e1 = arith.extui %i8v : i8 to i32
  %t8 = arith.trunci %i32v : i32 to i8
  %e2 = arith.extsi %t8 : i8 to i32
  %idx = arith.index_cast %i8v : i8 to index
  %e3 = arith.index_cast %idx : index to i32
  %idxu = arith.index_castui %i8v : i8 to index
  %e4 = arith.index_cast %idxu : index to i32
  %e5 = arith.fptosi %fneg : f32 to i32
  %u8 = arith.fptoui %fbig : f32 to i8
  %e6 = arith.extui %u8 : i8 to i32
  %one = arith.constant 1.0 : f32
  %e7 = arith.bitcast %one : f32 to i32
  %h = arith.truncf %one : f32 to f16
  %hb = arith.bitcast %h : f16 to i16
  %e8 = arith.extsi %hb : i16 to i32
  // i1: extsi gives -1, extui 1; fptosi of -0.7 is 0; 128 wraps in i8.
  %true = arith.constant true
  %e9 = arith.extsi %true : i1 to i32
  %m07 = arith.constant -0.7 : f32
  %e10 = arith.fptosi %m07 : f32 to i32
  %c128 = arith.constant 128 : i32
  %w8 = arith.trunci %c128 : i32 to i8
  %e11 = arith.extsi %w8 : i8 to i32
  %ints = tile.splat %e0 shape [1] : i32 -> tensor<1xi32>
  tile.store %ints, %I[%c0] : tensor<1xi32>, !tile.view<?xi32>
  %s1 = tile.splat %e1 shape [1] : i32 -> tensor<1xi32>
  tile.store %s1, %I[%c1] : tensor<1xi32>, !tile.view<?xi32>
  %s2 = tile.splat %e2 shape [1] : i32 -> tensor<1xi32>
  tile.store %s2, %I[%c2] : tensor<1xi32>, !tile.view<?xi32>
  %s3 = tile.splat %e3 shape [1] : i32 -> tensor<1xi32>
  tile.store %s3, %I[%c3] : tensor<1xi32>, !tile.view<?xi32>
  %s4 = tile.splat %e4 shape [1] : i32 -> tensor<1xi32>
  tile.store %s4, %I[%c4] : tensor<1xi32>, !tile.view<?xi32>
  %s5 = tile.splat %e5 shape [1] : i32 -> tensor<1xi32>
  tile.store %s5, %I[%c5] : tensor<1xi32>, !tile.view<?xi32>
  %s6 = tile.splat %e6 shape [1] : i32 -> tensor<1xi32>
  tile.store %s6, %I[%c6] : tensor<1xi32>, !tile.view<?xi32>
  %s7 = tile.splat %e7 shape [1] : i32 -> tensor<1xi32>
  tile.store %s7, %I[%c7] : tensor<1xi32>, !tile.view<?xi32>
  %s8 = tile.splat %e8 shape [1] : i32 -> tensor<1xi32>
  tile.store %s8, %I[%c8] : tensor<1xi32>, !tile.view<?xi32>
  %s9 = tile.splat %e9 shape [1] : i32 -> tensor<1xi32>
  tile.store %s9, %I[%c9] : tensor<1xi32>, !tile.view<?xi32>
  %s10 = tile.splat %e10 shape [1] : i32 -> tensor<1xi32>
  tile.store %s10, %I[%c10] : tensor<1xi32>, !tile.view<?xi32>
  %s11 = tile.splat %e11 shape [1] : i32 -> tensor<1xi32>
  tile.store %s11, %I[%c11] : tensor<1xi32>, !tile.view<?xi32>
  %f0 = arith.sitofp %i8v : i8 to f32
  %f1 = arith.uitofp %i8v : i8 to f32
  %f2 = arith.extf %h : f16 to f32
  %one_i1 = arith.uitofp %true : i1 to f32
  %f3 = arith.sitofp %true : i1 to f32
  %fs0 = tile.splat %f0 shape [1] : f32 -> tensor<1xf32>
  tile.store %fs0, %F[%c0] : tensor<1xf32>, !tile.view<?xf32>
  %fs1 = tile.splat %f1 shape [1] : f32 -> tensor<1xf32>
  tile.store %fs1, %F[%c1] : tensor<1xf32>, !tile.view<?xf32>
  %fs2 = tile.splat %f2 shape [1] : f32 -> tensor<1xf32>
  tile.store %fs2, %F[%c2] : tensor<1xf32>, !tile.view<?xf32>
  %fs3 = tile.splat %f3 shape [1] : f32 -> tensor<1xf32>
  tile.store %fs3, %F[%c3] : tensor<1xf32>, !tile.view<?xf32>
  return
}

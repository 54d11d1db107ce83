// tile-fast-math changes numerical results (see the pass description).
//
// RUN: tile-opt %s -split-input-file -tile-fast-math | FileCheck %s --check-prefixes=CHECK,EXP2,DIV,FMA,TANH
// RUN: tile-opt %s -split-input-file -tile-fast-math=approx-tanh=false | FileCheck %s --check-prefixes=CHECK,EXP2,DIV,FMA,NOTANH
// RUN: tile-opt %s -split-input-file -tile-fast-math=flush-exp2=false | FileCheck %s --check-prefixes=CHECK,NOEXP2,DIV,FMA
// RUN: tile-opt %s -split-input-file -tile-fast-math=approx-div=false | FileCheck %s --check-prefixes=CHECK,EXP2,NODIV,FMA
// RUN: tile-opt %s -split-input-file -tile-fast-math=fuse-fma=false | FileCheck %s --check-prefixes=CHECK,EXP2,DIV,NOFMA

// CHECK-LABEL: func.func @exp2
// EXP2: tile.exp2 %{{.*}} flush_to_zero : tensor<64x64xf32>
// EXP2: tile.exp2 %{{.*}} flush_to_zero : tensor<64x1xf16>
// NOEXP2: tile.exp2 %{{.*}} : tensor<64x64xf32>
// NOEXP2: tile.exp2 %{{.*}} : tensor<64x1xf16>
// CHECK: tile.exp2 %{{.*}} flush_to_zero : tensor<4xf32>
func.func @exp2(%x: tensor<64x64xf32>, %h: tensor<64x1xf16>, %y: tensor<4xf32>)
    -> (tensor<64x64xf32>, tensor<64x1xf16>, tensor<4xf32>) {
  %a = tile.exp2 %x : tensor<64x64xf32>
  %b = tile.exp2 %h : tensor<64x1xf16>
  %c = tile.exp2 %y flush_to_zero : tensor<4xf32>
  return %a, %b, %c : tensor<64x64xf32>, tensor<64x1xf16>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @div
// DIV: tile.div %{{.*}}, %{{.*}} rounding approx flush_to_zero : tensor<64x128xf32>
// DIV: tile.div %{{.*}}, %{{.*}} rounding approx flush_to_zero : tensor<64x128xf32>
// NODIV: tile.div %{{.*}}, %{{.*}} : tensor<64x128xf32>
// NODIV: tile.div %{{.*}}, %{{.*}} rounding full : tensor<64x128xf32>
// Only f32 has an approximate division.
// CHECK: tile.div %{{.*}}, %{{.*}} : tensor<4xf16>
func.func @div(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>, %h: tensor<4xf16>)
    -> (tensor<64x128xf32>, tensor<64x128xf32>, tensor<4xf16>) {
  %0 = tile.div %a, %b : tensor<64x128xf32>
  %1 = tile.div %a, %b rounding full : tensor<64x128xf32>
  %2 = tile.div %h, %h : tensor<4xf16>
  return %0, %1, %2 : tensor<64x128xf32>, tensor<64x128xf32>, tensor<4xf16>
}

// -----

// The softmax shift: x * scale - m, with m broadcast from a column. The
// negation is applied to the column, before the broadcast.
// CHECK-LABEL: func.func @fma_shift
// CHECK-SAME: (%[[X:[^ :]+]]: tensor<64x64xf32>, %[[S:[^ :]+]]: tensor<64x64xf32>, %[[M:[^ :]+]]: tensor<64x1xf32>)
// FMA: %[[NEG:.*]] = arith.negf %[[M]] : tensor<64x1xf32>
// FMA: %[[NEGB:.*]] = tile.broadcast %[[NEG]] shape [64, 64] : tensor<64x1xf32> -> tensor<64x64xf32>
// FMA: %[[R:.*]] = math.fma %[[X]], %[[S]], %[[NEGB]] : tensor<64x64xf32>
// FMA-NOT: arith.mulf
// FMA-NOT: arith.subf
// FMA: return %[[R]]
// NOFMA: arith.mulf
// NOFMA: arith.subf
// NOFMA-NOT: math.fma
func.func @fma_shift(%x: tensor<64x64xf32>, %s: tensor<64x64xf32>, %m: tensor<64x1xf32>) -> tensor<64x64xf32> {
  %mb = tile.broadcast %m shape [64, 64] : tensor<64x1xf32> -> tensor<64x64xf32>
  %xs = arith.mulf %x, %s : tensor<64x64xf32>
  %d = arith.subf %xs, %mb : tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// addf(mulf(a, b), c) in both operand orders; subf(c, mulf(a, b)) negates
// a splat's scalar and a full's constant.
// CHECK-LABEL: func.func @fma_forms
// CHECK-SAME: (%[[A:[^ :]+]]: tensor<8xf32>, %[[B:[^ :]+]]: tensor<8xf32>, %[[C:[^ :]+]]: tensor<8xf32>, %[[F:[^ :]+]]: f32)
// FMA: %[[R0:.*]] = math.fma %[[A]], %[[B]], %[[C]] : tensor<8xf32>
// FMA: %[[R1:.*]] = math.fma %[[B]], %[[A]], %[[C]] : tensor<8xf32>
// FMA: %[[NF:.*]] = arith.negf %[[F]] : f32
// FMA: %[[NS:.*]] = tile.splat %[[NF]] shape [8] : f32 -> tensor<8xf32>
// FMA: %[[R2:.*]] = math.fma %[[NS]], %[[B]], %[[C]] : tensor<8xf32>
// FMA: %[[NONE:.*]] = tile.full -1.000000e+00 shape [8] : tensor<8xf32>
// FMA: %[[R3:.*]] = math.fma %[[A]], %[[C]], %[[NONE]] : tensor<8xf32>
// FMA: %[[R4:.*]] = math.fma %[[F]], %[[F]], %[[F]] : f32
// FMA: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]]
func.func @fma_forms(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>, %f: f32)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, f32) {
  %m0 = arith.mulf %a, %b : tensor<8xf32>
  %r0 = arith.addf %m0, %c : tensor<8xf32>
  %m1 = arith.mulf %b, %a : tensor<8xf32>
  %r1 = arith.addf %c, %m1 : tensor<8xf32>
  %fs = tile.splat %f shape [8] : f32 -> tensor<8xf32>
  %m2 = arith.mulf %fs, %b : tensor<8xf32>
  %r2 = arith.subf %c, %m2 : tensor<8xf32>
  %one = tile.full 1.0 shape [8] : tensor<8xf32>
  %m3 = arith.mulf %a, %c : tensor<8xf32>
  %r3 = arith.subf %m3, %one : tensor<8xf32>
  %m4 = arith.mulf %f, %f : f32
  %r4 = arith.addf %m4, %f : f32
  return %r0, %r1, %r2, %r3, %r4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, f32
}

// -----

// A product used twice would be computed twice: not fused. Neither are
// adds of values that are not products.
// CHECK-LABEL: func.func @negative_fma
// CHECK-NOT: math.fma
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: arith.subf %[[P]], %{{.*}}
// CHECK: arith.addf %[[P]], %{{.*}}
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<8xf32>
// CHECK-NOT: math.fma
func.func @negative_fma(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %p = arith.mulf %a, %b : tensor<8xf32>
  %r0 = arith.subf %p, %c : tensor<8xf32>
  %r1 = arith.addf %p, %c : tensor<8xf32>
  %r2 = arith.addf %a, %c : tensor<8xf32>
  return %r0, %r1, %r2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// approx-tanh marks math.tanh fastmath<afn> (the GPU lowering's leave to
// use tanh.approx.f32), keeping the flags it had.
// CHECK-LABEL: func.func @tanh
// TANH: math.tanh %{{.*}} fastmath<afn> : tensor<64x64xf32>
// TANH: math.tanh %{{.*}} fastmath<nnan,afn> : tensor<4xf32>
// NOTANH: math.tanh %{{.*}} : tensor<64x64xf32>
// NOTANH: math.tanh %{{.*}} fastmath<nnan> : tensor<4xf32>
func.func @tanh(%x: tensor<64x64xf32>, %y: tensor<4xf32>) -> (tensor<64x64xf32>, tensor<4xf32>) {
  %a = math.tanh %x : tensor<64x64xf32>
  %b = math.tanh %y fastmath<nnan> : tensor<4xf32>
  return %a, %b : tensor<64x64xf32>, tensor<4xf32>
}

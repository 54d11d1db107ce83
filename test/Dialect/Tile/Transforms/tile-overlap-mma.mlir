// tile-overlap-mma: the second mma of iteration j - 1 moves next to the
// first mma of iteration j. (That results do not change is checked by the
// CPU executor, test/Kernels/fmha-pipelines.test, bitwise.)
//
// RUN: tile-opt %s -split-input-file -tile-overlap-mma -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-overlap-mma=late-softmax-ops=true -verify-diagnostics | FileCheck %s --check-prefix=LATE

// Attention in miniature: S = Q K_j^T, the online softmax (row max m, row
// sum l, correction a), O = O * a + P V_j.
// Stage 1 is the load of V_j and the second mma; P (f16) and the rescaled O
// are carried. The prologue runs stage 0 of iteration lb, the loop
// lb + 1 .. ub issues S_j, then P_{j-1} V_{j-1} (V at j - 1), then the
// rest of stage 0; the epilogue runs the last P V. Both are guarded by
// lb < ub; the result for the accumulator is the epilogue's. Without an
// iteration the carried rescaled O is the initial O, which the epilogue's
// else branch yields, so that its result and the mma's can share registers.
// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:[^:]*]]: tensor<64x32xf16>, %[[K:[^:]*]]: !tile.view<?x?xf16>, %[[V:[^:]*]]: !tile.view<?x?xf16>, %[[N:[^:]*]]: i32, %[[M0:[^:]*]]: tensor<64x1xf32>, %[[L0:[^:]*]]: tensor<64x1xf32>, %[[O0:[^:]*]]: tensor<64x32xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[ANY:.*]] = arith.cmpi slt, %[[C0]], %[[N]] : i32
// CHECK: %[[PRO:.*]]:4 = scf.if %[[ANY]] -> (tensor<64x1xf32>, tensor<64x1xf32>, tensor<64x16xf16>, tensor<64x32xf32>) {
// CHECK:   %[[K0:.*]] = tile.load %[[K]][%[[C0]], %[[C0]]]
// CHECK:   %[[S0:.*]] = tile.mma %[[Q]], %[[K0]]
// CHECK:   %[[OS0:.*]] = arith.mulf %[[O0]], %{{.*}} : tensor<64x32xf32>
// CHECK:   %[[P0:.*]] = tile.astype %{{.*}} : tensor<64x16xf32> -> tensor<64x16xf16>
// CHECK:   scf.yield %{{.*}}, %{{.*}}, %[[P0]], %[[OS0]]
// CHECK: } else {
// CHECK:   %[[ZP:.*]] = tile.full 0.000000e+00 shape [64, 16] : tensor<64x16xf16>
// CHECK-NOT: tile.full
// CHECK:   scf.yield %[[M0]], %[[L0]], %[[ZP]], %[[O0]]
// CHECK: }
// CHECK: %[[START:.*]] = arith.addi %[[C0]], %{{.*}} : i32
// CHECK: %[[LOOP:.*]]:4 = scf.for %[[J:.*]] = %[[START]] to %[[N]] step %[[C1]] iter_args(%[[M:.*]] = %[[PRO]]#0, %[[L:.*]] = %[[PRO]]#1, %[[P:.*]] = %[[PRO]]#2, %[[OS:.*]] = %[[PRO]]#3)
// CHECK:   %[[KJ:.*]] = tile.load %[[K]][%[[J]], %[[C0]]]
// CHECK:   %[[S:.*]] = tile.mma %[[Q]], %[[KJ]]
// CHECK:   %[[PREV:.*]] = arith.subi %[[J]], %{{.*}} : i32
// CHECK:   %[[VP:.*]] = tile.load %[[V]][%[[PREV]], %[[C0]]]
// CHECK:   %[[O:.*]] = tile.mma %[[P]], %[[VP]], %[[OS]]
// CHECK:   tile.reduce %[[S]] max
// CHECK:   %[[OSN:.*]] = arith.mulf %[[O]], %{{.*}} : tensor<64x32xf32>
// CHECK:   %[[PN:.*]] = tile.astype
// CHECK:   scf.yield %{{.*}}, %{{.*}}, %[[PN]], %[[OSN]]
// CHECK: }
// CHECK: %[[EPI:.*]] = scf.if %[[ANY]] -> (tensor<64x32xf32>) {
// CHECK:   %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : i32
// CHECK:   %[[VL:.*]] = tile.load %[[V]][%[[LAST]], %[[C0]]]
// CHECK:   %[[OL:.*]] = tile.mma %[[LOOP]]#2, %[[VL]], %[[LOOP]]#3
// CHECK:   scf.yield %[[OL]]
// CHECK: } else {
// CHECK:   scf.yield %[[LOOP]]#3
// CHECK: }
// CHECK: return %[[LOOP]]#0, %[[LOOP]]#1, %[[EPI]]
// With late-softmax-ops the conversion of P and the rescale of O are stage
// 1 too: the f32 P and the correction a are carried, O is the loop's
// accumulator, and nothing after the second mma reads O.
// LATE-LABEL: func.func @attention
// LATE: scf.for %{{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}, %[[O:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}}, %[[E:.*]] = %{{.*}}) -> (tensor<64x1xf32>, tensor<64x1xf32>, tensor<64x32xf32>, tensor<64x1xf32>, tensor<64x16xf32>)
// LATE:   tile.mma
// LATE:   %[[AB:.*]] = tile.broadcast %[[A]]
// LATE:   %[[OS:.*]] = arith.mulf %[[O]], %[[AB]]
// LATE:   %[[P:.*]] = tile.astype %[[E]]
// LATE:   %[[ON:.*]] = tile.mma %[[P]], %{{.*}}, %[[OS]]
// LATE-NOT: %[[ON]]
// LATE:   scf.yield %{{.*}}, %{{.*}}, %[[ON]], %{{.*}}, %{{.*}}
func.func @attention(%q: tensor<64x32xf16>, %K: !tile.view<?x?xf16>, %V: !tile.view<?x?xf16>,
                     %n: i32, %m0: tensor<64x1xf32>, %l0: tensor<64x1xf32>,
                     %o0: tensor<64x32xf32>)
    -> (tensor<64x1xf32>, tensor<64x1xf32>, tensor<64x32xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 16] : tensor<64x16xf32>
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0, %o = %o0)
      -> (tensor<64x1xf32>, tensor<64x1xf32>, tensor<64x32xf32>) : i32 {
    %k = tile.load %K[%j, %c0] shape [32, 16] : !tile.view<?x?xf16> -> tensor<32x16xf16>
    %s = tile.mma %q, %k, %zero : tensor<64x32xf16>, tensor<32x16xf16>, tensor<64x16xf32>
    %mx = tile.reduce %s max axis 1 keepdims : tensor<64x16xf32> -> tensor<64x1xf32>
    %mn = arith.maximumf %m, %mx : tensor<64x1xf32>
    %d = arith.subf %m, %mn : tensor<64x1xf32>
    %a = tile.exp2 %d : tensor<64x1xf32>
    %ab = tile.broadcast %a shape [64, 32] : tensor<64x1xf32> -> tensor<64x32xf32>
    %os = arith.mulf %o, %ab : tensor<64x32xf32>
    %mb = tile.broadcast %mn shape [64, 16] : tensor<64x1xf32> -> tensor<64x16xf32>
    %sh = arith.subf %s, %mb : tensor<64x16xf32>
    %e = tile.exp2 %sh : tensor<64x16xf32>
    %rs = tile.reduce %e sum axis 1 keepdims : tensor<64x16xf32> -> tensor<64x1xf32>
    %la = arith.mulf %l, %a : tensor<64x1xf32>
    %ln = arith.addf %la, %rs : tensor<64x1xf32>
    %p = tile.astype %e : tensor<64x16xf32> -> tensor<64x16xf16>
    %v = tile.load %V[%j, %c0] shape [16, 32] : !tile.view<?x?xf16> -> tensor<16x32xf16>
    %on = tile.mma %p, %v, %os : tensor<64x16xf16>, tensor<16x32xf16>, tensor<64x32xf32>
    scf.yield %mn, %ln, %on : tensor<64x1xf32>, tensor<64x1xf32>, tensor<64x32xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<64x1xf32>, tensor<64x1xf32>, tensor<64x32xf32>
}

// -----

// One mma: nothing to overlap; the loop stays, with a remark.
// CHECK-LABEL: func.func @one_mma
// CHECK: scf.for
// CHECK-NOT: scf.if
func.func @one_mma(%a: tensor<16x16xf16>, %B: !tile.view<?x?xf16>, %n: i32,
                   %acc0: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{tile-overlap-mma: loop left alone: the body does not have exactly two tile.mma ops}}
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<16x16xf32>) : i32 {
    %b = tile.load %B[%j, %c0] shape [16, 16] : !tile.view<?x?xf16> -> tensor<16x16xf16>
    %d = tile.mma %a, %b, %acc : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}

// -----

// The second mma does not read the first: two independent products.
func.func @independent(%a: tensor<16x16xf16>, %B: !tile.view<?x?xf16>, %n: i32,
                       %acc0: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  // expected-remark @+1 {{tile-overlap-mma: loop left alone: the second mma does not depend on the first}}
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<16x16xf32>) : i32 {
    %b = tile.load %B[%j, %c0] shape [16, 16] : !tile.view<?x?xf16> -> tensor<16x16xf16>
    %s = tile.mma %a, %b, %zero : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
    %d = tile.mma %a, %b, %acc : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}

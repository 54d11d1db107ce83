// tilegpu-assign-layouts: #mma anchored on every tile.mma, the same layout
// on the size-1 tiles of reductions (keepdims) and broadcasts, propagation through scf.for/scf.if, mma
// operands from loads staged in shared memory (padded or swizzled), and the
// warp count from the option or the kernel's (per-architecture) hints.
// Errors are in tilegpu-assign-layouts-invalid.mlir.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts=shared-layout=swizzled | FileCheck %s --check-prefix=SWIZZLED
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts | FileCheck %s --check-prefix=SM90A
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90 -tilegpu-assign-layouts | FileCheck %s --check-prefix=SM90
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_89 -tilegpu-assign-layouts | FileCheck %s --check-prefix=SM89
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts='num-warps=2' | FileCheck %s --check-prefix=OPTION

// Attention in miniature (64 query rows, 16 keys, head dim 16). Every tile
// gets a layout: #mma for the [64, 16] tiles and for the [64, 1] row
// maxima and [1, 16] key positions (their lanes along the unit dimension
// replicate); the f16 P stays in registers in #mma
// and is the register A operand of the second mma. Q, K^T and V are staged
// in shared memory: Q (outside the loop) without a leading barrier, K and V
// (inside) behind one; K^T walks the view's last dimension along tile dim 0,
// so its shared tile has order [0, 1]. The latency hints go to the copies.
// The zero tile, used as an accumulator and as the iter_arg init, is cloned
// per use.
// CHECK-LABEL: func.func @attention
// CHECK-SAME: attributes {tile.kernel = {num_warps = 4 : i32}, tilegpu.mma_version = 2 : i32, tilegpu.num_warps = 4 : i32, tilegpu.occupancy = 1 : i32}
// CHECK-DAG: %[[VBUF:.*]] = tilegpu.alloc : <16x16xf16, [[PAD10:#tilegpu.shared<order = \[1, 0\], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>]]>
// CHECK-DAG: %[[KBUF:.*]] = tilegpu.alloc : <16x16xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>
// CHECK-DAG: %[[QBUF:.*]] = tilegpu.alloc : <64x16xf16, [[PAD10]]>
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.async_copy %{{.*}}[%{{.*}}, %{{.*}}] dims [0, 1] into %[[QBUF]] :
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
// CHECK-DAG: %[[ACC0:.*]] = tile.full 0.000000e+00 shape [64, 16] : tensor<64x16xf32, [[MMA:#tilegpu.mma<version = 2, warps = \[4, 1\]>]]>
// CHECK-DAG: %[[ZERO:.*]] = tile.full 0.000000e+00 shape [64, 16] : tensor<64x16xf32, [[MMA]]>
// CHECK-DAG: %[[M0:.*]] = tile.full -inf shape [64, 1] : tensor<64x1xf32, [[ROWS:#tilegpu.mma<version = 2, warps = \[4, 1\]>]]>
// CHECK-DAG: %[[COLS:.*]] = tile.iota shape [1, 16] dim 1 : tensor<1x16xi32, [[COLSL:#tilegpu.mma<version = 2, warps = \[4, 1\]>]]>
// CHECK: %[[R:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[M:.*]] = %[[M0]]) -> (tensor<64x16xf32, [[MMA]]>, tensor<64x1xf32, [[ROWS]]>)
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_copy %{{.*}}[%[[J]], %{{.*}}] dims [1, 0] into %[[KBUF]] {tilegpu.latency = 2 : i32}
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: %[[S:.*]] = tilegpu.mma %[[QBUF]], %[[KBUF]], %{{.*}} : !tilegpu.smem<64x16xf16, [[PAD10]]>, <16x16xf16, {{.*}}>, tensor<64x16xf32, [[MMA]]>
// CHECK-NEXT: %[[SM:.*]] = scf.if %{{.*}} -> (tensor<64x16xf32, [[MMA]]>) {
// CHECK-NEXT: tile.broadcast %[[COLS]] shape [64, 16] : tensor<1x16xi32, [[COLSL]]> -> tensor<64x16xi32, [[MMA]]>
// CHECK-NEXT: tile.splat %[[J]] shape [64, 16] : i32 -> tensor<64x16xi32, [[MMA]]>
// CHECK-NEXT: arith.cmpi sge, %{{.*}}, %{{.*}} : tensor<64x16xi32, [[MMA]]>
// CHECK-NEXT: tile.full -inf shape [64, 16] : tensor<64x16xf32, [[MMA]]>
// CHECK-NEXT: tile.select %{{.*}}, %[[S]], %{{.*}} : tensor<64x16xi1, [[MMA]]>, tensor<64x16xf32, [[MMA]]>
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[S]] : tensor<64x16xf32, [[MMA]]>
// CHECK: %[[MX:.*]] = tile.reduce %[[SM]] max axis 1 keepdims : tensor<64x16xf32, [[MMA]]> -> tensor<64x1xf32, [[ROWS]]>
// CHECK-NEXT: %[[MN:.*]] = arith.maximumf %[[M]], %[[MX]] : tensor<64x1xf32, [[ROWS]]>
// CHECK-NEXT: tile.broadcast %[[MN]] shape [64, 16] : tensor<64x1xf32, [[ROWS]]> -> tensor<64x16xf32, [[MMA]]>
// CHECK-NEXT: arith.subf
// CHECK-NEXT: tile.exp2 %{{.*}} : tensor<64x16xf32, [[MMA]]>
// CHECK-NEXT: %[[P:.*]] = tile.astype %{{.*}} : tensor<64x16xf32, [[MMA]]> -> tensor<64x16xf16, [[MMA]]>
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_copy %{{.*}}[%[[J]], %{{.*}}] dims [0, 1] into %[[VBUF]] {tilegpu.latency = 4 : i32}
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: %[[ACCN:.*]] = tilegpu.mma %[[P]], %[[VBUF]], %[[ACC]] : tensor<64x16xf16, [[MMA]]>, <16x16xf16, [[PAD10]]>, tensor<64x16xf32, [[MMA]]>
// CHECK-NEXT: scf.yield %[[ACCN]], %[[MN]]
// CHECK: %[[O:.*]] = tile.astype %[[R]]#0 : tensor<64x16xf32, [[MMA]]> -> tensor<64x16xf16, [[MMA]]>
// CHECK-NEXT: tilegpu.store %[[O]], %{{.*}} dims [0, 1] : tensor<64x16xf16, [[MMA]]>, <?x?xf16>
// CHECK-NOT: tilegpu.load
// CHECK-NOT: tile.mma
// SWIZZLED-LABEL: func.func @attention
// SWIZZLED-DAG: tilegpu.alloc : <16x16xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 4, maxPhase = 2>>
// SWIZZLED-DAG: tilegpu.alloc : <16x16xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 4, maxPhase = 2>>
// SWIZZLED-DAG: tilegpu.alloc : <64x16xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 4, maxPhase = 2>>
// SM90A-LABEL: func.func @attention
// SM90A-SAME: tilegpu.num_warps = 4 : i32
// OPTION-LABEL: func.func @attention
// OPTION-SAME: tilegpu.num_warps = 2 : i32
// OPTION: tensor<64x16xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>
func.func @attention(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                     %V: !tile.view<?x?xf16>, %O: !tile.view<?x?xf16>,
                     %n: i32, %causal: i1)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = tilegpu.load %Q[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x16xf16>
  %zero = tile.full 0.0 shape [64, 16] : tensor<64x16xf32>
  %ninf = tile.full -inf shape [64, 1] : tensor<64x1xf32>
  %cols = tile.iota shape [1, 16] dim 1 : tensor<1x16xi32>
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero, %m = %ninf)
      -> (tensor<64x16xf32>, tensor<64x1xf32>) : i32 {
    %k = tilegpu.load %K[%j, %c0] dims [1, 0] {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16> -> tensor<16x16xf16>
    %s = tile.mma %q, %k, %zero : tensor<64x16xf16>, tensor<16x16xf16>, tensor<64x16xf32>
    %sm = scf.if %causal -> tensor<64x16xf32> {
      %colsb = tile.broadcast %cols shape [64, 16] : tensor<1x16xi32> -> tensor<64x16xi32>
      %js = tile.splat %j shape [64, 16] : i32 -> tensor<64x16xi32>
      %keep = arith.cmpi sge, %js, %colsb : tensor<64x16xi32>
      %ninf2 = tile.full -inf shape [64, 16] : tensor<64x16xf32>
      %sel = tile.select %keep, %s, %ninf2 : tensor<64x16xi1>, tensor<64x16xf32>
      scf.yield %sel : tensor<64x16xf32>
    } else {
      scf.yield %s : tensor<64x16xf32>
    }
    %mx = tile.reduce %sm max axis 1 keepdims : tensor<64x16xf32> -> tensor<64x1xf32>
    %mn = arith.maximumf %m, %mx : tensor<64x1xf32>
    %mb = tile.broadcast %mn shape [64, 16] : tensor<64x1xf32> -> tensor<64x16xf32>
    %sh = arith.subf %sm, %mb : tensor<64x16xf32>
    %p = tile.exp2 %sh : tensor<64x16xf32>
    %p16 = tile.astype %p : tensor<64x16xf32> -> tensor<64x16xf16>
    %v = tilegpu.load %V[%j, %c0] dims [0, 1] {tilegpu.latency = 4 : i32}
        : !tile.view<?x?xf16> -> tensor<16x16xf16>
    %accn = tile.mma %p16, %v, %acc : tensor<64x16xf16>, tensor<16x16xf16>, tensor<64x16xf32>
    scf.yield %accn, %mn : tensor<64x16xf32>, tensor<64x1xf32>
  }
  %o = tile.astype %r#0 : tensor<64x16xf32> -> tensor<64x16xf16>
  tilegpu.store %o, %O[%c0, %c0] dims [0, 1] : tensor<64x16xf16>, !tile.view<?x?xf16>
  return
}

// -----

// Column reductions (keepdims) keep the layout on the [1, 16] tile; a load feeding an mma and other
// math is staged once for the mma and also loaded into registers. Two mmas
// reading one load share one shared tile.
// CHECK-LABEL: func.func @columns_and_shared_loads
// CHECK-DAG: %[[B:.*]] = tilegpu.alloc : <64x16xf16
// CHECK-DAG: %[[A:.*]] = tilegpu.alloc : <64x64xf16
// CHECK-NOT: tilegpu.alloc
// CHECK-DAG: tilegpu.async_copy %{{.*}} into %[[A]]
// CHECK-DAG: tilegpu.async_copy %{{.*}} into %[[B]]
// CHECK-NOT: tilegpu.async_copy
// CHECK: %[[D1:.*]] = tilegpu.mma %[[A]], %[[B]], %{{.*}}
// CHECK: %[[D2:.*]] = tilegpu.mma %[[A]], %[[B]], %[[D1]]
// CHECK: tile.reduce %[[D2]] sum axis 0 keepdims : tensor<64x16xf32, [[MMA:#tilegpu.mma<version = 2, warps = \[4, 1\]>]]> -> tensor<1x16xf32, [[MMA]]>
// CHECK: tilegpu.load %{{.*}} dims [0, 1] : <?x?xf16> -> tensor<64x16xf16, [[MMA]]>
func.func @columns_and_shared_loads(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>,
                                    %C: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [1, 0] : !tile.view<?x?xf16> -> tensor<64x16xf16>
  %z = tile.full 0.0 shape [64, 16] : tensor<64x16xf32>
  %d1 = tile.mma %a, %b, %z : tensor<64x64xf16>, tensor<64x16xf16>, tensor<64x16xf32>
  %d2 = tile.mma %a, %b, %d1 : tensor<64x64xf16>, tensor<64x16xf16>, tensor<64x16xf32>
  %col = tile.reduce %d2 sum axis 0 keepdims : tensor<64x16xf32> -> tensor<1x16xf32>
  %c = tilegpu.load %C[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x16xf16>
  %cf = tile.astype %c : tensor<64x16xf16> -> tensor<64x16xf32>
  %e = arith.addf %d2, %cf : tensor<64x16xf32>
  %cb = tile.broadcast %col shape [64, 16] : tensor<1x16xf32> -> tensor<64x16xf32>
  %f = arith.mulf %e, %cb : tensor<64x16xf32>
  return
}

// -----

// The warp count: the option, else the kernel's hint for the chip (sm_90a
// takes sm_90a's, then sm_90's), else its num_warps, else 4. The swizzled
// instance is the 128B pattern for 128-byte rows.
// CHECK-LABEL: func.func @hints
// CHECK-SAME: tilegpu.num_warps = 4 : i32
// CHECK: tensor<64x16xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>
// SM90A-LABEL: func.func @hints
// SM90A-SAME: tilegpu.num_warps = 1 : i32
// SM90A: tensor<64x16xf32, #tilegpu.mma<version = 2, warps = [1, 1]>>
// SM90-LABEL: func.func @hints
// SM90-SAME: tilegpu.num_warps = 2 : i32
// SM90: tensor<64x16xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>
// SM89-LABEL: func.func @hints
// SM89-SAME: tilegpu.num_warps = 4 : i32
// OPTION-LABEL: func.func @hints
// OPTION-SAME: tilegpu.num_warps = 2 : i32
// SWIZZLED-LABEL: func.func @hints
// SWIZZLED-DAG: tilegpu.alloc : <64x16xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8>>
// SWIZZLED-DAG: tilegpu.alloc : <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>
func.func @hints(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 4 : i32,
                               hints = {sm_90a = {num_warps = 1 : i32},
                                        sm_90 = {num_warps = 2 : i32},
                                        sm_80 = {occupancy = 2 : i32}}}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [1, 0] : !tile.view<?x?xf16> -> tensor<64x16xf16>
  %z = tile.full 0.0 shape [64, 16] : tensor<64x16xf32>
  %d = tile.mma %a, %b, %z : tensor<64x64xf16>, tensor<64x16xf16>, tensor<64x16xf32>
  return
}

// -----

// A kernel without a num_warps hint gets 4 warps; functions that are not
// kernels are left alone.
// CHECK-LABEL: func.func @default_warps
// CHECK-SAME: tilegpu.num_warps = 4 : i32
// SM90A-LABEL: func.func @default_warps
// SM90A-SAME: tilegpu.num_warps = 4 : i32
func.func @default_warps(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [64, 16] : tensor<64x16xf32>
  %d = tile.mma %a, %b, %z : tensor<64x16xf16>, tensor<16x16xf16>, tensor<64x16xf32>
  return
}

// CHECK-LABEL: func.func @negative_not_a_kernel
// CHECK-NOT: tilegpu.num_warps
// CHECK: tile.mma %{{.*}} : tensor<64x16xf16>, tensor<16x16xf16>, tensor<64x16xf32>
func.func @negative_not_a_kernel(%a: tensor<64x16xf16>, %b: tensor<16x16xf16>) -> tensor<64x16xf32> {
  %z = tile.full 0.0 shape [64, 16] : tensor<64x16xf32>
  %d = tile.mma %a, %b, %z : tensor<64x16xf16>, tensor<16x16xf16>, tensor<64x16xf32>
  return %d : tensor<64x16xf32>
}

// -----

// The occupancy hint for the chip (per-architecture hints first) is recorded
// for the conversion, which emits it as .minnctapersm.
// CHECK-LABEL: func.func @occupancy_hint
// CHECK-SAME: tilegpu.occupancy = 1 : i32
// SM90A-LABEL: func.func @occupancy_hint
// SM90A-SAME: tilegpu.occupancy = 2 : i32
func.func @occupancy_hint(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>, %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 1 : i32, occupancy = 1 : i32, hints = {sm_90 = {occupancy = 2 : i32}}}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<32x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x8xf16>
  %z = tile.full 0.0 shape [32, 8] : tensor<32x8xf32>
  %d = tile.mma %a, %b, %z : tensor<32x16xf16>, tensor<16x8xf16>, tensor<32x8xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<32x8xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A constant tile nobody uses gets the default layout (it segfaulted: the
// per-use copies of constants read past the end of an empty use list;
// fuzzer, seed 1 of make check).
// CHECK-LABEL: func.func @unused_constant
// CHECK: tile.full nan shape [1, 1] : tensor<1x1xf32, #tilegpu.blocked<
// SWIZZLED-LABEL: func.func @unused_constant
func.func @unused_constant(%C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %nan = tile.full nan shape [1, 1] : tensor<1x1xf32>
  return
}

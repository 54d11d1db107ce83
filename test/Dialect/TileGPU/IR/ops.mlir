// Every tilegpu op, layout attribute and type round-trips through the custom
// syntax, the generic form and --verify-roundtrip.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --verify-roundtrip | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#mma1 = #tilegpu.mma<version = 2, warps = [1, 1]>
#rows = #tilegpu.slice<dim = 1, parent = #mma>
#cols = #tilegpu.slice<dim = 0, parent = #mma>
#swizzled = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>
#padded = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#paddedT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

//===----------------------------------------------------------------------===//
// Attributes and types
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @layouts
// CHECK-SAME: tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>
// CHECK-SAME: tensor<16x8xf16, #tilegpu.mma<version = 2, warps = [1, 1]>>
// CHECK-SAME: tensor<64x1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<version = 2, warps = [4, 1]>>>
// CHECK-SAME: tensor<1x64xi32, #tilegpu.slice<dim = 0, parent = #tilegpu.mma<version = 2, warps = [4, 1]>>>
// A default pad (0) is not printed.
// CHECK-SAME: !tilegpu.smem<64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>
// CHECK-SAME: !tilegpu.smem<64x128xbf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>
// CHECK-SAME: !tilegpu.smem<3x128x64xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>
// CHECK-SAME: !tilegpu.smem<8x32xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 2, maxPhase = 4>>
// wgmma: the version 3 accumulator and the 128-byte-piece shared layout.
// CHECK-SAME: tensor<128x64xf32, #tilegpu.mma<version = 3, warps = [8, 1]>>
// CHECK-SAME: !tilegpu.smem<2x64x128xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
// GENERIC-LABEL: "func.func"() <{function_type = (tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>
func.func @layouts(
    %a: tensor<64x64xf32, #mma>,
    %b: tensor<16x8xf16, #mma1>,
    %c: tensor<64x1xf32, #rows>,
    %d: tensor<1x64xi32, #cols>,
    %e: !tilegpu.smem<64x128xf16, #swizzled>,
    %f: !tilegpu.smem<64x128xbf16, #padded>,
    %g: !tilegpu.smem<3x128x64xf16, #paddedT>,
    %h: !tilegpu.smem<8x32xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 2, maxPhase = 4, pad = 0>>,
    %i: tensor<128x64xf32, #tilegpu.mma<version = 3, warps = [8, 1]>>,
    %j: !tilegpu.smem<2x64x128xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, pad = 0, chunk = 64>>) {
  return
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @global_memory
// CHECK-SAME: (%[[V:.*]]: !tile.view<?x?x?x?xf16>, %[[W:.*]]: !tile.view<?x?xf32>, %[[I:.*]]: i32)
func.func @global_memory(%v: !tile.view<?x?x?x?xf16>, %w: !tile.view<?x?xf32>,
                         %i: i32) {
  // CHECK: %[[X:.*]] = tilegpu.load %[[V]][%[[I]], %[[I]], %[[I]], %[[I]]] dims [2, 3] : <?x?x?x?xf16> -> tensor<64x64xf16, #tilegpu.mma<version = 2, warps = [4, 1]>>
  %x = tilegpu.load %v[%i, %i, %i, %i] dims [2, 3]
      : !tile.view<?x?x?x?xf16> -> tensor<64x64xf16, #mma>
  // GENERIC: "tilegpu.load"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{dims = array<i64: 2, 3>, padding = #tile<padding zero>}>
  // CHECK: tilegpu.load %[[W]][%[[I]], %[[I]]] dims [1, 0] padding neg_inf : <?x?xf32> -> tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>
  %y = tilegpu.load %w[%i, %i] dims [1, 0] padding neg_inf
      : !tile.view<?x?xf32> -> tensor<64x64xf32, #mma>
  // CHECK: tilegpu.load %[[W]][%[[I]], %[[I]]] dims [0, 1] {tilegpu.latency = 2 : i32} : <?x?xf32> -> tensor<64x1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<version = 2, warps = [4, 1]>>>
  %z = tilegpu.load %w[%i, %i] dims [0, 1] {tilegpu.latency = 2 : i32}
      : !tile.view<?x?xf32> -> tensor<64x1xf32, #rows>
  // CHECK: tilegpu.store %[[X]], %[[V]][%[[I]], %[[I]], %[[I]], %[[I]]] dims [2, 3] : tensor<64x64xf16, #tilegpu.mma<version = 2, warps = [4, 1]>>, <?x?x?x?xf16>
  tilegpu.store %x, %v[%i, %i, %i, %i] dims [2, 3]
      : tensor<64x64xf16, #mma>, !tile.view<?x?x?x?xf16>
  // GENERIC: "tilegpu.store"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{dims = array<i64: 2, 3>}>
  // A [64, 1] tile stored along one view dimension (its unit dimension has none).
  // CHECK: tilegpu.store %{{.*}}, %[[W]][%[[I]], %[[I]]] dims [1] : tensor<64x1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<version = 2, warps = [4, 1]>>>, <?x?xf32>
  tilegpu.store %z, %w[%i, %i] dims [1]
      : tensor<64x1xf32, #rows>, !tile.view<?x?xf32>
  return
}

//===----------------------------------------------------------------------===//
// Shared memory and asynchronous copies
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @shared_memory
func.func @shared_memory(%v: !tile.view<?x?x?x?xf16>, %i: i32, %p: i1) {
  // CHECK: %[[A:.*]] = tilegpu.alloc : <64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>
  %a = tilegpu.alloc : !tilegpu.smem<64x128xf16, #padded>
  // GENERIC: "tilegpu.alloc"() : () -> !tilegpu.smem<64x128xf16
  // CHECK: %[[R:.*]] = tilegpu.alloc {offset = 17408 : i64} : <2x128x64xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>
  %r = tilegpu.alloc {offset = 17408 : i64} : !tilegpu.smem<2x128x64xf16, #paddedT>
  // GENERIC: "tilegpu.alloc"() <{offset = 17408 : i64}>
  // CHECK: %[[S:.*]] = tilegpu.subview %[[R]][%{{.*}}] : <2x128x64xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>> -> <128x64xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>
  %s = tilegpu.subview %r[%i]
      : !tilegpu.smem<2x128x64xf16, #paddedT> -> !tilegpu.smem<128x64xf16, #paddedT>
  // CHECK: tilegpu.barrier
  tilegpu.barrier
  // CHECK: tilegpu.async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] dims [2, 3] into %[[A]] : <?x?x?x?xf16>, <64x128xf16
  tilegpu.async_copy %v[%i, %i, %i, %i] dims [2, 3] into %a
      : !tile.view<?x?x?x?xf16>, !tilegpu.smem<64x128xf16, #padded>
  // GENERIC: "tilegpu.async_copy"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{dims = array<i64: 2, 3>, operandSegmentSizes = array<i32: 1, 4, 1, 0>}>
  // CHECK: tilegpu.async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] dims [3, 2] into %[[S]] if %{{.*}} : <?x?x?x?xf16>, <128x64xf16
  tilegpu.async_copy %v[%i, %i, %i, %i] dims [3, 2] into %s if %p
      : !tile.view<?x?x?x?xf16>, !tilegpu.smem<128x64xf16, #paddedT>
  // GENERIC: operandSegmentSizes = array<i32: 1, 4, 1, 1>
  // CHECK: tilegpu.async_commit
  tilegpu.async_commit
  // CHECK: tilegpu.async_wait 3
  tilegpu.async_wait 3
  // GENERIC: "tilegpu.async_wait"() <{pending = 3 : i32}> : () -> ()
  // CHECK: tilegpu.async_wait 0
  tilegpu.async_wait 0
  // CHECK: tilegpu.barrier
  tilegpu.barrier
  return
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @compute
// CHECK-SAME: (%[[Q:.*]]: !tilegpu.smem<64x128xf16, {{.*}}>, %[[K:.*]]: !tilegpu.smem<128x64xf16, {{.*}}>, %[[V:.*]]: !tilegpu.smem<64x128xf16, {{.*}}>, %[[ACC:.*]]: tensor<64x64xf32, {{.*}}>, %[[O:.*]]: tensor<64x128xf32, {{.*}}>)
func.func @compute(%q: !tilegpu.smem<64x128xf16, #padded>,
                   %k: !tilegpu.smem<128x64xf16, #paddedT>,
                   %v: !tilegpu.smem<64x128xf16, #padded>,
                   %acc: tensor<64x64xf32, #mma>,
                   %o: tensor<64x128xf32, #mma>) {
  // Operand a in shared memory.
  // CHECK: %[[S:.*]] = tilegpu.mma %[[Q]], %[[K]], %[[ACC]] : !tilegpu.smem<64x128xf16, {{.*}}>, <128x64xf16, {{.*}}>, tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>
  %s = tilegpu.mma %q, %k, %acc
      : !tilegpu.smem<64x128xf16, #padded>, !tilegpu.smem<128x64xf16, #paddedT>,
        tensor<64x64xf32, #mma>
  // GENERIC: "tilegpu.mma"(%{{.*}}, %{{.*}}, %{{.*}}) : (!tilegpu.smem<64x128xf16
  // Operand a in registers, in the accumulator's layout (attention's P).
  // CHECK: %[[P:.*]] = tile.astype %[[S]]
  %p = tile.astype %s : tensor<64x64xf32, #mma> -> tensor<64x64xf16, #mma>
  // CHECK: tilegpu.mma %[[P]], %[[V]], %[[O]] : tensor<64x64xf16, #tilegpu.mma<version = 2, warps = [4, 1]>>, <64x128xf16, {{.*}}>, tensor<64x128xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>
  %r = tilegpu.mma %p, %v, %o
      : tensor<64x64xf16, #mma>, !tilegpu.smem<64x128xf16, #padded>,
        tensor<64x128xf32, #mma>
  // CHECK: tilegpu.convert_layout %[[S]] : tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [4, 1]>> -> tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>
  %c = tilegpu.convert_layout %s
      : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>
  // GENERIC: "tilegpu.convert_layout"(%{{.*}}) : (tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>) -> tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>
  return
}

// wgmma issued asynchronously, and the wait that makes its result readable
// (and keeps its register operand intact until then).
// CHECK-LABEL: func.func @async_mma
// CHECK: %[[D:.*]] = tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} {async} : tensor<64x64xf16, #tilegpu.mma<version = 3, warps = [4, 1]>>
// CHECK: %{{.*}}:2 = tilegpu.mma_wait %[[D]], %{{.*}} {pending = 1 : i32} : tensor<64x128xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>, tensor<64x64xf16, #tilegpu.mma<version = 3, warps = [4, 1]>>
// GENERIC: "tilegpu.mma"(%{{.*}}, %{{.*}}, %{{.*}}) <{async}>
// GENERIC: "tilegpu.mma_wait"(%{{.*}}, %{{.*}}) <{pending = 1 : i32}>
func.func @async_mma(%p: tensor<64x64xf16, #tilegpu.mma<version = 3, warps = [4, 1]>>,
                     %v: !tilegpu.smem<64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>,
                     %o: tensor<64x128xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>) {
  %d = tilegpu.mma %p, %v, %o {async}
      : tensor<64x64xf16, #tilegpu.mma<version = 3, warps = [4, 1]>>,
        !tilegpu.smem<64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>,
        tensor<64x128xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>
  %w:2 = tilegpu.mma_wait %d, %p {pending = 1 : i32}
      : tensor<64x128xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>, tensor<64x64xf16, #tilegpu.mma<version = 3, warps = [4, 1]>>
  return
}

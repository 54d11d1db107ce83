// tilegpu-async-mma: wgmma (#mma version 3) is issued asynchronously and
// waited for right before the first op of its block that reads the result;
// mma.sync (version 2) is left alone.
//
// RUN: tile-opt %s -split-input-file -tilegpu-async-mma | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-async-mma="pin-waits=false" | FileCheck %s --check-prefix=NOPIN

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#rows = #tilegpu.slice<dim = 1, parent = #mma>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

// The rotated attention loop: S_j, then P_{j-1} V_{j-1}, then the softmax
// of S_j. The wait for S leaves P V pending (pending = 1) and comes right
// before the reduction; the wait for P V (pending = 0) comes before the
// rescale and also names P, which the hardware reads until then. The S
// wait between P V and its wait opens a window (the softmax) meant to run
// under P V: the P V wait is pinned after it, the S wait is not.
// CHECK-LABEL: func.func @rotated
// CHECK: scf.for
// CHECK:   %[[S:.*]] = tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} {async}
// CHECK:   %[[O:.*]] = tilegpu.mma %[[P:[^,]*]], %{{.*}}, %{{.*}} {async}
// CHECK:   %[[SW:.*]] = tilegpu.mma_wait %[[S]] {pending = 1 : i32} :
// CHECK:   tile.reduce %[[SW]] max
// CHECK:   %[[OW:.*]]:2 = tilegpu.mma_wait %[[O]], %[[P]] {pending = 0 : i32, pin} :
// CHECK:   arith.mulf %[[OW]]#0
// CHECK:   scf.yield
// NOPIN-LABEL: func.func @rotated
// NOPIN-NOT: pin
// NOPIN: return
func.func @rotated(%q: !tilegpu.smem<64x64xf16, #wg>, %k: !tilegpu.smem<64x64xf16, #wg>,
                   %v: !tilegpu.smem<64x64xf16, #wg>, %n: i32,
                   %p0: tensor<64x64xf16, #mma>, %o0: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%p = %p0, %os = %o0)
      -> (tensor<64x64xf16, #mma>, tensor<64x64xf32, #mma>) : i32 {
    %s = tilegpu.mma %q, %k, %zero : !tilegpu.smem<64x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
    %o = tilegpu.mma %p, %v, %os : tensor<64x64xf16, #mma>, !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
    %mx = tile.reduce %s max axis 1 keepdims : tensor<64x64xf32, #mma> -> tensor<64x1xf32, #rows>
    %mb = tile.broadcast %mx shape [64, 64] : tensor<64x1xf32, #rows> -> tensor<64x64xf32, #mma>
    %e = tile.exp2 %mb : tensor<64x64xf32, #mma>
    %on = arith.mulf %o, %e : tensor<64x64xf32, #mma>
    %pn = tile.astype %e : tensor<64x64xf32, #mma> -> tensor<64x64xf16, #mma>
    scf.yield %pn, %on : tensor<64x64xf16, #mma>, tensor<64x64xf32, #mma>
  }
  return %r#1 : tensor<64x64xf32, #mma>
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

// A result read only by the terminator is waited for before it; an unread
// one at the block's end.
// CHECK-LABEL: func.func @yielded
// CHECK: %[[D:.*]] = tilegpu.mma {{.*}} {async}
// CHECK-NEXT: %[[DW:.*]] = tilegpu.mma_wait %[[D]] {pending = 0 : i32} :
// CHECK-NEXT: return %[[DW]]
func.func @yielded(%a: !tilegpu.smem<64x64xf16, #wg>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tilegpu.mma %a, %a, %acc : !tilegpu.smem<64x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// mma.sync is synchronous.
// CHECK-LABEL: func.func @mma_sync
// CHECK-NOT: async
// CHECK-NOT: tilegpu.mma_wait
func.func @mma_sync(%a: !tilegpu.smem<64x64xf16, #pad>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tilegpu.mma %a, %a, %acc : !tilegpu.smem<64x64xf16, #pad>, !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

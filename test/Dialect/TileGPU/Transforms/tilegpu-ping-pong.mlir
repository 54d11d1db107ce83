// tilegpu-ping-pong: the consumer warpgroups of a warp-specialized kernel
// take turns issuing their wgmmas. Warpgroup g syncs on named barrier 2 + g
// before each group of wgmmas issued back to back in a loop and arrives on
// the next warpgroup's barrier after it; warpgroup 0 pre-arrives on its own
// barrier before the loops and syncs on it once after them (the last
// warpgroup's last arrival). Each barrier counts 256 threads.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-ping-pong | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-ping-pong="mode=off" | FileCheck %s --check-prefix=OFF
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-ping-pong="mode=on" 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-ping-pong="mode=maybe" 2>&1 | FileCheck %s --check-prefix=ERRMODE

// OFF-NOT: tilegpu.named_barrier 2
// ERRMODE: error: mode must be auto, on or off, got 'maybe'

// CHECK-LABEL: func.func @rotated
// CHECK: } consumers(warps = 8, regs = 232) {
// CHECK-NEXT: %[[WG:.*]] = tilegpu.warpgroup_id
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[INC:.*]] = arith.addi %[[WG]], %[[C1]] : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.remui %[[INC]], %[[C2]] : i32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[WG]], %[[C0]] : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: tilegpu.named_barrier 2 + %[[C0]], 256 arrive
// CHECK: scf.for
// CHECK:   tilegpu.mbarrier_wait
// CHECK-NEXT: tilegpu.named_barrier 2 + %[[WG]], 256
// CHECK-NOT: arrive
// CHECK-NEXT: tilegpu.mma {{.*}} {async}
// CHECK-NEXT: tilegpu.mbarrier_wait
// CHECK-NEXT: tilegpu.mma {{.*}} {async}
// CHECK-NEXT: tilegpu.named_barrier 2 + %[[NEXT]], 256 arrive
// CHECK-NEXT: tilegpu.mma_wait {{.*}} {pending = 1 : i32}
// CHECK:   tilegpu.mma_wait {{.*}} {pending = 0 : i32, pin}
// CHECK:   scf.yield
// CHECK: tilegpu.store
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: tilegpu.named_barrier 2 + %[[C0]], 256
// CHECK-NOT: named_barrier
// CHECK: return
#mma = #tilegpu.mma<version = 3, warps = [8, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @rotated(%O: !tile.view<?x?xf32>, %n: i32, %p0: tensor<128x64xf16, #mma>)
    attributes {tilegpu.num_warps = 12 : i32, tilegpu.mma_version = 3 : i32} {
  %q = tilegpu.alloc : !tilegpu.smem<128x64xf16, #wg>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %full = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_init %full arrivals 128 : !tilegpu.mbarrier<2>
  tilegpu.barrier
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.fence_async_shared
  } consumers(warps = 8, regs = 232) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = tile.full 0.0 shape [128, 64] : tensor<128x64xf32, #mma>
    %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%p = %p0, %os = %zero)
        -> (tensor<128x64xf16, #mma>, tensor<128x64xf32, #mma>) : i32 {
      tilegpu.mbarrier_wait %full[%c0] parity %c0 : !tilegpu.mbarrier<2>
      %s = tilegpu.mma %q, %k, %zero {async} : !tilegpu.smem<128x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
      tilegpu.mbarrier_wait %full[%c1] parity %c0 : !tilegpu.mbarrier<2>
      %o = tilegpu.mma %p, %k, %os {async} : tensor<128x64xf16, #mma>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
      %sw = tilegpu.mma_wait %s {pending = 1 : i32} : tensor<128x64xf32, #mma>
      %e = tile.exp2 %sw : tensor<128x64xf32, #mma>
      %pn = tile.astype %e : tensor<128x64xf32, #mma> -> tensor<128x64xf16, #mma>
      %ow:2 = tilegpu.mma_wait %o, %p {pending = 0 : i32, pin} : tensor<128x64xf32, #mma>, tensor<128x64xf16, #mma>
      scf.yield %pn, %ow#0 : tensor<128x64xf16, #mma>, tensor<128x64xf32, #mma>
    }
    tilegpu.store %r#1, %O[%c0, %c0] dims [0, 1] : tensor<128x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// Without the overlap each wgmma is its own group, waited for before the
// next is issued: a sync before and an arrival after each.
// CHECK-LABEL: func.func @sequential
// CHECK: scf.for
// CHECK:   tilegpu.named_barrier 2 + %{{.*}}, 256
// CHECK-NEXT: tilegpu.mma {{.*}} {async}
// CHECK-NEXT: tilegpu.named_barrier 2 + %{{.*}}, 256 arrive
// CHECK-NEXT: tilegpu.mma_wait
// CHECK:   tilegpu.named_barrier 2 + %{{.*}}, 256
// CHECK-NEXT: tilegpu.mma {{.*}} {async}
// CHECK-NEXT: tilegpu.named_barrier 2 + %{{.*}}, 256 arrive
// CHECK-NEXT: tilegpu.mma_wait
// CHECK:   scf.yield
#mma = #tilegpu.mma<version = 3, warps = [8, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @sequential(%O: !tile.view<?x?xf32>, %n: i32)
    attributes {tilegpu.num_warps = 12 : i32, tilegpu.mma_version = 3 : i32} {
  %q = tilegpu.alloc : !tilegpu.smem<128x64xf16, #wg>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.fence_async_shared
  } consumers(warps = 8, regs = 232) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = tile.full 0.0 shape [128, 64] : tensor<128x64xf32, #mma>
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%os = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %s = tilegpu.mma %q, %k, %zero {async} : !tilegpu.smem<128x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
      %sw = tilegpu.mma_wait %s {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %e = tile.exp2 %sw : tensor<128x64xf32, #mma>
      %pn = tile.astype %e : tensor<128x64xf32, #mma> -> tensor<128x64xf16, #mma>
      %o = tilegpu.mma %pn, %k, %os {async} : tensor<128x64xf16, #mma>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
      %ow:2 = tilegpu.mma_wait %o, %pn {pending = 0 : i32} : tensor<128x64xf32, #mma>, tensor<128x64xf16, #mma>
      scf.yield %ow#0 : tensor<128x64xf32, #mma>
    }
    tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<128x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// One consumer warpgroup has no one to take turns with (auto: unchanged;
// on: an error).
// CHECK-LABEL: func.func @one_group
// CHECK-NOT: tilegpu.named_barrier
// CHECK: return
// ERR: error: 'tilegpu.warp_specialize' op cannot ping-pong: it has one consumer warpgroup
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @one_group(%O: !tile.view<?x?xf32>, %n: i32)
    attributes {tilegpu.num_warps = 8 : i32, tilegpu.mma_version = 3 : i32} {
  %q = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.fence_async_shared
  } consumers(warps = 4, regs = 240) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%os = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %o = tilegpu.mma %q, %q, %os {async} : !tilegpu.smem<64x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
      %ow = tilegpu.mma_wait %o {pending = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %ow : tensor<64x64xf32, #mma>
    }
    tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// A loop with a consumer barrier is left alone (auto) or refused (on).
// CHECK-LABEL: func.func @barrier_in_loop
// CHECK-NOT: tilegpu.named_barrier 2
// CHECK: return
// ERR: error: 'tilegpu.warp_specialize' op cannot ping-pong: the loop has a block or consumer barrier
#mma = #tilegpu.mma<version = 3, warps = [8, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @barrier_in_loop(%O: !tile.view<?x?xf32>, %n: i32)
    attributes {tilegpu.num_warps = 12 : i32, tilegpu.mma_version = 3 : i32} {
  %q = tilegpu.alloc : !tilegpu.smem<128x64xf16, #wg>
  %kk = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.fence_async_shared
  } consumers(warps = 8, regs = 232) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = tile.full 0.0 shape [128, 64] : tensor<128x64xf32, #mma>
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%os = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      tilegpu.named_barrier 1, 256
      %o = tilegpu.mma %q, %kk, %os {async} : !tilegpu.smem<128x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
      %ow = tilegpu.mma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
      scf.yield %ow : tensor<128x64xf32, #mma>
    }
    tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<128x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// The kernel hint ping_pong = 0 keeps the kernel as it is (auto).
// CHECK-LABEL: func.func @hint_off
// CHECK-NOT: tilegpu.named_barrier 2
// CHECK: return
#mma = #tilegpu.mma<version = 3, warps = [8, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @hint_off(%O: !tile.view<?x?xf32>, %n: i32)
    attributes {tilegpu.num_warps = 12 : i32, tilegpu.mma_version = 3 : i32,
                tile.kernel = {ping_pong = 0 : i32}} {
  %q = tilegpu.alloc : !tilegpu.smem<128x64xf16, #wg>
  %kk = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.fence_async_shared
  } consumers(warps = 8, regs = 232) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = tile.full 0.0 shape [128, 64] : tensor<128x64xf32, #mma>
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%os = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %o = tilegpu.mma %q, %kk, %os {async} : !tilegpu.smem<128x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
      %ow = tilegpu.mma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
      scf.yield %ow : tensor<128x64xf32, #mma>
    }
    tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<128x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// A persistent kernel's tile loop: the peeled first S = Q K^T and the last
// P V sit in `scf.if`s on a block-uniform condition, once a tile. Their
// groups take turns too, so one warpgroup's first softmax and epilogue run
// under the other's wgmmas across the tile boundary.
// CHECK-LABEL: func.func @peeled
// CHECK: %[[WG:.*]] = tilegpu.warpgroup_id
// CHECK: scf.for
// CHECK:   scf.if
// CHECK-NEXT: tilegpu.mbarrier_wait
// CHECK-NEXT: tilegpu.named_barrier 2 + %[[WG]], 256
// CHECK-NEXT: tilegpu.mma {{.*}} {async}
// CHECK-NEXT: tilegpu.named_barrier 2 + %{{.*}}, 256 arrive
// CHECK-NEXT: tilegpu.mma_wait {{.*}} {pending = 0 : i32}
// CHECK:   scf.for
// CHECK:     tilegpu.named_barrier 2 + %[[WG]], 256
// CHECK-NEXT: tilegpu.mma {{.*}} {async}
// CHECK-NEXT: tilegpu.named_barrier 2 + %{{.*}}, 256 arrive
// CHECK:   scf.if
// CHECK-NEXT: tilegpu.named_barrier 2 + %[[WG]], 256
// CHECK-NEXT: tilegpu.mma {{.*}} {async}
// CHECK-NEXT: tilegpu.named_barrier 2 + %{{.*}}, 256 arrive
// CHECK-NEXT: tilegpu.mma_wait {{.*}} {pending = 0 : i32}
// CHECK: tilegpu.store
#mma = #tilegpu.mma<version = 3, warps = [8, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @peeled(%O: !tile.view<?x?xf32>, %tiles: i32, %n: i32)
    attributes {tilegpu.num_warps = 12 : i32, tilegpu.mma_version = 3 : i32} {
  %q = tilegpu.alloc : !tilegpu.smem<128x64xf16, #wg>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %full = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : !tilegpu.mbarrier<2>
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.fence_async_shared
  } consumers(warps = 8, regs = 232) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = tile.full 0.0 shape [128, 64] : tensor<128x64xf32, #mma>
    %zp = tile.full 0.0 shape [128, 64] : tensor<128x64xf16, #mma>
    %any = arith.cmpi sgt, %n, %c0 : i32
    scf.for %t = %c0 to %tiles step %c1 : i32 {
      %p0 = scf.if %any -> (tensor<128x64xf16, #mma>) {
        tilegpu.mbarrier_wait %full[%c0] parity %c0 : !tilegpu.mbarrier<2>
        %s = tilegpu.mma %q, %k, %zero {async} : !tilegpu.smem<128x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
        %sw = tilegpu.mma_wait %s {pending = 0 : i32} : tensor<128x64xf32, #mma>
        %p = tile.astype %sw : tensor<128x64xf32, #mma> -> tensor<128x64xf16, #mma>
        scf.yield %p : tensor<128x64xf16, #mma>
      } else {
        scf.yield %zp : tensor<128x64xf16, #mma>
      }
      %r = scf.for %j = %c1 to %n step %c1 iter_args(%os = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
        %o = tilegpu.mma %p0, %k, %os {async} : tensor<128x64xf16, #mma>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
        %ow = tilegpu.mma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
        scf.yield %ow : tensor<128x64xf32, #mma>
      }
      %last = scf.if %any -> (tensor<128x64xf32, #mma>) {
        %o = tilegpu.mma %p0, %k, %r {async} : tensor<128x64xf16, #mma>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
        %ow = tilegpu.mma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
        scf.yield %ow : tensor<128x64xf32, #mma>
      } else {
        scf.yield %r : tensor<128x64xf32, #mma>
      }
      tilegpu.store %last, %O[%c0, %c0] dims [0, 1] : tensor<128x64xf32, #mma>, !tile.view<?x?xf32>
    }
  }
  return
}

// -----

// A wgmma under a condition computed from the thread id: the warpgroups
// could issue different numbers of groups and wait on each other forever.
// CHECK-LABEL: func.func @divergent_condition
// CHECK-NOT: tilegpu.named_barrier 2
// CHECK: return
// ERR: error: 'tilegpu.warp_specialize' op cannot ping-pong: a wgmma is under a condition that differs between warpgroups
#mma = #tilegpu.mma<version = 3, warps = [8, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @divergent_condition(%O: !tile.view<?x?xf32>)
    attributes {tilegpu.num_warps = 12 : i32, tilegpu.mma_version = 3 : i32} {
  %q = tilegpu.alloc : !tilegpu.smem<128x64xf16, #wg>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.fence_async_shared
  } consumers(warps = 8, regs = 232) {
    %c0 = arith.constant 0 : i32
    %c200 = arith.constant 200 : i32
    %zero = tile.full 0.0 shape [128, 64] : tensor<128x64xf32, #mma>
    %tid = tilegpu.thread_id
    %low = arith.cmpi slt, %tid, %c200 : i32
    %r = scf.if %low -> (tensor<128x64xf32, #mma>) {
      %o = tilegpu.mma %q, %k, %zero {async} : !tilegpu.smem<128x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
      %ow = tilegpu.mma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
      scf.yield %ow : tensor<128x64xf32, #mma>
    } else {
      scf.yield %zero : tensor<128x64xf32, #mma>
    }
    tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<128x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// A loop whose trip count comes from the warpgroup id, through a value the
// loop carries: refused the same way.
// CHECK-LABEL: func.func @divergent_bound
// CHECK-NOT: tilegpu.named_barrier 2
// CHECK: return
// ERR: error: 'tilegpu.warp_specialize' op cannot ping-pong: the loop bounds differ between warpgroups
#mma = #tilegpu.mma<version = 3, warps = [8, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @divergent_bound(%O: !tile.view<?x?xf32>, %n: i32)
    attributes {tilegpu.num_warps = 12 : i32, tilegpu.mma_version = 3 : i32} {
  %q = tilegpu.alloc : !tilegpu.smem<128x64xf16, #wg>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.fence_async_shared
  } consumers(warps = 8, regs = 232) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = tile.full 0.0 shape [128, 64] : tensor<128x64xf32, #mma>
    %wgid = tilegpu.warpgroup_id
    %carried = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c0) -> (i32) : i32 {
      %y = arith.addi %x, %wgid : i32
      scf.yield %y : i32
    }
    %r = scf.for %j = %c0 to %carried step %c1 iter_args(%os = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %o = tilegpu.mma %q, %k, %os {async} : !tilegpu.smem<128x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
      %ow = tilegpu.mma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
      scf.yield %ow : tensor<128x64xf32, #mma>
    }
    tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<128x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// A wgmma inside a region op other than scf.for / scf.if: how often each
// warpgroup runs it is not checked, so the kernel is left alone.
// CHECK-LABEL: func.func @other_region
// CHECK-NOT: tilegpu.named_barrier 2
// CHECK: return
// ERR: error: 'tilegpu.warp_specialize' op cannot ping-pong: a wgmma is inside 'scf.execute_region'
#mma = #tilegpu.mma<version = 3, warps = [8, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @other_region(%O: !tile.view<?x?xf32>)
    attributes {tilegpu.num_warps = 12 : i32, tilegpu.mma_version = 3 : i32} {
  %q = tilegpu.alloc : !tilegpu.smem<128x64xf16, #wg>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.fence_async_shared
  } consumers(warps = 8, regs = 232) {
    %c0 = arith.constant 0 : i32
    %zero = tile.full 0.0 shape [128, 64] : tensor<128x64xf32, #mma>
    %r = scf.execute_region -> tensor<128x64xf32, #mma> {
      %o = tilegpu.mma %q, %k, %zero {async} : !tilegpu.smem<128x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<128x64xf32, #mma>
      %ow = tilegpu.mma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
      scf.yield %ow : tensor<128x64xf32, #mma>
    }
    tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<128x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

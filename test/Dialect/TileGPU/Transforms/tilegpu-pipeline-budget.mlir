// tilegpu-pipeline keeps the stages within the shared memory per block of
// the module's target chip, next to the buffers that stay: sm_80 has 166912
// bytes, and a buffer that stays takes all but 50000 (116912 bytes) or 30000
// (136912 bytes) of them.
//
// RUN: tile-opt %s -split-input-file -allow-unregistered-dialect -tilegpu-pipeline | FileCheck %s

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#padT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#flat = #tilegpu.shared<order = [1, 0], vec = 1, perPhase = 1, maxPhase = 1>

// Three stages of K and V (64512 bytes with Q) do not fit in 50000 bytes;
// two (46080) do: the wait leaves (2 - 1) * 2 - 1 = 1 group pending.
// CHECK-LABEL: func.func @attention_50000
// CHECK: tilegpu.alloc : <2x64x64xf16
// CHECK: tilegpu.alloc : <2x64x64xf16
// CHECK-COUNT-2: tilegpu.async_wait 1
// CHECK-NOT: tilegpu.async_wait
// CHECK: return
module attributes {tilegpu.target = "sm_80"} {
  func.func @attention_50000(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                       %V: !tile.view<?x?xf16>, %n: i32) -> tensor<64x64xf32, #mma> {
    // The rest of the chip's shared memory (a buffer that stays).
    %fill = tilegpu.alloc : !tilegpu.smem<1x58456xf16, #flat>
    "test.use"(%fill) : (!tilegpu.smem<1x58456xf16, #flat>) -> ()
    %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
    %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #padT>
    %vb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    tilegpu.async_copy %Q[%c0, %c0] dims [0, 1] into %qb
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %kn = arith.muli %j, %c64 : i32
      tilegpu.barrier
      tilegpu.async_copy %K[%kn, %c0] dims [1, 0] into %kb {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #padT>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %qb, %kb, %zero : !tilegpu.smem<64x64xf16, #pad>,
          !tilegpu.smem<64x64xf16, #padT>, tensor<64x64xf32, #mma>
      %p = tile.astype %s : tensor<64x64xf32, #mma> -> tensor<64x64xf16, #mma>
      tilegpu.barrier
      tilegpu.async_copy %V[%kn, %c0] dims [0, 1] into %vb {tilegpu.latency = 4 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %a = tilegpu.mma %p, %vb, %acc : tensor<64x64xf16, #mma>,
          !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
      scf.yield %a : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#padT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#flat = #tilegpu.shared<order = [1, 0], vec = 1, perPhase = 1, maxPhase = 1>

// Not even two stages fit in 30000 bytes: the loop keeps its copies as they
// were (wait 0 before each use), and so does Q.
// CHECK-LABEL: func.func @attention_30000
// CHECK-NOT: tilegpu.subview
// CHECK: tilegpu.async_copy %{{.*}} into %{{.*}} :
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
// CHECK: scf.for
// CHECK-COUNT-2: tilegpu.async_wait 0
// CHECK-NOT: tilegpu.subview
// CHECK: return
module attributes {tilegpu.target = "sm_80"} {
  func.func @attention_30000(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                       %V: !tile.view<?x?xf16>, %n: i32) -> tensor<64x64xf32, #mma> {
    // The rest of the chip's shared memory (a buffer that stays).
    %fill = tilegpu.alloc : !tilegpu.smem<1x68456xf16, #flat>
    "test.use"(%fill) : (!tilegpu.smem<1x68456xf16, #flat>) -> ()
    %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
    %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #padT>
    %vb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    tilegpu.async_copy %Q[%c0, %c0] dims [0, 1] into %qb
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %kn = arith.muli %j, %c64 : i32
      tilegpu.barrier
      tilegpu.async_copy %K[%kn, %c0] dims [1, 0] into %kb {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #padT>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %qb, %kb, %zero : !tilegpu.smem<64x64xf16, #pad>,
          !tilegpu.smem<64x64xf16, #padT>, tensor<64x64xf32, #mma>
      %p = tile.astype %s : tensor<64x64xf32, #mma> -> tensor<64x64xf16, #mma>
      tilegpu.barrier
      tilegpu.async_copy %V[%kn, %c0] dims [0, 1] into %vb {tilegpu.latency = 4 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %a = tilegpu.mma %p, %vb, %acc : tensor<64x64xf16, #mma>,
          !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
      scf.yield %a : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#flat = #tilegpu.shared<order = [1, 0], vec = 1, perPhase = 1, maxPhase = 1>

// The split loop's tail reuses the main loop's ring: one ring in all.
// CHECK-LABEL: func.func @split_loop_50000
// CHECK-COUNT-1: tilegpu.alloc : <2x64x64xf16
// CHECK-NOT: tilegpu.alloc : <2x64x64xf16
// CHECK: return
module attributes {tilegpu.target = "sm_80"} {
  func.func @split_loop_50000(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>, %split: i32,
                        %n: i32) -> tensor<64x64xf32, #mma> {
    // The rest of the chip's shared memory (a buffer that stays).
    %fill = tilegpu.alloc : !tilegpu.smem<1x58456xf16, #flat>
    "test.use"(%fill) : (!tilegpu.smem<1x58456xf16, #flat>) -> ()
    %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
    %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    tilegpu.async_copy %Q[%c0, %c0] dims [0, 1] into %qb
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
    %r = scf.for %j = %c0 to %split step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      tilegpu.barrier
      tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %qb, %kb, %acc : !tilegpu.smem<64x64xf16, #pad>,
          !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    %r2 = scf.for %j = %split to %n step %c1 iter_args(%acc = %r) -> (tensor<64x64xf32, #mma>) : i32 {
      tilegpu.barrier
      tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %qb, %kb, %acc : !tilegpu.smem<64x64xf16, #pad>,
          !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    return %r2 : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#flat = #tilegpu.shared<order = [1, 0], vec = 1, perPhase = 1, maxPhase = 1>

// With 30000 bytes, Q and one two-stage ring fit, two rings would not: the
// tail must reuse the main loop's.
// CHECK-LABEL: func.func @split_loop_30000
// CHECK: tilegpu.alloc : <64x64xf16
// CHECK-NEXT: tilegpu.alloc : <2x64x64xf16
// CHECK-NOT: tilegpu.alloc
// CHECK: scf.for
module attributes {tilegpu.target = "sm_80"} {
  func.func @split_loop_30000(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>, %split: i32,
                        %n: i32) -> tensor<64x64xf32, #mma> {
    // The rest of the chip's shared memory (a buffer that stays).
    %fill = tilegpu.alloc : !tilegpu.smem<1x68456xf16, #flat>
    "test.use"(%fill) : (!tilegpu.smem<1x68456xf16, #flat>) -> ()
    %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
    %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    tilegpu.async_copy %Q[%c0, %c0] dims [0, 1] into %qb
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
    %r = scf.for %j = %c0 to %split step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      tilegpu.barrier
      tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %qb, %kb, %acc : !tilegpu.smem<64x64xf16, #pad>,
          !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    %r2 = scf.for %j = %split to %n step %c1 iter_args(%acc = %r) -> (tensor<64x64xf32, #mma>) : i32 {
      tilegpu.barrier
      tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %qb, %kb, %acc : !tilegpu.smem<64x64xf16, #pad>,
          !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    return %r2 : tensor<64x64xf32, #mma>
  }
}

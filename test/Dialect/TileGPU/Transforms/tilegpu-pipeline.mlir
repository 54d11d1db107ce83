// tilegpu-pipeline: loops whose body stages copies (barrier, async_copy,
// commit, wait 0, barrier) keep S - 1 iterations of copies in flight in rings
// of S shared-memory stages.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-pipeline | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-pipeline=stages=2 | FileCheck %s --check-prefix=STAGES2
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-pipeline=stages=9 2>&1 | FileCheck %s --check-prefix=ERROR

// ERROR: error: stages must be in [0, 8]

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#padT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// Attention's loop: K (latency 2: two stages) and V (latency 4: three); the
// loop takes the larger, S = 3. With n = 2 copies per iteration every wait
// leaves (S - 1) * n - 1 = 3 younger groups pending. The prologue copies
// iterations lb and lb + step into stages 0 and 1, predicated on being in
// range; iteration j waits, synchronizes, and copies iteration j + 2 into
// stage (k + 2) % 3 (k = (j - lb) / step), the one read in iteration j - 1,
// and reads stage k % 3. Q, copied before the loop and read only in it,
// loses its own wait and barrier: the loop's first wait covers it.
// Each 64x64 f16 padded tile is 64 * 72 * 2 = 9216 bytes: three stages need
// 9216 * (1 + 2 * 3) = 64512 bytes, two stages 46080.
// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:.*]]: !tile.view<?x?xf16>, %[[K:.*]]: !tile.view<?x?xf16>, %[[V:.*]]: !tile.view<?x?xf16>, %[[N:.*]]: i32)
// CHECK: %[[QB:.*]] = tilegpu.alloc : <64x64xf16, [[PAD:#tilegpu.shared<order = \[1, 0\], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>]]>
// CHECK: %[[KR:.*]] = tilegpu.alloc : <3x64x64xf16, [[PADT:#tilegpu.shared<order = \[0, 1\], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>]]>
// CHECK: %[[VR:.*]] = tilegpu.alloc : <3x64x64xf16, [[PAD]]>
// CHECK-NOT: tilegpu.alloc
// CHECK: tilegpu.async_copy %[[Q]][{{.*}}] dims [0, 1] into %[[QB]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NOT: tilegpu.async_wait
// CHECK: tilegpu.barrier
// Prologue: iteration lb + 0 * step into stage 0, lb + 1 * step into stage 1.
// CHECK: %[[I0:.*]] = arith.addi %[[LB:.*]], %{{.*}} : i32
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi slt, %[[I0]], %[[N]] : i32
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KN0:.*]] = arith.muli %[[I0]], %{{.*}} : i32
// CHECK-NEXT: %[[KS0:.*]] = tilegpu.subview %[[KR]][%[[S0]]]
// CHECK-NEXT: tilegpu.async_copy %[[K]][%[[KN0]], %{{.*}}] dims [1, 0] into %[[KS0]] if %[[P0]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: %[[VN0:.*]] = arith.muli %[[I0]], %{{.*}} : i32
// CHECK-NEXT: %[[VS0:.*]] = tilegpu.subview %[[VR]][%[[S0]]]
// CHECK-NEXT: tilegpu.async_copy %[[V]][%[[VN0]], %{{.*}}] dims [0, 1] into %[[VS0]] if %[[P0]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK: %[[I1:.*]] = arith.addi %[[LB]], %{{.*}} : i32
// CHECK-NEXT: %[[P1:.*]] = arith.cmpi slt, %[[I1]], %[[N]] : i32
// CHECK-NEXT: %[[S1:.*]] = arith.constant 1 : i32
// CHECK: tilegpu.subview %[[KR]][%[[S1]]]
// CHECK-NEXT: tilegpu.async_copy %[[K]]{{.*}} if %[[P1]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK: tilegpu.subview %[[VR]][%[[S1]]]
// CHECK-NEXT: tilegpu.async_copy %[[V]]{{.*}} if %[[P1]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: scf.for %[[J:.*]] = %[[LB]] to %[[N]] step %[[STEP:[^ ]*]]
// CHECK: %[[KK:.*]] = arith.divsi %{{.*}}, %[[STEP]] : i32
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[CUR:.*]] = arith.remsi %[[KK]], %[[C3]] : i32
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[K2:.*]] = arith.addi %[[KK]], %[[C2]] : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.remsi %[[K2]], %[[C3]] : i32
// CHECK: %[[AHEAD:.*]] = arith.addi %[[J]], %{{.*}} : i32
// CHECK-NEXT: %[[INRANGE:.*]] = arith.cmpi slt, %[[AHEAD]], %[[N]] : i32
// CHECK: tilegpu.async_wait 3
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: %[[KCUR:.*]] = tilegpu.subview %[[KR]][%[[CUR]]]
// CHECK-NEXT: %[[KNA:.*]] = arith.muli %[[AHEAD]], %{{.*}} : i32
// CHECK-NEXT: %[[KNEXT:.*]] = tilegpu.subview %[[KR]][%[[NEXT]]]
// CHECK-NEXT: tilegpu.async_copy %[[K]][%[[KNA]], %{{.*}}] dims [1, 0] into %[[KNEXT]] if %[[INRANGE]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: %[[S:.*]] = tilegpu.mma %[[QB]], %[[KCUR]], %{{.*}}
// CHECK-NEXT: %[[P:.*]] = tile.astype %[[S]]
// CHECK-NEXT: tilegpu.async_wait 3
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: %[[VCUR:.*]] = tilegpu.subview %[[VR]][%[[CUR]]]
// CHECK-NEXT: %[[VNA:.*]] = arith.muli %[[AHEAD]], %{{.*}} : i32
// CHECK-NEXT: %[[VNEXT:.*]] = tilegpu.subview %[[VR]][%[[NEXT]]]
// CHECK-NEXT: tilegpu.async_copy %[[V]][%[[VNA]], %{{.*}}] dims [0, 1] into %[[VNEXT]] if %[[INRANGE]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.mma %[[P]], %[[VCUR]], %{{.*}}
// CHECK-NOT: tilegpu.async_wait
// CHECK: return
// Two stages from the option (or because three do not fit in 50000 bytes:
// tilegpu-pipeline-budget.mlir): the wait leaves (2 - 1) * 2 - 1 = 1 group pending.
// STAGES2-LABEL: func.func @attention
// STAGES2: tilegpu.alloc : <2x64x64xf16
// STAGES2: tilegpu.alloc : <2x64x64xf16
// STAGES2-COUNT-2: tilegpu.async_wait 1
// STAGES2-NOT: tilegpu.async_wait
// STAGES2: return
// Not even two stages fit in 30000 bytes: the loop stays as it was, and so
// does Q's wait.
func.func @attention(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                     %V: !tile.view<?x?xf16>, %n: i32) -> tensor<64x64xf32, #mma> {
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

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// A split loop (tile-split-loop's main loop and masked tail) with latency 2:
// S = 2 and n = 1, so each iteration waits for all but 0 younger groups.
// The tail reuses the main loop's ring (one allocation, paid once: with 30000
// bytes, Q and one two-stage ring fit, two rings would not); before its
// prologue it drains the main loop's zero-filling prefetches past its end
// (wait 0) and synchronizes.
// CHECK-LABEL: func.func @split_loop
// CHECK-SAME: (%{{.*}}: !tile.view<?x?xf16>, %[[K:.*]]: !tile.view<?x?xf16>, %[[SPLIT:.*]]: i32, %[[N:.*]]: i32)
// CHECK: tilegpu.alloc : <64x64xf16
// CHECK-NEXT: %[[KR:.*]] = tilegpu.alloc : <2x64x64xf16
// CHECK-NOT: tilegpu.alloc
// CHECK-NOT: tilegpu.async_wait
// CHECK: tilegpu.barrier
// CHECK: tilegpu.subview %[[KR]]
// CHECK-NEXT: tilegpu.async_copy %[[K]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: %[[MAIN:.*]] = scf.for %{{.*}} = %{{.*}} to %[[SPLIT]]
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
// CHECK: tilegpu.async_copy %[[K]]{{.*}} if
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
// CHECK: %[[T0:.*]] = arith.addi %[[SPLIT]], %{{.*}} : i32
// CHECK-NEXT: %[[TP:.*]] = arith.cmpi slt, %[[T0]], %[[N]] : i32
// CHECK: tilegpu.subview %[[KR]]
// CHECK-NEXT: tilegpu.async_copy %[[K]][%[[T0]], %{{.*}}] {{.*}} if %[[TP]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: scf.for %[[J:.*]] = %[[SPLIT]] to %[[N]] {{.*}} iter_args(%{{.*}} = %[[MAIN]])
// CHECK-NEXT: arith.subi %[[J]], %[[SPLIT]] : i32
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
// CHECK: tilegpu.subview %[[KR]]
// STAGES2-LABEL: func.func @split_loop
// STAGES2-COUNT-1: tilegpu.alloc : <2x64x64xf16
// STAGES2-NOT: tilegpu.alloc
// STAGES2: scf.for
func.func @split_loop(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>, %split: i32,
                      %n: i32) -> tensor<64x64xf32, #mma> {
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

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// Without a latency hint (or with latency 1) a loop keeps one stage, unless
// the stages option asks for more. A copy whose buffer is also read outside
// the pipelined loop keeps its wait.
// CHECK-LABEL: func.func @no_latency
// CHECK-NOT: tilegpu.subview
// CHECK: tilegpu.async_copy %{{.*}} into %[[QB:[^ ]*]] :
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK: scf.for
// CHECK: tilegpu.async_wait 0
// CHECK-NOT: tilegpu.subview
// CHECK: scf.for
// CHECK: tilegpu.async_wait 0
// CHECK-NOT: tilegpu.subview
// CHECK: return
// STAGES2-LABEL: func.func @no_latency
// STAGES2: tilegpu.async_copy %{{.*}} into %[[QB:[^ ]*]] :
// STAGES2-NEXT: tilegpu.async_commit
// STAGES2-NEXT: tilegpu.async_wait 0
// STAGES2-NEXT: tilegpu.barrier
// STAGES2: scf.for
// STAGES2: tilegpu.subview
// STAGES2: scf.for
// STAGES2: tilegpu.subview
// STAGES2: tilegpu.mma %[[QB]]
// STAGES2: tilegpu.mma %[[QB]]
func.func @no_latency(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>, %n: i32)
    -> tensor<64x64xf32, #mma> {
  %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
  %kb2 = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  tilegpu.async_copy %Q[%c0, %c0] dims [0, 1] into %qb
      : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
  tilegpu.async_commit
  tilegpu.async_wait 0
  tilegpu.barrier
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    tilegpu.barrier
    tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s = tilegpu.mma %qb, %kb, %acc : !tilegpu.smem<64x64xf16, #pad>,
        !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
    scf.yield %s : tensor<64x64xf32, #mma>
  }
  %r2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<64x64xf32, #mma>) : i32 {
    tilegpu.barrier
    tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb2 {tilegpu.latency = 1 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s = tilegpu.mma %qb, %kb2, %acc : !tilegpu.smem<64x64xf16, #pad>,
        !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
    scf.yield %s : tensor<64x64xf32, #mma>
  }
  %last = tilegpu.mma %qb, %kb, %r2 : !tilegpu.smem<64x64xf16, #pad>,
      !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
  return %last : tensor<64x64xf32, #mma>
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// The prologue recomputes copy offsets for other iterations, so they may
// depend only on the induction variable and loop invariants: an offset
// carried in an iter_arg (or loaded, or computed by an impure op) keeps the
// loop as it is, even with the stages option. So does a copy that is
// already predicated.
// CHECK-LABEL: func.func @negative_offset_from_iter_arg
// CHECK-NOT: tilegpu.subview
// CHECK: tilegpu.async_wait 0
// CHECK-NOT: tilegpu.subview
// CHECK: return
// STAGES2-LABEL: func.func @negative_offset_from_iter_arg
// STAGES2-NOT: tilegpu.subview
// STAGES2: tilegpu.async_wait 0
// STAGES2-NOT: tilegpu.subview
// STAGES2: return
func.func @negative_offset_from_iter_arg(%K: !tile.view<?x?xf16>, %a: !tilegpu.smem<64x64xf16, #pad>,
                                         %n: i32) -> tensor<64x64xf32, #mma> {
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero, %off = %c0)
      -> (tensor<64x64xf32, #mma>, i32) : i32 {
    tilegpu.barrier
    tilegpu.async_copy %K[%off, %c0] dims [0, 1] into %kb {tilegpu.latency = 4 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s = tilegpu.mma %a, %kb, %acc : !tilegpu.smem<64x64xf16, #pad>,
        !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
    %next = arith.addi %off, %c64 : i32
    scf.yield %s, %next : tensor<64x64xf32, #mma>, i32
  }
  return %r#0 : tensor<64x64xf32, #mma>
}

// CHECK-LABEL: func.func @negative_predicated_copy
// CHECK-NOT: tilegpu.subview
// CHECK: tilegpu.async_wait 0
// STAGES2-LABEL: func.func @negative_predicated_copy
// STAGES2-NOT: tilegpu.subview
// STAGES2: tilegpu.async_wait 0
func.func @negative_predicated_copy(%K: !tile.view<?x?xf16>, %a: !tilegpu.smem<64x64xf16, #pad>,
                                    %n: i32, %p: i1) -> tensor<64x64xf32, #mma> {
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    tilegpu.barrier
    tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb if %p {tilegpu.latency = 4 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s = tilegpu.mma %a, %kb, %acc : !tilegpu.smem<64x64xf16, #pad>,
        !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
    scf.yield %s : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// A paged loop: the copy's row comes from a page read from a block table
// (tile.read) in the body. The read is cloned with the offsets for the
// iterations issued ahead (a coordinate outside the table reads 0, so the
// clones past the loop's end are safe), and the loop is pipelined.
// CHECK-LABEL: func.func @paged_read
// CHECK: %[[RING:.*]] = tilegpu.alloc : <3x64x64xf16
// Prologue: the page of iteration 0, then its copy.
// CHECK: tile.read %[[TABLE:arg[0-9]+]][%{{.*}}] : <?xi32> -> i32
// CHECK: tilegpu.async_copy
// CHECK: scf.for
// CHECK: tilegpu.async_wait 1
// The page of the iteration two ahead.
// CHECK: tile.read %[[TABLE]][%{{.*}}] : <?xi32> -> i32
// CHECK: tilegpu.async_copy {{.*}} if
// CHECK: return
// STAGES2-LABEL: func.func @paged_read
// STAGES2: tilegpu.alloc : <2x64x64xf16
// STAGES2: tilegpu.async_wait 0
func.func @paged_read(%K: !tile.view<?x?xf16>, %Table: !tile.view<?xi32>,
                      %a: !tilegpu.smem<64x64xf16, #pad>, %n: i32) -> tensor<64x64xf32, #mma> {
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %page = tile.read %Table[%j] : !tile.view<?xi32> -> i32
    tilegpu.barrier
    tilegpu.async_copy %K[%page, %c0] dims [0, 1] into %kb {tilegpu.latency = 4 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s = tilegpu.mma %a, %kb, %acc : !tilegpu.smem<64x64xf16, #pad>,
        !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
    scf.yield %s : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

// A read of a view the loop also writes is not moved ahead of the writes
// of earlier iterations: the loop stays as it is.
// CHECK-LABEL: func.func @negative_read_written_view
// CHECK-NOT: tilegpu.subview
// CHECK: tilegpu.async_wait 0
// CHECK: return
// STAGES2-LABEL: func.func @negative_read_written_view
// STAGES2-NOT: tilegpu.subview
// STAGES2: tilegpu.async_wait 0
func.func @negative_read_written_view(%K: !tile.view<?x?xf16>, %Table: !tile.view<?xi32>,
                                      %a: !tilegpu.smem<64x64xf16, #pad>, %n: i32)
    -> tensor<64x64xf32, #mma> {
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %page = tile.read %Table[%j] : !tile.view<?xi32> -> i32
    tilegpu.barrier
    tilegpu.async_copy %K[%page, %c0] dims [0, 1] into %kb {tilegpu.latency = 4 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #pad>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s = tilegpu.mma %a, %kb, %acc : !tilegpu.smem<64x64xf16, #pad>,
        !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
    tile.atomic add %c1, %Table[%j] : i32, !tile.view<?xi32>
    scf.yield %s : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

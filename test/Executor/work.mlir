// The work limit of the CPU reference executor (issue 11: no run past 20 s):
// tile-exec estimates the work of a run before it allocates the views
// (Executable::estimateWork) and refuses one over --max-work (default 2^32,
// a few seconds); the run itself stops at the limit. A unit is about one
// element operation; dispatching an op or starting an iteration costs 16.

// Units: arith.constant 16, tile.full 16 (a prebuilt constant), a store of 8
// elements 16 + 8; 56 a block, 168 for 3 blocks, exactly what the run does.
// RUN: tile-exec %s --kernel=unit --grid=3 --arg='f32[8]=zeros' --print-work 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNIT
// UNIT: work: estimated 168, done 168
func.func @unit(%Out: !tile.view<?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %t = tile.full 1.0 shape [8] : tensor<8xf32>
  tile.store %t, %Out[%c0] : tensor<8xf32>, !tile.view<?xf32>
  return
}

// Block b runs b + 1 iterations of a 4x4 tile.mma, and a store on the last
// (a loop bound from the block id, a branch on the induction variable): the
// estimate counts block by block and iteration by iteration, and is exact:
// block b is 145 + 145 (b + 1) (an iteration: 16, the mma 16 + 16 + 64, the
// cmpi 17, the scf.if 16; the store 32 once), 2900 for 5 blocks.
// RUN: tile-exec %s --kernel=triangle --grid=5 --num-threads=2 \
// RUN:   --arg='f32[20x4]=fill:-1' --print-work 2>&1 | FileCheck %s --check-prefix=TRI
// TRI: work: estimated 2900, done 2900
// TRI: Out[0]: 4 4 4 4
// TRI: Out[19]: 20 20 20 20
//
// Over the limit: refused before the views are allocated, with the estimate.
// RUN: not tile-exec %s --kernel=triangle --grid=5 --arg='f32[20x4]=fill:-1' \
// RUN:   --max-work=1000 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: error: the run needs {{[0-9]+}} units of work (estimated before it starts), more than the limit of 1000 (--max-work; 0 for no limit)
// OVER-NOT: Out[
//
// --max-work=0: no limit; a limit at the estimate: runs.
// RUN: tile-exec %s --kernel=triangle --grid=5 --arg='f32[20x4]=fill:-1' \
// RUN:   --max-work=0 | FileCheck %s --check-prefix=RUNS
// RUN: tile-exec %s --kernel=triangle --grid=5 --arg='f32[20x4]=fill:-1' \
// RUN:   --print-work 2>&1 | sed -n 's/^work: estimated \([0-9]*\),.*/\1/p' > %t.work
// RUN: tile-exec %s --kernel=triangle --grid=5 --arg='f32[20x4]=fill:-1' \
// RUN:   --max-work=`cat %t.work` | FileCheck %s --check-prefix=RUNS
// RUNS: Out[19]: 20 20 20 20
func.func @triangle(%Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %b = tile.block_id x
  %n = arith.addi %b, %c1 : i32
  %a = tile.full 1.0 shape [4, 4] : tensor<4x4xf16>
  %zero = tile.full 0.0 shape [4, 4] : tensor<4x4xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%x = %zero) -> (tensor<4x4xf32>) : i32 {
    %y = tile.mma %a, %a, %x : tensor<4x4xf16>, tensor<4x4xf16>, tensor<4x4xf32>
    %last = arith.cmpi eq, %i, %b : i32
    scf.if %last {
      tile.store %y, %Out[%b, %c0] : tensor<4x4xf32>, !tile.view<?x?xf32>
    }
    scf.yield %y : tensor<4x4xf32>
  }
  return
}

// 2^31 iterations of scalar code: counting stops after 2^22 steps (a lower
// bound below the limit) and the run stops at the limit.
// RUN: not tile-exec %s --kernel=spin --max-work=100000000 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPIN
// SPIN: error: tile executor: the run did more than 100000000 units of work, its limit (--max-work raises it; 0 removes it) (block 0, 0, 0)
// RUN: not tile-exec %s --kernel=spin --max-work=1000 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPIN-EST
// SPIN-EST: error: the run needs at least {{[0-9]+}} units of work (estimated before it starts), more than the limit of 1000
func.func @spin() {
  %c0 = arith.constant 0 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %go = arith.cmpi sge, %i, %c0 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%j: i32):
    %c1 = arith.constant 1 : i32
    %k = arith.addi %j, %c1 : i32
    scf.yield %k : i32
  }
  return
}

// RUN: not tile-exec %s --kernel=spin --max-work=-1 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tile-exec %s --kernel=spin --max-work=lots 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tile-exec %s --kernel=spin --max-work=99999999999999999999 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tile-exec %s --kernel=spin --max-work= 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: bad --max-work:

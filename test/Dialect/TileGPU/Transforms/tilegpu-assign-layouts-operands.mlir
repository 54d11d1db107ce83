// tilegpu-assign-layouts on mma operands that are not plain loads, and on
// the tiles around mma that no mma owns: a computed B is stored to shared
// memory by tilegpu.local_store, an A computed in another layout as well,
// an operand from a view aligned below 4 bytes is loaded into registers
// and stored (cp.async moves 4 bytes at least), and a bias row of the
// accumulator takes the accumulator's slice.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts | FileCheck %s --check-prefix=WGMMA

// B = load * scale, rounded to f16, inside the K loop: computed in the
// load's blocked layout, then stored (barrier first: the previous
// iteration's mma may still read the buffer; barrier after: every warp
// sees it). A keeps its cp.async. The bias [64] is loaded in the
// accumulator's column slice and broadcast without data movement.
// CHECK-LABEL: func.func @gemm_computed_b
// CHECK-DAG: %[[BBUF:.*]] = tilegpu.alloc : <32x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>
// CHECK-DAG: %[[ABUF:.*]] = tilegpu.alloc : <64x32xf16
// CHECK: scf.for
// CHECK: tilegpu.async_copy %{{.*}} into %[[ABUF]]
// CHECK: %[[B:.*]] = tilegpu.load %{{.*}} -> tensor<32x64xf16, [[BL:#tilegpu.blocked<sizePerThread = \[1, 8\], threadsPerWarp = \[4, 8\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]>
// CHECK: %[[BH:.*]] = tile.astype %{{.*}} : tensor<32x64xf32, [[BL]]> -> tensor<32x64xf16, [[BL]]>
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store %[[BH]], %[[BBUF]] : tensor<32x64xf16, [[BL]]>, <32x64xf16
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.mma %[[ABUF]], %[[BBUF]], %{{.*}} : {{.*}}, tensor<64x64xf32, [[MMA:#tilegpu.mma<version = 2, warps = \[4, 1\]>]]>
// CHECK: tilegpu.load %{{.*}} dims [0] : <?xf32> -> tensor<64xf32, #tilegpu.slice<dim = 0, parent = [[MMA]]>>
// CHECK: tile.reshape {{.*}} -> tensor<1x64xf32, [[MMA]]>
// CHECK-NOT: convert_layout
// On sm_90a the computed B takes the 128B-swizzle wgmma layout (A is 32
// wide, too narrow for wgmma: mma.sync here too).
// WGMMA-LABEL: func.func @gemm_computed_b
// WGMMA: tilegpu.local_store
func.func @gemm_computed_b(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>,
                           %Bias: !tile.view<?xf32>, %C: !tile.view<?x?xf32>,
                           %n: i32, %scale: f32)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  %c32 = arith.constant 32 : i32
  %acc = scf.for %k = %c0 to %n step %c32 iter_args(%c = %zero) -> (tensor<64x64xf32>) : i32 {
    %a = tilegpu.load %A[%c0, %k] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x32xf16>
    %b = tilegpu.load %B[%k, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<32x64xf16>
    %bf = tile.astype %b : tensor<32x64xf16> -> tensor<32x64xf32>
    %s = tile.splat %scale shape [32, 64] : f32 -> tensor<32x64xf32>
    %bs = arith.mulf %bf, %s : tensor<32x64xf32>
    %bh = tile.astype %bs : tensor<32x64xf32> -> tensor<32x64xf16>
    %d = tile.mma %a, %bh, %c : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %bias = tilegpu.load %Bias[%c0] dims [0] : !tile.view<?xf32> -> tensor<64xf32>
  %b2 = tile.reshape %bias shape [1, 64] : tensor<64xf32> -> tensor<1x64xf32>
  %bb = tile.broadcast %b2 shape [64, 64] : tensor<1x64xf32> -> tensor<64x64xf32>
  %y = arith.addf %acc, %bb : tensor<64x64xf32>
  tilegpu.store %y, %C[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// With 64-wide tiles wgmma takes the computed B in its canonical layout.
// WGMMA-LABEL: func.func @wgmma_computed_b
// WGMMA: tilegpu.alloc : <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
// WGMMA: tilegpu.local_store %{{.*}} : tensor<64x64xf16, #tilegpu.blocked<{{.*}}>>, <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
// WGMMA: tilegpu.mma {{.*}} : {{.*}}, tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>
func.func @wgmma_computed_b(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>, %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %b2 = arith.addf %b, %b : tensor<64x64xf16>
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  %d = tile.mma %a, %b2, %zero : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A that no rule lets take the accumulator layout (a permute, which #mma
// does not have) is computed in its load's blocked layout and staged
// through shared memory like a loaded A. (The permute of a computed tile:
// that of a load would read the load's buffer transposed,
// tilegpu-assign-layouts-transposed.mlir.)
// CHECK-LABEL: func.func @computed_a
// CHECK: %[[A:.*]] = tile.permute %{{.*}} [1, 0] : {{.*}} -> tensor<16x16xf16, #tilegpu.blocked<{{.*}}>>
// CHECK-NEXT: tilegpu.local_store %[[A]], %[[ABUF:.*]] :
// CHECK-NEXT: tilegpu.barrier
// CHECK: tilegpu.mma %[[ABUF]], %{{.*}} : !tilegpu.smem<16x16xf16
func.func @computed_a(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>, %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %al = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %at = arith.addf %al, %al : tensor<16x16xf16>
  %a = tile.permute %at [1, 0] : tensor<16x16xf16> -> tensor<16x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %zero = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %zero : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<16x16xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Views aligned to 2 bytes (f16 rows of odd length): no cp.async; the
// operand is loaded into registers (element-wise) and stored to shared
// memory. An 8-byte aligned view keeps cp.async (8-byte copies).
// CHECK-LABEL: func.func @narrow_views
// CHECK: tilegpu.async_copy %arg0
// CHECK: %[[B:.*]] = tilegpu.load %arg1[{{.*}}] dims [0, 1] : <?x?xf16> -> tensor<16x16xf16, #tilegpu.blocked<sizePerThread = [1, 1], {{.*}}>>
// CHECK-NEXT: tilegpu.local_store %[[B]], %{{.*}}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NOT: tilegpu.async_copy %arg1
func.func @narrow_views(%A: !tile.view<?x?xf16> {tile.align = 8 : i64},
                        %B: !tile.view<?x?xf16> {tile.align = 2 : i64},
                        %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %zero = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %zero : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<16x16xf32>, !tile.view<?x?xf32>
  return
}

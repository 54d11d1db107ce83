// tilegpu-assign-layouts on sm_90a: wgmma (#mma version 3) when every mma
// fits, with operands staged in the 128-byte-piece swizzled layout that the
// wgmma descriptors read; mma.sync otherwise (automatically) or an error at
// the mma that does not fit (mma-version=3).
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts='mma-version=2' | FileCheck %s --check-prefix=SYNC
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90 -tilegpu-assign-layouts | FileCheck %s --check-prefix=SYNC
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts='mma-version=3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_89 -tilegpu-assign-layouts='mma-version=3' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts='mma-version=1' 2>&1 | FileCheck %s --check-prefix=VERSION

// Attention in miniature with wgmma-sized tiles: 128 query rows on 8 warps
// (two warpgroups), 64 keys, head dim 64 (one 128-byte piece per row). Q
// and V are stored row by row, K^T with its K (head dim) contiguous: all
// three get 128-byte pieces along their contiguous dimension. P stays in
// registers in the version 3 layout.
// CHECK-LABEL: func.func @attention
// CHECK-SAME: tilegpu.mma_version = 3 : i32, tilegpu.num_warps = 8 : i32
// CHECK-DAG: tilegpu.alloc : <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
// CHECK-DAG: tilegpu.alloc : <64x64xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
// CHECK-DAG: tilegpu.alloc : <128x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
// CHECK: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} : !tilegpu.smem<128x64xf16, {{.*}}>, <64x64xf16, {{.*}}>, tensor<128x64xf32, #tilegpu.mma<version = 3, warps = [8, 1]>>
// CHECK: tile.astype %{{.*}} : tensor<128x64xf32, #tilegpu.mma<version = 3, warps = [8, 1]>> -> tensor<128x64xf16, #tilegpu.mma<version = 3, warps = [8, 1]>>
// CHECK: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64xf16, #tilegpu.mma<version = 3, warps = [8, 1]>>, <64x64xf16, {{.*}}>, tensor<128x64xf32, #tilegpu.mma<version = 3, warps = [8, 1]>>
// SYNC-LABEL: func.func @attention
// SYNC-SAME: tilegpu.mma_version = 2 : i32
// SYNC-NOT: chunk
// SYNC: #tilegpu.mma<version = 2, warps = [8, 1]>
// STRICT-NOT: @attention
// CHIP: error: mma-version=3 (wgmma) needs chip sm_90a, got 'sm_89'
// VERSION: error: mma-version must be 0 (auto), 2 (mma.sync) or 3 (wgmma), got 1
func.func @attention(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                     %V: !tile.view<?x?xf16>, %O: !tile.view<?x?xf16>,
                     %n: i32) attributes {tile.kernel = {num_warps = 8 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %q = tilegpu.load %Q[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<128x64xf16>
  %zero = tile.full 0.0 shape [128, 64] : tensor<128x64xf32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32>) : i32 {
    %k = tilegpu.load %K[%j, %c0] dims [1, 0] : !tile.view<?x?xf16> -> tensor<64x64xf16>
    %s = tile.mma %q, %k, %zero : tensor<128x64xf16>, tensor<64x64xf16>, tensor<128x64xf32>
    %p = tile.exp2 %s : tensor<128x64xf32>
    %p16 = tile.astype %p : tensor<128x64xf32> -> tensor<128x64xf16>
    %v = tilegpu.load %V[%j, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
    %accn = tile.mma %p16, %v, %acc : tensor<128x64xf16>, tensor<64x64xf16>, tensor<128x64xf32>
    scf.yield %accn : tensor<128x64xf32>
  }
  %o = tile.astype %r : tensor<128x64xf32> -> tensor<128x64xf16>
  tilegpu.store %o, %O[%c0, %c0] dims [0, 1] : tensor<128x64xf16>, !tile.view<?x?xf16>
  return
}

// -----

// A head dim of 32 (64-byte rows) has no 128-byte pieces: mma.sync on sm_90a
// by default, an error at the mma when wgmma is required.
// CHECK-LABEL: func.func @narrow_rows
// CHECK-SAME: tilegpu.mma_version = 2 : i32
// CHECK: #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @narrow_rows(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>,
                       %C: !tile.view<?x?xf32>) attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x32xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<32x64xf16>
  %z = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  // STRICT: tilegpu-assign-layouts-wgmma.mlir:[[# @LINE + 1]]:8: error: 'tile.mma' op cannot use wgmma (mma-version=3): a shared operand does not fit the 128B-swizzle layout (contiguous dimension a multiple of 128 bytes, the other of 8)
  %d = tile.mma %a, %b, %z : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Two warps are half a warpgroup.
// CHECK-LABEL: func.func @two_warps
// CHECK-SAME: tilegpu.mma_version = 2 : i32
func.func @two_warps(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>,
                     %C: !tile.view<?x?xf32>) attributes {tile.kernel = {num_warps = 2 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %z = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  // STRICT: tilegpu-assign-layouts-wgmma.mlir:[[# @LINE + 1]]:8: error: 'tile.mma' op cannot use wgmma (mma-version=3): wgmma needs whole warpgroups (num_warps a multiple of 4)
  %d = tile.mma %a, %b, %z : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// N = 320 is wider than one wgmma.
// CHECK-LABEL: func.func @wide_n
// CHECK-SAME: tilegpu.mma_version = 2 : i32
func.func @wide_n(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>,
                  %C: !tile.view<?x?xf32>) attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x320xf16>
  %z = tile.full 0.0 shape [64, 320] : tensor<64x320xf32>
  // STRICT: tilegpu-assign-layouts-wgmma.mlir:[[# @LINE + 1]]:8: error: 'tile.mma' op cannot use wgmma (mma-version=3): wgmma needs N <= 256
  %d = tile.mma %a, %b, %z : tensor<64x64xf16>, tensor<64x320xf16>, tensor<64x320xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<64x320xf32>, !tile.view<?x?xf32>
  return
}

// tilegpu-assign-layouts on mma operands that are the transpose
// (tile.permute [1, 0]) of a loaded tile: the operand reads the load's
// shared buffer transposed (tilegpu.mma transpose_a / transpose_b), so a
// tile and its transpose share one buffer, one copy and one barrier. A
// permuted load that something else reads too keeps its permute for that
// user.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts | FileCheck %s --check-prefix=WGMMA

// Attention backward in miniature: S^T = K Q^T and dK = X Q with one Q
// buffer (Q [64, 128], the head dim contiguous): S^T reads it transposed.
// CHECK-LABEL: func.func @tile_and_transpose
// CHECK-COUNT-2: tilegpu.alloc
// CHECK-NOT: tilegpu.alloc
// CHECK: scf.for
// CHECK: tilegpu.async_copy %{{.*}} into %[[Q:[^ ]*]]
// CHECK-NOT: tilegpu.async_copy
// CHECK: tilegpu.mma %[[K:[^,]*]], %[[Q]], %{{.*}} {transpose_b} : !tilegpu.smem<64x128xf16, {{.*}}>, <64x128xf16, {{.*}}>, tensor<64x64xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>
// CHECK: tilegpu.mma %{{.*}}, %[[Q]], %{{.*}} : tensor<64x64xf16, {{.*}}>, <64x128xf16, {{.*}}>, tensor<64x128xf32
// CHECK-NOT: tile.permute
// On sm_90a, the same: one 128B-swizzle buffer for Q, read K-major by S^T
// (transpose_b) and MN-major by dK.
// WGMMA-LABEL: func.func @tile_and_transpose
// WGMMA-SAME: tilegpu.mma_version = 3
// WGMMA-COUNT-2: tilegpu.alloc : <64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
// WGMMA-NOT: tilegpu.alloc
// WGMMA: tilegpu.mma %{{.*}}, %[[Q:[^,]*]], %{{.*}} {transpose_b} : !tilegpu.smem<64x128xf16
// WGMMA: tilegpu.mma %{{.*}}, %[[Q]], %{{.*}} : tensor<64x64xf16
func.func @tile_and_transpose(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                              %DK: !tile.view<?x?xf32>, %n: i32)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %k = tilegpu.load %K[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x128xf16>
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  %dk0 = tile.full 0.0 shape [64, 128] : tensor<64x128xf32>
  %dk = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %dk0) -> (tensor<64x128xf32>) : i32 {
    %q = tilegpu.load %Q[%i, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x128xf16>
    %qt = tile.permute %q [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
    %s = tile.mma %k, %qt, %zero : tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>
    %p = tile.astype %s : tensor<64x64xf32> -> tensor<64x64xf16>
    %accn = tile.mma %p, %q, %acc : tensor<64x64xf16>, tensor<64x128xf16>, tensor<64x128xf32>
    scf.yield %accn : tensor<64x128xf32>
  }
  tilegpu.store %dk, %DK[%c0, %c0] dims [0, 1] : tensor<64x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A transposed A: C = A^T B with A stored K x M ([128, 64], M contiguous),
// the permute reached through reshapes that only add and drop unit
// dimensions. The load's buffer is A's [128, 64], read with transpose_a.
// CHECK-LABEL: func.func @transposed_a
// CHECK-COUNT-2: tilegpu.alloc
// CHECK-NOT: tilegpu.alloc
// CHECK: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} {transpose_a} : !tilegpu.smem<128x64xf16, {{.*}}>, <128x64xf16, {{.*}}>, tensor<64x64xf32
// CHECK-NOT: tile.permute
// CHECK-NOT: tile.reshape
// WGMMA-LABEL: func.func @transposed_a
// WGMMA-SAME: tilegpu.mma_version = 3
// WGMMA: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} {transpose_a} : !tilegpu.smem<128x64xf16, {{.*}}>, <128x64xf16, {{.*}}>, tensor<64x64xf32, #tilegpu.mma<version = 3
func.func @transposed_a(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>,
                        %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<128x64xf16>
  %a3 = tile.reshape %a shape [1, 128, 64] : tensor<128x64xf16> -> tensor<1x128x64xf16>
  %a2 = tile.reshape %a3 shape [128, 64] : tensor<1x128x64xf16> -> tensor<128x64xf16>
  %at = tile.permute %a2 [1, 0] : tensor<128x64xf16> -> tensor<64x128xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<128x64xf16>
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  %c = tile.mma %at, %b, %zero : tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>
  tilegpu.store %c, %C[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// The permuted tile is also stored: the mma reads the load's buffer
// transposed, and the permute stays for the store (in registers, as
// without the mma).
// CHECK-LABEL: func.func @transpose_also_stored
// CHECK: %[[QT:.*]] = tile.permute
// CHECK: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} {transpose_b}
// CHECK: tilegpu.convert_layout %[[QT]]
// CHECK: tilegpu.store
func.func @transpose_also_stored(%K: !tile.view<?x?xf16>, %Q: !tile.view<?x?xf16>,
                                 %S: !tile.view<?x?xf32>, %QT: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %k = tilegpu.load %K[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x128xf16>
  %q = tilegpu.load %Q[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x128xf16>
  %qt = tile.permute %q [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  %s = tile.mma %k, %qt, %zero : tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>
  tilegpu.store %s, %S[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  tilegpu.store %qt, %QT[%c0, %c0] dims [0, 1] : tensor<128x64xf16>, !tile.view<?x?xf16>
  return
}

// -----

// A load that pads with other than zero is not staged for mma (its padding
// would leak into the products): its permute stays a computed operand,
// stored to shared memory as before.
// CHECK-LABEL: func.func @padded_load_stays_computed
// CHECK: %[[QT:.*]] = tile.permute
// CHECK: tilegpu.local_store %[[QT]]
// CHECK: tilegpu.mma
// CHECK-NOT: transpose_b
func.func @padded_load_stays_computed(%K: !tile.view<?x?xf16>, %Q: !tile.view<?x?xf16>,
                                      %S: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %k = tilegpu.load %K[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x128xf16>
  %q = tilegpu.load %Q[%c0, %c0] dims [0, 1] padding neg_inf : !tile.view<?x?xf16> -> tensor<64x128xf16>
  %qt = tile.permute %q [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  %s = tile.mma %k, %qt, %zero : tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>
  tilegpu.store %s, %S[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

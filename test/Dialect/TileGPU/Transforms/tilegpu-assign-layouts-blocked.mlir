// tilegpu-assign-layouts on kernels without tensor cores: coalesced
// #blocked layouts at global loads and stores, propagation through
// elementwise ops, reductions (any axis, with and without keepdims),
// broadcasts, reshapes, permutes and selects, 1-d tiles, and the
// conversions inserted where two layouts meet.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts=num-warps=8 | FileCheck %s --check-prefix=WARPS8

// Elementwise only: a [64, 64] f16 tile from a row-major view gets 8 f16
// (16 bytes) per thread along dim 1, 8 lanes per row, 4 rows per warp,
// the 4 warps over the rows; every op computes in it; no conversion.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: tilegpu.num_warps = 4 : i32
// CHECK: tilegpu.load {{.*}} -> tensor<64x64xf16, [[B:#tilegpu.blocked<sizePerThread = \[1, 8\], threadsPerWarp = \[4, 8\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]>
// CHECK: tile.astype {{.*}} -> tensor<64x64xf32, [[B]]>
// CHECK: arith.mulf {{.*}} : tensor<64x64xf32, [[B]]>
// CHECK: tilegpu.store {{.*}} : tensor<64x64xf16, [[B]]>
// CHECK-NOT: convert_layout
// The warp count comes from the option as well.
// WARPS8-LABEL: func.func @elementwise
// WARPS8-SAME: tilegpu.num_warps = 8 : i32
// WARPS8: tensor<64x64xf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>>
func.func @elementwise(%X: !tile.view<?x?xf16>, %Y: !tile.view<?x?xf16>, %s: f32)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %xf = tile.astype %x : tensor<64x64xf16> -> tensor<64x64xf32>
  %st = tile.splat %s shape [64, 64] : f32 -> tensor<64x64xf32>
  %y = arith.mulf %xf, %st : tensor<64x64xf32>
  %yh = tile.astype %y : tensor<64x64xf32> -> tensor<64x64xf16>
  tilegpu.store %yh, %Y[%c0, %c0] dims [0, 1] : tensor<64x64xf16>, !tile.view<?x?xf16>
  return
}

// -----

// 1-d tiles: 4 f32 (16 bytes) per thread, 32 lanes, 4 warps; the hint
// gives the warp count of a kernel without mma.
// CHECK-LABEL: func.func @one_d
// CHECK-SAME: tilegpu.num_warps = 4 : i32
// CHECK: tilegpu.load {{.*}} -> tensor<1024xf32, [[B:#tilegpu.blocked<sizePerThread = \[4\], threadsPerWarp = \[32\], warpsPerCTA = \[4\], order = \[0\]>]]>
// CHECK: tile.iota shape [1024] dim 0 : tensor<1024xi32, [[B]]>
// CHECK: tilegpu.store {{.*}} : tensor<1024xf32, [[B]]>
// CHECK-NOT: convert_layout
func.func @one_d(%X: !tile.view<?xf32>, %Y: !tile.view<?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0] dims [0] : !tile.view<?xf32> -> tensor<1024xf32>
  %i = tile.iota shape [1024] dim 0 : tensor<1024xi32>
  %f = tile.astype %i : tensor<1024xi32> -> tensor<1024xf32>
  %y = arith.addf %x, %f : tensor<1024xf32>
  tilegpu.store %y, %Y[%c0] dims [0] : tensor<1024xf32>, !tile.view<?xf32>
  return
}

// -----

// A 1-d bias made a [1, N] row and broadcast over the block: the bias
// takes the slice of the big tile's layout (loaded directly in it, the
// larger load anchoring first), its [1, 64] reshape the layout itself.
// CHECK-LABEL: func.func @bias_row
// CHECK: %[[BIAS:.*]] = tilegpu.load %{{.*}} dims [0] : <?xf32> -> tensor<64xf32, #tilegpu.slice<dim = 0, parent = [[B:#tilegpu.blocked<sizePerThread = \[1, 4\], threadsPerWarp = \[2, 16\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]>>
// CHECK: tilegpu.load %{{.*}} -> tensor<64x64xf32, [[B]]>
// CHECK: tile.reshape %[[BIAS]] shape [1, 64] : tensor<64xf32, #tilegpu.slice<dim = 0, parent = [[B]]>> -> tensor<1x64xf32, [[B]]>
// CHECK: tile.broadcast %{{.*}} shape [64, 64] : tensor<1x64xf32, [[B]]> -> tensor<64x64xf32, [[B]]>
// CHECK-NOT: convert_layout
func.func @bias_row(%X: !tile.view<?x?xf32>, %Bias: !tile.view<?xf32>, %Y: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %b = tilegpu.load %Bias[%c0] dims [0] : !tile.view<?xf32> -> tensor<64xf32>
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %b2 = tile.reshape %b shape [1, 64] : tensor<64xf32> -> tensor<1x64xf32>
  %bb = tile.broadcast %b2 shape [64, 64] : tensor<1x64xf32> -> tensor<64x64xf32>
  %y = arith.addf %x, %bb : tensor<64x64xf32>
  tilegpu.store %y, %Y[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Reductions along both axes, with and without keepdims: keepdims keeps
// the source's layout on the size-1 tile, without it the slice.
// CHECK-LABEL: func.func @reductions
// CHECK: tile.reduce %{{.*}} max axis 1 keepdims : tensor<32x64xf32, [[B:#tilegpu.blocked<[^>]*>]]> -> tensor<32x1xf32, [[B]]>
// CHECK: tile.reduce %{{.*}} sum axis 1 : tensor<32x64xf32, [[B]]> -> tensor<32xf32, #tilegpu.slice<dim = 1, parent = [[B]]>>
// CHECK: tile.reduce %{{.*}} max axis 0 keepdims : tensor<32x64xf32, [[B]]> -> tensor<1x64xf32, [[B]]>
// CHECK: tile.reduce %{{.*}} sum axis 0 : tensor<32x64xf32, [[B]]> -> tensor<64xf32, #tilegpu.slice<dim = 0, parent = [[B]]>>
// A reduction of a reduction with keepdims keeps the slice.
// CHECK: tile.reduce %{{.*}} sum axis 0 keepdims : tensor<64xf32, #tilegpu.slice<dim = 0, parent = [[B]]>> -> tensor<1xf32, #tilegpu.slice<dim = 0, parent = [[B]]>>
// CHECK-NOT: convert_layout
func.func @reductions(%X: !tile.view<?x?xf32>, %R: !tile.view<?x?xf32>, %S: !tile.view<?xf32>,
                      %C: !tile.view<?x?xf32>, %T: !tile.view<?xf32>, %U: !tile.view<?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %r = tile.reduce %x max axis 1 keepdims : tensor<32x64xf32> -> tensor<32x1xf32>
  tilegpu.store %r, %R[%c0, %c0] dims [0] : tensor<32x1xf32>, !tile.view<?x?xf32>
  %s = tile.reduce %x sum axis 1 : tensor<32x64xf32> -> tensor<32xf32>
  tilegpu.store %s, %S[%c0] dims [0] : tensor<32xf32>, !tile.view<?xf32>
  %c = tile.reduce %x max axis 0 keepdims : tensor<32x64xf32> -> tensor<1x64xf32>
  tilegpu.store %c, %C[%c0, %c0] dims [1] : tensor<1x64xf32>, !tile.view<?x?xf32>
  %t = tile.reduce %x sum axis 0 : tensor<32x64xf32> -> tensor<64xf32>
  tilegpu.store %t, %T[%c0] dims [0] : tensor<64xf32>, !tile.view<?xf32>
  %u = tile.reduce %t sum axis 0 keepdims : tensor<64xf32> -> tensor<1xf32>
  tilegpu.store %u, %U[%c0] dims [0] : tensor<1xf32>, !tile.view<?xf32>
  return
}

// -----

// Reducing twice without keepdims: the slice of a slice.
// CHECK-LABEL: func.func @slice_of_slice
// CHECK: tile.reduce %{{.*}} sum axis 2 : tensor<4x8x16xf32, [[B:#tilegpu.blocked<[^>]*>]]> -> tensor<4x8xf32, #tilegpu.slice<dim = 2, parent = [[B]]>>
// CHECK: tile.reduce %{{.*}} max axis 0 : tensor<4x8xf32, #tilegpu.slice<dim = 2, parent = [[B]]>> -> tensor<8xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.slice<dim = 2, parent = [[B]]>>>
// CHECK-NOT: convert_layout
func.func @slice_of_slice(%X: !tile.view<?x?x?xf32>, %S: !tile.view<?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0, %c0] dims [0, 1, 2] : !tile.view<?x?x?xf32> -> tensor<4x8x16xf32>
  %r = tile.reduce %x sum axis 2 : tensor<4x8x16xf32> -> tensor<4x8xf32>
  %s = tile.reduce %r max axis 0 : tensor<4x8xf32> -> tensor<8xf32>
  tilegpu.store %s, %S[%c0] dims [0] : tensor<8xf32>, !tile.view<?xf32>
  return
}

// -----

// A transpose: the permute result is the load's layout permuted (free),
// which walks the output view one element per thread with lanes down the
// columns, so the store gets one conversion to its coalesced layout.
// CHECK-LABEL: func.func @transpose
// CHECK: tilegpu.load {{.*}} -> tensor<64x32xf16, [[ROW:#tilegpu.blocked<sizePerThread = \[1, 8\], threadsPerWarp = \[8, 4\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]>
// CHECK: %[[T:.*]] = tile.permute %{{.*}} [1, 0] : tensor<64x32xf16, [[ROW]]> -> tensor<32x64xf16, [[COL:#tilegpu.blocked<sizePerThread = \[8, 1\], threadsPerWarp = \[4, 8\], warpsPerCTA = \[1, 4\], order = \[0, 1\]>]]>
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[T]] : tensor<32x64xf16, [[COL]]> -> tensor<32x64xf16, [[OUT:#tilegpu.blocked<sizePerThread = \[1, 8\], threadsPerWarp = \[4, 8\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]>
// CHECK: tilegpu.store %[[C]], {{.*}} : tensor<32x64xf16, [[OUT]]>
func.func @transpose(%X: !tile.view<?x?xf16>, %Y: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x32xf16>
  %t = tile.permute %x [1, 0] : tensor<64x32xf16> -> tensor<32x64xf16>
  tilegpu.store %t, %Y[%c0, %c0] dims [0, 1] : tensor<32x64xf16>, !tile.view<?x?xf16>
  return
}

// -----

// Two loads of one shape that disagree (Y walks its view transposed): the
// larger-first order keeps X's layout for the sum, and Y is converted
// where the sum needs it. A select with a mask computes in the same layout.
// CHECK-LABEL: func.func @two_anchors
// CHECK: %[[X:.*]] = tilegpu.load %{{.*}} dims [0, 1] : <?x?xf32> -> tensor<32x32xf32, [[B:#tilegpu.blocked<sizePerThread = \[1, 4\], threadsPerWarp = \[4, 8\], warpsPerCTA = \[4, 1\], order = \[1, 0\]>]]>
// CHECK: %[[Y:.*]] = tilegpu.load %{{.*}} dims [1, 0] : <?x?xf32> -> tensor<32x32xf32, [[BT:#tilegpu.blocked<sizePerThread = \[4, 1\], threadsPerWarp = \[8, 4\], warpsPerCTA = \[1, 4\], order = \[0, 1\]>]]>
// CHECK: %[[YC:.*]] = tilegpu.convert_layout %[[Y]] : tensor<32x32xf32, [[BT]]> -> tensor<32x32xf32, [[B]]>
// CHECK: arith.addf %[[X]], %[[YC]] : tensor<32x32xf32, [[B]]>
// CHECK: tile.select %{{.*}} : tensor<32x32xi1, [[B]]>, tensor<32x32xf32, [[B]]>
// CHECK-NOT: tilegpu.convert_layout
func.func @two_anchors(%X: !tile.view<?x?xf32>, %Y: !tile.view<?x?xf32>, %Z: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<32x32xf32>
  %y = tilegpu.load %Y[%c0, %c0] dims [1, 0] : !tile.view<?x?xf32> -> tensor<32x32xf32>
  %s = arith.addf %x, %y : tensor<32x32xf32>
  %zero = tile.full 0.0 shape [32, 32] : tensor<32x32xf32>
  %pos = arith.cmpf ogt, %s, %zero : tensor<32x32xf32>
  %r = tile.select %pos, %s, %zero : tensor<32x32xi1>, tensor<32x32xf32>
  tilegpu.store %r, %Z[%c0, %c0] dims [0, 1] : tensor<32x32xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A tile that only goes round a loop and a value no access touches get the
// row-major default layout.
// CHECK-LABEL: func.func @unanchored
// CHECK: scf.for {{.*}} -> (tensor<16x16xf32, #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]>>)
func.func @unanchored(%n: i32) attributes {tile.kernel = {num_warps = 2 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %t = tile.full 1.0 shape [16, 16] : tensor<16x16xf32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%x = %t) -> (tensor<16x16xf32>) : i32 {
    %y = arith.addf %x, %x : tensor<16x16xf32>
    scf.yield %y : tensor<16x16xf32>
  }
  return
}

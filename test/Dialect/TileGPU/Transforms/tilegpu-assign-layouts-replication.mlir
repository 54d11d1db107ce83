// tilegpu-assign-layouts remarks on a tile whose layout holds each element
// in more than 2 threads although the tile has an element per thread
// (issue 26: RoPE at head dim 80 was replicated 16-fold and spilled with
// nothing said). The default layouts split only powers of two over lanes
// and warps: a dimension of 40 (8 per thread, then 5 left) gets one lane,
// and the other 31 lanes of the warp and the other warps hold copies.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts -verify-diagnostics -o /dev/null

// A [32, 40] f16 tile in 4 warps: 8 elements a thread along dim 1 (5 left,
// whose power-of-two part is 1), 32 lanes on the rows, and the 4 warps on
// the same 32 rows again: every element in 4 threads. Reported once, at
// the first op of the type.
func.func @half_head_dim_80(%X: !tile.view<?x?xf16>, %Y: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{the layout of this 32x40 tile holds each element in 4 threads of 128 (#tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>): its registers are 4 times its data, which may spill; tile sizes that are powers of two and cover the threads (or fewer warps) avoid it}}
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<32x40xf16>
  %y = arith.addf %x, %x : tensor<32x40xf16>
  tilegpu.store %y, %Y[%c0, %c0] dims [0, 1] : tensor<32x40xf16>, !tile.view<?x?xf16>
  return
}

// -----

// negative: a power-of-two tile is spread without copies; its row sums
// (a slice, replicated over the lanes of the reduced dimension by design)
// and a tile with fewer elements than threads are not reported.
func.func @negative_power_of_two(%X: !tile.view<?x?xf16>, %Y: !tile.view<?x?xf16>, %S: !tile.view<?xf32>, %Z: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  tilegpu.store %x, %Y[%c0, %c0] dims [0, 1] : tensor<64x64xf16>, !tile.view<?x?xf16>
  %xf = tile.astype %x : tensor<64x64xf16> -> tensor<64x64xf32>
  %s = tile.reduce %xf sum axis 1 : tensor<64x64xf32> -> tensor<64xf32>
  tilegpu.store %s, %S[%c0] dims [0] : tensor<64xf32>, !tile.view<?xf32>
  %z = tilegpu.load %Z[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<4x8xf32>
  tilegpu.store %z, %Z[%c0, %c0] dims [0, 1] : tensor<4x8xf32>, !tile.view<?x?xf32>
  return
}

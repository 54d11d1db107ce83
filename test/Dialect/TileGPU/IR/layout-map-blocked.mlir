// The index maps of #tilegpu.blocked and of #tilegpu.slice of any parent,
// printed by -test-tilegpu-layout-map, against tables written from the
// layouts' definition (TileGPUAttrs.td), not from Layouts.cpp:
//
// #blocked, per dimension d of size S: the thread's block takes
// b = min(sizePerThread[d], p(S)) elements (p(x): the largest power of two
// dividing x), then t = min(threadsPerWarp[d], p(S / b)) lanes, then
// w = min(warpsPerCTA[d], p(S / (b t))) warps, and the rest repeats:
//   coord[d] = v + b * lane_d + b t * warp_d + b t w * rep,  v < b,
// where lane_d is the group of lane bits of d (dimensions numbered along
// `order`, fastest first, each taking log2(threadsPerWarp[d]) bits) and the
// same for warps. Register index: v of order[0], v of order[1], ..., then
// rep of order[0], rep of order[1], ... (the first fastest). Lane and warp
// bits beyond t and w replicate.
//
// #slice<dim, parent>: the parent's map on the shape with size 1 inserted
// at `dim`, that coordinate dropped.
//
// RUN: tile-opt %s -split-input-file -test-tilegpu-layout-map -verify-diagnostics -o /dev/null | FileCheck %s

// 8x8, two elements per thread along dim 1, 4 lanes per row: element
// (i, j) is register j % 2 of lane 4 i + j / 2.
// CHECK-LABEL: @blocked_8x8 arg0:
// CHECK-NEXT: registers 2, warps 1, lane bits 0x1f, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0 0.0.1 0.1.0 0.1.1 0.2.0 0.2.1 0.3.0 0.3.1
// CHECK-NEXT: row 1: 0.4.0 0.4.1 0.5.0 0.5.1 0.6.0 0.6.1 0.7.0 0.7.1
// CHECK-NEXT: row 2: 0.8.0 0.8.1 0.9.0 0.9.1 0.10.0 0.10.1 0.11.0 0.11.1
// CHECK-NEXT: row 3: 0.12.0 0.12.1 0.13.0 0.13.1 0.14.0 0.14.1 0.15.0 0.15.1
// CHECK-NEXT: row 4: 0.16.0 0.16.1 0.17.0 0.17.1 0.18.0 0.18.1 0.19.0 0.19.1
// CHECK-NEXT: row 5: 0.20.0 0.20.1 0.21.0 0.21.1 0.22.0 0.22.1 0.23.0 0.23.1
// CHECK-NEXT: row 6: 0.24.0 0.24.1 0.25.0 0.25.1 0.26.0 0.26.1 0.27.0 0.27.1
// CHECK-NEXT: row 7: 0.28.0 0.28.1 0.29.0 0.29.1 0.30.0 0.30.1 0.31.0 0.31.1
func.func @blocked_8x8(%t: tensor<8x8xf32, #tilegpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// The same layout on 16 rows repeats along dim 0: element (i, j) is
// register j % 2 + 2 (i / 8) of lane 4 (i % 8) + j / 2.
// CHECK-LABEL: @blocked_16x8 arg0:
// CHECK-NEXT: registers 4, warps 1, lane bits 0x1f, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0 0.0.1 0.1.0 0.1.1 0.2.0 0.2.1 0.3.0 0.3.1
// CHECK-NEXT: row 1: 0.4.0 0.4.1 0.5.0 0.5.1 0.6.0 0.6.1 0.7.0 0.7.1
// CHECK-NEXT: row 2: 0.8.0 0.8.1 0.9.0 0.9.1 0.10.0 0.10.1 0.11.0 0.11.1
// CHECK-NEXT: row 3: 0.12.0 0.12.1 0.13.0 0.13.1 0.14.0 0.14.1 0.15.0 0.15.1
// CHECK-NEXT: row 4: 0.16.0 0.16.1 0.17.0 0.17.1 0.18.0 0.18.1 0.19.0 0.19.1
// CHECK-NEXT: row 5: 0.20.0 0.20.1 0.21.0 0.21.1 0.22.0 0.22.1 0.23.0 0.23.1
// CHECK-NEXT: row 6: 0.24.0 0.24.1 0.25.0 0.25.1 0.26.0 0.26.1 0.27.0 0.27.1
// CHECK-NEXT: row 7: 0.28.0 0.28.1 0.29.0 0.29.1 0.30.0 0.30.1 0.31.0 0.31.1
// CHECK-NEXT: row 8: 0.0.2 0.0.3 0.1.2 0.1.3 0.2.2 0.2.3 0.3.2 0.3.3
// CHECK-NEXT: row 9: 0.4.2 0.4.3 0.5.2 0.5.3 0.6.2 0.6.3 0.7.2 0.7.3
// CHECK-NEXT: row 10: 0.8.2 0.8.3 0.9.2 0.9.3 0.10.2 0.10.3 0.11.2 0.11.3
// CHECK-NEXT: row 11: 0.12.2 0.12.3 0.13.2 0.13.3 0.14.2 0.14.3 0.15.2 0.15.3
// CHECK-NEXT: row 12: 0.16.2 0.16.3 0.17.2 0.17.3 0.18.2 0.18.3 0.19.2 0.19.3
// CHECK-NEXT: row 13: 0.20.2 0.20.3 0.21.2 0.21.3 0.22.2 0.22.3 0.23.2 0.23.3
// CHECK-NEXT: row 14: 0.24.2 0.24.3 0.25.2 0.25.3 0.26.2 0.26.3 0.27.2 0.27.3
// CHECK-NEXT: row 15: 0.28.2 0.28.3 0.29.2 0.29.3 0.30.2 0.30.3 0.31.2 0.31.3
func.func @blocked_16x8(%t: tensor<16x8xf32, #tilegpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// On 4 rows, dim 0 takes 4 of its 8 lanes: lane bit 4 replicates (lanes l
// and l + 16 hold the same element).
// CHECK-LABEL: @blocked_4x8_replicated arg0:
// CHECK-NEXT: registers 2, warps 1, lane bits 0xf, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.16.0 0.0.1/0.16.1 0.1.0/0.17.0 0.1.1/0.17.1 0.2.0/0.18.0 0.2.1/0.18.1 0.3.0/0.19.0 0.3.1/0.19.1
// CHECK-NEXT: row 1: 0.4.0/0.20.0 0.4.1/0.20.1 0.5.0/0.21.0 0.5.1/0.21.1 0.6.0/0.22.0 0.6.1/0.22.1 0.7.0/0.23.0 0.7.1/0.23.1
// CHECK-NEXT: row 2: 0.8.0/0.24.0 0.8.1/0.24.1 0.9.0/0.25.0 0.9.1/0.25.1 0.10.0/0.26.0 0.10.1/0.26.1 0.11.0/0.27.0 0.11.1/0.27.1
// CHECK-NEXT: row 3: 0.12.0/0.28.0 0.12.1/0.28.1 0.13.0/0.29.0 0.13.1/0.29.1 0.14.0/0.30.0 0.14.1/0.30.1 0.15.0/0.31.0 0.15.1/0.31.1
func.func @blocked_4x8_replicated(%t: tensor<4x8xf32, #tilegpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// Dimension 0 fastest (order = [0, 1]), two warps along dim 1: element
// (i, j) is register i % 2 of lane i / 2 + 4 (j % 8) in warp j / 8.
// CHECK-LABEL: @blocked_column_major arg0:
// CHECK-NEXT: registers 2, warps 2, lane bits 0x1f, warp bits 0x1
// CHECK-NEXT: row 0: 0.0.0 0.4.0 0.8.0 0.12.0 0.16.0 0.20.0 0.24.0 0.28.0 1.0.0 1.4.0 1.8.0 1.12.0 1.16.0 1.20.0 1.24.0 1.28.0
// CHECK-NEXT: row 1: 0.0.1 0.4.1 0.8.1 0.12.1 0.16.1 0.20.1 0.24.1 0.28.1 1.0.1 1.4.1 1.8.1 1.12.1 1.16.1 1.20.1 1.24.1 1.28.1
// CHECK-NEXT: row 2: 0.1.0 0.5.0 0.9.0 0.13.0 0.17.0 0.21.0 0.25.0 0.29.0 1.1.0 1.5.0 1.9.0 1.13.0 1.17.0 1.21.0 1.25.0 1.29.0
// CHECK-NEXT: row 3: 0.1.1 0.5.1 0.9.1 0.13.1 0.17.1 0.21.1 0.25.1 0.29.1 1.1.1 1.5.1 1.9.1 1.13.1 1.17.1 1.21.1 1.25.1 1.29.1
// CHECK-NEXT: row 4: 0.2.0 0.6.0 0.10.0 0.14.0 0.18.0 0.22.0 0.26.0 0.30.0 1.2.0 1.6.0 1.10.0 1.14.0 1.18.0 1.22.0 1.26.0 1.30.0
// CHECK-NEXT: row 5: 0.2.1 0.6.1 0.10.1 0.14.1 0.18.1 0.22.1 0.26.1 0.30.1 1.2.1 1.6.1 1.10.1 1.14.1 1.18.1 1.22.1 1.26.1 1.30.1
// CHECK-NEXT: row 6: 0.3.0 0.7.0 0.11.0 0.15.0 0.19.0 0.23.0 0.27.0 0.31.0 1.3.0 1.7.0 1.11.0 1.15.0 1.19.0 1.23.0 1.27.0 1.31.0
// CHECK-NEXT: row 7: 0.3.1 0.7.1 0.11.1 0.15.1 0.19.1 0.23.1 0.27.1 0.31.1 1.3.1 1.7.1 1.11.1 1.15.1 1.19.1 1.23.1 1.27.1 1.31.1
func.func @blocked_column_major(%t: tensor<8x16xf32, #tilegpu.blocked<sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]>>) {
  return
}

// One element per thread and two repetitions along each dimension:
// element (i, j) is register j / 8 + 2 (i / 4) of lane j % 8 + 8 (i % 4).
// CHECK-LABEL: @blocked_reps arg0:
// CHECK-NEXT: registers 4, warps 1, lane bits 0x1f, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0 0.1.0 0.2.0 0.3.0 0.4.0 0.5.0 0.6.0 0.7.0 0.0.1 0.1.1 0.2.1 0.3.1 0.4.1 0.5.1 0.6.1 0.7.1
// CHECK-NEXT: row 1: 0.8.0 0.9.0 0.10.0 0.11.0 0.12.0 0.13.0 0.14.0 0.15.0 0.8.1 0.9.1 0.10.1 0.11.1 0.12.1 0.13.1 0.14.1 0.15.1
// CHECK-NEXT: row 2: 0.16.0 0.17.0 0.18.0 0.19.0 0.20.0 0.21.0 0.22.0 0.23.0 0.16.1 0.17.1 0.18.1 0.19.1 0.20.1 0.21.1 0.22.1 0.23.1
// CHECK-NEXT: row 3: 0.24.0 0.25.0 0.26.0 0.27.0 0.28.0 0.29.0 0.30.0 0.31.0 0.24.1 0.25.1 0.26.1 0.27.1 0.28.1 0.29.1 0.30.1 0.31.1
// CHECK-NEXT: row 4: 0.0.2 0.1.2 0.2.2 0.3.2 0.4.2 0.5.2 0.6.2 0.7.2 0.0.3 0.1.3 0.2.3 0.3.3 0.4.3 0.5.3 0.6.3 0.7.3
// CHECK-NEXT: row 5: 0.8.2 0.9.2 0.10.2 0.11.2 0.12.2 0.13.2 0.14.2 0.15.2 0.8.3 0.9.3 0.10.3 0.11.3 0.12.3 0.13.3 0.14.3 0.15.3
// CHECK-NEXT: row 6: 0.16.2 0.17.2 0.18.2 0.19.2 0.20.2 0.21.2 0.22.2 0.23.2 0.16.3 0.17.3 0.18.3 0.19.3 0.20.3 0.21.3 0.22.3 0.23.3
// CHECK-NEXT: row 7: 0.24.2 0.25.2 0.26.2 0.27.2 0.28.2 0.29.2 0.30.2 0.31.2 0.24.3 0.25.3 0.26.3 0.27.3 0.28.3 0.29.3 0.30.3 0.31.3
func.func @blocked_reps(%t: tensor<8x16xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// 1-d, 64 elements, 4 per thread: 16 lanes cover the tile, so lane bit 4
// and the warp bit replicate; element j is register j % 4 of lane j / 4.
// CHECK-LABEL: @blocked_1d_small arg0:
// CHECK-NEXT: registers 4, warps 2, lane bits 0xf, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.16.0/1.0.0/1.16.0 0.0.1/0.16.1/1.0.1/1.16.1 0.0.2/0.16.2/1.0.2/1.16.2 0.0.3/0.16.3/1.0.3/1.16.3 0.1.0/0.17.0/1.1.0/1.17.0 0.1.1/0.17.1/1.1.1/1.17.1 0.1.2/0.17.2/1.1.2/1.17.2 0.1.3/0.17.3/1.1.3/1.17.3 0.2.0/0.18.0/1.2.0/1.18.0 0.2.1/0.18.1/1.2.1/1.18.1 0.2.2/0.18.2/1.2.2/1.18.2 0.2.3/0.18.3/1.2.3/1.18.3 0.3.0/0.19.0/1.3.0/1.19.0 0.3.1/0.19.1/1.3.1/1.19.1 0.3.2/0.19.2/1.3.2/1.19.2 0.3.3/0.19.3/1.3.3/1.19.3 0.4.0/0.20.0/1.4.0/1.20.0 0.4.1/0.20.1/1.4.1/1.20.1 0.4.2/0.20.2/1.4.2/1.20.2 0.4.3/0.20.3/1.4.3/1.20.3 0.5.0/0.21.0/1.5.0/1.21.0 0.5.1/0.21.1/1.5.1/1.21.1 0.5.2/0.21.2/1.5.2/1.21.2 0.5.3/0.21.3/1.5.3/1.21.3 0.6.0/0.22.0/1.6.0/1.22.0 0.6.1/0.22.1/1.6.1/1.22.1 0.6.2/0.22.2/1.6.2/1.22.2 0.6.3/0.22.3/1.6.3/1.22.3 0.7.0/0.23.0/1.7.0/1.23.0 0.7.1/0.23.1/1.7.1/1.23.1 0.7.2/0.23.2/1.7.2/1.23.2 0.7.3/0.23.3/1.7.3/1.23.3 0.8.0/0.24.0/1.8.0/1.24.0 0.8.1/0.24.1/1.8.1/1.24.1 0.8.2/0.24.2/1.8.2/1.24.2 0.8.3/0.24.3/1.8.3/1.24.3 0.9.0/0.25.0/1.9.0/1.25.0 0.9.1/0.25.1/1.9.1/1.25.1 0.9.2/0.25.2/1.9.2/1.25.2 0.9.3/0.25.3/1.9.3/1.25.3 0.10.0/0.26.0/1.10.0/1.26.0 0.10.1/0.26.1/1.10.1/1.26.1 0.10.2/0.26.2/1.10.2/1.26.2 0.10.3/0.26.3/1.10.3/1.26.3 0.11.0/0.27.0/1.11.0/1.27.0 0.11.1/0.27.1/1.11.1/1.27.1 0.11.2/0.27.2/1.11.2/1.27.2 0.11.3/0.27.3/1.11.3/1.27.3 0.12.0/0.28.0/1.12.0/1.28.0 0.12.1/0.28.1/1.12.1/1.28.1 0.12.2/0.28.2/1.12.2/1.28.2 0.12.3/0.28.3/1.12.3/1.28.3 0.13.0/0.29.0/1.13.0/1.29.0 0.13.1/0.29.1/1.13.1/1.29.1 0.13.2/0.29.2/1.13.2/1.29.2 0.13.3/0.29.3/1.13.3/1.29.3 0.14.0/0.30.0/1.14.0/1.30.0 0.14.1/0.30.1/1.14.1/1.30.1 0.14.2/0.30.2/1.14.2/1.30.2 0.14.3/0.30.3/1.14.3/1.30.3 0.15.0/0.31.0/1.15.0/1.31.0 0.15.1/0.31.1/1.15.1/1.31.1 0.15.2/0.31.2/1.15.2/1.31.2 0.15.3/0.31.3/1.15.3/1.31.3
func.func @blocked_1d_small(%t: tensor<64xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>>) {
  return
}

// 1-d, 256 elements, 2 per thread, 2 warps: 128 per round, two rounds;
// element j is register j % 2 + 2 (j / 128) of lane (j / 2) % 32 in warp
// (j / 64) % 2.
// CHECK-LABEL: @blocked_1d_reps arg0:
// CHECK-NEXT: registers 4, warps 2, lane bits 0x1f, warp bits 0x1
// CHECK-NEXT: row 0: 0.0.0 0.0.1 0.1.0 0.1.1 0.2.0 0.2.1 0.3.0 0.3.1 0.4.0 0.4.1 0.5.0 0.5.1 0.6.0 0.6.1 0.7.0 0.7.1 0.8.0 0.8.1 0.9.0 0.9.1 0.10.0 0.10.1 0.11.0 0.11.1 0.12.0 0.12.1 0.13.0 0.13.1 0.14.0 0.14.1 0.15.0 0.15.1 0.16.0 0.16.1 0.17.0 0.17.1 0.18.0 0.18.1 0.19.0 0.19.1 0.20.0 0.20.1 0.21.0 0.21.1 0.22.0 0.22.1 0.23.0 0.23.1 0.24.0 0.24.1 0.25.0 0.25.1 0.26.0 0.26.1 0.27.0 0.27.1 0.28.0 0.28.1 0.29.0 0.29.1 0.30.0 0.30.1 0.31.0 0.31.1 1.0.0 1.0.1 1.1.0 1.1.1 1.2.0 1.2.1 1.3.0 1.3.1 1.4.0 1.4.1 1.5.0 1.5.1 1.6.0 1.6.1 1.7.0 1.7.1 1.8.0 1.8.1 1.9.0 1.9.1 1.10.0 1.10.1 1.11.0 1.11.1 1.12.0 1.12.1 1.13.0 1.13.1 1.14.0 1.14.1 1.15.0 1.15.1 1.16.0 1.16.1 1.17.0 1.17.1 1.18.0 1.18.1 1.19.0 1.19.1 1.20.0 1.20.1 1.21.0 1.21.1 1.22.0 1.22.1 1.23.0 1.23.1 1.24.0 1.24.1 1.25.0 1.25.1 1.26.0 1.26.1 1.27.0 1.27.1 1.28.0 1.28.1 1.29.0 1.29.1 1.30.0 1.30.1 1.31.0 1.31.1 0.0.2 0.0.3 0.1.2 0.1.3 0.2.2 0.2.3 0.3.2 0.3.3 0.4.2 0.4.3 0.5.2 0.5.3 0.6.2 0.6.3 0.7.2 0.7.3 0.8.2 0.8.3 0.9.2 0.9.3 0.10.2 0.10.3 0.11.2 0.11.3 0.12.2 0.12.3 0.13.2 0.13.3 0.14.2 0.14.3 0.15.2 0.15.3 0.16.2 0.16.3 0.17.2 0.17.3 0.18.2 0.18.3 0.19.2 0.19.3 0.20.2 0.20.3 0.21.2 0.21.3 0.22.2 0.22.3 0.23.2 0.23.3 0.24.2 0.24.3 0.25.2 0.25.3 0.26.2 0.26.3 0.27.2 0.27.3 0.28.2 0.28.3 0.29.2 0.29.3 0.30.2 0.30.3 0.31.2 0.31.3 1.0.2 1.0.3 1.1.2 1.1.3 1.2.2 1.2.3 1.3.2 1.3.3 1.4.2 1.4.3 1.5.2 1.5.3 1.6.2 1.6.3 1.7.2 1.7.3 1.8.2 1.8.3 1.9.2 1.9.3 1.10.2 1.10.3 1.11.2 1.11.3 1.12.2 1.12.3 1.13.2 1.13.3 1.14.2 1.14.3 1.15.2 1.15.3 1.16.2 1.16.3 1.17.2 1.17.3 1.18.2 1.18.3 1.19.2 1.19.3 1.20.2 1.20.3 1.21.2 1.21.3 1.22.2 1.22.3 1.23.2 1.23.3 1.24.2 1.24.3 1.25.2 1.25.3 1.26.2 1.26.3 1.27.2 1.27.3 1.28.2 1.28.3 1.29.2 1.29.3 1.30.2 1.30.3 1.31.2 1.31.3
func.func @blocked_1d_reps(%t: tensor<256xf32, #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>>) {
  return
}

// Row sums of @blocked_8x8's layout (dim 1 removed): row i is held by the
// four lanes 4 i .. 4 i + 3 that hold the row.
// CHECK-LABEL: @slice1_of_blocked arg0:
// CHECK-NEXT: registers 1, warps 1, lane bits 0x1c, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.1.0/0.2.0/0.3.0 0.4.0/0.5.0/0.6.0/0.7.0 0.8.0/0.9.0/0.10.0/0.11.0 0.12.0/0.13.0/0.14.0/0.15.0 0.16.0/0.17.0/0.18.0/0.19.0 0.20.0/0.21.0/0.22.0/0.23.0 0.24.0/0.25.0/0.26.0/0.27.0 0.28.0/0.29.0/0.30.0/0.31.0
func.func @slice1_of_blocked(%t: tensor<8xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>>) {
  return
}

// Column sums (dim 0 removed): column j is register j % 2 of the eight
// lanes j / 2 + 4 k.
// CHECK-LABEL: @slice0_of_blocked arg0:
// CHECK-NEXT: registers 2, warps 1, lane bits 0x3, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.4.0/0.8.0/0.12.0/0.16.0/0.20.0/0.24.0/0.28.0 0.0.1/0.4.1/0.8.1/0.12.1/0.16.1/0.20.1/0.24.1/0.28.1 0.1.0/0.5.0/0.9.0/0.13.0/0.17.0/0.21.0/0.25.0/0.29.0 0.1.1/0.5.1/0.9.1/0.13.1/0.17.1/0.21.1/0.25.1/0.29.1 0.2.0/0.6.0/0.10.0/0.14.0/0.18.0/0.22.0/0.26.0/0.30.0 0.2.1/0.6.1/0.10.1/0.14.1/0.18.1/0.22.1/0.26.1/0.30.1 0.3.0/0.7.0/0.11.0/0.15.0/0.19.0/0.23.0/0.27.0/0.31.0 0.3.1/0.7.1/0.11.1/0.15.1/0.19.1/0.23.1/0.27.1/0.31.1
func.func @slice0_of_blocked(%t: tensor<8xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>>) {
  return
}

// The same tile with the reduced dimension kept ([1, 8] in the parent
// itself, or in the slice's keepdims form) has the same registers.
// CHECK-LABEL: @keepdims_in_parent arg0:
// CHECK-NEXT: registers 2, warps 1, lane bits 0x3, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.4.0/0.8.0/0.12.0/0.16.0/0.20.0/0.24.0/0.28.0 0.0.1/0.4.1/0.8.1/0.12.1/0.16.1/0.20.1/0.24.1/0.28.1 0.1.0/0.5.0/0.9.0/0.13.0/0.17.0/0.21.0/0.25.0/0.29.0 0.1.1/0.5.1/0.9.1/0.13.1/0.17.1/0.21.1/0.25.1/0.29.1 0.2.0/0.6.0/0.10.0/0.14.0/0.18.0/0.22.0/0.26.0/0.30.0 0.2.1/0.6.1/0.10.1/0.14.1/0.18.1/0.22.1/0.26.1/0.30.1 0.3.0/0.7.0/0.11.0/0.15.0/0.19.0/0.23.0/0.27.0/0.31.0 0.3.1/0.7.1/0.11.1/0.15.1/0.19.1/0.23.1/0.27.1/0.31.1
// CHECK-LABEL: @keepdims_in_parent arg1:
// CHECK-NEXT: registers 2, warps 1, lane bits 0x3, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.4.0/0.8.0/0.12.0/0.16.0/0.20.0/0.24.0/0.28.0 0.0.1/0.4.1/0.8.1/0.12.1/0.16.1/0.20.1/0.24.1/0.28.1 0.1.0/0.5.0/0.9.0/0.13.0/0.17.0/0.21.0/0.25.0/0.29.0 0.1.1/0.5.1/0.9.1/0.13.1/0.17.1/0.21.1/0.25.1/0.29.1 0.2.0/0.6.0/0.10.0/0.14.0/0.18.0/0.22.0/0.26.0/0.30.0 0.2.1/0.6.1/0.10.1/0.14.1/0.18.1/0.22.1/0.26.1/0.30.1 0.3.0/0.7.0/0.11.0/0.15.0/0.19.0/0.23.0/0.27.0/0.31.0 0.3.1/0.7.1/0.11.1/0.15.1/0.19.1/0.23.1/0.27.1/0.31.1
func.func @keepdims_in_parent(
    %t: tensor<1x8xf32, #tilegpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>,
    %u: tensor<1x8xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>>) {
  return
}

// A slice of a slice (a 3-d tile reduced along dims 2 and 0): the parent
// on [1, 4, 1]. Dim 2 owns lane bits 0-1 (size 1: replicated), dim 1 lane
// bits 2-3, dim 0 lane bit 4 (replicated): element k is held by lanes
// 4 k + {0, 1, 2, 3} + {0, 16}.
// CHECK-LABEL: @slice_of_slice arg0:
// CHECK-NEXT: registers 1, warps 1, lane bits 0xc, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.1.0/0.2.0/0.3.0/0.16.0/0.17.0/0.18.0/0.19.0 0.4.0/0.5.0/0.6.0/0.7.0/0.20.0/0.21.0/0.22.0/0.23.0 0.8.0/0.9.0/0.10.0/0.11.0/0.24.0/0.25.0/0.26.0/0.27.0 0.12.0/0.13.0/0.14.0/0.15.0/0.28.0/0.29.0/0.30.0/0.31.0
func.func @slice_of_slice(%t: tensor<4xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.slice<dim = 2, parent = #tilegpu.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]>>>>) {
  return
}

// The row maxima of an #mma tile as a 1-d slice: the registers of the
// [16, 1] tile (rows 0-7 in register 0 of lanes 4 i .. 4 i + 3, rows 8-15
// in register 1), the same as the [16, 1] tile in #mma itself.
// CHECK-LABEL: @slice1_of_mma_1d arg0:
// CHECK-NEXT: registers 2, warps 1, lane bits 0x1c, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.1.0/0.2.0/0.3.0 0.4.0/0.5.0/0.6.0/0.7.0 0.8.0/0.9.0/0.10.0/0.11.0 0.12.0/0.13.0/0.14.0/0.15.0 0.16.0/0.17.0/0.18.0/0.19.0 0.20.0/0.21.0/0.22.0/0.23.0 0.24.0/0.25.0/0.26.0/0.27.0 0.28.0/0.29.0/0.30.0/0.31.0 0.0.1/0.1.1/0.2.1/0.3.1 0.4.1/0.5.1/0.6.1/0.7.1 0.8.1/0.9.1/0.10.1/0.11.1 0.12.1/0.13.1/0.14.1/0.15.1 0.16.1/0.17.1/0.18.1/0.19.1 0.20.1/0.21.1/0.22.1/0.23.1 0.24.1/0.25.1/0.26.1/0.27.1 0.28.1/0.29.1/0.30.1/0.31.1
func.func @slice1_of_mma_1d(%t: tensor<16xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<version = 2, warps = [1, 1]>>>) {
  return
}

// CHECK-LABEL: @mma_16x1 arg0:
// CHECK-NEXT: registers 2, warps 1, lane bits 0x1c, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.1.0/0.2.0/0.3.0
// CHECK-NEXT: row 1: 0.4.0/0.5.0/0.6.0/0.7.0
// CHECK: row 8: 0.0.1/0.1.1/0.2.1/0.3.1
// CHECK: row 15: 0.28.1/0.29.1/0.30.1/0.31.1
func.func @mma_16x1(%t: tensor<16x1xf32, #tilegpu.mma<version = 2, warps = [1, 1]>>) {
  return
}

// -----

// expected-error @+1 {{prints 1-d and 2-d tiles only}}
func.func @rank3(%t: tensor<2x2x8xf32, #tilegpu.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]>>) {
  return
}

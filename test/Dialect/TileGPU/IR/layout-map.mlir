// The index maps of the tilegpu layouts, printed by the test pass
// -test-tilegpu-layout-map, against tables written from the PTX ISA (not
// from Layouts.cpp).
//
// Register layouts print one line per tile row and one cell per element:
// every `warp.lane.register` holding it (replicas joined by `/`). The
// expected tables follow the PTX ISA's mma.m16n8k16 accumulator fragments:
// thread t of a warp, g = t / 4, c = t % 4, holds c0, c1 = (g, 2c), (g, 2c+1)
// and c2, c3 = (g+8, 2c), (g+8, 2c+1) of a 16x8 piece. A tile is cut into
// 16x8 pieces; piece row p = i / 16 goes to warp p % W (rows interleave over
// warps in 16-row blocks), and a thread numbers its pieces by repetition
// along M, then along N: element (i, j) is register
//   4 * ((i / (16 W)) * (N / 8) + j / 8) + 2 * ((i % 16) / 8) + j % 2
// of lane 4 * (i % 8) + (j % 8) / 2.
// Slice layouts keep the parent's registers of column 0 (dim = 1) or row 0
// (dim = 0) and replicate over the lanes (and warps) of the other dimension.
//
// Shared layouts print the element offset of each element: row r (the
// slow dimension), column c (the contiguous one) is at
//   r * (C + pad) + (((c / vec) ^ ((r / perPhase) % maxPhase)) * vec) + c % vec.
//
// RUN: tile-opt %s -split-input-file -test-tilegpu-layout-map -verify-diagnostics -o /dev/null | FileCheck %s

#mma1 = #tilegpu.mma<version = 2, warps = [1, 1]>
#mma2 = #tilegpu.mma<version = 2, warps = [2, 1]>

// One warp, one 16x8 piece: the PTX table itself. Rows 0-7 in c0/c1, rows
// 8-15 in c2/c3 of the same lanes.
// CHECK-LABEL: @mma_16x8_w1 arg0:
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
func.func @mma_16x8_w1(%t: tensor<16x8xf32, #mma1>) {
  return
}

// One warp, 2x2 pieces: pieces (0,0) r0-3, (0,1) r4-7, (1,0) r8-11, (1,1) r12-15.
// CHECK-LABEL: @mma_32x16_w1 arg0:
// CHECK-NEXT: registers 16, warps 1, lane bits 0x1f, warp bits 0x0
// CHECK: row 0: 0.0.0 0.0.1 0.1.0 0.1.1 0.2.0 0.2.1 0.3.0 0.3.1 0.0.4 0.0.5 0.1.4 0.1.5 0.2.4 0.2.5 0.3.4 0.3.5
// CHECK-NEXT: row 1: 0.4.0 0.4.1 0.5.0 0.5.1 0.6.0 0.6.1 0.7.0 0.7.1 0.4.4 0.4.5 0.5.4 0.5.5 0.6.4 0.6.5 0.7.4 0.7.5
// CHECK: row 7: 0.28.0 0.28.1 0.29.0 0.29.1 0.30.0 0.30.1 0.31.0 0.31.1 0.28.4 0.28.5 0.29.4 0.29.5 0.30.4 0.30.5 0.31.4 0.31.5
// CHECK-NEXT: row 8: 0.0.2 0.0.3 0.1.2 0.1.3 0.2.2 0.2.3 0.3.2 0.3.3 0.0.6 0.0.7 0.1.6 0.1.7 0.2.6 0.2.7 0.3.6 0.3.7
// CHECK: row 15: 0.28.2 0.28.3 0.29.2 0.29.3 0.30.2 0.30.3 0.31.2 0.31.3 0.28.6 0.28.7 0.29.6 0.29.7 0.30.6 0.30.7 0.31.6 0.31.7
// CHECK-NEXT: row 16: 0.0.8 0.0.9 0.1.8 0.1.9 0.2.8 0.2.9 0.3.8 0.3.9 0.0.12 0.0.13 0.1.12 0.1.13 0.2.12 0.2.13 0.3.12 0.3.13
// CHECK-NEXT: row 17: 0.4.8 0.4.9 0.5.8 0.5.9 0.6.8 0.6.9 0.7.8 0.7.9 0.4.12 0.4.13 0.5.12 0.5.13 0.6.12 0.6.13 0.7.12 0.7.13
// CHECK: row 24: 0.0.10 0.0.11 0.1.10 0.1.11 0.2.10 0.2.11 0.3.10 0.3.11 0.0.14 0.0.15 0.1.14 0.1.15 0.2.14 0.2.15 0.3.14 0.3.15
// CHECK: row 31: 0.28.10 0.28.11 0.29.10 0.29.11 0.30.10 0.30.11 0.31.10 0.31.11 0.28.14 0.28.15 0.29.14 0.29.15 0.30.14 0.30.15 0.31.14 0.31.15
func.func @mma_32x16_w1(%t: tensor<32x16xf32, #mma1>) {
  return
}

// Two warps split M: rows 0-15 warp 0, rows 16-31 warp 1, each with pieces
// (0,0) r0-3 and (0,1) r4-7.
// CHECK-LABEL: @mma_32x16_w2 arg0:
// CHECK-NEXT: registers 8, warps 2, lane bits 0x1f, warp bits 0x1
// CHECK-NEXT: row 0: 0.0.0 0.0.1 0.1.0 0.1.1 0.2.0 0.2.1 0.3.0 0.3.1 0.0.4 0.0.5 0.1.4 0.1.5 0.2.4 0.2.5 0.3.4 0.3.5
// CHECK-NEXT: row 1: 0.4.0 0.4.1 0.5.0 0.5.1 0.6.0 0.6.1 0.7.0 0.7.1 0.4.4 0.4.5 0.5.4 0.5.5 0.6.4 0.6.5 0.7.4 0.7.5
// CHECK-NEXT: row 2: 0.8.0 0.8.1 0.9.0 0.9.1 0.10.0 0.10.1 0.11.0 0.11.1 0.8.4 0.8.5 0.9.4 0.9.5 0.10.4 0.10.5 0.11.4 0.11.5
// CHECK-NEXT: row 3: 0.12.0 0.12.1 0.13.0 0.13.1 0.14.0 0.14.1 0.15.0 0.15.1 0.12.4 0.12.5 0.13.4 0.13.5 0.14.4 0.14.5 0.15.4 0.15.5
// CHECK-NEXT: row 4: 0.16.0 0.16.1 0.17.0 0.17.1 0.18.0 0.18.1 0.19.0 0.19.1 0.16.4 0.16.5 0.17.4 0.17.5 0.18.4 0.18.5 0.19.4 0.19.5
// CHECK-NEXT: row 5: 0.20.0 0.20.1 0.21.0 0.21.1 0.22.0 0.22.1 0.23.0 0.23.1 0.20.4 0.20.5 0.21.4 0.21.5 0.22.4 0.22.5 0.23.4 0.23.5
// CHECK-NEXT: row 6: 0.24.0 0.24.1 0.25.0 0.25.1 0.26.0 0.26.1 0.27.0 0.27.1 0.24.4 0.24.5 0.25.4 0.25.5 0.26.4 0.26.5 0.27.4 0.27.5
// CHECK-NEXT: row 7: 0.28.0 0.28.1 0.29.0 0.29.1 0.30.0 0.30.1 0.31.0 0.31.1 0.28.4 0.28.5 0.29.4 0.29.5 0.30.4 0.30.5 0.31.4 0.31.5
// CHECK-NEXT: row 8: 0.0.2 0.0.3 0.1.2 0.1.3 0.2.2 0.2.3 0.3.2 0.3.3 0.0.6 0.0.7 0.1.6 0.1.7 0.2.6 0.2.7 0.3.6 0.3.7
// CHECK-NEXT: row 9: 0.4.2 0.4.3 0.5.2 0.5.3 0.6.2 0.6.3 0.7.2 0.7.3 0.4.6 0.4.7 0.5.6 0.5.7 0.6.6 0.6.7 0.7.6 0.7.7
// CHECK-NEXT: row 10: 0.8.2 0.8.3 0.9.2 0.9.3 0.10.2 0.10.3 0.11.2 0.11.3 0.8.6 0.8.7 0.9.6 0.9.7 0.10.6 0.10.7 0.11.6 0.11.7
// CHECK-NEXT: row 11: 0.12.2 0.12.3 0.13.2 0.13.3 0.14.2 0.14.3 0.15.2 0.15.3 0.12.6 0.12.7 0.13.6 0.13.7 0.14.6 0.14.7 0.15.6 0.15.7
// CHECK-NEXT: row 12: 0.16.2 0.16.3 0.17.2 0.17.3 0.18.2 0.18.3 0.19.2 0.19.3 0.16.6 0.16.7 0.17.6 0.17.7 0.18.6 0.18.7 0.19.6 0.19.7
// CHECK-NEXT: row 13: 0.20.2 0.20.3 0.21.2 0.21.3 0.22.2 0.22.3 0.23.2 0.23.3 0.20.6 0.20.7 0.21.6 0.21.7 0.22.6 0.22.7 0.23.6 0.23.7
// CHECK-NEXT: row 14: 0.24.2 0.24.3 0.25.2 0.25.3 0.26.2 0.26.3 0.27.2 0.27.3 0.24.6 0.24.7 0.25.6 0.25.7 0.26.6 0.26.7 0.27.6 0.27.7
// CHECK-NEXT: row 15: 0.28.2 0.28.3 0.29.2 0.29.3 0.30.2 0.30.3 0.31.2 0.31.3 0.28.6 0.28.7 0.29.6 0.29.7 0.30.6 0.30.7 0.31.6 0.31.7
// CHECK-NEXT: row 16: 1.0.0 1.0.1 1.1.0 1.1.1 1.2.0 1.2.1 1.3.0 1.3.1 1.0.4 1.0.5 1.1.4 1.1.5 1.2.4 1.2.5 1.3.4 1.3.5
// CHECK-NEXT: row 17: 1.4.0 1.4.1 1.5.0 1.5.1 1.6.0 1.6.1 1.7.0 1.7.1 1.4.4 1.4.5 1.5.4 1.5.5 1.6.4 1.6.5 1.7.4 1.7.5
// CHECK-NEXT: row 18: 1.8.0 1.8.1 1.9.0 1.9.1 1.10.0 1.10.1 1.11.0 1.11.1 1.8.4 1.8.5 1.9.4 1.9.5 1.10.4 1.10.5 1.11.4 1.11.5
// CHECK-NEXT: row 19: 1.12.0 1.12.1 1.13.0 1.13.1 1.14.0 1.14.1 1.15.0 1.15.1 1.12.4 1.12.5 1.13.4 1.13.5 1.14.4 1.14.5 1.15.4 1.15.5
// CHECK-NEXT: row 20: 1.16.0 1.16.1 1.17.0 1.17.1 1.18.0 1.18.1 1.19.0 1.19.1 1.16.4 1.16.5 1.17.4 1.17.5 1.18.4 1.18.5 1.19.4 1.19.5
// CHECK-NEXT: row 21: 1.20.0 1.20.1 1.21.0 1.21.1 1.22.0 1.22.1 1.23.0 1.23.1 1.20.4 1.20.5 1.21.4 1.21.5 1.22.4 1.22.5 1.23.4 1.23.5
// CHECK-NEXT: row 22: 1.24.0 1.24.1 1.25.0 1.25.1 1.26.0 1.26.1 1.27.0 1.27.1 1.24.4 1.24.5 1.25.4 1.25.5 1.26.4 1.26.5 1.27.4 1.27.5
// CHECK-NEXT: row 23: 1.28.0 1.28.1 1.29.0 1.29.1 1.30.0 1.30.1 1.31.0 1.31.1 1.28.4 1.28.5 1.29.4 1.29.5 1.30.4 1.30.5 1.31.4 1.31.5
// CHECK-NEXT: row 24: 1.0.2 1.0.3 1.1.2 1.1.3 1.2.2 1.2.3 1.3.2 1.3.3 1.0.6 1.0.7 1.1.6 1.1.7 1.2.6 1.2.7 1.3.6 1.3.7
// CHECK-NEXT: row 25: 1.4.2 1.4.3 1.5.2 1.5.3 1.6.2 1.6.3 1.7.2 1.7.3 1.4.6 1.4.7 1.5.6 1.5.7 1.6.6 1.6.7 1.7.6 1.7.7
// CHECK-NEXT: row 26: 1.8.2 1.8.3 1.9.2 1.9.3 1.10.2 1.10.3 1.11.2 1.11.3 1.8.6 1.8.7 1.9.6 1.9.7 1.10.6 1.10.7 1.11.6 1.11.7
// CHECK-NEXT: row 27: 1.12.2 1.12.3 1.13.2 1.13.3 1.14.2 1.14.3 1.15.2 1.15.3 1.12.6 1.12.7 1.13.6 1.13.7 1.14.6 1.14.7 1.15.6 1.15.7
// CHECK-NEXT: row 28: 1.16.2 1.16.3 1.17.2 1.17.3 1.18.2 1.18.3 1.19.2 1.19.3 1.16.6 1.16.7 1.17.6 1.17.7 1.18.6 1.18.7 1.19.6 1.19.7
// CHECK-NEXT: row 29: 1.20.2 1.20.3 1.21.2 1.21.3 1.22.2 1.22.3 1.23.2 1.23.3 1.20.6 1.20.7 1.21.6 1.21.7 1.22.6 1.22.7 1.23.6 1.23.7
// CHECK-NEXT: row 30: 1.24.2 1.24.3 1.25.2 1.25.3 1.26.2 1.26.3 1.27.2 1.27.3 1.24.6 1.24.7 1.25.6 1.25.7 1.26.6 1.26.7 1.27.6 1.27.7
// CHECK-NEXT: row 31: 1.28.2 1.28.3 1.29.2 1.29.3 1.30.2 1.30.3 1.31.2 1.31.3 1.28.6 1.28.7 1.29.6 1.29.7 1.30.6 1.30.7 1.31.6 1.31.7
func.func @mma_32x16_w2(%t: tensor<32x16xf32, #mma2>) {
  return
}

// Two warps, two repetitions along M: 16-row blocks alternate between the
// warps (rows 32-47 are warp 0's second piece, registers 4-7).
// CHECK-LABEL: @mma_64x8_w2 arg0:
// CHECK-NEXT: registers 8, warps 2, lane bits 0x1f, warp bits 0x1
// CHECK: row 0: 0.0.0 0.0.1 0.1.0 0.1.1 0.2.0 0.2.1 0.3.0 0.3.1
// CHECK: row 8: 0.0.2 0.0.3 0.1.2 0.1.3 0.2.2 0.2.3 0.3.2 0.3.3
// CHECK: row 15: 0.28.2 0.28.3 0.29.2 0.29.3 0.30.2 0.30.3 0.31.2 0.31.3
// CHECK-NEXT: row 16: 1.0.0 1.0.1 1.1.0 1.1.1 1.2.0 1.2.1 1.3.0 1.3.1
// CHECK: row 31: 1.28.2 1.28.3 1.29.2 1.29.3 1.30.2 1.30.3 1.31.2 1.31.3
// CHECK-NEXT: row 32: 0.0.4 0.0.5 0.1.4 0.1.5 0.2.4 0.2.5 0.3.4 0.3.5
// CHECK: row 40: 0.0.6 0.0.7 0.1.6 0.1.7 0.2.6 0.2.7 0.3.6 0.3.7
// CHECK: row 47: 0.28.6 0.28.7 0.29.6 0.29.7 0.30.6 0.30.7 0.31.6 0.31.7
// CHECK-NEXT: row 48: 1.0.4 1.0.5 1.1.4 1.1.5 1.2.4 1.2.5 1.3.4 1.3.5
// CHECK: row 63: 1.28.6 1.28.7 1.29.6 1.29.7 1.30.6 1.30.7 1.31.6 1.31.7
func.func @mma_64x8_w2(%t: tensor<64x8xf32, #mma2>) {
  return
}

// Row tiles (dim = 1): row i is in register (i % 16) / 8 of the four lanes
// 4 * (i % 8) + 0..3 that hold it in the parent; lane bits 0-1 replicate.
// CHECK-LABEL: @slice1_16x1_w1 arg0:
// CHECK-NEXT: registers 2, warps 1, lane bits 0x1c, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.1.0/0.2.0/0.3.0
// CHECK-NEXT: row 1: 0.4.0/0.5.0/0.6.0/0.7.0
// CHECK-NEXT: row 2: 0.8.0/0.9.0/0.10.0/0.11.0
// CHECK-NEXT: row 3: 0.12.0/0.13.0/0.14.0/0.15.0
// CHECK-NEXT: row 4: 0.16.0/0.17.0/0.18.0/0.19.0
// CHECK-NEXT: row 5: 0.20.0/0.21.0/0.22.0/0.23.0
// CHECK-NEXT: row 6: 0.24.0/0.25.0/0.26.0/0.27.0
// CHECK-NEXT: row 7: 0.28.0/0.29.0/0.30.0/0.31.0
// CHECK-NEXT: row 8: 0.0.1/0.1.1/0.2.1/0.3.1
// CHECK-NEXT: row 9: 0.4.1/0.5.1/0.6.1/0.7.1
// CHECK-NEXT: row 10: 0.8.1/0.9.1/0.10.1/0.11.1
// CHECK-NEXT: row 11: 0.12.1/0.13.1/0.14.1/0.15.1
// CHECK-NEXT: row 12: 0.16.1/0.17.1/0.18.1/0.19.1
// CHECK-NEXT: row 13: 0.20.1/0.21.1/0.22.1/0.23.1
// CHECK-NEXT: row 14: 0.24.1/0.25.1/0.26.1/0.27.1
// CHECK-NEXT: row 15: 0.28.1/0.29.1/0.30.1/0.31.1
func.func @slice1_16x1_w1(%t: tensor<16x1xf32, #tilegpu.slice<dim = 1, parent = #mma1>>) {
  return
}

// CHECK-LABEL: @slice1_32x1_w2 arg0:
// CHECK-NEXT: registers 2, warps 2, lane bits 0x1c, warp bits 0x1
// CHECK: row 0: 0.0.0/0.1.0/0.2.0/0.3.0
// CHECK: row 7: 0.28.0/0.29.0/0.30.0/0.31.0
// CHECK-NEXT: row 8: 0.0.1/0.1.1/0.2.1/0.3.1
// CHECK: row 15: 0.28.1/0.29.1/0.30.1/0.31.1
// CHECK-NEXT: row 16: 1.0.0/1.1.0/1.2.0/1.3.0
// CHECK: row 24: 1.0.1/1.1.1/1.2.1/1.3.1
// CHECK: row 31: 1.28.1/1.29.1/1.30.1/1.31.1
func.func @slice1_32x1_w2(%t: tensor<32x1xf32, #tilegpu.slice<dim = 1, parent = #mma2>>) {
  return
}

// Column tiles (dim = 0): column j is in register 2 * (j / 8) + j % 2 of
// the eight lanes 4 * g + (j % 8) / 2 of every warp; lane bits 2-4 and the
// warp bits replicate.
// CHECK-LABEL: @slice0_1x8_w1 arg0:
// CHECK-NEXT: registers 2, warps 1, lane bits 0x3, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.4.0/0.8.0/0.12.0/0.16.0/0.20.0/0.24.0/0.28.0 0.0.1/0.4.1/0.8.1/0.12.1/0.16.1/0.20.1/0.24.1/0.28.1 0.1.0/0.5.0/0.9.0/0.13.0/0.17.0/0.21.0/0.25.0/0.29.0 0.1.1/0.5.1/0.9.1/0.13.1/0.17.1/0.21.1/0.25.1/0.29.1 0.2.0/0.6.0/0.10.0/0.14.0/0.18.0/0.22.0/0.26.0/0.30.0 0.2.1/0.6.1/0.10.1/0.14.1/0.18.1/0.22.1/0.26.1/0.30.1 0.3.0/0.7.0/0.11.0/0.15.0/0.19.0/0.23.0/0.27.0/0.31.0 0.3.1/0.7.1/0.11.1/0.15.1/0.19.1/0.23.1/0.27.1/0.31.1
func.func @slice0_1x8_w1(%t: tensor<1x8xf32, #tilegpu.slice<dim = 0, parent = #mma1>>) {
  return
}

// CHECK-LABEL: @slice0_1x16_w2 arg0:
// CHECK-NEXT: registers 4, warps 2, lane bits 0x3, warp bits 0x0
// CHECK-NEXT: row 0: 0.0.0/0.4.0/0.8.0/0.12.0/0.16.0/0.20.0/0.24.0/0.28.0/1.0.0/1.4.0/1.8.0/1.12.0/1.16.0/1.20.0/1.24.0/1.28.0 0.0.1/0.4.1/0.8.1/0.12.1/0.16.1/0.20.1/0.24.1/0.28.1/1.0.1/1.4.1/1.8.1/1.12.1/1.16.1/1.20.1/1.24.1/1.28.1 0.1.0/0.5.0/0.9.0/0.13.0/0.17.0/0.21.0/0.25.0/0.29.0/1.1.0/1.5.0/1.9.0/1.13.0/1.17.0/1.21.0/1.25.0/1.29.0 0.1.1/0.5.1/0.9.1/0.13.1/0.17.1/0.21.1/0.25.1/0.29.1/1.1.1/1.5.1/1.9.1/1.13.1/1.17.1/1.21.1/1.25.1/1.29.1 0.2.0/0.6.0/0.10.0/0.14.0/0.18.0/0.22.0/0.26.0/0.30.0/1.2.0/1.6.0/1.10.0/1.14.0/1.18.0/1.22.0/1.26.0/1.30.0 0.2.1/0.6.1/0.10.1/0.14.1/0.18.1/0.22.1/0.26.1/0.30.1/1.2.1/1.6.1/1.10.1/1.14.1/1.18.1/1.22.1/1.26.1/1.30.1 0.3.0/0.7.0/0.11.0/0.15.0/0.19.0/0.23.0/0.27.0/0.31.0/1.3.0/1.7.0/1.11.0/1.15.0/1.19.0/1.23.0/1.27.0/1.31.0 0.3.1/0.7.1/0.11.1/0.15.1/0.19.1/0.23.1/0.27.1/0.31.1/1.3.1/1.7.1/1.11.1/1.15.1/1.19.1/1.23.1/1.27.1/1.31.1 0.0.2/0.4.2/0.8.2/0.12.2/0.16.2/0.20.2/0.24.2/0.28.2/1.0.2/1.4.2/1.8.2/1.12.2/1.16.2/1.20.2/1.24.2/1.28.2 0.0.3/0.4.3/0.8.3/0.12.3/0.16.3/0.20.3/0.24.3/0.28.3/1.0.3/1.4.3/1.8.3/1.12.3/1.16.3/1.20.3/1.24.3/1.28.3 0.1.2/0.5.2/0.9.2/0.13.2/0.17.2/0.21.2/0.25.2/0.29.2/1.1.2/1.5.2/1.9.2/1.13.2/1.17.2/1.21.2/1.25.2/1.29.2 0.1.3/0.5.3/0.9.3/0.13.3/0.17.3/0.21.3/0.25.3/0.29.3/1.1.3/1.5.3/1.9.3/1.13.3/1.17.3/1.21.3/1.25.3/1.29.3 0.2.2/0.6.2/0.10.2/0.14.2/0.18.2/0.22.2/0.26.2/0.30.2/1.2.2/1.6.2/1.10.2/1.14.2/1.18.2/1.22.2/1.26.2/1.30.2 0.2.3/0.6.3/0.10.3/0.14.3/0.18.3/0.22.3/0.26.3/0.30.3/1.2.3/1.6.3/1.10.3/1.14.3/1.18.3/1.22.3/1.26.3/1.30.3 0.3.2/0.7.2/0.11.2/0.15.2/0.19.2/0.23.2/0.27.2/0.31.2/1.3.2/1.7.2/1.11.2/1.15.2/1.19.2/1.23.2/1.27.2/1.31.2 0.3.3/0.7.3/0.11.3/0.15.3/0.19.3/0.23.3/0.27.3/0.31.3/1.3.3/1.7.3/1.11.3/1.15.3/1.19.3/1.23.3/1.27.3/1.31.3
func.func @slice0_1x16_w2(%t: tensor<1x16xf32, #tilegpu.slice<dim = 0, parent = #mma2>>) {
  return
}

// Padded (mma.sync's instance): one 16-byte vector of padding per row, so
// row r starts at r * (16 + 8).
// CHECK-LABEL: @shared_padded arg0:
// CHECK-NEXT: elements 64, span 96
// CHECK-NEXT: row 0: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
// CHECK-NEXT: row 1: 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
// CHECK-NEXT: row 2: 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
// CHECK-NEXT: row 3: 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87
func.func @shared_padded(%t: !tilegpu.smem<4x16xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>) {
  return
}

// Swizzled as getSwizzledSharedLayout makes it for 64-byte rows: two rows
// per phase; rows 2-3 swap vectors 0<->1 and 2<->3 (XOR 1), rows 4-5 XOR 2,
// rows 6-7 XOR 3.
// CHECK-LABEL: @shared_swizzled arg0:
// CHECK-NEXT: elements 256, span 256
// CHECK-NEXT: row 0: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
// CHECK-NEXT: row 1: 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
// CHECK-NEXT: row 2: 72 73 74 75 76 77 78 79 64 65 66 67 68 69 70 71 88 89 90 91 92 93 94 95 80 81 82 83 84 85 86 87
// CHECK-NEXT: row 3: 104 105 106 107 108 109 110 111 96 97 98 99 100 101 102 103 120 121 122 123 124 125 126 127 112 113 114 115 116 117 118 119
// CHECK-NEXT: row 4: 144 145 146 147 148 149 150 151 152 153 154 155 156 157 158 159 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143
// CHECK-NEXT: row 5: 176 177 178 179 180 181 182 183 184 185 186 187 188 189 190 191 160 161 162 163 164 165 166 167 168 169 170 171 172 173 174 175
// CHECK-NEXT: row 6: 216 217 218 219 220 221 222 223 208 209 210 211 212 213 214 215 200 201 202 203 204 205 206 207 192 193 194 195 196 197 198 199
// CHECK-NEXT: row 7: 248 249 250 251 252 253 254 255 240 241 242 243 244 245 246 247 232 233 234 235 236 237 238 239 224 225 226 227 228 229 230 231
func.func @shared_swizzled(%t: !tilegpu.smem<8x32xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 2, maxPhase = 4>>) {
  return
}

// Dimension 0 contiguous (order = [0, 1], K^T tiles), one stage of a
// two-stage ring: element (i, j) is at j * (16 + 8) + i.
// Chunked (the wgmma layout in miniature: 16-element pieces, XOR over two
// vectors): columns 16-31 are a second 4x16 tile 64 elements in, and the
// swizzle of each piece depends on the row only.
// CHECK-LABEL: @shared_chunked arg0:
// CHECK-NEXT: elements 128, span 128
// CHECK-NEXT: row 0: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79
// CHECK-NEXT: row 1: 24 25 26 27 28 29 30 31 16 17 18 19 20 21 22 23 88 89 90 91 92 93 94 95 80 81 82 83 84 85 86 87
// CHECK-NEXT: row 2: 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111
// CHECK-NEXT: row 3: 56 57 58 59 60 61 62 63 48 49 50 51 52 53 54 55 120 121 122 123 124 125 126 127 112 113 114 115 116 117 118 119
func.func @shared_chunked(%t: !tilegpu.smem<4x32xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 2, chunk = 16>>) {
  return
}

// -----

// CHECK-LABEL: @shared_padded_transposed arg0:
// CHECK-NEXT: elements 64, span 96
// CHECK-NEXT: row 0: 0 24 48 72
// CHECK-NEXT: row 1: 1 25 49 73
// CHECK-NEXT: row 2: 2 26 50 74
// CHECK-NEXT: row 3: 3 27 51 75
// CHECK-NEXT: row 4: 4 28 52 76
// CHECK-NEXT: row 5: 5 29 53 77
// CHECK-NEXT: row 6: 6 30 54 78
// CHECK-NEXT: row 7: 7 31 55 79
// CHECK-NEXT: row 8: 8 32 56 80
// CHECK-NEXT: row 9: 9 33 57 81
// CHECK-NEXT: row 10: 10 34 58 82
// CHECK-NEXT: row 11: 11 35 59 83
// CHECK-NEXT: row 12: 12 36 60 84
// CHECK-NEXT: row 13: 13 37 61 85
// CHECK-NEXT: row 14: 14 38 62 86
// CHECK-NEXT: row 15: 15 39 63 87
func.func @shared_padded_transposed(%t: !tilegpu.smem<2x16x4xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>) {
  return
}

// -----

// A tensor whose encoding is not a register layout has no index map
// (#tilegpu.shared on a tensor is refused by the verifier already:
// invalid-shared-encoding.mlir).
// expected-error @+1 {{no register layout (expected #tilegpu.mma, #tilegpu.blocked or #tilegpu.slice), got "rows"}}
func.func @not_a_register_layout(%t: tensor<16x8xf32, "rows">) {
  return
}

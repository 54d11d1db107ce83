// tile-split-loop on the flash-attention kernel with a sliding window
// (WINDOW_LEFT / WINDOW_RIGHT): the kernel's loop starts at the key tile of
// the window's left edge (first query position - LEFT), and the split
// derives from the mask's window comparison a lower split point as it does
// the upper one from the causal comparison, so the loop becomes a masked
// head (the window's left edge), an unmasked middle and a masked tail (the
// diagonal, or the window's right edge and the key length).
//
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=true,EVEN_K=true,WINDOW_LEFT=256' -canonicalize -cse -tile-split-loop -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,CAUSAL
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=false,EVEN_K=false,WINDOW_LEFT=256,WINDOW_RIGHT=100,SOFTCAP=30' -canonicalize -cse -tile-split-loop -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,BOTH

// CHECK-LABEL: func.func @fmha
// CHECK-SAME: %[[POS:[^ :]+]]: i32 {tile.name = "input_pos"}
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// CHECK: %[[MSTART:.*]] = arith.addi %[[POS]], %[[ROW]] : i32
//
// The loop bounds: the first key tile is max(m_start - 256, 0) / 64.
// CHECK: %[[NK:.*]] = arith.ceildivsi %{{.*}}, %c64_i32 : i32
// CHECK: %[[L:.*]] = arith.subi %[[MSTART]], %c256_i32 : i32
// CHECK: %[[L0:.*]] = arith.maxsi %[[L]], %c0_i32 : i32
// CHECK: %[[FIRST:.*]] = arith.divsi %[[L0]], %c64_i32 : i32
//
// The lower split point: every key of tile j is inside every row's window
// while 64 j >= m_start + 63 - 256, i.e. j >= ceil((m_start - 193) / 64).
// CHECK: %[[M64:.*]] = arith.extsi %[[MSTART]] : i32 to i64
// CHECK: %[[SHIFT:.*]] = arith.addi %[[M64]], %c-193_i64 : i64
// CHECK: %[[LO:.*]] = arith.ceildivsi %[[SHIFT]], %c64_i64 : i64
// CHECK: %[[S:.*]] = arith.maxsi %{{.*}}, %[[LO]] : i64
// CHECK: %[[SC:.*]] = arith.minsi %[[S]], %{{.*}} : i64
// CHECK: %[[E:.*]] = arith.maxsi %{{.*}}, %[[SC]] : i64
// CHECK: %[[S32:.*]] = arith.trunci %[[SC]] : i64 to i32
// CHECK: %[[E32:.*]] = arith.trunci %[[E]] : i64 to i32
//
// The head: from the window's first tile, masked.
// CHECK: %[[HEAD:.*]]:3 = scf.for %{{.*}} = %[[FIRST]] to %[[S32]] step
// BOTH: math.tanh
// CHECK: arith.cmpi sge
// CHECK: tile.select %{{.*}} : tensor<64x64xi1>, tensor<64x64xf32>
// CHECK: } {tile.split_remainder}
//
// The middle: no comparison, no mask.
// CHECK-NEXT: %[[MID:.*]]:3 = scf.for %{{.*}} = %[[S32]] to %[[E32]] step %{{.*}} iter_args(%{{.*}} = %[[HEAD]]#0, %{{.*}} = %[[HEAD]]#1, %{{.*}} = %[[HEAD]]#2)
// CHECK-NOT: arith.cmpi
// CHECK-NOT: tensor<64x64xi1>
// CHECK: %[[QK:.*]] = tile.mma
// CAUSAL-NEXT: tile.reduce %[[QK]] max axis 1 keepdims
// BOTH: math.tanh
// CHECK-NOT: arith.cmpi
// CHECK-NOT: tensor<64x64xi1>
// CHECK: scf.yield
// CHECK-NEXT: }
//
// The tail: masked, up to the last tile.
// CHECK-NEXT: %[[TAIL:.*]]:3 = scf.for %{{.*}} = %[[E32]] to %[[NK]] step %{{.*}} iter_args(%{{.*}} = %[[MID]]#0, %{{.*}} = %[[MID]]#1, %{{.*}} = %[[MID]]#2)
// BOTH: arith.cmpi sle
// CHECK: tile.select %{{.*}} : tensor<64x64xi1>, tensor<64x64xf32>
// CHECK: } {tile.split_remainder}
// CHECK: tile.div %[[TAIL]]#2

// convert-tile-to-nvvm: kernels become gpu.funcs in gpu.module @tile_kernels
// with the bundle's launch ABI, tiles become the registers one thread
// holds, and tile ops become per-thread NVVM code. Small tiles (one or two
// warps) keep the IR short; the checks look at the instructions that matter.
// Errors are in convert-tile-to-nvvm-invalid.mlir.
//
// RUN: tile-opt %s -split-input-file -convert-tile-to-nvvm | FileCheck %s

// The launch ABI: a rank-R view is (ptr<1>, R x i32 sizes, R x i64 strides),
// scalars pass as they are; the view is rebuilt from its pieces. The block
// size comes from tilegpu.num_warps, the occupancy hint becomes
// nvvm.minctasm. Functions that went through no layout assignment stay.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @not_a_kernel(%{{.*}}: i32) -> i32
// CHECK: gpu.module @tile_kernels {
// CHECK-NEXT: llvm.mlir.global external @__tile_shared_memory() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: gpu.func @abi(%[[QP:.*]]: !llvm.ptr<1>, %[[QS0:.*]]: i32, %{{.*}}: i32, %{{.*}}: i32, %[[QS3:.*]]: i32, %[[QT0:.*]]: i64, %{{.*}}: i64, %{{.*}}: i64, %[[QT3:.*]]: i64, %[[LP:.*]]: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i64, %[[S:.*]]: f32, %[[P:.*]]: i32) kernel
// CHECK-SAME: nvvm.maxntid = array<i32: 64, 1, 1>
// CHECK-SAME: nvvm.minctasm = 2 : i32
// CHECK-SAME: tilegpu.num_warps = 2 : i32
// CHECK: %[[D0:.*]] = llvm.mlir.undef : !llvm.struct<(ptr<1>, array<4 x i32>, array<4 x i64>)>
// CHECK-NEXT: %[[D1:.*]] = llvm.insertvalue %[[QP]], %[[D0]][0]
// CHECK-NEXT: %[[D2:.*]] = llvm.insertvalue %[[QS0]], %[[D1]][1, 0]
// CHECK: llvm.insertvalue %[[QS3]], %{{.*}}[1, 3]
// CHECK-NEXT: llvm.insertvalue %[[QT0]], %{{.*}}[2, 0]
// CHECK: %[[Q:.*]] = llvm.insertvalue %[[QT3]], %{{.*}}[2, 3]
// CHECK: llvm.mlir.undef : !llvm.struct<(ptr<1>, array<2 x i32>, array<2 x i64>)>
// tile.dim reads a size, block ids and grid sizes are special registers.
// CHECK: llvm.extractvalue %[[Q]][1, 2]
// CHECK: nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK: nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK: gpu.return
func.func @abi(%Q: !tile.view<?x?x?x?xf16> {tile.name = "Q"},
               %L: !tile.view<?x?xf32> {tile.name = "L"},
               %s: f32 {tile.name = "s"}, %p: i32 {tile.name = "p"})
    attributes {tile.kernel = {num_warps = 2 : i32, occupancy = 2 : i32},
                tilegpu.num_warps = 2 : i32, tilegpu.shared_bytes = 0 : i64} {
  %d = tile.dim %Q[2] : !tile.view<?x?x?x?xf16>
  %b = tile.block_id y
  %n = tile.num_blocks z
  return
}
func.func @not_a_kernel(%x: i32) -> i32 {
  return %x : i32
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#padT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// One m16n8k16 step, f16: A (row-major) by ldmatrix.x4; B = K^T stored
// with K contiguous, so its rows are the n8 fragment's and ldmatrix.x2
// needs no .trans. The buffers are the dynamic shared memory at their
// offsets.
// CHECK-LABEL: gpu.func @mma_f16
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @__tile_shared_memory : !llvm.ptr<3>
// CHECK-NEXT: %[[A:.*]] = llvm.getelementptr %[[BASE]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[BASE2:.*]] = llvm.mlir.addressof @__tile_shared_memory : !llvm.ptr<3>
// CHECK-NEXT: %[[B:.*]] = llvm.getelementptr %[[BASE2]][768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK: %[[AADDR:.*]] = llvm.getelementptr %[[A]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[AF:.*]] = nvvm.ldmatrix %[[AADDR]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-4: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK: %[[BADDR:.*]] = llvm.getelementptr %[[B]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.ldmatrix %[[BADDR]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK-COUNT-2: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK-NEXT: %[[D:.*]] = nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: nvvm.ldmatrix
// CHECK: gpu.return
func.func @mma_f16(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x16xf16, #pad>
  %b = tilegpu.alloc {offset = 768 : i64} : !tilegpu.smem<16x8xf16, #padT>
  %acc = tile.full 0.0 shape [16, 8] : tensor<16x8xf32, #mma>
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<16x16xf16, #pad>,
      !tilegpu.smem<16x8xf16, #padT>, tensor<16x8xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<16x8xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// bf16, and B stored with N contiguous (V in attention): ldmatrix.x4.trans
// loads two n8 blocks, each feeding one mma.sync; bf16 operands stay i32.
// CHECK-LABEL: gpu.func @mma_bf16_trans
// CHECK: nvvm.ldmatrix %{{.*}} {{{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32{{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.ldmatrix %{{.*}} {{{.*}}layout = #nvvm.mma_layout<col>, num = 4 : i32{{.*}}} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: llvm.bitcast
// CHECK: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: llvm.extractvalue
// CHECK: nvvm.mma.sync {{.*}} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
func.func @mma_bf16_trans(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x16xbf16, #pad>
  %b = tilegpu.alloc {offset = 768 : i64} : !tilegpu.smem<16x16xbf16, #pad>
  %acc = tile.full 0.0 shape [16, 16] : tensor<16x16xf32, #mma>
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<16x16xbf16, #pad>,
      !tilegpu.smem<16x16xbf16, #pad>, tensor<16x16xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<16x16xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// A register A operand (attention's P) in the accumulator layout is the A
// fragment without data movement: registers (0,1), (2,3), (4,5), (6,7) are
// a0 = (g, 2c..), a1 = (g+8, 2c..), a2 = (g, 8+2c..), a3 = (g+8, 8+2c..).
// CHECK-LABEL: gpu.func @mma_register_a
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: %[[P0:.*]] = vector.extract %[[P]][0] : f16 from vector<8xf16>
// CHECK-NEXT: %[[P1:.*]] = vector.extract %[[P]][1]
// CHECK-NEXT: %[[P2:.*]] = vector.extract %[[P]][2]
// CHECK-NEXT: %[[P3:.*]] = vector.extract %[[P]][3]
// CHECK-NEXT: %[[P4:.*]] = vector.extract %[[P]][4]
// CHECK-NEXT: %[[P5:.*]] = vector.extract %[[P]][5]
// CHECK-NEXT: %[[P6:.*]] = vector.extract %[[P]][6]
// CHECK-NEXT: %[[P7:.*]] = vector.extract %[[P]][7]
// CHECK-NEXT: %[[A0:.*]] = vector.from_elements %[[P0]], %[[P1]] : vector<2xf16>
// CHECK-NEXT: %[[A1:.*]] = vector.from_elements %[[P2]], %[[P3]] : vector<2xf16>
// CHECK-NEXT: %[[A2:.*]] = vector.from_elements %[[P4]], %[[P5]] : vector<2xf16>
// CHECK-NEXT: %[[A3:.*]] = vector.from_elements %[[P6]], %[[P7]] : vector<2xf16>
// CHECK: nvvm.ldmatrix %{{.*}} {{{.*}}layout = #nvvm.mma_layout<col>, num = 2 : i32{{.*}}}
// CHECK: nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]
// CHECK-NOT: nvvm.ldmatrix
func.func @mma_register_a(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %b = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x8xf16, #pad>
  %s = tile.full 1.0 shape [16, 16] : tensor<16x16xf32, #mma>
  %p = tile.astype %s : tensor<16x16xf32, #mma> -> tensor<16x16xf16, #mma>
  %acc = tile.full 0.0 shape [16, 8] : tensor<16x8xf32, #mma>
  %d = tilegpu.mma %p, %b, %acc : tensor<16x16xf16, #mma>,
      !tilegpu.smem<16x8xf16, #pad>, tensor<16x8xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<16x8xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// cp.async of an 8x64 f16 tile into stage %i of a ring (8 * 72 * 2 = 1152
// bytes per stage): 8 vectors of 16 bytes per row, 32 threads, so 4 rows a
// round and two rounds; the second round's source advances by 4 rows and
// its destination by 4 * 72 * 2 = 576 bytes. The src-size operand is 16
// bytes inside the view (fewer at its end, 0 outside, and 0 where the
// predicate is false: the rest is zero-filled).
// CHECK-LABEL: gpu.func @async_copy
// CHECK-SAME: %[[I:[^:]*]]: i32, %[[PRED:[^:]*]]: i1)
// CHECK-DAG: %[[C1152:.*]] = arith.constant 1152 : i32
// CHECK: %[[OFF:.*]] = arith.muli %[[I]], %[[C1152]] : i32
// CHECK-NEXT: %[[STAGE:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LEFT:.*]] = arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli %[[LEFT]], %{{.*}} : i32
// CHECK: %[[SRC:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK: %[[OK0:.*]] = arith.andi %{{.*}}, %[[PRED]] : i1
// CHECK: %[[DST0:.*]] = llvm.getelementptr %[[STAGE]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[N0:.*]] = arith.select %[[OK0]], %[[BYTES]], %{{.*}} : i32
// CHECK-NEXT: nvvm.cp.async.shared.global %[[DST0]], %[[SRC]], 16, cache = cg, %[[N0]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NEXT: %[[SRC1:.*]] = llvm.getelementptr %[[SRC]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK: %[[OK1:.*]] = arith.andi %{{.*}}, %[[PRED]] : i1
// CHECK: %[[DST1:.*]] = llvm.getelementptr %{{.*}}[576] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[N1:.*]] = arith.select %[[OK1]], %[[BYTES]], %{{.*}} : i32
// CHECK-NEXT: nvvm.cp.async.shared.global %[[DST1]], %[[SRC1]], 16, cache = cg, %[[N1]]
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: gpu.return
func.func @async_copy(%A: !tile.view<?x?xf16>, %i: i32, %p: i1)
    attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %ring = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<2x8x64xf16, #pad>
  %s = tilegpu.subview %ring[%i] : !tilegpu.smem<2x8x64xf16, #pad> -> !tilegpu.smem<8x64xf16, #pad>
  tilegpu.async_copy %A[%i, %c0] dims [0, 1] into %s if %p
      : !tile.view<?x?xf16>, !tilegpu.smem<8x64xf16, #pad>
  tilegpu.async_commit
  tilegpu.async_wait 1
  tilegpu.barrier
  return
}

// -----

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>

// A tile of 8 rows of 3 vectors (24 vectors) does not split into whole rows
// per round of 32 threads: vector q goes to thread q, threads 24-31 copy
// nothing.
// CHECK-LABEL: gpu.func @async_copy_ragged
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[Q:.*]] = arith.addi %[[TID]], %{{.*}} : i32
// CHECK: %[[C24:.*]] = arith.constant 24 : i32
// CHECK-NEXT: %[[ACTIVE:.*]] = arith.cmpi ult, %[[Q]], %[[C24]] : i32
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %[[ACTIVE]] : i1
// CHECK: %[[N:.*]] = arith.select %[[OK]], %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[N]]
// CHECK-NOT: nvvm.cp.async.shared.global
func.func @async_copy_ragged(%A: !tile.view<?x?xf16>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %b = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<8x24xf16, #pad>
  tilegpu.async_copy %A[%c0, %c0] dims [0, 1] into %b : !tile.view<?x?xf16>, !tilegpu.smem<8x24xf16, #pad>
  tilegpu.async_commit
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
#rows = #tilegpu.slice<dim = 1, parent = #mma>

// A register load pads with its padding value (-inf) outside the view. A
// row reduction combines the registers of each row in the thread (c0, c1
// and c2, c3), then over lane bits 0 and 1 (the four threads of a row) with
// shfl.sync.bfly 1 and 2. The [16, 1] result is replicated over those lanes:
// only lane % 4 == 0 stores it.
// CHECK-LABEL: gpu.func @row_reductions
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[L0:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK-NEXT: arith.select %{{.*}}, %[[L0]], %[[NINF]] : f32
// CHECK-COUNT-3: llvm.load
// CHECK: %[[X:.*]] = vector.from_elements %{{.*}} : vector<4xf32>
// CHECK: %[[X0:.*]] = vector.extract %[[X]][0]
// CHECK-NEXT: %[[X1:.*]] = vector.extract %[[X]][1]
// CHECK-NEXT: %[[X2:.*]] = vector.extract %[[X]][2]
// CHECK-NEXT: %[[X3:.*]] = vector.extract %[[X]][3]
// CHECK-NEXT: %[[R0:.*]] = arith.maximumf %[[X0]], %[[X1]] : f32
// CHECK-NEXT: %[[R1:.*]] = arith.maximumf %[[X2]], %[[X3]] : f32
// CHECK-NEXT: %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-NEXT: %[[CLAMP:.*]] = arith.constant 31 : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[S0:.*]] = nvvm.shfl.sync bfly %[[ALL]], %[[R0]], %[[ONE]], %[[CLAMP]] : f32 -> f32
// CHECK-NEXT: %[[R0B:.*]] = arith.maximumf %[[R0]], %[[S0]] : f32
// CHECK-NEXT: %[[S1:.*]] = nvvm.shfl.sync bfly %[[ALL]], %[[R1]], %[[ONE]], %[[CLAMP]] : f32 -> f32
// CHECK-NEXT: %[[R1B:.*]] = arith.maximumf %[[R1]], %[[S1]] : f32
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[S2:.*]] = nvvm.shfl.sync bfly %[[ALL]], %[[R0B]], %[[TWO]], %[[CLAMP]] : f32 -> f32
// CHECK-NEXT: %[[R0C:.*]] = arith.maximumf %[[R0B]], %[[S2]] : f32
// CHECK-NEXT: %[[S3:.*]] = nvvm.shfl.sync bfly %[[ALL]], %[[R1B]], %[[TWO]], %[[CLAMP]] : f32 -> f32
// CHECK-NEXT: %[[R1C:.*]] = arith.maximumf %[[R1B]], %[[S3]] : f32
// CHECK-NEXT: %[[M:.*]] = vector.from_elements %[[R0C]], %[[R1C]] : vector<2xf32>
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[LANE3:.*]] = arith.andi %{{.*}}, %[[C3]] : i32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[OWNER:.*]] = arith.cmpi eq, %[[LANE3]], %[[C0]] : i32
// CHECK: %[[IN:.*]] = arith.andi %{{.*}}, %[[OWNER]] : i1
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// The sum: the same shape with addf.
// CHECK: arith.addf
// CHECK-NEXT: arith.addf
// CHECK: nvvm.shfl.sync bfly
// CHECK-NEXT: arith.addf
// CHECK-COUNT-3: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
func.func @row_reductions(%A: !tile.view<?x?xf32>, %R: !tile.view<?x?xf32>,
                          %S: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] padding neg_inf
      : !tile.view<?x?xf32> -> tensor<16x8xf32, #mma>
  %m = tile.reduce %x max axis 1 keepdims : tensor<16x8xf32, #mma> -> tensor<16x1xf32, #rows>
  tilegpu.store %m, %R[%c0, %c0] dims [0] : tensor<16x1xf32, #rows>, !tile.view<?x?xf32>
  %s = tile.reduce %x sum axis 1 keepdims : tensor<16x8xf32, #mma> -> tensor<16x1xf32, #rows>
  tilegpu.store %s, %S[%c0, %c0] dims [0] : tensor<16x1xf32, #rows>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>

// exp2: ex2.approx.ftz.f32 with flush_to_zero, else ex2.approx.f32 (also
// for math.exp2); math.log2 is lg2.approx. Division: IEEE arith.divf by
// default, div.approx(.ftz), div.full(.ftz), div.rn.ftz. Other elementwise
// ops stay arith ops on the register vector, fast-math flags kept. f16
// stores go out in pairs (one 32-bit store when both are in bounds, else
// the first alone).
// CHECK-LABEL: gpu.func @elementwise
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%{{.*}}) : (f32) -> f32
// CHECK-COUNT-8: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%{{.*}}) : (f32) -> f32
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%{{.*}}) : (f32) -> f32
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.div.approx.f"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.div.approx.ftz.f"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.div.full"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.div.full.ftz"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.div.rn.ftz.f"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<4xf32>
// CHECK-NEXT: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: %[[FIRST:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[SECOND:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: %[[BOTH:.*]] = arith.andi %[[FIRST]], %[[SECOND]] : i1
// CHECK-NEXT: %[[PAIR:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK-NEXT: scf.if %[[BOTH]] {
// CHECK: llvm.store %[[PAIR]], %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<1>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<1>
// CHECK-COUNT-1: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xf16>
// CHECK-NOT: llvm.store %{{.*}} {alignment = 4 : i64}
func.func @elementwise(%A: !tile.view<?x?xf32>, %O: !tile.view<?x?xf16>)
    attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<16x8xf32, #mma>
  %e1 = tile.exp2 %x flush_to_zero : tensor<16x8xf32, #mma>
  %e2 = tile.exp2 %e1 : tensor<16x8xf32, #mma>
  %e3 = math.exp2 %e2 : tensor<16x8xf32, #mma>
  %e4 = math.log2 %e3 : tensor<16x8xf32, #mma>
  %d1 = tile.div %e4, %x : tensor<16x8xf32, #mma>
  %d2 = tile.div %d1, %x rounding approx : tensor<16x8xf32, #mma>
  %d3 = tile.div %d2, %x rounding approx flush_to_zero : tensor<16x8xf32, #mma>
  %d4 = tile.div %d3, %x rounding full : tensor<16x8xf32, #mma>
  %d5 = tile.div %d4, %x rounding full flush_to_zero : tensor<16x8xf32, #mma>
  %d6 = tile.div %d5, %x flush_to_zero : tensor<16x8xf32, #mma>
  %f = arith.mulf %d6, %x fastmath<contract> : tensor<16x8xf32, #mma>
  %h = tile.astype %f : tensor<16x8xf32, #mma> -> tensor<16x8xf16, #mma>
  tilegpu.store %h, %O[%c0, %c0] dims [0, 1] : tensor<16x8xf16, #mma>, !tile.view<?x?xf16>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [2, 1]>
#rows = #tilegpu.slice<dim = 1, parent = #mma>
#cols = #tilegpu.slice<dim = 0, parent = #mma>

// Two warps. iota: the constant part of each register plus the thread part
// (rows: lane / 4 + 16 * warp; columns: 2 * (lane % 4)). A broadcast from a
// slice is a register shuffle: the [32, 16] tile's registers hold (0,0),
// (0,1), (8,0), (8,1), (0,8), (0,9), (8,8), (8,9).
// CHECK-LABEL: gpu.func @positions
// CHECK-SAME: nvvm.maxntid = array<i32: 64, 1, 1>
// CHECK: %[[RC:.*]] = arith.constant dense<[0, 8]> : vector<2xi32>
// CHECK: %[[ROWS:.*]] = arith.addi %[[RC]], %{{.*}} : vector<2xi32>
// CHECK: %[[CC:.*]] = arith.constant dense<[0, 1, 8, 9]> : vector<4xi32>
// CHECK: %[[COLS:.*]] = arith.addi %[[CC]], %{{.*}} : vector<4xi32>
// CHECK-NEXT: %[[RB:.*]] = vector.shuffle %[[ROWS]], %[[ROWS]] [0, 0, 1, 1, 0, 0, 1, 1] : vector<2xi32>, vector<2xi32>
// CHECK-NEXT: %[[CB:.*]] = vector.shuffle %[[COLS]], %[[COLS]] [0, 1, 0, 1, 2, 3, 2, 3] : vector<4xi32>, vector<4xi32>
// CHECK-NEXT: %[[SPLAT:.*]] = vector.broadcast %{{.*}} : i32 to vector<8xi32>
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[RB]], %[[CB]] : vector<8xi32>
// CHECK-NEXT: arith.addi %[[SUM]], %[[SPLAT]] : vector<8xi32>
func.func @positions(%O: !tile.view<?x?xi32>, %base: i32) attributes {tilegpu.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %r = tile.iota shape [32, 1] dim 0 : tensor<32x1xi32, #rows>
  %c = tile.iota shape [1, 16] dim 1 : tensor<1x16xi32, #cols>
  %rb = tile.broadcast %r shape [32, 16] : tensor<32x1xi32, #rows> -> tensor<32x16xi32, #mma>
  %cb = tile.broadcast %c shape [32, 16] : tensor<1x16xi32, #cols> -> tensor<32x16xi32, #mma>
  %s = tile.splat %base shape [32, 16] : i32 -> tensor<32x16xi32, #mma>
  %x = arith.addi %rb, %cb : tensor<32x16xi32, #mma>
  %y = arith.addi %x, %s : tensor<32x16xi32, #mma>
  tilegpu.store %y, %O[%c0, %c0] dims [0, 1] : tensor<32x16xi32, #mma>, !tile.view<?x?xi32>
  return
}

// tilegpu-set-target records the chip on the module (tilegpu.target); the
// passes that depend on the chip read it there, and a module without one, or
// with a chip the lowering does not compile for, is a located error.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a | FileCheck %s
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_75 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-set-target=target=sm_80 | FileCheck %s --check-prefix=AGAIN
// RUN: not tile-opt %s -split-input-file -tilegpu-pipeline 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-warp-specialize -tilegpu-ping-pong -tilegpu-tma -tilegpu-allocate-shared -tilegpu-check-resources | FileCheck %s --check-prefix=PASSES

// CHECK: module attributes {tilegpu.target = "sm_90a"}
// CHECK-LABEL: func.func @kernel
// REFUSED: error: unsupported target chip 'sm_75' (the GPU lowering needs mma.sync and cp.async, sm_80 or newer; supported: sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_120)
// EMPTY: error: unsupported target chip ''
// A second stamp replaces the first.
// AGAIN: module attributes {tilegpu.target = "sm_80"}
// MISSING: tilegpu-set-target.mlir:[[@LINE+4]]:1: error: no target chip: the module has no tilegpu.target attribute (tilegpu-set-target{target=sm_XY} or the tile-to-ptx pipeline's chip option sets it)
// PASSES: module attributes {tilegpu.target = "sm_90a"}
// PASSES-LABEL: func.func @kernel
// PASSES-SAME: tilegpu.shared_bytes = 0 : i64
func.func @kernel() attributes {tile.kernel = {}, tilegpu.num_warps = 4 : i32} {
  return
}

// -----

// A target written in the IR is read as it is: an unsupported one is
// reported at the kernel of the pass that reads it.
// RUN: not tile-opt %s -split-input-file -tilegpu-allocate-shared 2>&1 | FileCheck %s --check-prefix=WRITTEN
// WRITTEN: tilegpu-set-target.mlir:[[@LINE+2]]:3: error: unsupported target chip 'sm_61'
module attributes {tilegpu.target = "sm_61"} {
  func.func @written() attributes {tile.kernel = {}} {
    return
  }
}

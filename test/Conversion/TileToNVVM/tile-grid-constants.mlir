// tile-grid-constants: each parameter listed in tilegpu.grid_constants
// becomes a 128-byte byval grid constant, 64-byte aligned (a CUtensorMap
// passed by value); the list goes. A listed argument that is not a pointer
// is an error.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(gpu.module(tile-grid-constants))' | FileCheck %s

// CHECK-LABEL: llvm.func @k
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-NOT: tilegpu.grid_constants
gpu.module @m {
  llvm.func @k(%a: !llvm.ptr<1>, %m: !llvm.ptr) attributes {nvvm.kernel, tilegpu.grid_constants = array<i64: 1>} {
    llvm.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{tilegpu.grid_constants names argument 0, which is not a pointer parameter}}
  llvm.func @k(%a: i32) attributes {nvvm.kernel, tilegpu.grid_constants = array<i64: 0>} {
    llvm.return
  }
}

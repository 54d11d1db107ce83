// tile-specialize binds each parameter once (issue 11). A name given twice
// in one binding list, and any binding of a kernel that is already
// specialized (`tile.specialized`), is a located error: re-binding changed
// `tile.params` (and the manifest) but not the body, so a bundle said
// non-causal and computed causal. Integers are checked against the
// parameter's type and reported as given, not wrapped.
//
// RUN: not tile-opt %s -tile-specialize='bind=TILE_M=64,TILE_M=128' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not tile-opt %s -tile-specialize='bind=CAUSAL=true' -tile-specialize='bind=CAUSAL=false' 2>&1 | FileCheck %s --check-prefix=REBIND
// RUN: not tile-opt %s -tile-specialize='bind=CAUSAL=true' -tile-specialize='bind=CAUSAL=true' 2>&1 | FileCheck %s --check-prefix=SAMEVALUE
// RUN: not tile-opt %s -tile-specialize -tile-specialize='bind=TILE_M=32' 2>&1 | FileCheck %s --check-prefix=REBINDDEFAULT
// RUN: not tile-opt %s -tile-specialize='bind=TILE_M=2147483648' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tile-opt %s -tile-specialize='bind=TILE_M=99999999999999999999' 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not tile-opt %s -tile-specialize='bind=STEPS=300' 2>&1 | FileCheck %s --check-prefix=RANGEI8
// RUN: not tile-opt %s -tile-specialize='occupancy=-3' 2>&1 | FileCheck %s --check-prefix=OCCUPANCY
// RUN: not tile-opt %s -tile-specialize='occupancy=33' 2>&1 | FileCheck %s --check-prefix=OCCUPANCY

// TWICE: tile-specialize-bindings.mlir:[[# @LINE + 22]]:1: error: parameter 'TILE_M' is bound twice ('TILE_M=64' and 'TILE_M=128'); bind each parameter once
// REBIND: tile-specialize-bindings.mlir:[[# @LINE + 21]]:1: error: cannot bind 'CAUSAL=false': kernel 'kernel' is already specialized, with CAUSAL=true; bind each parameter once
// SAMEVALUE: error: cannot bind 'CAUSAL=true': kernel 'kernel' is already specialized, with CAUSAL=true
// REBINDDEFAULT: error: cannot bind 'TILE_M=32': kernel 'kernel' is already specialized, with TILE_M=64
// RANGE: tile-specialize-bindings.mlir:[[# @LINE + 18]]:1: error: parameter 'TILE_M' is an i32 in [-2147483648, 2147483647], got '2147483648'
// RANGE-NOT: -2147483648 elements
// RANGE-NOT: got -2147483648
// HUGE: error: parameter 'TILE_M' is an i32 in [-2147483648, 2147483647], got '99999999999999999999'
// RANGEI8: error: parameter 'STEPS' is an i8 in [-128, 127], got '300'
// OCCUPANCY: tile-specialize-bindings.mlir:[[# @LINE + 13]]:1: error: occupancy must be in [0, 32] (0: keep the kernel's hint), got {{-3|33}}

// Specializing twice without bindings is fine (tile-compile specializes,
// then runs a tile-O pipeline that starts with tile-specialize), and the
// kernel says it is specialized.
// RUN: tile-opt %s -tile-specialize='bind=CAUSAL=false' -tile-specialize -tile-specialize='num-warps=8' | FileCheck %s --check-prefix=TWICEOK
// TWICEOK: func.func @kernel
// TWICEOK-SAME: num_warps = 8
// TWICEOK-SAME: tile.params = {CAUSAL = false, STEPS = 4 : i8, TILE_M = 64 : i32}
// TWICEOK-SAME: tile.specialized
// TWICEOK: arith.constant false
// TWICEOK: tile.full 0.000000e+00 shape [64] : tensor<64xf32>

func.func @kernel(%X: !tile.view<?xf32>)
    attributes {tile.kernel = {},
                tile.params = {TILE_M = 64 : i32, STEPS = 4 : i8, CAUSAL = true}} {
  %c = tile.param "CAUSAL" : i1
  %z = tile.full 0.0 shape [TILE_M] : tensor<?xf32>
  return
}

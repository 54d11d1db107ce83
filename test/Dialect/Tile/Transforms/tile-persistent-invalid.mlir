// tile-persistent's refusals are located errors at the kernel: bad options,
// a kernel without a grid rule, a rule that is not arithmetic (it cannot be
// evaluated in the kernel), a view the rule names that the kernel lacks.
//
// RUN: not tile-opt %s -split-input-file -tile-persistent=max-blocks=-1 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not tile-opt %s -split-input-file -tile-persistent='max-blocks=4 order=zigzag' 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-persistent=max-blocks=4
// The pipelines' options are checked before any pass runs.
// RUN: not tile-opt %s -split-input-file --pass-pipeline='builtin.module(tile-O1{persistent=-2})' 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: not tile-opt %s -split-input-file --pass-pipeline='builtin.module(tile-O1{persistent=2 persistent-order=rows})' 2>&1 | FileCheck %s --check-prefix=PIPE-ORDER

// NEG: tile-persistent-invalid.mlir:[[# @LINE + 5]]:1: error: tile-persistent: max-blocks must be positive, got -1
// ORDER: tile-persistent-invalid.mlir:[[# @LINE + 4]]:1: error: tile-persistent: order must be grid or paired, got 'zigzag'
// PIPE: persistent must be at least 0 (0: off), got -2
// PIPE-ORDER: persistent-order must be one of grid, paired, got 'rows'
// expected-error @+1 {{tile-persistent: the kernel has no grid rule of three expressions}}
func.func @no_grid() attributes {tile.kernel = {num_warps = 4 : i32}} {
  %bx = tile.block_id x
  return
}

// -----

// expected-error @+1 {{tile-persistent: cannot evaluate the grid rule 'X.0 > 2' in the kernel: '>' is not arithmetic at column 5 (integers, view sizes, + - * / %, cdiv, min and max only)}}
func.func @compare(%X: !tile.view<?xf32> {tile.name = "X"})
    attributes {tile.kernel = {grid = ["X.0 > 2", "1", "1"]}} {
  return
}

// -----

// expected-error @+1 {{tile-persistent: cannot evaluate the grid rule 'cdiv(X.0, 4) && 1' in the kernel: '&&' is not arithmetic at column 14 (integers, view sizes, + - * / %, cdiv, min and max only)}}
func.func @logic(%X: !tile.view<?xf32> {tile.name = "X"})
    attributes {tile.kernel = {grid = ["cdiv(X.0, 4) && 1", "1", "1"]}} {
  return
}

// -----

// expected-error @+1 {{tile-persistent: cannot evaluate the grid rule '1 + !X.0' in the kernel: '!' is not arithmetic at column 5 (integers, view sizes, + - * / %, cdiv, min and max only)}}
func.func @negation(%X: !tile.view<?xf32> {tile.name = "X"})
    attributes {tile.kernel = {grid = ["1 + !X.0", "1", "1"]}} {
  return
}

// -----

// A body of several blocks (unstructured control flow) has no one place
// to wrap in the loop.
// expected-error @+1 {{tile-persistent: the kernel body must be one block}}
func.func @blocks(%X: !tile.view<?xf32> {tile.name = "X"})
    attributes {tile.kernel = {grid = ["cdiv(X.0, 4)", "1", "1"]}} {
  cf.br ^bb1
^bb1:
  return
}

// -----

// Parameters are substituted by tile-specialize, which the pipelines run
// first.
// expected-error @+1 {{tile-persistent: cannot evaluate the grid rule 'cdiv(X.0, ROWS)' in the kernel: 'ROWS' is a parameter: specialize the kernel first (tile-specialize) at column 11 (integers, view sizes, + - * / %, cdiv, min and max only)}}
func.func @unspecialized(%X: !tile.view<?xf32> {tile.name = "X"})
    attributes {tile.kernel = {grid = ["cdiv(X.0, ROWS)", "1", "1"]},
                tile.params = {ROWS = 4 : i32}} {
  return
}

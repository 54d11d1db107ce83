// Grid rules and launch preconditions (`requires`, contract C3) are parsed
// and checked when a kernel is verified: names are view arguments (NAME.d,
// d below the rank) or parameters, no division by a constant zero, bounded
// nesting. The grammar is in include/tile/Bundle/Expr.h.
// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// A kernel with a grid rule and preconditions over views and parameters.
// CHECK-LABEL: func.func @valid
// CHECK-SAME: requires = ["X.1 <= BLOCK_N", "X.1 % BLOCK_N == 0 || EVEN == 0", "!(X.0 > 4096) && eps_ok == 1"]
func.func @valid(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["cdiv(X.0, 4)", "min(X.1, 2)", "max(1, X.0 / BLOCK_N)"],
                               requires = ["X.1 <= BLOCK_N", "X.1 % BLOCK_N == 0 || EVEN == 0", "!(X.0 > 4096) && eps_ok == 1"]},
                tile.params = {BLOCK_N = 64 : i32, EVEN = false, eps_ok = 1 : i32, DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' requires must list expressions as strings}}
func.func @requires_not_strings(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {requires = [1]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: unexpected end at column 6 of '((((('}}
func.func @grid_syntax(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["((((("]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: empty expression at column 1 of ''}}
func.func @grid_empty_expr(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = [""]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: no view argument named 'Z' at column 1 of 'Z.0'}}
func.func @grid_unknown_view(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["Z.0"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[1]: view 'X' has rank 2, so no dimension 2 at column 1 of 'X.2'}}
func.func @grid_dim_rank(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["1", "X.2"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: 'eps' is a scalar argument, not a view at column 1 of 'eps.0'}}
func.func @grid_scalar(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["eps.0"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: 'X' is a view: name one of its sizes, X.0 to X.1 at column 1 of 'X + 1'}}
func.func @grid_view_bare(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["X + 1"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: division by zero at column 2 of '1/0'}}
func.func @grid_div_zero(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["1/0"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: cdiv by zero at column 11 of 'cdiv(X.0, 0)'}}
func.func @grid_cdiv_zero(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["cdiv(X.0, 0)"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: '0' is 0 for every shape (a grid size is at least 1)}}
func.func @grid_zero(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["0"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: dimension '99999999999999999999' is out of range (expected an integer in [0, 7]) at column 3 of 'X.99999999999999999999'}}
func.func @grid_big_int(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["X.99999999999999999999"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: the arithmetic overflows int64 (9223372036854775807 and 2) at column 21 of '9223372036854775807 * 2'}}
func.func @grid_overflow(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["9223372036854775807 * 2"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{nesting deeper than 64}}
func.func @grid_deep(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid[0]: no parameter named 'BLOCK' at column 11 of 'cdiv(X.0, BLOCK)'}}
func.func @grid_unknown_param(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {grid = ["cdiv(X.0, BLOCK)"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' requires[0]: unexpected end at column 8 of 'X.1 <= '}}
func.func @requires_syntax(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {requires = ["X.1 <= "]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' requires[1]: '2 < 1' is false for every shape}}
func.func @requires_false(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {requires = ["X.1 >= 0", "2 < 1"]}, tile.params = {DTYPE = f16}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' requires[0]: no parameter named 'DTYPE' at column 1 of 'DTYPE == 0'}}
func.func @requires_type_param(%x: !tile.view<?x?xf16> {tile.name = "X"}, %eps: f32 {tile.name = "eps"})
    attributes {tile.kernel = {requires = ["DTYPE == 0"]}, tile.params = {DTYPE = f16}} {
  return
}

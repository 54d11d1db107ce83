// Verifier and parse errors of the tile dialect, with the location they point
// at: Kernel attributes: tile.params, !tile.dtype, tile.name, unknown
// attributes.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'func.func' op 'tile.params' must be a dictionary}}
func.func @params_not_dict() attributes {tile.kernel = {}, tile.params = [1]} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.params' type parameter 'T' must be an integer or float type, got 'index'}}
func.func @params_type() attributes {tile.kernel = {}, tile.params = {T = index}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.params' entry 'SCALE' must be an integer, a boolean or a type}}
func.func @params_float() attributes {tile.kernel = {}, tile.params = {SCALE = 1.0 : f32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.params' entry 'NAME' must be an integer, a boolean or a type}}
func.func @params_string() attributes {tile.kernel = {}, tile.params = {NAME = "fmha"}} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.params' belongs on a func.func}}
module attributes {tile.params = {}} {
}

// -----

func.func @dtype_undeclared(%v: !tile.view<?xf16>, %i: i32) attributes {tile.kernel = {}, tile.params = {DTYPE = f16}} {
  // expected-error @+1 {{'tile.full' op uses !tile.dtype<"OTHER"> but the kernel's 'tile.params' declares no such type parameter}}
  %0 = tile.full 0.0 shape [4] : tensor<4x!tile.dtype<"OTHER">>
  return
}

// -----

// expected-error @+1 {{'func.func' op uses !tile.dtype<"TILE_M"> but the kernel's 'tile.params' declares no such type parameter}}
func.func @dtype_names_int(%v: !tile.view<?x!tile.dtype<"TILE_M">>) attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  return
}

// -----

// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse Tile_DTypeParamType parameter 'name'}}
func.func @dtype_syntax(%x: tensor<4x!tile.dtype<DTYPE>>) {
  return
}

// -----

// expected-error @+1 {{'func.func' op unknown tile dialect attribute 'tile.kernels'}}
func.func @unknown_attr() attributes {tile.kernels = {}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op unknown tile dialect argument attribute 'tile.named'}}
func.func @unknown_arg_attr(%x: i32 {tile.named = "x"}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.name' of argument 1 must be a non-empty string}}
func.func @arg_name_empty(%x: i32 {tile.name = "x"}, %y: i32 {tile.name = ""}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.name' of argument 0 must be a non-empty string}}
func.func @arg_name_type(%x: i32 {tile.name = 3 : i32}) {
  return
}

// -----

// expected-error @+1 {{unknown attribute `grid_dimx` in dialect `tile`}}
%0 = "tile.block_id"() <{dim = #tile.grid_dimx}> : () -> i32

// -----

func.func @grid_dim_syntax() {
  // expected-error @+3 {{expected ::mlir::tile::GridDim to be one of: x, y, z}}
  // The second error points past the bad keyword, at the next token.
  // expected-error @+2 {{failed to parse Tile_GridDimAttr parameter 'value'}}
  %0 = tile.block_id w
  return
}

// -----

func.func @split_remainder_value(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'scf.for' op 'tile.split_remainder' must be a unit attribute}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.split_remainder = 1 : i32}
  return
}

// -----

// A kernel without 'tile.params' declares no type parameter either.
// expected-error @+1 {{'func.func' op uses !tile.dtype<"DTYPE"> but the kernel's 'tile.params' declares no such type parameter}}
func.func @dtype_without_params(%v: !tile.view<?x!tile.dtype<"DTYPE">>) attributes {tile.kernel = {}} {
  return
}

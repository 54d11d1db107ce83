// Verifier and parse errors of the tile dialect, with the location they point
// at: tile.param.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @param_outside_kernel() {
  // expected-error @+1 {{'tile.param' op must be inside a kernel (a func.func with 'tile.kernel')}}
  %0 = tile.param "TILE_M" : i32
  return
}

// -----

func.func @param_without_params() attributes {tile.kernel = {}} {
  // expected-error @+1 {{parameter 'TILE_M' is not declared in the kernel's 'tile.params'}}
  %0 = tile.param "TILE_M" : i32
  return
}

// -----

func.func @param_not_declared() attributes {tile.kernel = {}, tile.params = {TILE_N = 64 : i32}} {
  // expected-error @+1 {{parameter 'TILE_M' is not declared in the kernel's 'tile.params'}}
  %0 = tile.param "TILE_M" : i32
  return
}

// -----

func.func @param_is_type() attributes {tile.kernel = {}, tile.params = {DTYPE = f16}} {
  // expected-error @+1 {{parameter 'DTYPE' is a type; use it as !tile.dtype<"DTYPE">}}
  %0 = tile.param "DTYPE" : i32
  return
}

// -----

func.func @param_bool_as_int() attributes {tile.kernel = {}, tile.params = {CAUSAL = true}} {
  // expected-error @+1 {{parameter 'CAUSAL' is a boolean (read it as i1), not 'i32'}}
  %0 = tile.param "CAUSAL" : i32
  return
}

// -----

func.func @param_int_as_bool() attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  // expected-error @+1 {{parameter 'TILE_M' is an integer (read it as an integer), not 'i1'}}
  %0 = tile.param "TILE_M" : i1
  return
}

// -----

func.func @param_int_as_float() attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  // expected-error @+1 {{parameter 'TILE_M' is an integer (read it as an integer), not 'f32'}}
  %0 = tile.param "TILE_M" : f32
  return
}

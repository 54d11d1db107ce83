// Verifier and parse errors of the tile dialect, with the location they point
// at: Kernel attributes: tile.kernel.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'func.func' op 'tile.kernel' must be a dictionary}}
func.func @kernel_not_dict() attributes {tile.kernel = 4 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': 'num_warps' must be an integer}}
func.func @kernel_warps_type() attributes {tile.kernel = {num_warps = "4"}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': num_warps must be a power of two in [1, 32], got 3}}
func.func @kernel_warps_pow2() attributes {tile.kernel = {num_warps = 3 : i32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': num_warps must be a power of two in [1, 32], got 64}}
func.func @kernel_warps_range() attributes {tile.kernel = {num_warps = 64 : i32}} {
  return
}

// -----

// 12 = 8 consumer warps + the producer warpgroup that warp specialization
// adds (docs/kernels.md's gemm): the message says which number to give.
// expected-error @+1 {{'func.func' op 'tile.kernel' hints for sm_90a: num_warps must be a power of two in [1, 32], got 12; a warp-specialized kernel's producer warpgroup (4 warps) is added by the compiler: give the consumer warps, 8 for 12 in all}}
func.func @kernel_warps_with_producer() attributes {tile.kernel = {hints = {sm_90a = {num_warps = 12 : i32}}}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': occupancy must be in [1, 32], got 0}}
func.func @kernel_occupancy() attributes {tile.kernel = {occupancy = 0 : i32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': 'occupancy' must be an integer}}
func.func @kernel_occupancy_type() attributes {tile.kernel = {occupancy = 1.0 : f32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints for sm_90a: warp_specialize must be 0 or 1 (or a bool)}}
func.func @kernel_warp_specialize() attributes {tile.kernel = {hints = {sm_90a = {warp_specialize = 2 : i32}}}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': ping_pong must be 0 or 1 (or a bool)}}
func.func @kernel_ping_pong() attributes {tile.kernel = {ping_pong = 3 : i32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': unknown launch hint 'num_ctas'}}
func.func @kernel_unknown_hint() attributes {tile.kernel = {num_ctas = 1 : i32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid must list 1 to 3 expressions as strings}}
func.func @kernel_grid_empty() attributes {tile.kernel = {grid = []}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid must list 1 to 3 expressions as strings}}
func.func @kernel_grid_four() attributes {tile.kernel = {grid = ["1", "1", "1", "1"]}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid must list 1 to 3 expressions as strings}}
func.func @kernel_grid_int() attributes {tile.kernel = {grid = [1, 2]}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid must list 1 to 3 expressions as strings}}
func.func @kernel_grid_string() attributes {tile.kernel = {grid = "Q.0"}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints must map architectures to dictionaries}}
func.func @kernel_hints_type() attributes {tile.kernel = {hints = ["sm_90"]}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints: 'hopper' is not an architecture like sm_90}}
func.func @kernel_hints_arch() attributes {tile.kernel = {hints = {hopper = {num_warps = 8 : i32}}}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints for sm_90 must be a dictionary}}
func.func @kernel_hints_arch_value() attributes {tile.kernel = {hints = {sm_90 = 8 : i32}}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints for sm_90a: num_warps must be a power of two in [1, 32], got 6}}
func.func @kernel_hints_arch_warps() attributes {tile.kernel = {hints = {sm_90a = {num_warps = 6 : i32}}}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints for sm_80: unknown launch hint 'grid'}}
func.func @kernel_hints_arch_grid() attributes {tile.kernel = {hints = {sm_80 = {grid = ["1"]}}}} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.kernel' belongs on a func.func}}
module attributes {tile.kernel = {}} {
}

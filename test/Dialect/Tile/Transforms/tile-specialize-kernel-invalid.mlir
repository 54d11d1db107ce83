// tile-specialize errors that come from the kernel itself, located at the op.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-specialize

// A default size that is not positive.
func.func @zero_default() attributes {tile.kernel = {}, tile.params = {N = 0 : i32}} {
  // expected-error @+1 {{'tile.iota' op shape parameter 'N' must be positive, got 0}}
  %0 = tile.iota shape [N] dim 0 : tensor<?xi32>
  return
}

// -----

// A shape that names a boolean parameter.
func.func @bool_in_shape() attributes {tile.kernel = {}, tile.params = {N = true}} {
  // expected-error @+1 {{'tile.full' op shape names 'N', which is not an integer parameter of the kernel}}
  %0 = tile.full 0.0 shape [N] : tensor<?xf32>
  return
}

// -----

// A shape that names a type parameter.
func.func @type_in_shape() attributes {tile.kernel = {}, tile.params = {N = f16}} {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'tile.splat' op shape names 'N', which is not an integer parameter of the kernel}}
  %0 = tile.splat %c shape [N] : f32 -> tensor<?xf32>
  return
}

// -----

// A dynamic tile that no shape spec determines stays dynamic: an error.
func.func @still_dynamic(%x: tensor<?xf32>) attributes {tile.kernel = {}} {
  // expected-error @+1 {{'tile.exp2' op still has a dynamic tile shape after specialization: 'tensor<?xf32>'}}
  %0 = tile.exp2 %x : tensor<?xf32>
  return
}

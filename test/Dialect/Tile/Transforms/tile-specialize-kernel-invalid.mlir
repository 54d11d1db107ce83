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

// -----

// A shape expression naming no parameter of the kernel.
func.func @expr_unknown_name() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{'tile.iota' op shape size 'R * G': no parameter named 'G' at column 5 of 'R * G'}}
  %0 = tile.iota shape [R * G] dim 0 : tensor<?xi32>
  return
}

// -----

// A shape expression dividing by a parameter bound to 0.
func.func @expr_div_by_zero_param() attributes {tile.kernel = {}, tile.params = {R = 4 : i32, Z = 0 : i32}} {
  // expected-error @+1 {{'tile.full' op shape size 'R / Z': division by zero at column 3 of 'R / Z'}}
  %0 = tile.full 0.0 shape [R / Z, 1] : tensor<?x1xf32>
  return
}

// -----

// A shape expression that is not positive once bound.
func.func @expr_not_positive() attributes {tile.kernel = {}, tile.params = {R = 4 : i32, G = 4 : i32}} {
  // expected-error @+1 {{'tile.full' op shape size 'R - G' is 0 with the bound parameters; sizes must be positive}}
  %0 = tile.full 0.0 shape [R - G] : tensor<?xf32>
  return
}

// -----

// A shape expression using a boolean parameter.
func.func @expr_bool_param() attributes {tile.kernel = {}, tile.params = {R = 4 : i32, B = true}} {
  // expected-error @+1 {{'tile.full' op shape size 'R * B': 'B' is a boolean parameter, not a size at column 5 of 'R * B'}}
  %0 = tile.full 0.0 shape [R * B] : tensor<?xf32>
  return
}

// -----

// A shape expression using a type parameter.
func.func @expr_type_param() attributes {tile.kernel = {}, tile.params = {R = 4 : i32, T = f16}} {
  // expected-error @+1 {{'tile.full' op shape size 'T + R': 'T' is a type parameter, not a size at column 1 of 'T + R'}}
  %0 = tile.full 0.0 shape [T + R] : tensor<?xf32>
  return
}

// Verifier errors of the ops of memory that data decides: tile.read,
// tile.gather, tile.scatter, tile.atomic, and the arg reductions.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @read_rank(%T: !tile.view<?x?xi32>, %i: i32) {
  // expected-error @+1 {{takes 2 element coordinates for a rank-2 view, got 1}}
  %v = tile.read %T[%i] : !tile.view<?x?xi32> -> i32
  return
}

// -----

func.func @read_type(%T: !tile.view<?xi32>, %i: i32) {
  // expected-error @+1 {{reads 'f32' from a view of 'i32'}}
  %v = tile.read %T[%i] : !tile.view<?xi32> -> f32
  return
}

// -----

func.func @gather_count(%X: !tile.view<?x?xf16>, %r: tensor<4xi32>) {
  // expected-error @+1 {{takes one index tile per view dimension (2), got 1}}
  %g = tile.gather %X[%r] : !tile.view<?x?xf16>, tensor<4xi32> -> tensor<4xf16>
  return
}

// -----

func.func @gather_index_type(%X: !tile.view<?xf16>, %r: tensor<4xf32>) {
  // expected-error @+1 {{index tile 0 must be of i32 or i64, got 'f32'}}
  %g = tile.gather %X[%r] : !tile.view<?xf16>, tensor<4xf32> -> tensor<4xf16>
  return
}

// -----

func.func @gather_shape(%X: !tile.view<?xf16>, %r: tensor<8xi32>) {
  // expected-error @+1 {{index tile 0 must have the shape of the data tile}}
  %g = tile.gather %X[%r] : !tile.view<?xf16>, tensor<8xi32> -> tensor<4xf16>
  return
}

// -----

func.func @gather_element(%X: !tile.view<?xf16>, %r: tensor<4xi32>) {
  // expected-error @+1 {{gathers 'f32' from a view of 'f16'}}
  %g = tile.gather %X[%r] : !tile.view<?xf16>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

func.func @gather_mask(%X: !tile.view<?xf16>, %r: tensor<4xi32>, %m: tensor<4xi32>) {
  // expected-error @+1 {{mask must be an i1 tile of the data's shape}}
  %g = tile.gather %X[%r] mask %m : tensor<4xi32> : !tile.view<?xf16>, tensor<4xi32> -> tensor<4xf16>
  return
}

// -----

func.func @gather_padding(%X: !tile.view<?xi32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{padding neg_inf needs a float element type}}
  %g = tile.gather %X[%r] padding neg_inf : !tile.view<?xi32>, tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

func.func @scatter_element(%X: !tile.view<?xf16>, %v: tensor<4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{scatters 'f32' into a view of 'f16'}}
  tile.scatter %v, %X[%r] : tensor<4xf32>, !tile.view<?xf16>, tensor<4xi32>
  return
}

// -----

func.func @atomic_count(%X: !tile.view<?x?xf32>, %v: tensor<4x4xf32>, %i: i32) {
  // expected-error @+1 {{takes 2 indices for a rank-2 view, got 1}}
  tile.atomic add %v, %X[%i] : tensor<4x4xf32>, !tile.view<?x?xf32>
  return
}

// -----

func.func @atomic_rank(%X: !tile.view<?x?xf32>, %v: tensor<16xf32>, %i: i32) {
  // expected-error @+1 {{combines a rank-1 tile into a rank-2 view}}
  tile.atomic add %v, %X[%i, %i] : tensor<16xf32>, !tile.view<?x?xf32>
  return
}

// -----

func.func @atomic_element(%X: !tile.view<?xf32>, %v: tensor<4xf16>, %i: i32) {
  // expected-error @+1 {{combines 'f16' into a view of 'f32'}}
  tile.atomic add %v, %X[%i] : tensor<4xf16>, !tile.view<?xf32>
  return
}

// -----

func.func @atomic_result(%X: !tile.view<?xf32>, %v: tensor<4xf32>, %i: i32) {
  // expected-error @+1 {{result must have the value's type 'tensor<4xf32>'}}
  %o = tile.atomic add %v, %X[%i] : tensor<4xf32>, !tile.view<?xf32> -> tensor<8xf32>
  return
}

// -----

func.func @atomic_cas_needs_compare(%X: !tile.view<?xi32>, %v: i32, %i: i32) {
  // expected-error @+1 {{cas needs a compare value}}
  tile.atomic cas %v, %X[%i] : i32, !tile.view<?xi32>
  return
}

// -----

func.func @atomic_compare_not_cas(%X: !tile.view<?xi32>, %v: i32, %i: i32) {
  // expected-error @+1 {{only cas takes a compare value}}
  tile.atomic add %v, %X[%i] compare %v : i32 : i32, !tile.view<?xi32>
  return
}

// -----

func.func @atomic_compare_type(%X: !tile.view<?xi32>, %v: i32, %c: i64, %i: i32) {
  // expected-error @+1 {{compare must have the value's type 'i32'}}
  tile.atomic cas %v, %X[%i] compare %c : i64 : i32, !tile.view<?xi32>
  return
}

// -----

func.func @atomic_scalar_mask(%X: !tile.view<?xi32>, %v: i32, %m: tensor<1xi1>, %i: i32) {
  // expected-error @+1 {{a scalar atomic takes no mask}}
  tile.atomic add %v, %X[%i] mask %m : tensor<1xi1> : i32, !tile.view<?xi32>
  return
}

// -----

func.func @atomic_scalar_at(%X: !tile.view<?xi32>, %v: i32, %i: i32) {
  // expected-error @+1 {{a scalar atomic addresses an element already ('at' is for tiles)}}
  tile.atomic add %v, %X at [%i] : i32, !tile.view<?xi32>
  return
}

// -----

func.func @atomic_mask(%X: !tile.view<?xf32>, %v: tensor<4xf32>, %m: tensor<8xi1>, %i: i32) {
  // expected-error @+1 {{mask must be an i1 tile of the value's shape}}
  tile.atomic add %v, %X[%i] mask %m : tensor<8xi1> : tensor<4xf32>, !tile.view<?xf32>
  return
}

// -----

func.func @atomic_kind_type(%X: !tile.view<?xf16>, %v: tensor<4xf16>, %i: i32) {
  // expected-error @+1 {{atomic max is not available for 'f16'}}
  tile.atomic max %v, %X[%i] : tensor<4xf16>, !tile.view<?xf16>
  return
}

// -----

func.func @atomic_cas_float(%X: !tile.view<?xf32>, %v: f32, %i: i32) {
  // expected-error @+1 {{atomic cas is not available for 'f32'}}
  tile.atomic cas %v, %X[%i] compare %v : f32 : f32, !tile.view<?xf32>
  return
}

// -----

func.func @atomic_value(%X: !tile.view<?xf32>, %v: index, %i: i32) {
  // expected-error @+1 {{value must be a tile or a scalar, got 'index'}}
  tile.atomic add %v, %X[%i] : index, !tile.view<?xf32>
  return
}

// -----

func.func @argmax_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{argmax gives i32 indices, not 'f32'}}
  %a = tile.reduce %x argmax axis 1 : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @min_bool(%x: tensor<4x8xi1>) {
  // expected-error @+1 {{min of i1 tiles is not supported (convert to i32)}}
  %a = tile.reduce %x min axis 1 : tensor<4x8xi1> -> tensor<4xi1>
  return
}

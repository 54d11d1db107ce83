// Errors of shape sizes written as expressions, located at the op (or, for
// syntax, at the size): what a size may use, what is wrong before any
// parameter is bound, and the type a parameter-dependent size must have.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @expr_static_type() attributes {tile.kernel = {}, tile.params = {R = 4 : i32, G = 2 : i32}} {
  // expected-error @+1 {{'tile.iota' op result dimension 0 must be '?' while the shape size 'R * G' depends on parameters}}
  %0 = tile.iota shape [R * G, 64] dim 0 : tensor<8x64xi32>
  return
}

// -----

func.func @expr_const_div_zero() {
  // expected-error @+1 {{shape size: division by zero at column 4 of '64 / 0'}}
  %0 = tile.full 0.0 shape [64 / 0] : tensor<?xf32>
  return
}

// -----

func.func @expr_param_div_zero() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{'tile.full' op shape size 0: division by zero at column 3 of 'R / (2 - 2)'}}
  %0 = tile.full 0.0 shape [R / (2 - 2)] : tensor<?xf32>
  return
}

// -----

func.func @expr_view_size() attributes {tile.kernel = {}} {
  // expected-error @+1 {{shape size: 'X.0' is a view's run-time size; a shape is known at compile time at column 1 of 'X.0 * 2'}}
  %0 = tile.full 0.0 shape [X.0 * 2] : tensor<?xf32>
  return
}

// -----

func.func @expr_negative_literal() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{shape size: expected a number, a name or '(' at column 5 of 'R * -2'}}
  %0 = tile.full 0.0 shape [R * -2] : tensor<?xf32>
  return
}

// -----

func.func @expr_call_arity() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{expected ','}}
  %0 = tile.full 0.0 shape [cdiv(R)] : tensor<?xf32>
  return
}

// -----

func.func @expr_missing_operand() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{expected a size, a parameter name or an expression of them (R * G, cdiv(N, 64))}}
  %0 = tile.full 0.0 shape [R * ] : tensor<?xf32>
  return
}

// -----

// The generic form holds the text: only what a size needs is accepted.
func.func @expr_generic_remainder() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{'tile.full' op shape size 0: '%' is not allowed in a shape (sizes use + - * / cdiv min max) at column 3 of 'R % 2'}}
  %0 = "tile.full"() <{shape = ["R % 2"], value = 0.0 : f64}> : () -> tensor<?xf32>
  return
}

// -----

func.func @expr_generic_compare() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{'tile.full' op shape size 0: '<' is not allowed in a shape (sizes use + - * / cdiv min max) at column 3 of 'R < 2'}}
  %0 = "tile.full"() <{shape = ["R < 2"], value = 0.0 : f64}> : () -> tensor<?xf32>
  return
}

// -----

func.func @expr_generic_not() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{'tile.full' op shape size 0: '!' is not allowed in a shape (sizes use + - * / cdiv min max) at column 1 of '!R'}}
  %0 = "tile.full"() <{shape = ["!R"], value = 0.0 : f64}> : () -> tensor<?xf32>
  return
}

// -----

func.func @expr_generic_syntax() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{'tile.full' op shape size 0: unexpected end at column 4 of 'R +'}}
  %0 = "tile.full"() <{shape = ["R +"], value = 0.0 : f64}> : () -> tensor<?xf32>
  return
}

// -----

// The generic form's text is checked the same way.
func.func @expr_generic_view_size() attributes {tile.kernel = {}} {
  // expected-error @+1 {{'tile.full' op shape size 0: 'X.1' is a view's run-time size; a shape is known at compile time at column 5 of '2 * X.1'}}
  %0 = "tile.full"() <{shape = ["2 * X.1"], value = 0.0 : f64}> : () -> tensor<?xf32>
  return
}

// -----

// Nesting is bounded (hostile inputs), as in the launch expressions.
func.func @expr_too_deep() attributes {tile.kernel = {}, tile.params = {R = 4 : i32}} {
  // expected-error @+1 {{shape expression nested too deeply}}
  %0 = tile.full 0.0 shape [(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((R)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))] : tensor<?xf32>
  return
}

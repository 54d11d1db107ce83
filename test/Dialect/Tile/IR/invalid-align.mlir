// The view alignment argument attribute (contract C2): tile.align = A bytes,
// a power of two from 1 to 16, on view arguments.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @aligned
// CHECK-SAME: {tile.align = 8 : i64}
// CHECK-SAME: {tile.align = 2 : i64}
func.func @aligned(%A: !tile.view<?x?xf16> {tile.align = 8 : i64},
                   %B: !tile.view<?xf16> {tile.align = 2 : i64}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.align' of argument 0 must be a power of two from 1 to 16 (bytes)}}
func.func @not_power_of_two(%A: !tile.view<?x?xf16> {tile.align = 12 : i64}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.align' of argument 0 must be a power of two from 1 to 16 (bytes)}}
func.func @too_large(%A: !tile.view<?x?xf16> {tile.align = 32 : i64}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.align' of argument 1 belongs on a view argument}}
func.func @not_a_view(%A: !tile.view<?x?xf16>, %x: f32 {tile.align = 4 : i64}) {
  return
}

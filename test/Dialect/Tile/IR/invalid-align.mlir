// The `tile.align` argument attribute (contract C2): the alignment in bytes a
// view argument is compiled for, a power of two in [1, 16].
// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @aligned
// CHECK-SAME: tile.align = 4 : i64
func.func @aligned(%x: !tile.view<?x?xf16> {tile.name = "X", tile.align = 4 : i64})
    attributes {tile.kernel = {grid = ["X.0"]}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.align' of argument 0 must be a power of two in [1, 16]}}
func.func @three(%x: !tile.view<?xf16> {tile.name = "X", tile.align = 3 : i64}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.align' of argument 0 must be a power of two in [1, 16]}}
func.func @big(%x: !tile.view<?xf16> {tile.name = "X", tile.align = 32 : i64}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.align' of argument 0 must be a power of two in [1, 16]}}
func.func @not_int(%x: !tile.view<?xf16> {tile.name = "X", tile.align = "16"}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.align' of argument 1 belongs on a view argument}}
func.func @not_a_view(%A: !tile.view<?x?xf16>, %x: f32 {tile.align = 4 : i64}) {
  return
}

// The fmha kernel's mask idioms on the CPU reference executor: a causal
// mask from iota + splat + broadcast + cmpi, select to -inf, a row max that
// is -inf for rows with no visible column (replaced by 0 before the
// subtraction, so that no NaN appears), exp2 and the row sums.
// Row i sees column n iff n <= pos + i.

// RUN: tile-exec %s --arg='f32[4x4]=iota' --arg='i32=0' --arg='f32[4x4]=zeros' \
// RUN:   --arg='f32[4x2]=zeros' | FileCheck %s --check-prefix=POS0
// POS0:      Masked[0]: 0 -inf -inf -inf
// POS0-NEXT: Masked[1]: 4 5 -inf -inf
// POS0-NEXT: Masked[2]: 8 9 10 -inf
// POS0-NEXT: Masked[3]: 12 13 14 15
// POS0-NEXT: Stats[0]: 0 1
// POS0-NEXT: Stats[1]: 5 1.5
// POS0-NEXT: Stats[2]: 10 1.75
// POS0-NEXT: Stats[3]: 15 1.875

// A negative offset: rows 0 and 1 see nothing; their max stays -inf and
// their sum is exactly 0.
// RUN: tile-exec %s --arg='f32[4x4]=iota' --arg='i32=-2' --arg='f32[4x4]=zeros' \
// RUN:   --arg='f32[4x2]=zeros' | FileCheck %s --check-prefix=NEG
// NEG:      Masked[0]: -inf -inf -inf -inf
// NEG-NEXT: Masked[1]: -inf -inf -inf -inf
// NEG-NEXT: Masked[2]: 8 -inf -inf -inf
// NEG-NEXT: Masked[3]: 12 13 -inf -inf
// NEG-NEXT: Stats[0]: -inf 0
// NEG-NEXT: Stats[1]: -inf 0
// NEG-NEXT: Stats[2]: 8 1
// NEG-NEXT: Stats[3]: 13 1.5
func.func @masked_softmax(%S: !tile.view<?x?xf32> {tile.name = "S"},
                          %pos: i32 {tile.name = "pos"},
                          %Masked: !tile.view<?x?xf32> {tile.name = "Masked"},
                          %Stats: !tile.view<?x?xf32> {tile.name = "Stats"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = tile.load %S[%c0, %c0] shape [4, 4] : !tile.view<?x?xf32> -> tensor<4x4xf32>
  %rows = tile.iota shape [4, 1] dim 0 : tensor<4x1xi32>
  %pos_t = tile.splat %pos shape [4, 1] : i32 -> tensor<4x1xi32>
  %offs_m = arith.addi %rows, %pos_t : tensor<4x1xi32>
  %cols = tile.iota shape [1, 4] dim 1 : tensor<1x4xi32>
  %m_b = tile.broadcast %offs_m shape [4, 4] : tensor<4x1xi32> -> tensor<4x4xi32>
  %n_b = tile.broadcast %cols shape [4, 4] : tensor<1x4xi32> -> tensor<4x4xi32>
  %visible = arith.cmpi sge, %m_b, %n_b : tensor<4x4xi32>
  %ninf = tile.full -inf shape [4, 4] : tensor<4x4xf32>
  %masked = tile.select %visible, %s, %ninf : tensor<4x4xi1>, tensor<4x4xf32>
  tile.store %masked, %Masked[%c0, %c0] : tensor<4x4xf32>, !tile.view<?x?xf32>
  %max = tile.reduce %masked max axis 1 keepdims : tensor<4x4xf32> -> tensor<4x1xf32>
  %ninf1 = tile.full -inf shape [4, 1] : tensor<4x1xf32>
  %zero1 = tile.full 0.0 shape [4, 1] : tensor<4x1xf32>
  %empty = arith.cmpf oeq, %max, %ninf1 : tensor<4x1xf32>
  %sub = tile.select %empty, %zero1, %max : tensor<4x1xi1>, tensor<4x1xf32>
  %sub_b = tile.broadcast %sub shape [4, 4] : tensor<4x1xf32> -> tensor<4x4xf32>
  %shifted = arith.subf %masked, %sub_b : tensor<4x4xf32>
  %p = tile.exp2 %shifted : tensor<4x4xf32>
  %sum = tile.reduce %p sum axis 1 keepdims : tensor<4x4xf32> -> tensor<4x1xf32>
  tile.store %max, %Stats[%c0, %c0] : tensor<4x1xf32>, !tile.view<?x?xf32>
  tile.store %sum, %Stats[%c0, %c1] : tensor<4x1xf32>, !tile.view<?x?xf32>
  return
}

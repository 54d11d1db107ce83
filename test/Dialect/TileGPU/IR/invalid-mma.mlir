// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: tilegpu.mma.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_acc_layout(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tilegpu.mma' op accumulator and result need one #mma layout}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32>
  return
}

// -----

// Dynamic tiles are not checked against their layout, so the op checks
// the rank itself.
#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_acc_rank(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<?xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op the accumulator must be a 2-d tile}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<32x64xf16, #s>, tensor<?xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_a_ring(%a: !tilegpu.smem<2x64x32xf16, #s>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op operand a must be a 2-d shared tile}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<2x64x32xf16, #s>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#mma2 = #tilegpu.mma<version = 2, warps = [2, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_a_layout(%a: tensor<64x32xf16, #mma2>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op a register operand a must have the accumulator's layout}}
  %d = tilegpu.mma %a, %b, %c : tensor<64x32xf16, #mma2>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_a_rank(%a: tensor<?xf16, #mma>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op a register operand a must be a 2-d tile}}
  %d = tilegpu.mma %a, %b, %c : tensor<?xf16, #mma>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_a_scalar(%a: f16, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op operand a must be a shared tile or a register tile}}
  %d = tilegpu.mma %a, %b, %c : f16, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_b_ring(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<2x32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op operand b must be a 2-d shared tile}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<2x32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_shapes(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<16x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op shapes do not compose: a x b must be the accumulator's shape}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<16x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_shapes_n(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<32x128xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op shapes do not compose: a x b must be the accumulator's shape}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<32x128xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @async_mma_sync(%a: !tilegpu.smem<64x64xf16, #pad>, %acc: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{only wgmma (#mma version 3) is asynchronous}}
  %d = tilegpu.mma %a, %a, %acc {async} : !tilegpu.smem<64x64xf16, #pad>, !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
  return
}

// -----


#mma3 = #tilegpu.mma<version = 3, warps = [4, 1]>
func.func @mma_wait_negative(%acc: tensor<64x128xf32, #mma3>) {
  // expected-error @+1 {{pending must be non-negative}}
  %0 = tilegpu.mma_wait %acc {pending = -1 : i32} : tensor<64x128xf32, #mma3>
  return
}

// -----

// transpose_b: b is the N x K buffer; the shapes compose with the flag
// applied (a 64x32 a needs a b of 64x32 read as 32x64), not without it.
#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_transpose_b_shapes(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op shapes do not compose: a x b must be the accumulator's shape}}
  %d = tilegpu.mma %a, %b, %c {transpose_b} : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

// transpose_a likewise: a is the K x M buffer.
#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_transpose_a_shapes(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op shapes do not compose: a x b must be the accumulator's shape}}
  %d = tilegpu.mma %a, %b, %c {transpose_a} : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

// A register a is in the accumulator layout: there is no transposed read.
#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_transpose_register_a(%a: tensor<64x64xf16, #mma>, %b: !tilegpu.smem<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op a register operand a cannot be transposed (transpose_a reads a shared tile)}}
  %d = tilegpu.mma %a, %b, %c {transpose_a} : tensor<64x64xf16, #mma>, !tilegpu.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

// The transpose flags are unit attributes.
#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_transpose_not_unit(%a: !tilegpu.smem<64x64xf16, #s>, %b: !tilegpu.smem<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op 'transpose_b' must be a unit attribute}}
  %d = tilegpu.mma %a, %b, %c {transpose_b = 1 : i32} : !tilegpu.smem<64x64xf16, #s>, !tilegpu.smem<64x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

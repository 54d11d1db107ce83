// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: !tilegpu.smem.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a shared buffer is a 2-d tile or a ring of them}}
func.func @smem_rank(%s: !tilegpu.smem<64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

// -----

// expected-error @+1 {{shared buffer sizes must be positive}}
func.func @smem_empty(%s: !tilegpu.smem<0x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

// -----

// expected-error @+1 {{shared buffer layout must be #tilegpu.shared}}
func.func @smem_layout(%s: !tilegpu.smem<64x64xf16, #tilegpu.mma<version = 2, warps = [4, 1]>>) {
  return
}

// -----

// expected-error @+1 {{shared buffer element type must be int or float}}
func.func @smem_element(%s: !tilegpu.smem<64x64xindex, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

// -----

// Shared buffers have static shapes.
// expected-error @+1 {{expected static shape}}
func.func @smem_dynamic(%s: !tilegpu.smem<?x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

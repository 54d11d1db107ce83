// #tilegpu.shared is the layout of !tilegpu.smem buffers: as a tensor's
// encoding it is refused by the verifier (issue 26: the fuzzer, seed
// 20261203, made a function argument tensor<16x1099511627776xf32,
// #tilegpu.shared<...>> in a plain function, and
// `tile-opt --convert-tile-to-nvvm`, which lowers only kernels, exited 0).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics
// RUN: not tile-opt %s -split-input-file --convert-tile-to-nvvm 2>&1 | FileCheck %s
// CHECK: error: #tilegpu.shared is the layout of a !tilegpu.smem buffer, not of a tensor (a tile in registers takes #tilegpu.mma, #tilegpu.blocked or #tilegpu.slice)

// expected-error @+1 {{#tilegpu.shared is the layout of a !tilegpu.smem buffer, not of a tensor (a tile in registers takes #tilegpu.mma, #tilegpu.blocked or #tilegpu.slice)}}
func.func @huge_shared_tensor(%t: tensor<16x1099511627776xf32, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1>>) {
  return
}

// -----

// Small and in a kernel, the same.
// expected-error @+1 {{#tilegpu.shared is the layout of a !tilegpu.smem buffer, not of a tensor}}
func.func @shared_tensor_in_kernel(%t: tensor<16x8xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1>>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  return
}

// -----

// The shared layout on its buffer type is fine.
func.func @shared_buffer(%s: !tilegpu.smem<16x8xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1>>) {
  return
}

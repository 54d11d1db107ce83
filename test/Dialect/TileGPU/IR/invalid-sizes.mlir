// Sizes of tilegpu types are bounded in the verifiers (issue 11): a shared
// buffer holds at most the 232448 bytes of shared memory any chip has (a
// 2x16x4294967296 buffer parsed, and -test-tilegpu-layout-map printed 4e9
// entries of it), and a tile with a register layout at most 2^20 elements
// (its index map has an entry per register).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a shared buffer of 2x16x4294967296 'f16' is larger than the 232448 bytes of shared memory any chip has}}
func.func @shared_huge(%s: !tilegpu.smem<2x16x4294967296xf16, #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>) {
  return
}

// -----

// A size near 2^63 plus the padding must not wrap to a small size (the
// fuzzer found this one accepted).
// expected-error @+1 {{a shared buffer of 64x9223372036854775807 'bf16' is larger than}}
func.func @shared_pad_wraps(%s: !tilegpu.smem<64x9223372036854775807xbf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>) {
  return
}

// -----

// The product overflows on the way; still refused.
// expected-error @+1 {{a shared buffer of 4294967296x4294967296x4294967296 'f32' is larger than}}
func.func @shared_overflow(%s: !tilegpu.smem<4294967296x4294967296x4294967296xf32, #tilegpu.shared<order = [1, 0], vec = 4, perPhase = 1, maxPhase = 1>>) {
  return
}

// -----

// Padding counts: 448 x (256 + 8) x 2 bytes = 236544 > 232448.
// expected-error @+1 {{a shared buffer of 448x256 'f16' is larger than}}
func.func @shared_padded(%s: !tilegpu.smem<448x256xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>) {
  return
}

// -----

// 440 x 264 x 2 = 232320 bytes: fits.
func.func @shared_largest(%s: !tilegpu.smem<440x256xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>) {
  return
}

// -----

// expected-error @+1 {{a tile of more than 1048576 elements cannot be held in registers}}
func.func @registers_huge(%t: tensor<4294967296x64xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>) {
  return
}

// -----

// expected-error @+1 {{a tile of more than 1048576 elements cannot be held in registers}}
func.func @slice_huge(%t: tensor<4294967296x1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<version = 2, warps = [4, 1]>>>) {
  return
}

// -----

// A tile with an empty dimension has no register layout.
// expected-error @+1 {{a register layout needs positive tile sizes}}
func.func @register_empty(%a: tensor<0x16xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>) {
  return
}

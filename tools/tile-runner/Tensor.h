//===- Tensor.h - host tensors and seeded inputs -----------------*- C++
//-*-===//
//
// A dense row-major tensor of one of the ABI's element types on the host,
// and the seeded normal generator every run's random inputs come from, so
// that the same seed gives bit-identical inputs on every machine:
//   - generator: splitmix64 (Steele, Lea, Flood 2014), one stream per
//     argument (its index in the kernel's ABI), started at state
//     seed ^ (0x9E3779B97F4A7C15 * (stream + 1));
//   - normals: Box-Muller on two 53-bit uniforms u1 in (0, 1], u2 in [0, 1):
//     r = sqrt(-2 ln u1), z0 = r cos(2 pi u2), z1 = r sin(2 pi u2), both
//     used in that order, in row-major element order;
//   - element = round_to_dtype(stddev * z) (nearest even).
// Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_TENSOR_H
#define TILE_RUNNER_TENSOR_H

#include "tile/Bundle/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace runner {

using tilebundle::DType;
using tilebundle::dtypeBytes;
using tilebundle::dtypeName;
using tilebundle::parseDType;

struct HostTensor {
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  std::vector<char> bytes;

  int64_t numElements() const;
  /// Element `i` (row-major) as a double.
  double get(int64_t i) const;
  /// Element `i` rounded to the dtype.
  void set(int64_t i, double value);
  bool isPoison(int64_t i) const;
  void *data() { return bytes.data(); }
  const void *data() const { return bytes.data(); }
  size_t sizeBytes() const { return bytes.size(); }
  std::vector<int64_t> strides() const;

  static HostTensor zeros(std::vector<int64_t> shape, DType dtype);
  /// Filled with the dtype's poison (never-written marker).
  static HostTensor poisoned(std::vector<int64_t> shape, DType dtype);
  /// Normal(0, stddev) from stream `stream` of `seed` (see the banner).
  static HostTensor random(std::vector<int64_t> shape, DType dtype,
                           uint64_t seed, int stream, double stddev);
};

/// The start state of stream `stream` of `seed`.
uint64_t streamSeed(uint64_t seed, int stream);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_TENSOR_H

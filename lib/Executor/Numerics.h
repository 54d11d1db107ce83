//===- Numerics.h - GPU number formats on the host --------------*- C++ -*-===//
//
// Internal to the executor: conversions between float and the 16-bit
// formats (round to nearest even, NaN kept quiet), flush-to-zero, and the
// float operations whose GPU behaviour the executor emulates.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_EXECUTOR_NUMERICS_H
#define TILE_LIB_EXECUTOR_NUMERICS_H

#include <cmath>
#include <cstdint>
#include <cstring>

#include "tile/Support/Float16.h"

namespace mlir {
namespace tile {
namespace exec {
namespace numerics {

using ::tilefloat::bfloat16ToFloat;
using ::tilefloat::floatToBFloat16;
using ::tilefloat::floatToHalf;
using ::tilefloat::halfToFloat;

inline uint32_t bitsOf(float value) { return ::tilefloat::floatBits(value); }
inline float fromBits(uint32_t bits) { return ::tilefloat::bitsToFloat(bits); }

inline float roundToHalf(float value) {
  return halfToFloat(floatToHalf(value));
}

inline float roundToBFloat16(float value) {
  return bfloat16ToFloat(floatToBFloat16(value));
}

/// Subnormal floats become zeros of the same sign.
inline float flushToZero(float value) {
  uint32_t bits = bitsOf(value);
  if ((bits & 0x7f800000) == 0)
    return fromBits(bits & 0x80000000);
  return value;
}

} // namespace numerics
} // namespace exec
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_EXECUTOR_NUMERICS_H

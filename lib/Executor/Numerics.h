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

namespace mlir {
namespace tile {
namespace exec {
namespace numerics {

inline uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float fromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// Shifts right by `shift` (1..31) bits, rounding to nearest even.
inline uint32_t shiftRightRne(uint32_t value, unsigned shift) {
  uint32_t quotient = value >> shift;
  uint32_t rest = value & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (quotient & 1)))
    ++quotient;
  return quotient;
}

/// IEEE binary16 bits of `value`, rounded to nearest even.
inline uint16_t floatToHalf(float value) {
  uint32_t bits = bitsOf(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t abs = bits & 0x7fffffff;
  if (abs > 0x7f800000)
    return sign | 0x7e00 | static_cast<uint16_t>((abs >> 13) & 0x3ff);
  if (abs >= 0x477ff000) // 65520 and above round to Inf
    return sign | 0x7c00;
  if (abs >= 0x38800000)
    return sign | static_cast<uint16_t>(shiftRightRne(abs - (112u << 23), 13));
  uint32_t exponent = abs >> 23;
  if (exponent < 102) // below 2^-25
    return sign;
  uint32_t mantissa = (abs & 0x7fffff) | 0x800000;
  return sign | static_cast<uint16_t>(shiftRightRne(mantissa, 126 - exponent));
}

inline float halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f)
    return fromBits(sign | 0x7f800000 | (mantissa << 13));
  if (exponent != 0)
    return fromBits(sign | ((exponent + 112) << 23) | (mantissa << 13));
  float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
  return sign ? -magnitude : magnitude;
}

/// bfloat16 bits of `value`, rounded to nearest even.
inline uint16_t floatToBFloat16(float value) {
  uint32_t bits = bitsOf(value);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((bits >> 16) | 0x0040);
  return static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

inline float bfloat16ToFloat(uint16_t bits) {
  return fromBits(static_cast<uint32_t>(bits) << 16);
}

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

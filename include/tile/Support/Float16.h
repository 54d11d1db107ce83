//===- Float16.h - IEEE half and bfloat16 on the host -----------*- C++ -*-===//
//
// Conversions between float and the 16-bit formats of the GPU, rounding to
// nearest even, with NaN, Inf and subnormals handled. Header-only plain
// C++17: shared by the CPU reference executor (lib/Executor) and tile-runner,
// whose GPU-only build has no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_FLOAT16_H
#define TILE_SUPPORT_FLOAT16_H

#include <cstdint>
#include <cstring>

namespace tilefloat {

inline uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// Shifts `value` right by `shift` (1..31) bits, rounding to nearest even.
inline uint32_t shiftRightRne(uint32_t value, unsigned shift) {
  uint32_t quotient = value >> shift;
  uint32_t rest = value & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (quotient & 1)))
    ++quotient;
  return quotient;
}

inline uint16_t floatToHalf(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t abs = bits & 0x7fffffff;
  if (abs > 0x7f800000) // NaN: keep it quiet and keep the top payload bits.
    return sign | 0x7e00 | static_cast<uint16_t>((abs >> 13) & 0x3ff);
  // 65520 and up (and Inf) round to Inf.
  if (abs >= 0x477ff000)
    return sign | 0x7c00;
  if (abs >= 0x38800000) { // Normal half: rebias the exponent by 127 - 15.
    uint32_t rebased = abs - (112u << 23);
    return sign | static_cast<uint16_t>(shiftRightRne(rebased, 13));
  }
  // Subnormal half (or zero): count units of 2^-24.
  uint32_t exponent = abs >> 23;
  if (exponent < 102) // below 2^-25: rounds to zero
    return sign;
  uint32_t mantissa = (abs & 0x7fffff) | 0x800000;
  // value = mantissa * 2^(exponent - 150) = mantissa * 2^(exponent - 126)
  // units of 2^-24; a carry into 0x400 correctly gives the smallest normal.
  return sign | static_cast<uint16_t>(shiftRightRne(mantissa, 126 - exponent));
}

inline float halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f) // Inf or NaN
    return bitsToFloat(sign | 0x7f800000 | (mantissa << 13));
  if (exponent != 0)
    return bitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
  // Zero or subnormal: mantissa * 2^-24, exact in float.
  float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
  return sign ? -magnitude : magnitude;
}

inline uint16_t floatToBFloat16(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & 0x7fffffff) > 0x7f800000) // NaN: quiet, keep the top payload.
    return static_cast<uint16_t>((bits >> 16) | 0x0040);
  // Round to nearest even on the low 16 bits; a carry out of the mantissa
  // correctly bumps the exponent (up to Inf).
  uint32_t rounded = bits + 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(rounded >> 16);
}

inline float bfloat16ToFloat(uint16_t bits) {
  return bitsToFloat(static_cast<uint32_t>(bits) << 16);
}

} // namespace tilefloat

#endif // TILE_SUPPORT_FLOAT16_H

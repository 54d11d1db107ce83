//===- Float16.h - IEEE half, bfloat16 and fp8 on the host ------*- C++ -*-===//
//
// Conversions between float and the 16-bit and 8-bit formats of the GPU,
// rounding to nearest even, with NaN, Inf and subnormals handled. Header-only
// plain C++17: shared by the CPU reference executor (lib/Executor) and
// tile-runner, whose GPU-only build has no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_FLOAT16_H
#define TILE_SUPPORT_FLOAT16_H

#include <algorithm>
#include <cmath>
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

/// The 8-bit float formats of the tensor cores (OCP FP8): e4m3 in its "FN"
/// form (no Inf; S.1111.111 is the only NaN; largest 448) and e5m2 (IEEE
/// like: Inf, NaNs; largest 57344). MLIR's f8E4M3FN and f8E5M2, PyTorch's
/// float8_e4m3fn and float8_e5m2.
enum class Float8 { E4M3FN, E5M2 };

inline double float8ToDouble(uint8_t bits, Float8 format) {
  bool e4m3 = format == Float8::E4M3FN;
  int mantissaBits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  int exponent = (bits & 0x7f) >> mantissaBits;
  int mantissa = bits & ((1 << mantissaBits) - 1);
  double sign = (bits & 0x80) ? -1.0 : 1.0;
  if (e4m3 ? (bits & 0x7f) == 0x7f : exponent == 31) {
    if (!e4m3 && mantissa == 0)
      return sign * HUGE_VAL;
    return std::copysign(std::nan(""), sign);
  }
  if (exponent == 0) // zero or subnormal
    return sign * std::ldexp(mantissa, 1 - bias - mantissaBits);
  return sign * std::ldexp(mantissa + (1 << mantissaBits),
                           exponent - bias - mantissaBits);
}

/// `value` rounded to nearest even in `format`, saturating: finite values
/// (and Inf) beyond the largest finite one give it, with their sign, as
/// PTX's `cvt.rn.satfinite.{e4m3,e5m2}x2.f32` does; NaN stays NaN (0x7f
/// with the sign: a NaN in both formats).
inline uint8_t doubleToFloat8(double value, Float8 format) {
  bool e4m3 = format == Float8::E4M3FN;
  int mantissaBits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  if (std::isnan(value))
    return sign | 0x7f;
  uint8_t maxBits = e4m3 ? 0x7e : 0x7b;
  double max = e4m3 ? 448.0 : 57344.0, magnitude = std::fabs(value);
  if (magnitude > max) // also Inf; larger values round no lower than max
    return sign | maxBits;
  int minExponent = 1 - bias, binade = 0;
  (void)std::frexp(magnitude, &binade); // magnitude in [2^(binade-1), 2^binade)
  int exponent = std::max(binade - 1, minExponent);
  // Units of the binade's spacing; the division by a power of two is exact
  // and std::nearbyint rounds ties to even in the default rounding mode.
  double units = std::nearbyint(std::ldexp(magnitude, mantissaBits - exponent));
  double rounded = std::ldexp(units, exponent - mantissaBits);
  if (rounded > max)
    return sign | maxBits;
  if (rounded < std::ldexp(1.0, minExponent)) // subnormal (or zero)
    return sign | static_cast<uint8_t>(units);
  (void)std::frexp(rounded, &binade);
  exponent = binade - 1; // a carry may have moved it up one binade
  int mantissa =
      static_cast<int>(std::ldexp(rounded, mantissaBits - exponent)) -
      (1 << mantissaBits);
  return sign |
         static_cast<uint8_t>(((exponent + bias) << mantissaBits) | mantissa);
}

} // namespace tilefloat

#endif // TILE_SUPPORT_FLOAT16_H

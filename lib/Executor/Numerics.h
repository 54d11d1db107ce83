//===- Numerics.h - the executor's numerics of one element -----*- C++ -*-===//
//
// Internal to the executor: conversions between float and the 16-bit
// formats (round to nearest even, NaN kept quiet), flush-to-zero, the
// element kinds of values, and the scalar operations whose GPU behaviour the
// executor emulates (integer widths, float <-> integer conversions,
// comparisons, min/max, exp2 and division). Inline: the interpreter's inner
// loops call them per element. Executor.h states the numerics.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_EXECUTOR_NUMERICS_H
#define TILE_LIB_EXECUTOR_NUMERICS_H

#include "tile/Executor/Executor.h"
#include "tile/Support/Float16.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

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

/// fp8 bit patterns -> float, from a table per format (exact).
inline float float8ToFloat(::tilefloat::Float8 format, uint8_t bits) {
  struct Table {
    float values[256];
    explicit Table(::tilefloat::Float8 format) {
      for (int i = 0; i < 256; ++i)
        values[i] = static_cast<float>(
            ::tilefloat::float8ToDouble(static_cast<uint8_t>(i), format));
    }
  };
  static const Table e4m3(::tilefloat::Float8::E4M3FN);
  static const Table e5m2(::tilefloat::Float8::E5M2);
  return (format == ::tilefloat::Float8::E4M3FN ? e4m3 : e5m2).values[bits];
}

/// float -> fp8, nearest even, saturating to the largest finite value (as
/// PTX's cvt.rn.satfinite); NaN stays NaN.
inline uint8_t floatToFloat8(::tilefloat::Float8 format, float value) {
  return ::tilefloat::doubleToFloat8(value, format);
}

/// Subnormal floats become zeros of the same sign.
inline float flushToZero(float value) {
  uint32_t bits = bitsOf(value);
  if ((bits & 0x7f800000) == 0)
    return fromBits(bits & 0x80000000);
  return value;
}

} // namespace numerics

namespace nm = numerics;
using EK = ElementKind;

//===----------------------------------------------------------------------===//
// Element kinds
//===----------------------------------------------------------------------===//

inline bool isFloatKind(EK kind) { return kind >= EK::F16; }

inline bool isFloat8Kind(EK kind) {
  return kind == EK::F8E4M3FN || kind == EK::F8E5M2;
}

inline ::tilefloat::Float8 float8Format(EK kind) {
  return kind == EK::F8E4M3FN ? ::tilefloat::Float8::E4M3FN
                              : ::tilefloat::Float8::E5M2;
}

inline unsigned widthOf(EK kind) {
  switch (kind) {
  case EK::I1:
    return 1;
  case EK::I8:
  case EK::F8E4M3FN:
  case EK::F8E5M2:
    return 8;
  case EK::I16:
  case EK::F16:
  case EK::BF16:
    return 16;
  case EK::I32:
  case EK::F32:
    return 32;
  case EK::I64:
    return 64;
  }
  return 64;
}

/// The kind a value of `type` is held in; index is I64.
inline std::optional<EK> getValueKind(Type type) {
  if (type.isIndex())
    return EK::I64;
  if (type.isSignlessInteger(1))
    return EK::I1;
  if (type.isSignlessInteger(8))
    return EK::I8;
  if (type.isSignlessInteger(16))
    return EK::I16;
  if (type.isSignlessInteger(32))
    return EK::I32;
  if (type.isSignlessInteger(64))
    return EK::I64;
  if (type.isF16())
    return EK::F16;
  if (type.isBF16())
    return EK::BF16;
  if (type.isF32())
    return EK::F32;
  if (isa<Float8E4M3FNType>(type))
    return EK::F8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return EK::F8E5M2;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Scalar helpers
//===----------------------------------------------------------------------===//

/// Sign-extends the low `width` bits: the canonical form of integers.
inline int64_t normalizeInt(int64_t value, unsigned width) {
  if (width >= 64)
    return value;
  unsigned shift = 64 - width;
  return static_cast<int64_t>(static_cast<uint64_t>(value) << shift) >> shift;
}

/// The low `width` bits, zero-extended: the unsigned reading of an integer.
inline uint64_t unsignedInt(int64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << width) - 1);
}

/// Rounds an exact float value to `kind` (f16/bf16 round to nearest even).
inline float roundFloat(EK kind, float value) {
  if (kind == EK::F16)
    return nm::roundToHalf(value);
  if (kind == EK::BF16)
    return nm::roundToBFloat16(value);
  if (isFloat8Kind(kind))
    return nm::float8ToFloat(float8Format(kind),
                             nm::floatToFloat8(float8Format(kind), value));
  return value;
}

inline void roundFloats(EK kind, float *values, int64_t n) {
  if (kind == EK::F16)
    for (int64_t i = 0; i < n; ++i)
      values[i] = nm::roundToHalf(values[i]);
  else if (kind == EK::BF16)
    for (int64_t i = 0; i < n; ++i)
      values[i] = nm::roundToBFloat16(values[i]);
  else if (isFloat8Kind(kind))
    for (int64_t i = 0; i < n; ++i)
      values[i] = roundFloat(kind, values[i]);
}

inline void normalizeInts(EK kind, int64_t *values, int64_t n) {
  unsigned width = widthOf(kind);
  if (width >= 64)
    return;
  for (int64_t i = 0; i < n; ++i)
    values[i] = normalizeInt(values[i], width);
}

/// An integer magnitude rounded to `bits` significant bits (nearest even),
/// as a float (exact: the result has at most 24 significant bits).
inline float roundMagnitude(uint64_t magnitude, unsigned bits) {
  if (magnitude < (uint64_t(1) << bits))
    return static_cast<float>(magnitude);
  unsigned msb = 63 - __builtin_clzll(magnitude);
  unsigned shift = msb - (bits - 1);
  uint64_t quotient = magnitude >> shift;
  uint64_t rest = magnitude & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (quotient & 1)))
    ++quotient;
  return std::ldexp(static_cast<float>(quotient), static_cast<int>(shift));
}

/// Integer -> float of `kind`, one rounding to nearest even.
inline float intToFloat(EK kind, bool negative, uint64_t magnitude) {
  float value;
  if (kind == EK::F16) {
    value = roundMagnitude(magnitude, 11);
    if (value > 65504.0f)
      value = INFINITY;
  } else if (kind == EK::BF16) {
    value = roundMagnitude(magnitude, 8);
  } else if (isFloat8Kind(kind)) {
    // Exact below 2^24, far past the fp8 range; then one fp8 rounding.
    value = roundFloat(kind, roundMagnitude(magnitude, 24));
  } else {
    value = roundMagnitude(magnitude, 24);
  }
  return negative ? -value : value;
}

/// Float -> integer of `width` bits: truncation toward zero, saturating to
/// the signed (or unsigned) range, NaN -> 0. Returns the canonical form.
inline int64_t floatToInt(float value, unsigned width, bool isUnsigned) {
  if (std::isnan(value))
    return 0;
  double t = std::trunc(static_cast<double>(value));
  if (isUnsigned) {
    double max = std::ldexp(1.0, static_cast<int>(width)) - 1;
    if (t <= 0)
      return 0;
    uint64_t u = t >= max
                     ? (width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1)
                     : static_cast<uint64_t>(t);
    return normalizeInt(static_cast<int64_t>(u), width);
  }
  double min = -std::ldexp(1.0, static_cast<int>(width) - 1);
  double max = -min - 1;
  if (t <= min)
    return width >= 64 ? std::numeric_limits<int64_t>::min()
                       : static_cast<int64_t>(min);
  if (t >= max)
    return width >= 64 ? std::numeric_limits<int64_t>::max()
                       : static_cast<int64_t>(max);
  return static_cast<int64_t>(t);
}

/// IEEE maximum/minimum (arith.maximumf/minimumf): NaN propagates, -0 < +0.
inline float maximumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

inline float minimumF(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// maxNum/minNum (arith.maxnumf/minnumf): a NaN operand yields the other.
inline float maxNumF(float a, float b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return maximumF(a, b);
}

inline float minNumF(float a, float b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return minimumF(a, b);
}

inline bool compareFloat(arith::CmpFPredicate predicate, float a, float b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  case P::AlwaysTrue:
    return true;
  }
  return false;
}

inline bool compareInt(arith::CmpIPredicate predicate, int64_t a, int64_t b,
                       unsigned width) {
  using P = arith::CmpIPredicate;
  uint64_t ua = unsignedInt(a, width), ub = unsignedInt(b, width);
  switch (predicate) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return false;
}

/// 2^x on f32, optionally flushing subnormal inputs and results to zero.
inline float exp2F(float x, bool ftz) {
  if (!ftz)
    return std::exp2(x);
  return nm::flushToZero(std::exp2(nm::flushToZero(x)));
}

/// a / b: IEEE for nearest_even; a * (1 / b) for full and approx.
inline float divideF(float a, float b, bool approximate, bool ftz) {
  if (ftz) {
    a = nm::flushToZero(a);
    b = nm::flushToZero(b);
  }
  float q = approximate ? a * (1.0f / b) : a / b;
  return ftz ? nm::flushToZero(q) : q;
}

} // namespace exec
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_EXECUTOR_NUMERICS_H

//===- DType.h - element types of the bundle ABI ----------------*- C++ -*-===//
//
// The element types a bundle's `abi` names (f16, bf16, f32, i32, and the
// fp8 formats f8E4M3FN and f8E5M2, MLIR's names), their
// sizes, the poison patterns launchers fill outputs with, and conversions to
// and from float. Plain C++17, no LLVM: shared by tile-compile, the dialect
// verifier, tile-runner (also its GPU-only build) and the test fixtures.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BUNDLE_DTYPE_H
#define TILE_BUNDLE_DTYPE_H

#include <cstdint>
#include <string>

namespace tilebundle {

enum class DType { F16, BF16, F32, I32, F8E4M3FN, F8E5M2 };

/// "f16", "bf16", "f32", "i32", "f8E4M3FN", "f8E5M2".
const char *dtypeName(DType dtype);
/// Parses a dtype name (also fp16, float16, bfloat16, fp32, float32, int32,
/// float8_e4m3fn, e4m3, float8_e5m2, e5m2); false for anything else.
bool parseDType(const std::string &name, DType &dtype);
/// Bytes per element.
int dtypeBytes(DType dtype);
bool isFloat(DType dtype);
/// Unit roundoff of the format (2^-11 f16, 2^-8 bf16, 2^-24 f32, 2^-4 e4m3,
/// 2^-3 e5m2; 0 for i32).
double unitRoundoff(DType dtype);

/// The poison outputs are filled with before a launch: NaNs with a payload
/// arithmetic does not produce, so "never written" is told from "computed
/// NaN". i32 outputs get 0x7fd1d1d1 too (a value no test kernel writes).
/// e4m3 has a single NaN (0x7f), so there the poison is that NaN; e5m2 has
/// NaNs with a payload (0x7d).
constexpr uint16_t kPoisonF16 = 0x7ed1;
constexpr uint16_t kPoisonBF16 = 0x7fd1;
constexpr uint32_t kPoisonF32 = 0x7fd1d1d1;
constexpr uint8_t kPoisonF8E4M3FN = 0x7f;
constexpr uint8_t kPoisonF8E5M2 = 0x7d;
/// The poison of `dtype` as its bit pattern (8, 16 or 32 bits).
uint32_t poisonBits(DType dtype);

/// Element `index` of `data` (an array of `dtype`) as a double.
double loadElement(const void *data, DType dtype, int64_t index);
/// Writes `value` rounded to `dtype` (nearest even; i32: truncated toward
/// zero and saturated) as element `index` of `data`.
void storeElement(void *data, DType dtype, int64_t index, double value);
/// `value` rounded to `dtype` and back.
double roundTo(DType dtype, double value);
/// Whether element `index` holds the poison bit pattern.
bool isPoison(const void *data, DType dtype, int64_t index);

} // namespace tilebundle

#endif // TILE_BUNDLE_DTYPE_H

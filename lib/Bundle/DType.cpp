//===- DType.cpp - element types of the bundle ABI ------------------------===//

#include "tile/Bundle/DType.h"

#include "tile/Support/EnumNames.h"
#include "tile/Support/Float16.h"

#include <cmath>
#include <cstring>

namespace tilebundle {

using ::tile::EnumName;

static constexpr EnumName<DType> kDTypeNames[] = {
    {DType::F16, "f16"},           {DType::BF16, "bf16"},
    {DType::F32, "f32"},           {DType::I32, "i32"},
    {DType::F8E4M3FN, "f8E4M3FN"}, {DType::F8E5M2, "f8E5M2"}};
static_assert(::tile::listsEnum(kDTypeNames, DType::F8E5M2));
/// Other spellings parseDType takes (NumPy's and PyTorch's).
static constexpr EnumName<DType> kDTypeAliases[] = {
    {DType::F16, "fp16"},
    {DType::F16, "float16"},
    {DType::BF16, "bfloat16"},
    {DType::F32, "fp32"},
    {DType::F32, "float32"},
    {DType::I32, "int32"},
    {DType::F8E4M3FN, "float8_e4m3fn"},
    {DType::F8E4M3FN, "e4m3"},
    {DType::F8E5M2, "float8_e5m2"},
    {DType::F8E5M2, "e5m2"}};

const char *dtypeName(DType dtype) {
  return ::tile::enumName(kDTypeNames, dtype);
}

bool parseDType(const std::string &name, DType &dtype) {
  std::optional<DType> parsed = ::tile::parseEnumName(kDTypeNames, name);
  if (!parsed)
    parsed = ::tile::parseEnumName(kDTypeAliases, name);
  if (!parsed)
    return false;
  dtype = *parsed;
  return true;
}

int dtypeBytes(DType dtype) {
  switch (dtype) {
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return 1;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  }
  return 4;
}

static tilefloat::Float8 float8Format(DType dtype) {
  return dtype == DType::F8E4M3FN ? tilefloat::Float8::E4M3FN
                                  : tilefloat::Float8::E5M2;
}

bool isFloat(DType dtype) { return dtype != DType::I32; }

double unitRoundoff(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 0x1p-11;
  case DType::BF16:
    return 0x1p-8;
  case DType::F32:
    return 0x1p-24;
  case DType::I32:
    return 0;
  case DType::F8E4M3FN:
    return 0x1p-4;
  case DType::F8E5M2:
    return 0x1p-3;
  }
  return 0;
}

uint32_t poisonBits(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return kPoisonF16;
  case DType::BF16:
    return kPoisonBF16;
  case DType::F32:
  case DType::I32:
    return kPoisonF32;
  case DType::F8E4M3FN:
    return kPoisonF8E4M3FN;
  case DType::F8E5M2:
    return kPoisonF8E5M2;
  }
  return 0;
}

double loadElement(const void *data, DType dtype, int64_t index) {
  const char *p = static_cast<const char *>(data) + index * dtypeBytes(dtype);
  switch (dtype) {
  case DType::F16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return tilefloat::halfToFloat(bits);
  }
  case DType::BF16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return tilefloat::bfloat16ToFloat(bits);
  }
  case DType::F32: {
    float value;
    std::memcpy(&value, p, 4);
    return value;
  }
  case DType::I32: {
    int32_t value;
    std::memcpy(&value, p, 4);
    return value;
  }
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return tilefloat::float8ToDouble(static_cast<uint8_t>(*p),
                                     float8Format(dtype));
  }
  return 0;
}

void storeElement(void *data, DType dtype, int64_t index, double value) {
  char *p = static_cast<char *>(data) + index * dtypeBytes(dtype);
  switch (dtype) {
  case DType::F16: {
    uint16_t bits = tilefloat::floatToHalf(static_cast<float>(value));
    std::memcpy(p, &bits, 2);
    return;
  }
  case DType::BF16: {
    uint16_t bits = tilefloat::floatToBFloat16(static_cast<float>(value));
    std::memcpy(p, &bits, 2);
    return;
  }
  case DType::F32: {
    float f = static_cast<float>(value);
    std::memcpy(p, &f, 4);
    return;
  }
  case DType::I32: {
    int32_t i = 0;
    if (std::isnan(value))
      i = 0;
    else if (value >= 2147483647.0)
      i = INT32_MAX;
    else if (value <= -2147483648.0)
      i = INT32_MIN;
    else
      i = static_cast<int32_t>(value);
    std::memcpy(p, &i, 4);
    return;
  }
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    *p = static_cast<char>(
        tilefloat::doubleToFloat8(value, float8Format(dtype)));
    return;
  }
}

double roundTo(DType dtype, double value) {
  switch (dtype) {
  case DType::F16:
    return tilefloat::halfToFloat(
        tilefloat::floatToHalf(static_cast<float>(value)));
  case DType::BF16:
    return tilefloat::bfloat16ToFloat(
        tilefloat::floatToBFloat16(static_cast<float>(value)));
  case DType::F32:
    return static_cast<float>(value);
  case DType::I32:
    return value;
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return tilefloat::float8ToDouble(
        tilefloat::doubleToFloat8(value, float8Format(dtype)),
        float8Format(dtype));
  }
  return value;
}

bool isPoison(const void *data, DType dtype, int64_t index) {
  const char *p = static_cast<const char *>(data) + index * dtypeBytes(dtype);
  if (dtypeBytes(dtype) == 1)
    return static_cast<uint8_t>(*p) == poisonBits(dtype);
  if (dtypeBytes(dtype) == 2) {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    return bits == poisonBits(dtype);
  }
  uint32_t bits;
  std::memcpy(&bits, p, 4);
  return bits == poisonBits(dtype);
}

} // namespace tilebundle

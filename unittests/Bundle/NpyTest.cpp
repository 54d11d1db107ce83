//===- NpyTest.cpp - .npy files -------------------------------------------===//

#include "tile/Bundle/Npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace tilebundle;

namespace {

TEST(Npy, RoundTripEachDType) {
  for (DType dt : {DType::F16, DType::BF16, DType::F32, DType::I32}) {
    std::vector<char> data(6 * dtypeBytes(dt));
    for (int i = 0; i < 6; ++i)
      storeElement(data.data(), dt, i, i * 1.5 - 3);
    std::string bytes = encodeNpy(dt, {2, 3}, data.data());
    EXPECT_EQ((bytes.size() - data.size() * (dt == DType::BF16 ? 2 : 1)) % 64,
              0u);
    NpyArray a;
    std::string error;
    ASSERT_TRUE(parseNpy(bytes, "x.npy", a, error)) << error;
    EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
    std::vector<char> back;
    ASSERT_TRUE(convertNpy(a, dt, back, "x.npy", error)) << error;
    EXPECT_EQ(back, data) << dtypeName(dt);
  }
}

TEST(Npy, Shapes) {
  float v = 2;
  NpyArray a;
  std::string error;
  ASSERT_TRUE(parseNpy(encodeNpy(DType::F32, {1}, &v), "x", a, error));
  EXPECT_EQ(a.shape, (std::vector<int64_t>{1}));
  ASSERT_TRUE(parseNpy(encodeNpy(DType::F32, {}, &v), "x", a, error));
  EXPECT_TRUE(a.shape.empty());
  EXPECT_EQ(a.numElements(), 1);
  EXPECT_EQ(a.get(0), 2.0);
}

TEST(Npy, Conversions) {
  double values[] = {1.0, 2.5, -3.0};
  NpyArray a;
  std::string error;
  ASSERT_TRUE(parseNpy(encodeNpyF64({3}, values), "x", a, error));
  std::vector<char> out;
  ASSERT_TRUE(convertNpy(a, DType::F16, out, "x", error));
  EXPECT_EQ(loadElement(out.data(), DType::F16, 1), 2.5);
  EXPECT_FALSE(convertNpy(a, DType::I32, out, "x.npy", error));
  EXPECT_EQ(error, "x.npy: element 1 = 2.500000 is not an i32");
}

TEST(Npy, Errors) {
  NpyArray a;
  std::string error;
  EXPECT_FALSE(parseNpy("hello", "x.npy", a, error));
  EXPECT_EQ(error, "x.npy: not an .npy file (no \\x93NUMPY magic)");
  float v[4] = {};
  std::string good = encodeNpy(DType::F32, {2, 2}, v);
  EXPECT_FALSE(parseNpy(good.substr(0, good.size() - 1), "x.npy", a, error));
  EXPECT_EQ(error, "x.npy: the header says 16 bytes of data, the file has 15");
  std::string big = good;
  size_t at = big.find("(2, 2)");
  big.replace(at, 6, "(99999999999, 99999999999)");
  // Keep the header length field consistent with the longer dict.
  EXPECT_FALSE(parseNpy(big, "x.npy", a, error));
  std::string fortran = good;
  fortran.replace(fortran.find("False"), 5, "True ");
  EXPECT_FALSE(parseNpy(fortran, "x.npy", a, error));
  EXPECT_NE(error.find("Fortran-order"), std::string::npos);
  std::string other = good;
  other.replace(other.find("<f4"), 3, ">f4");
  EXPECT_FALSE(parseNpy(other, "x.npy", a, error));
  EXPECT_NE(error.find("unsupported dtype '>f4'"), std::string::npos);
  // /dev/zero is refused, not read forever.
  EXPECT_FALSE(readNpy("/dev/zero", a, error));
  EXPECT_EQ(error, "cannot read '/dev/zero': not a regular file");
  EXPECT_FALSE(writeFileBytes("/nonexistent/x.npy", good, error));
  EXPECT_EQ(error, "cannot write '/nonexistent/x.npy'");
  // A full disk fails at the flush (exited 0).
  EXPECT_FALSE(writeFileBytes("/dev/full", good, error));
  EXPECT_EQ(error, "cannot write '/dev/full': No space left on device");
}

/// An .npy file of 2x2 <f4 zeros with the header dictionary `dict`.
std::string npyWithHeader(std::string dict) {
  dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + std::string(16, '\0');
}

TEST(Npy, HostileHeaders) {
  NpyArray a;
  std::string error;
  std::string head = "{'descr': '<f4', 'fortran_order': False, 'shape': ";
  ASSERT_TRUE(parseNpy(npyWithHeader(head + "(2, 2), }"), "x.npy", a, error))
      << error;
  // `'shape': ,` threw std::out_of_range.
  EXPECT_FALSE(parseNpy(npyWithHeader(head + ", }"), "x.npy", a, error));
  EXPECT_EQ(error, "x.npy: shape: expected a tuple such as (2, 3), got ''");
  EXPECT_FALSE(parseNpy(npyWithHeader(head + "2, }"), "x.npy", a, error));
  EXPECT_EQ(error, "x.npy: shape: expected a tuple such as (2, 3), got '2'");
  // Nesting deeper than 64 brackets, at the bracket past the limit: the
  // dict's brace is level 1, so the 64th parenthesis (byte 10 + 50 + 63).
  std::string deep =
      head + std::string(100, '(') + "2, 2" + std::string(100, ')') + ", }";
  EXPECT_FALSE(parseNpy(npyWithHeader(deep), "x.npy", a, error));
  EXPECT_EQ(error, "x.npy: header: nested deeper than 64 levels at byte 123");
}

} // namespace

namespace {

// fp8 in the bundle ABI: names, one byte, every finite pattern round-trips
// through double, ties go to even, overflow saturates, NaN stays NaN, and
// .npy files carry fp8 as exact f32.
TEST(DTypeFp8, RoundTripAndRounding) {
  DType e4m3, e5m2;
  ASSERT_TRUE(parseDType("f8E4M3FN", e4m3));
  ASSERT_TRUE(parseDType("float8_e5m2", e5m2));
  EXPECT_EQ(e4m3, DType::F8E4M3FN);
  EXPECT_EQ(e5m2, DType::F8E5M2);
  EXPECT_STREQ(dtypeName(e4m3), "f8E4M3FN");
  EXPECT_EQ(dtypeBytes(e4m3), 1);
  for (DType dt : {e4m3, e5m2})
    for (int bits = 0; bits < 256; ++bits) {
      uint8_t in = static_cast<uint8_t>(bits), out = 0;
      double v = loadElement(&in, dt, 0);
      storeElement(&out, dt, 0, v);
      if (std::isnan(v))
        EXPECT_TRUE(std::isnan(loadElement(&out, dt, 0))) << bits;
      else if (std::isinf(v)) // e5m2's Inf saturates to the largest finite
        EXPECT_EQ(loadElement(&out, dt, 0), v > 0 ? 57344.0 : -57344.0);
      else
        EXPECT_EQ(out, in) << "pattern " << bits;
    }
  EXPECT_EQ(roundTo(e4m3, 1.0625), 1.0);  // tie: even mantissa 0
  EXPECT_EQ(roundTo(e4m3, 1.1875), 1.25); // tie: even mantissa 2
  EXPECT_EQ(roundTo(e4m3, 1.1), 1.125);
  EXPECT_EQ(roundTo(e4m3, 1e9), 448.0); // saturates
  EXPECT_EQ(roundTo(e4m3, -INFINITY), -448.0);
  EXPECT_EQ(roundTo(e4m3, 0x1p-10), 0.0);     // half the smallest subnormal
  EXPECT_EQ(roundTo(e4m3, 0x1.8p-9), 0x1p-8); // 1.5 units: tie to 2
  EXPECT_EQ(roundTo(e5m2, 60000.0), 57344.0);
  EXPECT_EQ(roundTo(e5m2, 0x1p-16), 0x1p-16);
  EXPECT_EQ(roundTo(e5m2, 1.125), 1.0);
  uint8_t poison = static_cast<uint8_t>(poisonBits(e4m3));
  EXPECT_TRUE(isPoison(&poison, e4m3, 0));
  std::vector<uint8_t> data = {0x38, 0xc6}; // 1, -3.5
  std::string bytes = encodeNpy(e4m3, {2}, data.data());
  NpyArray a;
  std::string error;
  ASSERT_TRUE(parseNpy(bytes, "x.npy", a, error)) << error;
  EXPECT_EQ(a.descr, "<f4");
  std::vector<char> back;
  ASSERT_TRUE(convertNpy(a, e4m3, back, "x", error)) << error;
  EXPECT_EQ(static_cast<uint8_t>(back[0]), 0x38);
  EXPECT_EQ(static_cast<uint8_t>(back[1]), 0xc6);
}

} // namespace

//===- NamesTest.cpp - enum names through one table (EnumNames.h) ---------===//

#include "tile/Bundle/DType.h"
#include "tile/Bundle/Expr.h"
#include "tile/Bundle/Manifest.h"
#include "tile/Support/EnumNames.h"

#include <gtest/gtest.h>

using namespace tilebundle;

namespace {

enum class Color { Red, Green, Blue };
constexpr ::tile::EnumName<Color> kColors[] = {
    {Color::Red, "red"}, {Color::Green, "green"}, {Color::Blue, "blue"}};
constexpr ::tile::EnumName<Color> kShuffled[] = {
    {Color::Green, "green"}, {Color::Red, "red"}, {Color::Blue, "blue"}};
constexpr ::tile::EnumName<Color> kShort[] = {{Color::Red, "red"},
                                              {Color::Green, "green"}};

// The compile-time check refuses a table out of order or missing the last
// enumerator (what -Wswitch caught in the switches it replaces).
static_assert(::tile::listsEnum(kColors, Color::Blue));
static_assert(!::tile::listsEnum(kShuffled, Color::Blue));
static_assert(!::tile::listsEnum(kShort, Color::Blue));
static_assert(::tile::enumName(kColors, Color::Green)[0] == 'g');

TEST(EnumNames, NameAndParse) {
  EXPECT_STREQ(::tile::enumName(kColors, Color::Blue), "blue");
  EXPECT_STREQ(::tile::enumName(kColors, static_cast<Color>(7)), "?");
  EXPECT_EQ(::tile::parseEnumName(kColors, "green"), Color::Green);
  EXPECT_FALSE(::tile::parseEnumName(kColors, "Green").has_value());
  EXPECT_FALSE(::tile::parseEnumName(kColors, "").has_value());
}

TEST(EnumNames, DTypeRoundTripAndAliases) {
  for (DType d : {DType::F16, DType::BF16, DType::F32, DType::I32}) {
    DType back = d == DType::F16 ? DType::I32 : DType::F16;
    ASSERT_TRUE(parseDType(dtypeName(d), back)) << dtypeName(d);
    EXPECT_EQ(back, d);
  }
  EXPECT_STREQ(dtypeName(DType::BF16), "bf16");
  const std::pair<const char *, DType> aliases[] = {
      {"fp16", DType::F16}, {"float16", DType::F16}, {"bfloat16", DType::BF16},
      {"fp32", DType::F32}, {"float32", DType::F32}, {"int32", DType::I32}};
  for (const auto &[name, want] : aliases) {
    DType d = DType::BF16;
    ASSERT_TRUE(parseDType(name, d)) << name;
    EXPECT_EQ(d, want) << name;
  }
  DType d = DType::F32;
  for (const char *bad : {"", "f64", "F16", "i64", "half"})
    EXPECT_FALSE(parseDType(bad, d)) << bad;
  EXPECT_EQ(d, DType::F32) << "a refused name leaves the value alone";
}

TEST(EnumNames, AccessKindAndExprOp) {
  for (Access a :
       {Access::None, Access::Read, Access::Write, Access::ReadWrite}) {
    Access back = a == Access::None ? Access::Read : Access::None;
    ASSERT_TRUE(parseAccess(accessName(a), back)) << accessName(a);
    EXPECT_EQ(back, a);
  }
  EXPECT_STREQ(accessName(Access::ReadWrite), "readwrite");
  Access a = Access::Write;
  EXPECT_FALSE(parseAccess("rw", a));
  EXPECT_EQ(a, Access::Write);
  EXPECT_STREQ(kindName(AbiEntry::Kind::View), "view");
  EXPECT_STREQ(kindName(AbiEntry::Kind::Scalar), "scalar");
  EXPECT_STREQ(kindName(AbiEntry::Kind::TensorMap), "tensor_map");
  EXPECT_STREQ(spellExprOp(ExprOp::Or), "||");
  EXPECT_STREQ(spellExprOp(ExprOp::Ge), ">=");
  EXPECT_STREQ(spellExprOp(ExprOp::Rem), "%");
  EXPECT_STREQ(spellExprOp(ExprOp::Max), "max");
}

} // namespace

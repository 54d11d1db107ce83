//===- LaunchTest.cpp - the launch ABI and launch plans -------------------===//

#include "tile/Bundle/Launch.h"
#include "tile/Bundle/Target.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace tilebundle;

namespace {

Manifest gemm() {
  Manifest m;
  m.kernel = m.entry = "gemm";
  m.ptx = "kernel.ptx";
  m.target = "sm_80";
  m.numWarps = 4;
  m.block = {128, 1, 1};
  m.sharedBytes = 0;
  m.grid = {"cdiv(C.1, BLOCK_N)", "cdiv(C.0, BLOCK_M)", "1"};
  m.preconditions = {"A.1 == B.0", "HAS_BIAS == 0 || Bias.0 == C.1"};
  m.params = {{"BLOCK_M", ParamValue::ofInt(64)},
              {"BLOCK_N", ParamValue::ofInt(32)},
              {"HAS_BIAS", ParamValue::ofBool(true)}};
  m.abi = {AbiEntry::makeView("A", DType::F16, 2, 16, Access::Read),
           AbiEntry::makeView("B", DType::F16, 2, 16, Access::Read),
           AbiEntry::makeView("C", DType::F32, 2, 16, Access::Write),
           AbiEntry::makeView("Bias", DType::F32, 1, 4, Access::Read)};
  m.abi.push_back(AbiEntry::makeScalar("scale", DType::F32));
  return m;
}

ViewBinding bind(uint64_t address, DType dt, std::vector<int64_t> sizes) {
  ViewBinding v;
  v.address = address;
  v.dtype = dt;
  v.strides = rowMajorStrides(sizes);
  v.sizes = std::move(sizes);
  return v;
}

LaunchBinding binding(int64_t m, int64_t n, int64_t k) {
  LaunchBinding b;
  b.views["A"] = bind(0x1000, DType::F16, {m, k});
  b.views["B"] = bind(0x2000, DType::F16, {k, n});
  b.views["C"] = bind(0x3000, DType::F32, {m, n});
  b.views["Bias"] = bind(0x4000, DType::F32, {n});
  b.scalars["scale"] = ScalarBinding::ofReal(0.5);
  return b;
}

TEST(Launch, Plan) {
  LaunchPlan plan;
  std::string error;
  ASSERT_TRUE(planLaunch(gemm(), binding(1000, 80, 64), nullptr, plan, error))
      << error;
  EXPECT_EQ(plan.grid, (std::array<int64_t, 3>{3, 16, 1}));
  // A, B, C: 1 + 2 + 2 each; Bias: 1 + 1 + 1; scale: 1.
  EXPECT_EQ(plan.params.count(), 3u * 5 + 3 + 1);
  EXPECT_EQ(plan.params.params[1].description, "A.size[0]: i32 = 1000");
  EXPECT_EQ(plan.params.params[3].description, "A.stride[0]: i64 = 64");
  EXPECT_EQ(plan.params.params.back().description, "scale: f32 = 0.5");
  float f;
  std::memcpy(&f, plan.params.params.back().bytes, 4);
  EXPECT_EQ(f, 0.5f);
  EXPECT_EQ(plan.params.pointers()[0], plan.params.params[0].bytes);
}

TEST(Launch, Alignment) {
  // C2: K = 100 f16 rows are 200 bytes, not a multiple of 16.
  LaunchPlan plan;
  std::string error;
  EXPECT_FALSE(
      planLaunch(gemm(), binding(1000, 80, 100), nullptr, plan, error));
  EXPECT_EQ(error, "argument 'A': stride 0 is 100 elements = 200 bytes, not a "
                   "multiple of the bundle's align 16 (a variant compiled with "
                   "a smaller view-align runs it)");
  LaunchBinding b = binding(1000, 80, 64);
  b.views["A"].address += 2;
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "argument 'A': base address 0x1002 is not a multiple of the "
                   "bundle's align 16 bytes");
  b = binding(1000, 80, 64);
  b.views["A"].strides = {1, 1000};
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "argument 'A': the innermost stride is 1000; the kernel "
                   "needs contiguous rows (stride 1)");
  // Dimensions of size 1 are exempt.
  b = binding(1, 80, 100);
  b.views["B"] = bind(0x2000, DType::F16, {100, 80});
  b.views["A"] = bind(0x1000, DType::F16, {1, 100});
  EXPECT_TRUE(planLaunch(gemm(), b, nullptr, plan, error)) << error;
}

TEST(Launch, Requires) {
  LaunchBinding b = binding(64, 32, 64);
  b.views["B"] = bind(0x2000, DType::F16, {48, 32});
  LaunchPlan plan;
  std::string error;
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "the kernel requires 'A.1 == B.0', which does not hold for "
                   "these arguments");
  b = binding(64, 32, 64);
  b.views["Bias"] = bind(0x4000, DType::F32, {31});
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "the kernel requires 'HAS_BIAS == 0 || Bias.0 == C.1', "
                   "which does not hold for these arguments");
}

TEST(Launch, BindingErrors) {
  LaunchPlan plan;
  std::string error;
  LaunchBinding b = binding(64, 32, 64);
  b.views.erase("C");
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "the kernel's view argument 'C' is not bound");
  b = binding(64, 32, 64);
  b.views["D"] = b.views["C"];
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "'D' is bound as a view, but kernel gemm has no view "
                   "argument of that name");
  b = binding(64, 32, 64);
  b.scalars["alpha"] = ScalarBinding::ofReal(1);
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "'alpha' is bound as a scalar, but kernel gemm has no "
                   "scalar argument of that name");
  b = binding(64, 32, 64);
  b.scalars.erase("scale");
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "the kernel's scalar argument 'scale' is not bound");
  b = binding(64, 32, 64);
  b.views["C"].dtype = DType::F16;
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "argument 'C' is f16, but the kernel takes f32");
  b = binding(64, 32, 64);
  b.views["C"].sizes = {int64_t(1) << 32, 32};
  EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "argument 'C': dimension 0 has size 4294967296, outside "
                   "the ABI's int32 sizes");
}

TEST(Launch, IntegerScalars) {
  Manifest m = gemm();
  m.abi.push_back(AbiEntry::makeScalar("n", DType::I32));
  LaunchBinding b = binding(64, 32, 64);
  b.scalars["n"] = ScalarBinding::ofInt(7);
  LaunchPlan plan;
  std::string error;
  ASSERT_TRUE(planLaunch(m, b, nullptr, plan, error)) << error;
  EXPECT_EQ(plan.params.params.back().description, "n: i32 = 7");
  b.scalars["n"] = ScalarBinding::ofReal(1.5);
  EXPECT_FALSE(planLaunch(m, b, nullptr, plan, error));
  EXPECT_EQ(error, "argument 'n' is i32, got 1.5");
  b.scalars["n"] = ScalarBinding::ofInt(int64_t(1) << 31);
  EXPECT_FALSE(planLaunch(m, b, nullptr, plan, error));
  EXPECT_EQ(error, "argument 'n' is i32, got 2147483648");
}

TEST(Launch, FloatScalars) {
  // Issue 26: an f32 scalar of 1e39 was packed as inf.
  LaunchBinding b = binding(64, 32, 64);
  LaunchPlan plan;
  std::string error;
  for (double ok :
       {3.4028234663852886e38, 0x1.fffffefffffffp+127, -1e38, 0.5}) {
    b.scalars["scale"] = ScalarBinding::ofReal(ok);
    EXPECT_TRUE(planLaunch(gemm(), b, nullptr, plan, error)) << ok << error;
  }
  for (double bad : {1e39, -1e39, 0x1.ffffffp+127, HUGE_VAL, std::nan("")}) {
    b.scalars["scale"] = ScalarBinding::ofReal(bad);
    EXPECT_FALSE(planLaunch(gemm(), b, nullptr, plan, error)) << bad;
    EXPECT_NE(error.find("argument 'scale' is f32, got "), std::string::npos)
        << error;
    EXPECT_NE(error.find(": not a finite f32"), std::string::npos) << error;
  }
  b.scalars["scale"] = ScalarBinding::ofReal(1e39);
  ASSERT_FALSE(planLaunch(gemm(), b, nullptr, plan, error));
  EXPECT_EQ(error, "argument 'scale' is f32, got 1e+39: not a finite f32");
  b.scalars["scale"] = ScalarBinding::ofInt(INT64_MAX); // 9.2e18: fine
  EXPECT_TRUE(planLaunch(gemm(), b, nullptr, plan, error)) << error;
}

TEST(Launch, GridOverflowAndZero) {
  Manifest m = gemm();
  m.grid = {"C.0 * C.0 * C.0 * C.0", "1", "1"};
  LaunchPlan plan;
  std::string error;
  EXPECT_FALSE(planLaunch(m, binding(100000, 32, 64), nullptr, plan, error));
  EXPECT_NE(error.find("grid.x: the arithmetic overflows int64"),
            std::string::npos)
      << error;
  m.grid = {"C.0 - 100", "1", "1"};
  EXPECT_FALSE(planLaunch(m, binding(100, 32, 64), nullptr, plan, error));
  EXPECT_EQ(error, "grid.x = 'C.0 - 100' is 0 for these arguments (must be at "
                   "least 1)");
}

TEST(Launch, TensorMapParameter) {
  Manifest m = gemm();
  AbiEntry map;
  map.name = "A@tma0";
  map.kind = AbiEntry::Kind::TensorMap;
  map.view = "A";
  map.dims = {1, 0};
  map.box = {64, 64};
  map.swizzle = 128;
  m.abi.push_back(map);
  LaunchPlan plan;
  std::string error;
  TensorMapEncoder encoder = [](const AbiEntry &, const AbiEntry &v,
                                const ViewBinding &b, unsigned char out[128],
                                std::string &) {
    out[0] = static_cast<unsigned char>(v.rank);
    out[127] = static_cast<unsigned char>(b.sizes[1]);
    return true;
  };
  ASSERT_TRUE(planLaunch(m, binding(64, 32, 64), &encoder, plan, error))
      << error;
  const KernelParam &p = plan.params.params.back();
  EXPECT_EQ(p.size, 128u);
  EXPECT_EQ(p.align, 64u);
  EXPECT_EQ(p.bytes[0], 2);
  EXPECT_EQ(p.bytes[127], 64);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p.bytes) % 64, 0u);
  // 19 params of 4/8 bytes, then 128 bytes at a multiple of 64.
  size_t before = plan.params.packedBytes() - 128;
  EXPECT_EQ(before % 64, 0u);
}

// A [1, 65] f16 view (a GEMM's A with M = 1, K = 65): its row stride of 130
// bytes is never used and is not a multiple of 16, which the driver wants:
// the map gets the row's span rounded up. Other strides pass through.
TEST(Launch, TensorMapStridesOfUnitDimensions) {
  AbiEntry map;
  map.kind = AbiEntry::Kind::TensorMap;
  map.dims = {1, 0};
  ViewBinding one;
  one.dtype = DType::F16;
  one.sizes = {1, 65};
  one.strides = {65, 1};
  EXPECT_EQ(tensorMapByteStrides(map, one), std::vector<uint64_t>{144});
  ViewBinding rows = one;
  rows.sizes = {77, 64};
  rows.strides = {64, 1};
  EXPECT_EQ(tensorMapByteStrides(map, rows), std::vector<uint64_t>{128});
  // Rank 4 (fmha's [B, H, S, D] read as D, S, H, B) with H = 1: the head
  // stride becomes S * D * 2 bytes, the batch stride stays.
  map.dims = {3, 2, 1, 0};
  ViewBinding heads;
  heads.dtype = DType::F16;
  heads.sizes = {2, 1, 100, 64};
  heads.strides = {7000, 3, 64, 1};
  EXPECT_EQ(tensorMapByteStrides(map, heads),
            (std::vector<uint64_t>{128, 12800, 14000}));
}

TEST(Launch, PtxParams) {
  PtxInfo info;
  std::string error;
  ASSERT_TRUE(scanPtx(".version 8.5\n.target sm_80\n.visible .entry gemm(\n"
                      "  .param .u64 .ptr .align 1 p0, .param .u32 p1,\n"
                      "  .param .align 64 .b8 p2[128] // comment\n)\n{ ret; }",
                      info, error))
      << error;
  EXPECT_EQ(info.target, "sm_80");
  ASSERT_EQ(info.paramSizes.size(), 1u);
  EXPECT_EQ(info.paramSizes[0], (std::vector<int64_t>{8, 4, 128}));
  KernelParams params;
  params.params.resize(2);
  params.params[0].size = 8;
  params.params[1].size = 4;
  EXPECT_FALSE(checkPtxParams(info, "gemm", params, error));
  EXPECT_EQ(error, "the PTX entry 'gemm' takes 3 parameters, but the manifest "
                   "abi expands to 2 (a view of rank R is 1 + 2R parameters, "
                   "a scalar one, a tensor map one of 128 bytes)");
  params.params[1].size = 8;
  params.params[1].description = "A.stride[0]: i64 = 64";
  EXPECT_FALSE(checkPtxParams(info, "gemm", params, error));
  EXPECT_EQ(error, "the PTX entry's parameter 1 is 4 bytes, but the manifest "
                   "abi puts A.stride[0]: i64 = 64 (8 bytes) there");
  EXPECT_FALSE(checkPtxParams(info, "other", params, error));
  EXPECT_EQ(error, "the PTX has no .entry named 'other' (it declares gemm)");
}

} // namespace

//===- BindingTest.cpp - arguments bound by name --------------------------===//

#include "Binding.h"

#include "tile/Bundle/Npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <unistd.h>

using namespace tile::runner;
using tilebundle::AbiEntry;

namespace {

Manifest softmax() {
  Manifest m;
  m.kernel = "softmax";
  m.abi = {AbiEntry::makeView("X", DType::F16, 2, 16, Access::Read),
           AbiEntry::makeView("Y", DType::F16, 2, 16, Access::Write)};
  m.abi.push_back(AbiEntry::makeScalar("eps", DType::F32));
  return m;
}

ArgOverride arg(const std::string &text) {
  ArgOverride a;
  std::string error;
  EXPECT_TRUE(parseArgOverride(text, a, error)) << error;
  return a;
}

TEST(Binding, Overrides) {
  RunSpec spec;
  std::string error;
  ASSERT_TRUE(applyOverrides(
      softmax(), {arg("X=f16[4,8]"), arg("Y=f16[4,8]"), arg("eps=1e-5")}, spec,
      error))
      << error;
  ASSERT_EQ(spec.tensors.size(), 2u);
  EXPECT_EQ(spec.tensors[1].str(), "f16[4, 8]");
  EXPECT_TRUE(spec.tensors[1].poisoned());
  EXPECT_FALSE(spec.tensors[0].written());
  EXPECT_EQ(spec.tensors[1].stream, 1);
  EXPECT_EQ(spec.scalars.at("eps").real, 1e-5);
  EXPECT_EQ(spec.tensorBytes(), 2 * 4 * 8 * 2);
  EXPECT_EQ(spec.summary(), "X=f16[4, 8] Y=f16[4, 8] eps=1e-05");
  tilebundle::LaunchBinding b = spec.launchBinding({{"X", 64}});
  EXPECT_EQ(b.views.at("X").address, 64u);
  EXPECT_EQ(b.views.at("Y").strides, (std::vector<int64_t>{8, 1}));
}

TEST(Binding, Errors) {
  RunSpec spec;
  std::string error;
  EXPECT_FALSE(applyOverrides(softmax(), {arg("X=f16[4,8]")}, spec, error));
  EXPECT_EQ(error, "view argument 'Y' of kernel softmax has no shape: give "
                   "--arg Y=f16[...] or --arg Y=@FILE.npy, or a --problem "
                   "that binds it");
  EXPECT_FALSE(applyOverrides(softmax(), {arg("X=f16[4,8]"), arg("Y=f16[4,8]")},
                              spec, error));
  EXPECT_EQ(error, "scalar argument 'eps' of kernel softmax has no value: give "
                   "--arg eps=NUMBER");
  EXPECT_FALSE(applyOverrides(softmax(), {arg("X=f16[4]")}, spec, error));
  EXPECT_EQ(error, "--arg X: the kernel takes rank 2, got shape f16[4]");
  EXPECT_FALSE(applyOverrides(softmax(), {arg("eps=inf")}, spec, error));
  EXPECT_EQ(error, "--arg eps (f32): expected a finite number, got 'inf'");
  EXPECT_FALSE(applyOverrides(softmax(), {arg("X=f16[4,8]"), arg("X=f16[4,8]")},
                              spec, error));
  EXPECT_EQ(error, "--arg X is given twice");
  EXPECT_FALSE(applyOverrides(softmax(), {arg("Y=@/dev/zero")}, spec, error));
  EXPECT_EQ(error, "--arg Y=@/dev/zero: the kernel only writes Y (give it a "
                   "shape, or compare with --ref)");
  EXPECT_FALSE(applyOverrides(softmax(), {arg("eps=f32[4]")}, spec, error));
  EXPECT_EQ(error, "--arg eps: a scalar (f32) takes a number");
  EXPECT_FALSE(applyOverrides(softmax(), {arg("X=2")}, spec, error));
  EXPECT_EQ(error, "--arg X: a view takes DTYPE[SHAPE] or @FILE.npy");
  // (2^31 - 1)^2 f32 elements: each size fits, their bytes do not.
  Manifest wide = softmax();
  wide.abi[0].dtype = DType::F32;
  RunSpec fresh;
  EXPECT_FALSE(applyOverrides(
      wide,
      {arg("X=f32[2147483647,2147483647]"), arg("Y=f16[4,8]"), arg("eps=1")},
      fresh, error));
  EXPECT_EQ(error, "view argument 'X' f32[2147483647, 2147483647]: its size "
                   "overflows");
  EXPECT_FALSE(applyOverrides(softmax(), {arg("X=@/dev/zero")}, spec, error));
  EXPECT_EQ(error, "cannot read '/dev/zero': not a regular file");
}

TEST(Binding, ParseErrors) {
  ArgOverride a;
  std::string error;
  EXPECT_FALSE(parseArgOverride("X=@", a, error));
  EXPECT_EQ(error, "--arg X=@: no file name");
  EXPECT_FALSE(parseArgOverride("X=f16[4,8", a, error));
  EXPECT_EQ(error,
            "--arg X=f16[4,8: expected a shape in brackets, DTYPE[D0,D1]");
  SaveRequest save;
  EXPECT_FALSE(parseSaveRequest("Y=", save, error));
  EXPECT_EQ(error, "--save takes NAME=FILE.npy, got 'Y='");
}

TEST(Binding, SeededInputsAndFiles) {
  TensorArg t;
  t.name = "X";
  t.dtype = DType::BF16;
  t.shape = {3, 5};
  t.stream = 2;
  HostTensor a, b;
  std::string error;
  ASSERT_TRUE(makeHostTensor(t, 42, a, error));
  ASSERT_TRUE(makeHostTensor(t, 42, b, error));
  EXPECT_EQ(a.bytes, b.bytes);
  t.stream = 3;
  ASSERT_TRUE(makeHostTensor(t, 42, b, error));
  EXPECT_NE(a.bytes, b.bytes);
  // Through a .npy file and back.
  std::string path =
      (std::filesystem::temp_directory_path() /
       ("tile-runner-binding-" + std::to_string(getpid()) + ".npy"))
          .string();
  ASSERT_TRUE(tilebundle::writeFileBytes(
      path, tilebundle::encodeNpy(a.dtype, a.shape, a.data()), error));
  TensorArg f = t;
  f.init = TensorArg::Init::File;
  f.file = path;
  HostTensor c;
  ASSERT_TRUE(makeHostTensor(f, 0, c, error)) << error;
  EXPECT_EQ(c.bytes, a.bytes);
  std::remove(path.c_str());
  // Outputs start poisoned.
  t.access = Access::Write;
  ASSERT_TRUE(makeHostTensor(t, 42, c, error));
  EXPECT_TRUE(c.isPoison(0) && c.isPoison(14));
}

TEST(Binding, Memory) {
  std::string error;
  EXPECT_TRUE(checkMemory(100, 200, "x", error));
  EXPECT_TRUE(checkMemory(100, 0, "unknown", error));
  EXPECT_FALSE(checkMemory(int64_t(3) << 30, int64_t(1) << 30,
                           "free device memory on G", error));
  EXPECT_EQ(error, "the run needs 3.00 GiB (3221225472 bytes), more than the "
                   "1.00 GiB of free device memory on G");
}

} // namespace

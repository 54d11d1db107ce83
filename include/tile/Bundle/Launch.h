//===- Launch.h - the launch ABI and launch plans ---------------*- C++ -*-===//
//
// How a manifest's `abi` becomes the parameter list of cuLaunchKernel, and
// everything a launcher checks before a launch:
//  - a `view` of rank R is 1 + R + R parameters: the global pointer (8
//    bytes), R sizes (int32), R strides in elements (int64);
//  - a `scalar` is one parameter of its dtype (f32, i32);
//  - a `tensor_map` is one 128-byte parameter, 64-byte aligned (a
//    CUtensorMap by value, contract C4), encoded by the launcher from the
//    view it names;
//  - every view meets its `align` (contract C2): base address a multiple of
//    align, stride * element size a multiple of align in every dimension of
//    size > 1 but the innermost, innermost stride 1;
//  - every `requires` expression holds (C3); the grid evaluates to at least
//    1 on each axis without overflow.
// Plain C++17: tile-runner, its tests and the dry runs use it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BUNDLE_LAUNCH_H
#define TILE_BUNDLE_LAUNCH_H

#include "tile/Bundle/Expr.h"
#include "tile/Bundle/Manifest.h"

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tilebundle {

/// A tensor bound to a view argument.
struct ViewBinding {
  uint64_t address = 0;
  DType dtype = DType::F32;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides; ///< in elements
};
/// Row-major strides of `sizes`.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &sizes);

/// A value bound to a scalar argument; i32 arguments take `integer`.
struct ScalarBinding {
  bool isInteger = false;
  int64_t integer = 0;
  double real = 0;
  static ScalarBinding ofInt(int64_t v);
  static ScalarBinding ofReal(double v);
};

/// The arguments of one launch, by ABI name.
struct LaunchBinding {
  std::map<std::string, ViewBinding> views;
  std::map<std::string, ScalarBinding> scalars;
};

/// Checks `view` against the entry's dtype, rank, int32 sizes and `align`;
/// the error names the argument and the property that fails.
bool checkView(const AbiEntry &entry, const ViewBinding &view,
               std::string &error);

/// One kernel parameter.
struct KernelParam {
  size_t size = 0;  ///< bytes: 4, 8 or 128
  size_t align = 0; ///< bytes
  alignas(64) unsigned char bytes[128] = {};
  std::string description; ///< "Q.size[0]: i32 = 4"
};

/// The expanded parameters and the pointer array cuLaunchKernel reads.
struct KernelParams {
  std::vector<KernelParam> params;
  size_t count() const { return params.size(); }
  /// Bytes of the parameter space with natural alignment.
  size_t packedBytes() const;
  /// Pointers into `params`, valid until this object changes.
  void **pointers();

private:
  std::vector<void *> ptrs;
};

/// The byte strides cuTensorMapEncodeTiled takes for tensor map `map` of
/// the bound view (one per map dimension after the first). A dimension of
/// size 1 is only ever read at index 0, so its stride is free (contract C2
/// exempts it from the alignment rule) while the driver wants a multiple of
/// 16: it gets the byte span of the dimensions inside it, rounded up to 16.
std::vector<uint64_t> tensorMapByteStrides(const AbiEntry &map,
                                           const ViewBinding &view);

/// Fills the 128 bytes of a tensor map from the bound view (the GPU
/// backend calls cuTensorMapEncodeTiled); false with `error` on failure.
using TensorMapEncoder = std::function<bool(
    const AbiEntry &map, const AbiEntry &view, const ViewBinding &binding,
    unsigned char out[128], std::string &error)>;

/// Everything cuLaunchKernel needs.
struct LaunchPlan {
  std::array<int64_t, 3> grid = {0, 0, 0};
  std::array<int64_t, 3> block = {0, 0, 0};
  int64_t sharedBytes = 0;
  KernelParams params;
};

/// The scope `requires` and the grid are evaluated in: the bound view sizes
/// and the manifest's integer and boolean parameters.
void makeBindingScope(const Manifest &manifest, const LaunchBinding &binding,
                      BindingScope &scope);

/// Evaluates the manifest's `requires` on the binding; the error quotes the
/// first expression that does not hold.
bool checkRequires(const Manifest &manifest, const LaunchBinding &binding,
                   std::string &error);
/// Evaluates the grid (each axis at least 1, no overflow).
bool evalGrid(const Manifest &manifest, const LaunchBinding &binding,
              std::array<int64_t, 3> &grid, std::string &error);

/// Checks the binding (every argument bound, no extra ones, views against
/// their entries), the requires and the grid, and packs the parameters.
/// Tensor maps are left zero when `encoder` is null (dry runs).
bool planLaunch(const Manifest &manifest, const LaunchBinding &binding,
                const TensorMapEncoder *encoder, LaunchPlan &plan,
                std::string &error);

/// The parameters the manifest's abi expands to, sizes and descriptions
/// without values: what the PTX entry must declare (`tile-bundle check`).
KernelParams abiParams(const Manifest &manifest);

/// Checks the expanded parameters against those the PTX declares for the
/// manifest's entry (count and sizes).
struct PtxInfo;
bool checkPtxParams(const PtxInfo &info, const std::string &entry,
                    const KernelParams &params, std::string &error);

} // namespace tilebundle

#endif // TILE_BUNDLE_LAUNCH_H

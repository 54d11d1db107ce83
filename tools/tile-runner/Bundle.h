//===- Bundle.h - kernel bundles: manifest, targets, launch ABI -*- C++ -*-===//
//
// Reads the folder `tile-compile` writes for one kernel variant (see
// docs/bundle.md), checks it against the attention problem of a run, and
// expands the manifest's `abi` into the kernel parameter list that
// cuLaunchKernel takes. Plain C++17, no CUDA: everything here is testable on a
// machine without a GPU (tile-runner-selftest, `tile-runner --dry-run`).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_BUNDLE_H
#define TILE_RUNNER_BUNDLE_H

#include "Attention.h"
#include "GridExpr.h"
#include "Json.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tile {
namespace runner {

/// One entry of the manifest's `abi`.
struct AbiEntry {
  enum class Kind { View, Scalar };
  std::string name;
  Kind kind = Kind::Scalar;
  int rank = 0; ///< views only
  DType dtype = DType::F32;
};

/// What `ptxas -v` reported (manifest `ptxas`), or what the JIT's info log
/// said when the PTX was compiled at load time.
struct PtxasInfo {
  bool present = false;
  int registers = -1;
  int64_t spillStores = 0;
  int64_t spillLoads = 0;
  int64_t stackBytes = 0;
  bool spills() const { return spillStores > 0 || spillLoads > 0; }
};

/// A parsed manifest.json plus where it was read from.
struct Manifest {
  std::string dir; ///< the bundle folder
  std::string format, kernel, entry, ptxFile, cubinFile, target, compiler,
      source, pipeline;
  int numWarps = 0;
  std::array<int64_t, 3> block = {0, 0, 0};
  int occupancy = 0;
  int64_t sharedBytes = 0;
  std::array<std::string, 3> grid;
  Json params; ///< object: the variant's compile-time parameters
  std::vector<AbiEntry> abi;
  PtxasInfo ptxas;

  /// The folder's last path component, the variant's name.
  std::string name() const;
  std::string ptxPath() const;
  /// Empty when the manifest names no cubin.
  std::string cubinPath() const;

  /// Parameter lookups; false when absent or of another JSON type.
  bool paramInt(const std::string &key, int64_t &value) const;
  bool paramBool(const std::string &key, bool &value) const;
  bool paramString(const std::string &key, std::string &value) const;
  /// "TILE_M=128 TILE_N=64 ..." in manifest order.
  std::string paramsSummary() const;
};

/// Checks and converts a parsed manifest; `dir` is the bundle folder.
bool parseManifest(const Json &json, const std::string &dir, Manifest &result,
                   std::string &error);
/// Reads DIR/manifest.json and checks that the files it names exist.
bool loadBundle(const std::string &dir, Manifest &result, std::string &error);
/// The bundle folders (those holding a manifest.json) directly inside `dir`,
/// sorted by name.
bool listBundles(const std::string &dir, std::vector<std::string> &bundleDirs,
                 std::string &error);

/// Why the bundle cannot run this problem (its params against the shape),
/// one line; empty when it can.
std::string checkBundleFits(const Manifest &manifest,
                            const AttentionConfig &cfg);

//===----------------------------------------------------------------------===//
// Compute capability and PTX targets
//===----------------------------------------------------------------------===//

/// An `sm_XY[a|f]` target.
struct SmTarget {
  int major = 0;
  int minor = 0;
  /// 'a' (architecture-specific: exactly this compute capability), 'f'
  /// (family: same major, minor at least this), or 0.
  char suffix = 0;
  std::string str() const;
};

bool parseSmTarget(const std::string &text, SmTarget &target);
/// Whether PTX for `target` can be JIT-compiled for compute capability
/// major.minor; else `why` says what is needed.
bool ptxTargetRunsOn(const SmTarget &target, int major, int minor,
                     std::string &why);
/// Whether a cubin (SASS) for `target` runs on compute capability
/// major.minor: same major, minor at least the target's ('a': exactly).
bool cubinTargetRunsOn(const SmTarget &target, int major, int minor);

/// What a PTX file declares.
struct PtxInfo {
  std::string version; ///< `.version`, e.g. "8.5"
  std::string target;  ///< first operand of `.target`, e.g. "sm_90a"
  std::vector<std::string> entries; ///< `.entry` names
  /// Bytes of each `.param` of each entry (parallel to `entries`); -1 where
  /// a declaration was not understood.
  std::vector<std::vector<int>> paramSizes;
};
bool scanPtx(const std::string &ptx, PtxInfo &info, std::string &error);

/// Checks the expanded abi against the parameters the PTX declares for
/// `entry` (count and sizes); `error` names the first mismatch.
struct KernelArgs;
bool checkPtxParams(const PtxInfo &info, const std::string &entry,
                    const KernelArgs &args, std::string &error);

/// Reads `ptxas -v` style lines ("Used 168 registers", "N bytes stack frame,
/// S bytes spill stores, L bytes spill loads") from a JIT or ptxas log for
/// the function `entry` (or the only one); false when none were found.
bool parsePtxasLog(const std::string &log, const std::string &entry,
                   PtxasInfo &info);

//===----------------------------------------------------------------------===//
// Launch ABI
//===----------------------------------------------------------------------===//

/// A tensor bound to a `view` argument.
struct ViewArg {
  uint64_t address = 0;
  DType dtype = DType::F32;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides; ///< in elements
};

/// A value bound to a `scalar` argument (converted to the ABI's dtype).
struct ScalarArg {
  double value = 0;
};

/// The expanded kernel parameters: one 8-byte slot per parameter, and the
/// pointer array cuLaunchKernel reads them through.
struct KernelArgs {
  std::vector<uint64_t> slots;
  std::vector<int> sizes;                ///< bytes: 8 (pointer, i64) or 4
  std::vector<std::string> descriptions; ///< "Q.size[0]: i32 = 4"
  size_t count() const { return slots.size(); }
  /// Bytes the parameters take with natural alignment (the PTX param space).
  size_t packedBytes() const;
  /// The `kernelParams` array of cuLaunchKernel: pointers into `slots`,
  /// valid until this object changes or moves.
  void **params();

private:
  std::vector<void *> pointers;
};

/// Expands `abi` (view: pointer, R x i32 sizes, R x i64 strides; scalar: one
/// f32 or i32) with the bound values. Errors name the argument.
bool packKernelArgs(const std::vector<AbiEntry> &abi,
                    const std::map<std::string, ViewArg> &views,
                    const std::map<std::string, ScalarArg> &scalars,
                    KernelArgs &args, std::string &error);

/// The attention problem's views (Q, K, V, Out, Lse) with row-major strides
/// and the given device addresses (0 for a dry run), and its scalars.
struct AttentionBinding {
  std::map<std::string, ViewArg> views;
  std::map<std::string, ScalarArg> scalars;
  ViewShapes shapes() const;
};
AttentionBinding bindAttention(const AttentionConfig &cfg, uint64_t q,
                               uint64_t k, uint64_t v, uint64_t out,
                               uint64_t lse);

/// Evaluates the manifest's three grid expressions.
bool evalGrid(const Manifest &manifest, const ViewShapes &shapes,
              std::array<int64_t, 3> &grid, std::string &error);

/// Reads the bundle's PTX and checks it against the manifest: `.target`
/// equals `target`, `entry` is declared, and its parameters match the
/// expanded abi `args`. Fills `info`.
bool checkBundlePtx(const Manifest &manifest, const KernelArgs &args,
                    std::string &ptx, PtxInfo &info, std::string &error);

/// Everything cuLaunchKernel needs, from a manifest and a binding.
struct LaunchPlan {
  std::array<int64_t, 3> grid = {0, 0, 0};
  std::array<int64_t, 3> block = {0, 0, 0};
  int64_t sharedBytes = 0;
  KernelArgs args;
};
bool planLaunch(const Manifest &manifest, const AttentionBinding &binding,
                LaunchPlan &plan, std::string &error);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_BUNDLE_H

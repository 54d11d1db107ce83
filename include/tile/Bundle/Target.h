//===- Target.h - GPU targets, their launch limits, PTX checks --*- C++ -*-===//
//
// `sm_XY[a|f]` targets and which devices run their code; the launch limits
// of a compute capability (grid, block, shared memory, registers), used by
// dry runs where no device answers; what a PTX file declares (.target,
// .entry and its parameters) and what ptxas logs report. Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BUNDLE_TARGET_H
#define TILE_BUNDLE_TARGET_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilebundle {

struct SmTarget {
  int major = 0;
  int minor = 0;
  /// 'a' (exactly this compute capability), 'f' (same major, minor at least
  /// this), or 0.
  char suffix = 0;
  std::string str() const;
};

bool parseSmTarget(const std::string &text, SmTarget &target);
/// Whether PTX for `target` can be JIT-compiled for compute capability
/// major.minor; else `why` says what is needed.
bool ptxTargetRunsOn(const SmTarget &target, int major, int minor,
                     std::string &why);
/// Whether a cubin for `target` runs on major.minor.
bool cubinTargetRunsOn(const SmTarget &target, int major, int minor);

/// What a launch may use.
struct LaunchLimits {
  std::string source; ///< "NVIDIA H200 (device)", "sm_90a (known limits)"
  std::array<int64_t, 3> maxGrid = {2147483647, 65535, 65535};
  int64_t maxThreadsPerBlock = 1024;
  int64_t maxSharedPerBlock = 49152; ///< opt-in, bytes
  int64_t maxRegistersPerThread = 255;
  int64_t maxRegistersPerBlock = 65536;
};
/// The documented limits of a compute capability (CUDA programming guide,
/// "Technical Specifications per Compute Capability").
LaunchLimits targetLimits(const SmTarget &target);

/// Checks a launch against `limits`. `registers` and `staticShared` are the
/// kernel's (-1: unknown, e.g. a dry run without ptxas figures).
bool checkLaunchLimits(const std::array<int64_t, 3> &grid,
                       const std::array<int64_t, 3> &block,
                       int64_t dynamicShared, int64_t staticShared,
                       int64_t registers, const LaunchLimits &limits,
                       std::string &error);

/// What a PTX file declares.
struct PtxInfo {
  std::string version;              ///< `.version`, e.g. "8.5"
  std::string target;               ///< first operand of `.target`
  std::vector<std::string> entries; ///< `.entry` names
  /// Bytes of each `.param` of each entry (parallel to `entries`); -1 where
  /// a declaration was not understood.
  std::vector<std::vector<int64_t>> paramSizes;
};
bool scanPtx(const std::string &ptx, PtxInfo &info, std::string &error);

/// What `ptxas -v` or the JIT's info log says about one function.
struct PtxasReport {
  int64_t registers = -1;
  int64_t spillStores = 0;
  int64_t spillLoads = 0;
  int64_t stackBytes = 0;
  bool spills() const { return spillStores > 0 || spillLoads > 0; }
};
/// Reads "Used N registers", "N bytes stack frame, S bytes spill stores, L
/// bytes spill loads" for `entry` (or the only function); false when none.
bool parsePtxasLog(const std::string &log, const std::string &entry,
                   PtxasReport &report);

} // namespace tilebundle

#endif // TILE_BUNDLE_TARGET_H

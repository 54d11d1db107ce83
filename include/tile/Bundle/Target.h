//===- Target.h - GPU targets, their launch limits, PTX checks --*- C++ -*-===//
//
// `sm_XY[a|f]` targets and which devices run their code; the one table of
// chip facts (shared memory, threads, blocks and registers of a compute
// capability; the targets the GPU lowering compiles for and what each has),
// which the compiler's passes and pipelines and the launchers' dry runs
// read; what a PTX file declares (.target, .entry and its parameters) and
// what ptxas logs report. Plain C++17.
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

/// What one compute capability offers (CUDA C Programming Guide, "Technical
/// Specifications per Compute Capability"): a row of the one table of chip
/// facts.
struct ChipFacts {
  int major = 0;
  int minor = 0;
  int64_t maxThreadsPerBlock = 0;
  int64_t maxSharedPerBlock = 0; ///< opt-in dynamic shared memory, bytes
  int64_t sharedPerSM = 0;       ///< bytes
  int64_t maxThreadsPerSM = 0;
  int64_t maxBlocksPerSM = 0;
  int64_t registersPerSM = 0; ///< 32-bit registers
};
/// The facts of `target`'s compute capability, or of the newest one listed
/// below it (sm_103 has sm_100's); nullptr below 7.0.
const ChipFacts *findChipFacts(const SmTarget &target);

/// The targets the GPU lowering compiles for ("sm_80", ..., "sm_120"): each
/// has mma.sync and cp.async (sm_80 or newer) and assembles with ptxas; among
/// the architecture-specific targets only sm_90a (wgmma, setmaxnreg).
const std::vector<std::string> &loweringTargets();
/// Why the GPU lowering does not compile for `chip`, or "" when it does.
std::string unsupportedLoweringTargetReason(const std::string &chip);
/// sm_90 and newer: mbarrier waits, TMA, async-proxy fences, f32 vector
/// reductions.
bool isHopperOrNewer(const SmTarget &target);
/// wgmma and setmaxnreg: sm_90a only.
bool hasWgmma(const SmTarget &target);
/// The PTX ISA features the NVPTX back end needs for `target`: "+ptx81" on
/// sm_90 and sm_90a (PTX 8.0 for wgmma and setmaxnreg, 8.1 for
/// red.global.add.v4.f32), else "".
std::string ptxFeatures(const SmTarget &target);
/// The most opt-in shared memory per block of any lowering target: no
/// shared buffer is larger.
int64_t maxSharedPerBlockOfLoweringTargets();

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

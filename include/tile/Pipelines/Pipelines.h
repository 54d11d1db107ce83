//===- Pipelines.h - the compiler's pass pipelines and their options -*- C++
//-*-===//
//
// One options struct, `PipelineOptions`, for every pipeline-level option
// (specialization, the tile-O switches, the GPU target, the stopping point),
// read by every tool and every registered pipeline:
//
//   tile-O0 .. tile-O3   the tile-level optimization pipelines
//   tile-to-ptx          specialized tile IR -> tilegpu -> NVVM -> PTX
//   tile-source-to-ptx   kernel source -> PTX: tile-specialize, the tile-level
//                        pipeline (`tile-pipeline`), then tile-to-ptx; the
//                        stage boundaries are `tile-checkpoint` passes, and
//                        `stop-after` ends the pipeline at one of them
//
// tile-compile runs tile-source-to-ptx; tile-opt registers all of them;
// tile-exec and tile-runner's cpu backend run its tile stage. Textual
// pipelines are parsed with implicit nesting (`parsePipeline`), so the same
// string ("canonicalize,tile-split-loop") works in every tool.
//
// Adding a pipeline option is one change in this file (a member of
// PipelineOptions, tagged with the pipelines that read it) and its use in
// the builder that reads it (docs/design.md, "Adding a pipeline option").
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "tile/Dialect/Tile/IR/ViewAlign.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <functional>
#include <string>

namespace mlir {
class ModuleOp;

namespace tile {

#define GEN_PASS_DECL
#include "tile/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Pipelines/Passes.h.inc"

/// The stages of tile-source-to-ptx, in order; each ends at a
/// `tile-checkpoint{stage=...}` and is a `stop-after` value.
enum class Stage { Tile, TileGPU, NVVM, PTX };

/// "tile", "tilegpu", "nvvm", "ptx".
StringRef getStageName(Stage stage);
std::optional<Stage> parseStage(StringRef name);

/// The stage a pass marks the end of, when it is a `tile-checkpoint`.
std::optional<Stage> getCheckpointStage(Pass &pass);

/// Which pipelines read an option (a bit set). An option given to a pipeline
/// that does not read it is an error, not silently ignored.
enum PipelineReader : unsigned {
  /// tile-O0 .. tile-O3.
  ReadByTileLevel = 1,
  /// tile-source-to-ptx and the CPU executor paths (its tile stage).
  ReadBySource = 2,
  /// tile-to-ptx (and tile-source-to-ptx, which contains it).
  ReadByLowering = 4,
  /// The CPU executor paths (tile-exec, tile-runner --backend=cpu): the
  /// tile stage only.
  ReadByExecutor = 8,
};

/// The pipeline-level options of every tool and registered pipeline. Pass
/// options (Passes.td) belong to their passes; these are what a pipeline
/// passes on to them.
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
private:
  /// Every option with its readers. Declared first: the options below add
  /// themselves to it as they are constructed.
  struct Entry {
    StringRef arg;
    unsigned readers;
    llvm::cl::Option *option;
    std::function<bool()> given;
  };
  SmallVector<Entry> entries;

public:
  /// An option together with the pipelines that read it.
  template <typename Base> struct Tagged : Base {
    template <typename... Args>
    Tagged(PipelineOptions &parent, unsigned readers, StringRef arg,
           Args &&...args)
        : Base(parent, arg, std::forward<Args>(args)...) {
      parent.entries.push_back(
          {arg, readers, this, [this] { return this->hasValue(); }});
    }
    using Base::operator=;
  };
  template <typename T> using Opt = Tagged<Option<T>>;
  template <typename T> using ListOpt = Tagged<ListOption<T>>;

  //===--- Specialization (tile-specialize) ------------------------------===//
  ListOpt<std::string> bindings{
      *this, ReadByTileLevel | ReadBySource | ReadByExecutor, "bind",
      llvm::cl::desc("Parameter bindings NAME=VALUE (integers, true/false, "
                     "types; tile-compile: --params)")};
  Opt<int> numWarps{
      *this, ReadByTileLevel | ReadBySource | ReadByLowering | ReadByExecutor,
      "num-warps",
      llvm::cl::desc("Warps per block (0: the kernel's hint for the chip)"),
      llvm::cl::init(0)};
  Opt<int> occupancy{
      *this, ReadByTileLevel | ReadBySource | ReadByExecutor, "occupancy",
      llvm::cl::desc("Blocks per SM hint (0: the kernel's hint)"),
      llvm::cl::init(0)};

  //===--- The tile level ------------------------------------------------===//
  Opt<std::string> tilePipeline{
      *this, ReadBySource | ReadByExecutor, "tile-pipeline",
      llvm::cl::desc("Tile-level pipeline run after tile-specialize, e.g. "
                     "'tile-O3{overlap-mma=true}' or 'canonicalize,cse'"),
      llvm::cl::init("canonicalize,cse")};
  // The switches of tile-O<N>: unset, they take the level's default.
  Opt<bool> specialize{*this, ReadByTileLevel, "specialize",
                       llvm::cl::desc("Run tile-specialize"),
                       llvm::cl::init(true)};
  Opt<bool> cleanup{
      *this, ReadByTileLevel, "cleanup",
      llvm::cl::desc("Run canonicalize, cse and loop-invariant-code-motion "
                     "(default: level >= 1)")};
  Opt<bool> splitLoop{
      *this, ReadByTileLevel, "split-loop",
      llvm::cl::desc("Run tile-split-loop (default: level >= 2)")};
  Opt<bool> remapBlocks{
      *this, ReadByTileLevel, "remap-blocks",
      llvm::cl::desc("Run tile-remap-blocks (default: level >= 2)")};
  Opt<std::string> remapMode{
      *this, ReadByTileLevel, "remap-mode",
      llvm::cl::desc("tile-remap-blocks mode: auto, reverse or none"),
      llvm::cl::init("auto")};
  Opt<int> groupSize{
      *this, ReadByTileLevel, "group-size",
      llvm::cl::desc("tile-remap-blocks group size (1: no grouping)"),
      llvm::cl::init(1)};
  Opt<bool> fastMath{*this, ReadByTileLevel, "fast-math",
                     llvm::cl::desc("Run tile-fast-math (changes numerical "
                                    "results; default: level >= 3)")};
  Opt<int> persistent{
      *this, ReadByTileLevel, "persistent",
      llvm::cl::desc("Run tile-persistent with this many blocks at most (the "
                     "number of SMs; 0: off, at every level)"),
      llvm::cl::init(0)};
  Opt<std::string> persistentOrder{
      *this, ReadByTileLevel, "persistent-order",
      llvm::cl::desc("tile-persistent order: grid or paired (causal "
                     "attention: pairs of query tiles of equal total work)"),
      llvm::cl::init("grid")};
  Opt<bool> overlapMma{
      *this, ReadByTileLevel, "overlap-mma",
      llvm::cl::desc("Run tile-overlap-mma (exact; overlaps the two mmas of "
                     "attention with asynchronous wgmma; off at every level)"),
      llvm::cl::init(false)};

  //===--- The GPU lowering ----------------------------------------------===//
  Opt<std::string> chip{
      *this, ReadBySource | ReadByLowering, "chip",
      llvm::cl::desc("Target chip: sm_80, sm_86, sm_87, sm_89, sm_90, "
                     "sm_90a, sm_100, sm_120"),
      llvm::cl::init("sm_80")};
  Opt<int> stages{
      *this, ReadBySource | ReadByLowering, "stages",
      llvm::cl::desc("Software-pipelining stages (0: from the loads' "
                     "latency hints)"),
      llvm::cl::init(0)};
  Opt<std::string> sync{
      *this, ReadBySource | ReadByLowering, "sync",
      llvm::cl::desc("Pipeline stage synchronization: barrier, mbarrier "
                     "(sm_90+) or auto (mbarrier on sm_90 and newer)"),
      llvm::cl::init("auto")};
  Opt<std::string> warpSpecialize{
      *this, ReadBySource | ReadByLowering, "warp-specialize",
      llvm::cl::desc("A producer warpgroup for the pipelined copies: auto "
                     "(the kernel's hint, else when it qualifies), on, off"),
      llvm::cl::init("auto")};
  Opt<int> producerRegs{
      *this, ReadBySource | ReadByLowering, "producer-regs",
      llvm::cl::desc("Registers per producer thread (setmaxnreg, 24-256)"),
      llvm::cl::init(40)};
  Opt<std::string> pingPong{
      *this, ReadBySource | ReadByLowering, "ping-pong",
      llvm::cl::desc("Consumer warpgroups take turns issuing wgmma: off (the "
                     "default: measured no faster, docs/perf.md), on, auto "
                     "(the kernel's hint, else when it qualifies)"),
      llvm::cl::init("off")};
  Opt<std::string> tma{
      *this, ReadBySource | ReadByLowering, "tma",
      llvm::cl::desc("The producer's pipelined tiles through TMA: auto (the "
                     "default: the kernel's hint, else when it qualifies), "
                     "on, off"),
      llvm::cl::init("auto")};
  Opt<bool> pinWaits{
      *this, ReadBySource | ReadByLowering, "pin-waits",
      llvm::cl::desc("Keep a wgmma wait after the work meant to overlap its "
                     "mma (membar.cta before it; off by default: measured "
                     "slower, docs/perf.md)"),
      llvm::cl::init(false)};
  Opt<std::string> sharedLayout{
      *this, ReadBySource | ReadByLowering, "shared-layout",
      llvm::cl::desc("Shared tiles of mma operands: padded or swizzled"),
      llvm::cl::init("padded")};
  Opt<std::string> coalesceStores{
      *this, ReadBySource | ReadByLowering, "coalesce-stores",
      llvm::cl::desc("Accumulator tiles stored through shared memory in "
                     "16-byte accesses: auto (the kernel's hint, else off), "
                     "on, off"),
      llvm::cl::init("auto")};
  Opt<unsigned> mmaVersion{
      *this, ReadBySource | ReadByLowering, "mma-version",
      llvm::cl::desc("Tensor-core instruction: 2 (mma.sync), 3 (wgmma, "
                     "sm_90a), 0 (wgmma where it fits, else mma.sync)"),
      llvm::cl::init(0)};
  Opt<int> viewAlign{
      *this, ReadBySource | ReadByLowering, "view-align",
      llvm::cl::desc("Alignment (bytes: 1, 2, 4, 8 or 16) the kernel assumes "
                     "for view arguments without tile.align; written per view "
                     "into the manifest's abi (contract C2)"),
      llvm::cl::init(kDefaultViewAlign)};
  Opt<int> optLevel{*this, ReadBySource | ReadByLowering, "opt-level",
                    llvm::cl::desc("LLVM optimization level (0-3)"),
                    llvm::cl::init(3)};
  Opt<int64_t> maxRegisters{
      *this, ReadBySource | ReadByLowering, "max-registers",
      llvm::cl::desc("Refuse kernels whose live tiles need more 32-bit "
                     "registers per thread (tilegpu-check-resources)"),
      llvm::cl::init(1024)};

  //===--- Where to stop -------------------------------------------------===//
  Opt<std::string> stopAfter{
      *this, ReadBySource | ReadByLowering, "stop-after",
      llvm::cl::desc("Last stage to run: tile, tilegpu, nvvm or ptx"),
      llvm::cl::init("ptx")};

  /// A switch of tile-O<level>: its value where given, else the level's.
  static bool levelSwitch(const Opt<bool> &option, bool levelDefault) {
    return option.hasValue() ? option.getValue() : levelDefault;
  }

  /// Fails (through `emitError`) when an option that `pipeline` does not read
  /// was given, or a value is out of its range.
  LogicalResult
  verify(StringRef pipeline, unsigned reader,
         function_ref<LogicalResult(const Twine &)> emitError) const;

  /// The option named `arg` if `reader` reads it (for tools that take these
  /// options as flags of their own command line), else null.
  llvm::cl::Option *lookup(StringRef arg, unsigned reader) const;

  /// The options `reader` reads with their descriptions, in declaration
  /// order, one a line; for help texts.
  void printHelp(raw_ostream &os, unsigned reader) const;
};

//===----------------------------------------------------------------------===//
// Parsing and tool command lines
//===----------------------------------------------------------------------===//

/// Parses a textual pass pipeline into `pm` (anchored on builtin.module) with
/// implicit nesting: a pass anchored on func.func is nested into func.func,
/// as tile-opt's flags do, so "canonicalize,tile-split-loop" works. Anchored
/// elements ("func.func(cse)") and named pipelines are kept as written.
LogicalResult parsePipeline(StringRef pipeline, OpPassManager &pm,
                            raw_ostream &errorStream);

/// Takes the PipelineOptions flags out of a tool's command line: every
/// `--NAME=VALUE` or `--NAME VALUE` (and `--NAME` for a switch) whose NAME
/// is an option of `options` (or an alias, `aliases` maps alias -> option),
/// and which `reader` reads, goes into `options`; the other arguments stay
/// in `rest`, for llvm::cl. Fails with a message on a bad value.
LogicalResult
takePipelineFlags(int argc, char **argv, PipelineOptions &options,
                  unsigned reader,
                  ArrayRef<std::pair<StringRef, StringRef>> aliases,
                  SmallVectorImpl<char *> &rest, std::string &error);

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

/// tile-O<level>: tile-specialize (with `bind`, `num-warps`, `occupancy`),
/// then what the level and the switches ask for.
void buildTileOptPipeline(OpPassManager &pm, unsigned level,
                          const PipelineOptions &options);

/// The tile stage of tile-source-to-ptx: tile-specialize, then the textual
/// pipeline `tile-pipeline`. What the CPU executor paths run.
LogicalResult buildTileStage(OpPassManager &pm, const PipelineOptions &options,
                             raw_ostream &errorStream);

/// tile-to-ptx: specialized tile IR -> tilegpu (layouts, shared memory,
/// pipelining) -> gpu.module of NVVM -> gpu.binary with PTX, each stage
/// ending at a tile-checkpoint, up to `stop-after`.
void buildTileToPTXPipeline(OpPassManager &pm, const PipelineOptions &options);

/// tile-source-to-ptx: the tile stage, then tile-to-ptx.
LogicalResult buildSourceToPTXPipeline(OpPassManager &pm,
                                       const PipelineOptions &options,
                                       raw_ostream &errorStream);

//===----------------------------------------------------------------------===//
// Targets and registration
//===----------------------------------------------------------------------===//

/// Makes the NVPTX back end use 32-bit shared-memory pointers
/// (`--nvptx-short-ptr`): half the registers for the many shared addresses
/// of an mma loop. Process-wide; tools call it once at start.
void enableShortSharedPointers();

/// Registers a pipeline named `name` that takes PipelineOptions: options
/// that `reader` does not read are errors, and so is a failing `build`
/// (with the message it wrote).
void registerPipeline(
    StringRef name, StringRef description, unsigned reader,
    std::function<LogicalResult(OpPassManager &, const PipelineOptions &,
                                raw_ostream &)>
        build);

/// Registers tile-O0 .. tile-O3 and tile-checkpoint (no GPU dependencies).
void registerTileOptimizationPipelines();

/// Registers tile-to-ptx and tile-source-to-ptx.
void registerTilePipelines();

/// Dialects, external models and translations the GPU path needs.
void registerGPUTargetDialects(DialectRegistry &registry);

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_PIPELINES_H

//===- TilePipelines.cpp - tile-O0 .. tile-O3
//------------------------------===//
//
// The tile-level optimization pipelines, matching the cuTile post's ladder:
//
//   tile-O0  tile-specialize
//   tile-O1  + canonicalize, cse, loop-invariant-code-motion   (the baseline)
//   tile-O2  + tile-split-loop, tile-remap-blocks              (exact)
//   tile-O3  + tile-fast-math                                  (approximate)
//
// Every pipeline takes the options of tile-specialize (`bind`, `num-warps`,
// `occupancy`), so one flag turns the kernel source into an optimized
// variant, and a switch per step, so that the ladder can be measured one step
// at a time: tile-O1 (baseline), tile-O1{fast-math=1} (+ fast math),
// tile-O3{remap-blocks=0} (+ loop split), tile-O3 (+ remapping).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tile;

TilePipelineOptions TilePipelineOptions::forLevel(unsigned level) {
  TilePipelineOptions options;
  options.cleanup = level >= 1;
  options.splitLoop = level >= 2;
  options.remapBlocks = level >= 2;
  options.fastMath = level >= 3;
  return options;
}

void mlir::tile::buildTilePipeline(OpPassManager &pm,
                                   const TilePipelineOptions &options) {
  auto cleanup = [&] {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    pm.addPass(createLoopInvariantCodeMotionPass());
  };
  if (options.specialize) {
    TileSpecializeOptions specialize;
    specialize.bindings.assign(options.bindings.begin(),
                               options.bindings.end());
    specialize.numWarps = options.numWarps;
    specialize.occupancy = options.occupancy;
    pm.addPass(createTileSpecialize(specialize));
  }
  // Constant parameters fold first: branches on CAUSAL/EVEN_K disappear and
  // the masks the loop splitter analyses are in their canonical form.
  if (options.cleanup)
    cleanup();
  if (options.fastMath)
    pm.addNestedPass<func::FuncOp>(createTileFastMath());
  if (options.splitLoop)
    pm.addNestedPass<func::FuncOp>(createTileSplitLoop());
  if (options.remapBlocks) {
    TileRemapBlocksOptions remap;
    remap.mode = options.remapMode;
    remap.groupSize = options.groupSize;
    pm.addNestedPass<func::FuncOp>(createTileRemapBlocks(remap));
  }
  // The selects of the unmasked loop fold, the mask code dies.
  if (options.cleanup &&
      (options.fastMath || options.splitLoop || options.remapBlocks))
    cleanup();
  // After the split (each loop rotates on its own) and the cleanup (the
  // folded masks no longer count as stage-0 work).
  if (options.overlapMma) {
    pm.addNestedPass<func::FuncOp>(createTileOverlapMma());
    if (options.cleanup)
      cleanup();
  }
}

namespace {

/// The command-line options of tile-O<Level>; the defaults of the switches
/// are those of the level.
template <unsigned Level>
struct TileOptLevelOptions
    : public PassPipelineOptions<TileOptLevelOptions<Level>> {
  using Options = mlir::detail::PassOptions;

  Options::ListOption<std::string> bindings{
      *this, "bind",
      llvm::cl::desc("tile-specialize bindings NAME=VALUE (integers, "
                     "true/false, types)")};
  Options::Option<int> numWarps{
      *this, "num-warps",
      llvm::cl::desc("Override the kernel's num_warps hint (0: keep)"),
      llvm::cl::init(0)};
  Options::Option<int> occupancy{
      *this, "occupancy",
      llvm::cl::desc("Override the kernel's occupancy hint (0: keep)"),
      llvm::cl::init(0)};
  Options::Option<bool> specialize{*this, "specialize",
                                   llvm::cl::desc("Run tile-specialize"),
                                   llvm::cl::init(true)};
  Options::Option<bool> cleanup{
      *this, "cleanup",
      llvm::cl::desc("Run canonicalize, cse and loop-invariant-code-motion"),
      llvm::cl::init(Level >= 1)};
  Options::Option<bool> splitLoop{*this, "split-loop",
                                  llvm::cl::desc("Run tile-split-loop"),
                                  llvm::cl::init(Level >= 2)};
  Options::Option<bool> remapBlocks{*this, "remap-blocks",
                                    llvm::cl::desc("Run tile-remap-blocks"),
                                    llvm::cl::init(Level >= 2)};
  Options::Option<std::string> remapMode{
      *this, "remap-mode",
      llvm::cl::desc("tile-remap-blocks mode: auto, reverse or none"),
      llvm::cl::init("auto")};
  Options::Option<int> groupSize{
      *this, "group-size",
      llvm::cl::desc("tile-remap-blocks group size (1: no grouping)"),
      llvm::cl::init(1)};
  Options::Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Run tile-fast-math (changes numerical results)"),
      llvm::cl::init(Level >= 3)};
  Options::Option<bool> overlapMma{
      *this, "overlap-mma",
      llvm::cl::desc("Run tile-overlap-mma (exact; overlaps the two mmas of "
                     "attention with asynchronous wgmma)"),
      llvm::cl::init(false)};

  TilePipelineOptions get() const {
    TilePipelineOptions options;
    options.specialize = specialize;
    options.bindings.assign(bindings.begin(), bindings.end());
    options.numWarps = numWarps;
    options.occupancy = occupancy;
    options.cleanup = cleanup;
    options.splitLoop = splitLoop;
    options.remapBlocks = remapBlocks;
    options.remapMode = remapMode;
    options.groupSize = groupSize;
    options.fastMath = fastMath;
    options.overlapMma = overlapMma;
    return options;
  }
};

template <unsigned Level>
void registerLevel(StringRef name, StringRef description) {
  PassPipelineRegistration<TileOptLevelOptions<Level>>(
      name, description,
      [](OpPassManager &pm, const TileOptLevelOptions<Level> &options) {
        buildTilePipeline(pm, options.get());
      });
}

} // namespace

void mlir::tile::registerTileOptimizationPipelines() {
  registerLevel<0>("tile-O0", "Specialize a kernel (tile-specialize only)");
  registerLevel<1>("tile-O1",
                   "Specialize and clean up (canonicalize, cse, licm): the "
                   "cuTile post's baseline");
  registerLevel<2>("tile-O2",
                   "tile-O1 + tile-split-loop + tile-remap-blocks (exact: "
                   "results bitwise identical to tile-O1)");
  registerLevel<3>("tile-O3", "tile-O2 + tile-fast-math (changes numerical "
                              "results: ftz exp2, approximate division, FMA)");
}

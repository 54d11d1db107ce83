//===- TilePipelines.cpp - tile-O0 .. tile-O3 and the tile stage ----------===//
//
// The tile-level optimization pipelines, matching the cuTile post's ladder:
//
//   tile-O0  tile-specialize
//   tile-O1  + canonicalize, cse, loop-invariant-code-motion   (the baseline)
//   tile-O2  + tile-split-loop, tile-remap-blocks              (exact)
//   tile-O3  + tile-fast-math                                  (approximate)
//
// and, at any level, tile-persistent{max-blocks=N order=O} with
// `persistent=N persistent-order=O`.
//
// Every level takes the options of tile-specialize (`bind`, `num-warps`,
// `occupancy`), so one flag turns the kernel source into an optimized
// variant, and a switch per step, so that the ladder can be measured one step
// at a time: tile-O1 (baseline), tile-O1{fast-math=1} (+ fast math),
// tile-O3{remap-blocks=0} (+ loop split), tile-O3 (+ remapping).
//
// Also the tile stage of tile-source-to-ptx (tile-specialize, then any
// textual pipeline), which the CPU executor paths run too.
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tile;

/// tile-specialize with the pipeline's bindings and launch-hint overrides.
static std::unique_ptr<Pass> createSpecialize(const PipelineOptions &options) {
  TileSpecializeOptions specialize;
  specialize.bindings.assign(options.bindings.begin(), options.bindings.end());
  specialize.numWarps = options.numWarps;
  specialize.occupancy = options.occupancy;
  return createTileSpecialize(specialize);
}

void mlir::tile::buildTileOptPipeline(OpPassManager &pm, unsigned level,
                                      const PipelineOptions &options) {
  bool cleanup = PipelineOptions::levelSwitch(options.cleanup, level >= 1);
  bool splitLoop = PipelineOptions::levelSwitch(options.splitLoop, level >= 2);
  bool remapBlocks =
      PipelineOptions::levelSwitch(options.remapBlocks, level >= 2);
  bool fastMath = PipelineOptions::levelSwitch(options.fastMath, level >= 3);
  auto addCleanup = [&] {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    pm.addPass(createLoopInvariantCodeMotionPass());
  };
  // Specializing an already specialized kernel without bindings changes
  // nothing, so it is on at every level.
  if (options.specialize)
    pm.addPass(createSpecialize(options));
  // Constant parameters fold first: branches on CAUSAL/EVEN_K disappear and
  // the masks the loop splitter analyses are in their canonical form.
  if (cleanup)
    addCleanup();
  if (fastMath)
    pm.addNestedPass<func::FuncOp>(createTileFastMath());
  if (splitLoop)
    pm.addNestedPass<func::FuncOp>(createTileSplitLoop());
  if (remapBlocks) {
    TileRemapBlocksOptions remap;
    remap.mode = options.remapMode;
    remap.groupSize = options.groupSize;
    pm.addNestedPass<func::FuncOp>(createTileRemapBlocks(remap));
  }
  // After the remapping, which then orders the tiles the blocks walk.
  if (options.persistent > 0) {
    TilePersistentOptions persistent;
    persistent.maxBlocks = options.persistent;
    persistent.order = options.persistentOrder;
    pm.addNestedPass<func::FuncOp>(createTilePersistent(persistent));
  }
  // The selects of the unmasked loop fold, the mask code dies.
  if (cleanup && (fastMath || splitLoop || remapBlocks || options.persistent))
    addCleanup();
  // After the split (each loop rotates on its own) and the cleanup (the
  // folded masks no longer count as stage-0 work).
  if (options.overlapMma) {
    pm.addNestedPass<func::FuncOp>(createTileOverlapMma());
    if (cleanup)
      addCleanup();
  }
}

LogicalResult mlir::tile::buildTileStage(OpPassManager &pm,
                                         const PipelineOptions &options,
                                         raw_ostream &errorStream) {
  pm.addPass(createSpecialize(options));
  if (failed(parsePipeline(options.tilePipeline, pm, errorStream)))
    return failure();
  TileCheckpointOptions checkpoint;
  checkpoint.stage = getStageName(Stage::Tile).str();
  pm.addPass(createTileCheckpoint(checkpoint));
  return success();
}

void mlir::tile::registerPipeline(
    StringRef name, StringRef description, unsigned reader,
    std::function<LogicalResult(OpPassManager &, const PipelineOptions &,
                                raw_ostream &)>
        build) {
  registerPassPipeline(
      name, description,
      [name, reader,
       build](OpPassManager &pm, StringRef text,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        PipelineOptions options;
        if (failed(options.parseFromString(text)) ||
            failed(options.verify(name, reader, errorHandler)))
          return failure();
        std::string error;
        llvm::raw_string_ostream errorStream(error);
        if (failed(build(pm, options, errorStream)))
          return errorHandler(error);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(PipelineOptions());
      });
}

static void registerLevel(unsigned level, StringRef name,
                          StringRef description) {
  registerPipeline(name, description, ReadByTileLevel,
                   [level](OpPassManager &pm, const PipelineOptions &options,
                           raw_ostream &) {
                     buildTileOptPipeline(pm, level, options);
                     return success();
                   });
}

void mlir::tile::registerTileOptimizationPipelines() {
  // Pipelines may be registered once only; tools may call this more often.
  static bool registered = false;
  if (std::exchange(registered, true))
    return;
  registerTilePipelinesPasses();
  registerLevel(0, "tile-O0", "Specialize a kernel (tile-specialize only)");
  registerLevel(1, "tile-O1",
                "Specialize and clean up (canonicalize, cse, licm): the "
                "cuTile post's baseline");
  registerLevel(2, "tile-O2",
                "tile-O1 + tile-split-loop + tile-remap-blocks (exact: "
                "results bitwise identical to tile-O1)");
  registerLevel(3, "tile-O3",
                "tile-O2 + tile-fast-math (changes numerical "
                "results: ftz exp2, approximate division, FMA)");
}

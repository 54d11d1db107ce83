//===- Passes.h - tile-level transformations --------------------*- C++ -*-===//
//
// The tile-level passes (generated declarations), their pattern sets, and the
// optimization pipelines tile-O0 .. tile-O3 as a C++ function, so that tools
// build the same pipeline as `tile-opt --tile-O3`.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
class OpPassManager;
class RewritePatternSet;

namespace tile {

#define GEN_PASS_DECL
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// The loop-splitting pattern of tile-split-loop. It is meant for a walk
/// driver (each loop is visited once); a greedy driver would also split the
/// remainder loops again if they were not marked.
void populateTileSplitLoopPatterns(RewritePatternSet &patterns);

/// The parts of tile-fast-math. WARNING: they change numerical results.
void populateTileFastMathPatterns(RewritePatternSet &patterns, bool flushExp2,
                                  bool approxDiv, bool fuseFma);

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

/// What buildTilePipeline runs. `forLevel` gives the steps of tile-O0 ..
/// tile-O3; every step can then be toggled on its own, so that the cuTile
/// post's ladder can be measured one step at a time.
struct TilePipelineOptions {
  /// tile-specialize and its options (bindings NAME=VALUE; launch-hint
  /// overrides, 0 keeps the kernel's). Specializing an already specialized
  /// kernel without bindings changes nothing, so it is on at every level.
  bool specialize = true;
  SmallVector<std::string> bindings;
  int numWarps = 0;
  int occupancy = 0;
  /// canonicalize, cse and loop-invariant code motion.
  bool cleanup = false;
  /// tile-split-loop.
  bool splitLoop = false;
  /// tile-remap-blocks with its options.
  bool remapBlocks = false;
  std::string remapMode = "auto";
  int groupSize = 1;
  /// tile-fast-math (changes numerics).
  bool fastMath = false;
  /// tile-overlap-mma (exact; pays off with asynchronous wgmma).
  bool overlapMma = false;

  /// The steps of tile-O<level>: O0 specializes; O1 adds the cleanups; O2
  /// adds tile-split-loop and tile-remap-blocks; O3 adds tile-fast-math.
  static TilePipelineOptions forLevel(unsigned level);
};

/// Adds the tile-level pipeline to `pm`, which must run on a builtin.module.
void buildTilePipeline(OpPassManager &pm, const TilePipelineOptions &options);

/// Registers tile-O0, tile-O1, tile-O2 and tile-O3 with the pass registry.
/// (registerTilePipelines in tile/Pipelines registers the lowering to PTX.)
void registerTileOptimizationPipelines();

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

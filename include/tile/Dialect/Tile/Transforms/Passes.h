//===- Passes.h - tile-level transformations --------------------*- C++ -*-===//
//
// The tile-level passes (generated declarations) and their pattern sets. The
// pipelines that run them (tile-O0 .. tile-O3) are in tile/Pipelines.
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
                                  bool approxDiv, bool fuseFma,
                                  bool approxTanh = true);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

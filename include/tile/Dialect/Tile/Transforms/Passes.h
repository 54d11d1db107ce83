//===- Passes.h - tile-level transformations --------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tile {

#define GEN_PASS_DECL
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

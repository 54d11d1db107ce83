//===- Specialize.h - binding kernel parameters -----------------*- C++ -*-===//
//
// The work of the tile-specialize pass as a function, for tools that
// specialize a kernel without building a pass pipeline string.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_SPECIALIZE_H
#define TILE_DIALECT_TILE_TRANSFORMS_SPECIALIZE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace tile {

struct SpecializeOptions {
  /// NAME=VALUE bindings; parameters not named keep their defaults.
  SmallVector<std::string> bindings;
  /// Launch-hint overrides; 0 keeps the kernel's value.
  int numWarps = 0;
  int occupancy = 0;
};

/// Binds the parameters of `kernel` (a func.func with `tile.kernel`) and makes
/// every tile shape static. Emits located errors and fails on bad bindings.
LogicalResult specializeKernel(func::FuncOp kernel,
                               const SpecializeOptions &options);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_SPECIALIZE_H

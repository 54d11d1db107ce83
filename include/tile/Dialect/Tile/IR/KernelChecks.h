//===- KernelChecks.h - what the lowering must never see --------*- C++ -*-===//
//
// Checks of a kernel that no single op's verifier makes, run by
// tile-specialize (the first pass of every pipeline and of the CPU executor
// paths) once the parameters are bound.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_KERNELCHECKS_H
#define TILE_DIALECT_TILE_IR_KERNELCHECKS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace tile {

/// Refuses what the GPU lowering would miscompile or fail on deep inside,
/// at the op: integer division or remainder by a constant zero and the
/// signed minimum divided by a constant -1 (undefined behaviour, which LLVM
/// turns into a kernel that does nothing), and unstructured control flow
/// (`cf` branches, regions of several blocks).
LogicalResult checkKernelBody(Operation *kernel);

/// Refuses tile ops that are not inside a function (at module level they
/// verified and were then dropped by the lowering), at the first one.
LogicalResult checkTileOpsInFunctions(Operation *module);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_KERNELCHECKS_H

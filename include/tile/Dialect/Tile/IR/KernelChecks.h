//===- KernelChecks.h - what the lowering must never see --------*- C++ -*-===//
//
// Checks of a kernel that no single op's verifier makes, run by
// tile-specialize (the first pass of every pipeline and of the CPU executor
// paths) once the parameters are bound; and the trait that keeps every tile
// op inside a function.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_KERNELCHECKS_H
#define TILE_DIALECT_TILE_IR_KERNELCHECKS_H

#include "mlir/IR/OpDefinition.h"
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

/// Fails, at `op`, where `op` is not inside a function.
LogicalResult verifyInsideFunction(Operation *op);

/// The trait of every tile op (Tile_InsideFunction in TileBase.td): tile
/// ops at module level verified and were then dropped by the lowering.
template <typename ConcreteType>
class InsideFunction : public OpTrait::TraitBase<ConcreteType, InsideFunction> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyInsideFunction(op);
  }
};

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_KERNELCHECKS_H

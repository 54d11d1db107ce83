//===- ViewWrites.h - which ops write a view ---------------------*- C++
//-*-===//
//
// Whether a region writes global memory through a view: what decides if a
// scalar read of that view (a block table, cu_seqlens) may be issued again
// earlier (the pipeliner's prefetch) or by another role (the producer
// warpgroup). Views the kernel writes share no memory with the views it
// reads (the launch contract), so writes through other views cannot change
// what a read of `view` sees.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_VIEWWRITES_H
#define TILE_DIALECT_TILEGPU_TRANSFORMS_VIEWWRITES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace mlir {
namespace tilegpu {

/// True when an op inside `scope` (a loop, a function) stores, scatters or
/// performs an atomic through `view`, in the tile or the tilegpu dialect.
bool writesView(Operation *scope, Value view);

} // namespace tilegpu
} // namespace mlir

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_VIEWWRITES_H

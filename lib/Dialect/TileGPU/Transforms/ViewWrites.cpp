//===- ViewWrites.cpp - which ops write a view ----------------------------===//

#include "tile/Dialect/TileGPU/Transforms/ViewWrites.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

using namespace mlir;
using namespace mlir::tilegpu;

bool tilegpu::writesView(Operation *scope, Value view) {
  WalkResult r = scope->walk([&](Operation *op) {
    Value target;
    if (auto store = dyn_cast<StoreOp>(op))
      target = store.getView();
    else if (auto atomic = dyn_cast<AtomicOp>(op))
      target = atomic.getView();
    else if (auto store = dyn_cast<tile::StoreOp>(op))
      target = store.getView();
    else if (auto scatter = dyn_cast<tile::ScatterOp>(op))
      target = scatter.getView();
    else if (auto atomic = dyn_cast<tile::AtomicOp>(op))
      target = atomic.getView();
    return target == view ? WalkResult::interrupt() : WalkResult::advance();
  });
  return r.wasInterrupted();
}

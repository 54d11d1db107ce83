//===- Rematerialize.cpp - recompute cheap tiles inside loops -------------===//
//
// tilegpu-rematerialize: undoes loop-invariant code motion for tiles that
// are free to recompute (constants, splats, iotas, broadcasts) but cost a
// register per element to keep live across a loop.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUREMATERIALIZE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// Tiles whose value is one scalar, a constant, a per-thread index or a
/// copy of a small tile: recomputing them is a few instructions at most.
bool isCheapTileOp(Operation *op) {
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  return isa<tile::FullOp, tile::SplatOp, tile::IotaOp, tile::BroadcastOp,
             arith::ConstantOp>(op);
}

struct TileGPURematerializePass
    : public tilegpu::impl::TileGPURematerializeBase<TileGPURematerializePass> {
  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isCheapTileOp(op))
        candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      // One clone per loop body that uses the tile, before its first user
      // there; uses outside loops keep the original.
      DenseMap<Block *, Operation *> clones;
      for (OpOperand &use :
           llvm::make_early_inc_range(op->getResult(0).getUses())) {
        Operation *user = use.getOwner();
        auto loop = user->getParentOfType<scf::ForOp>();
        if (!loop || loop->isAncestor(op) ||
            !op->getBlock()->findAncestorOpInBlock(*loop))
          continue;
        Operation *anchor = loop.getBody()->findAncestorOpInBlock(*user);
        Block *body = loop.getBody();
        Operation *&clone = clones[body];
        if (!clone) {
          OpBuilder b(anchor);
          clone = b.clone(*op);
        } else if (anchor->isBeforeInBlock(clone)) {
          clone->moveBefore(anchor);
        }
        use.set(clone->getResult(0));
      }
      if (op->use_empty())
        op->erase();
    }
  }
};

} // namespace

//===- AsyncMma.cpp - issue wgmma early, wait late ------------------------===//
//
// tilegpu-async-mma: every wgmma (#mma version 3) becomes asynchronous and
// gets a tilegpu.mma_wait right before the first op of its block that uses
// its result, so that whatever the block does in between (another mma, the
// softmax) overlaps the tensor cores. The wait also names the mma's
// register operand (P), which the hardware reads until completion.
//
// Groups complete in issue order: a wait leaves pending the asynchronous
// mmas issued after the one it waits for and not yet waited for when it
// runs, and every wait of a block comes before the block's end. A wait
// with another wait between it and its mma closes a window of work meant
// to run under the mma; it is pinned there (ptxas moves unpinned waits up).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUASYNCMMA
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// The op of `block` that is or contains `op`.
Operation *ancestorIn(Block *block, Operation *op) {
  while (op && op->getBlock() != block)
    op = op->getParentOp();
  return op;
}

void makeAsync(Block &block, bool pinWaits) {
  SmallVector<std::pair<MmaOp, MmaWaitOp>> issued;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto mma = dyn_cast<MmaOp>(&op);
    if (!mma || mma.getAsync() ||
        cast<MmaLayoutAttr>(mma.getAcc().getType().getEncoding())
                .getVersion() != 3)
      continue;
    // The first op of this block that reads the result, else the end.
    Operation *firstUse = block.getTerminator();
    for (Operation *user : mma.getResult().getUsers()) {
      Operation *inBlock = ancestorIn(&block, user);
      if (inBlock && inBlock->isBeforeInBlock(firstUse))
        firstUse = inBlock;
    }
    mma.setAsync(true);
    OpBuilder b(firstUse);
    SmallVector<Value> values = {mma.getResult()};
    if (isa<RankedTensorType>(mma.getA().getType()))
      values.push_back(mma.getA());
    auto wait =
        MmaWaitOp::create(b, mma.getLoc(), ValueRange(values).getTypes(),
                          values, b.getI32IntegerAttr(0));
    mma.getResult().replaceUsesWithIf(wait.getResult(0), [&](OpOperand &use) {
      return use.getOwner() != wait;
    });
    issued.push_back({mma, wait});
  }
  // pending = mmas issued after this one whose waits come after this wait.
  for (auto [mma, wait] : issued) {
    int32_t pending = 0;
    bool window = false;
    for (auto [other, otherWait] : issued) {
      if (mma->isBeforeInBlock(other) && other->isBeforeInBlock(wait) &&
          wait->isBeforeInBlock(otherWait))
        ++pending;
      if (otherWait != wait && mma->isBeforeInBlock(otherWait) &&
          otherWait->isBeforeInBlock(wait))
        window = true;
    }
    wait.setPending(pending);
    wait.setPin(pinWaits && window);
  }
}

struct TileGPUAsyncMmaPass
    : public tilegpu::impl::TileGPUAsyncMmaBase<TileGPUAsyncMmaPass> {
  using TileGPUAsyncMmaBase::TileGPUAsyncMmaBase;

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      makeAsync(*block, pinWaits);
  }
};

} // namespace

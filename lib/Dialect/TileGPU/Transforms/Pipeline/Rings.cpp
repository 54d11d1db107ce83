//===- Rings.cpp - staged copies and rings of stages ----------------------===//
//
// The staged-copy pattern that tilegpu-assign-layouts emits, the rings of
// stages that replace its buffers, and the copy of a later iteration into a
// stage: what both synchronization protocols use.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

namespace mlir {
namespace tilegpu {
namespace pipeline {

std::optional<StagedCopy> matchStagedCopy(AsyncCopyOp copy) {
  StagedCopy staged;
  staged.copy = copy;
  staged.barrierBefore = dyn_cast_or_null<BarrierOp>(copy->getPrevNode());
  staged.commit = dyn_cast_or_null<AsyncCommitOp>(copy->getNextNode());
  if (!staged.commit)
    return std::nullopt;
  staged.wait = dyn_cast_or_null<AsyncWaitOp>(staged.commit->getNextNode());
  if (!staged.wait || staged.wait.getPending() != 0)
    return std::nullopt;
  staged.barrierAfter = dyn_cast_or_null<BarrierOp>(staged.wait->getNextNode());
  if (!staged.barrierAfter)
    return std::nullopt;
  return staged;
}

Value stageOfRing(OpBuilder &b, Location loc, Value ring, Value stage) {
  auto ringType = cast<SharedBufferType>(ring.getType());
  auto stageType =
      SharedBufferType::get(b.getContext(), ringType.getTileShape(),
                            ringType.getElementType(), ringType.getLayout());
  return SubviewOp::create(b, loc, stageType, ring, stage);
}

bool sameTiles(SharedBufferType a, SharedBufferType b) {
  return a.getTileShape() == b.getTileShape() &&
         a.getElementType() == b.getElementType() &&
         a.getLayout() == b.getLayout();
}

Value createRing(Value buffer, int64_t stages) {
  auto type = cast<SharedBufferType>(buffer.getType());
  SmallVector<int64_t> shape = {stages};
  llvm::append_range(shape, type.getShape());
  OpBuilder b(buffer.getContext());
  b.setInsertionPointAfterValue(buffer);
  return AllocOp::create(b, buffer.getLoc(),
                         SharedBufferType::get(buffer.getContext(), shape,
                                               type.getElementType(),
                                               type.getLayout()),
                         IntegerAttr());
}

int stagesFromLatency(Operation *copy) {
  auto latency = copy->getAttrOfType<IntegerAttr>("tilegpu.latency");
  if (!latency)
    return 1;
  int64_t l = latency.getInt();
  return l <= 1 ? 1 : l <= 3 ? 2 : 3;
}

int64_t allocBytes(AllocOp alloc) {
  SharedBufferType type = alloc.getType();
  return type.getTileBytes() * type.getNumStages();
}

bool offsetsDependOnlyOnIV(scf::ForOp loop, AsyncCopyOp copy) {
  SmallVector<Value> pending(copy.getOffsets().begin(),
                             copy.getOffsets().end());
  DenseSet<Value> seen;
  while (!pending.empty()) {
    Value v = pending.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (loop->isProperAncestor(arg.getOwner()->getParentOp()) ||
          (arg.getOwner()->getParentOp() == loop.getOperation() &&
           v != loop.getInductionVar()))
        return false;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!loop->isProperAncestor(def))
      continue;
    // Not isPure: a division is not speculatable, but the clones run only
    // for iterations that exist, with the same loop-invariant divisor.
    auto read = dyn_cast<tile::ReadOp>(def);
    if (read && writesView(loop, read.getView()))
      return false;
    if ((!read && !isMemoryEffectFree(def)) || def->getNumRegions() != 0)
      return false;
    llvm::append_range(pending, def->getOperands());
  }
  return true;
}

Operation *ancestorIn(Block *block, Operation *op) {
  while (op && op->getBlock() != block)
    op = op->getParentOp();
  return op;
}

Value Pipeliner::getRing(Value buffer, int stages,
                         ArrayRef<Value> takenInThisLoop) {
  if (Value ring = rings.lookup(buffer))
    return ring;
  auto type = cast<SharedBufferType>(buffer.getType());
  // Loops run one after the other (a split loop and its tail): a later loop
  // reuses a ring of the same tile type that an earlier loop filled, so the
  // stages are paid for once.
  for (Value ring : ringList) {
    auto ringType = cast<SharedBufferType>(ring.getType());
    if (sameTiles(ringType, type) && ringType.getNumStages() == stages &&
        !llvm::is_contained(takenInThisLoop, ring)) {
      rings[buffer] = ring;
      return ring;
    }
  }
  Value ring = createRing(buffer, stages);
  rings[buffer] = ring;
  ringList.push_back(ring);
  return ring;
}

/// Emits the copy of iteration `iv` into `stage` of `ring`, cloning the
/// loop-body computation of its offsets with the induction variable
/// replaced by `iv`.
void Pipeliner::issueCopy(OpBuilder &b, scf::ForOp loop, AsyncCopyOp copy,
                          Value iv, Value ring, Value stage, Value inRange,
                          bool commit) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  // Clone the pure ops of the loop body that the offsets depend on.
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> pending(copy.getOffsets().begin(),
                             copy.getOffsets().end());
  while (!pending.empty()) {
    Value v = pending.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || !loop->isProperAncestor(def) || slice.contains(def))
      continue;
    slice.insert(def);
    llvm::append_range(pending, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    b.clone(*op, mapping);
  SmallVector<Value> offsets;
  for (Value offset : copy.getOffsets())
    offsets.push_back(mapping.lookupOrDefault(offset));
  Location loc = copy.getLoc();
  Value view = stageOfRing(b, loc, ring, stage);
  AsyncCopyOp::create(b, loc, copy.getView(), offsets, copy.getDimsAttr(), view,
                      inRange);
  if (commit)
    AsyncCommitOp::create(b, loc);
}

} // namespace pipeline
} // namespace tilegpu
} // namespace mlir

//===- CommitGroups.cpp - rings synchronized by cp.async groups -----------===//
//
// sync=barrier (every chip; the only protocol before sm_90): the copies into
// a stage form a cp.async group; iteration j waits for its own groups and a
// block-wide barrier before it reads the stage, and that barrier also frees
// the stage read in iteration j - 1 for the copy issued S - 1 ahead.
//
// Commit order is by iteration, then by copy in program order; with n copies
// per iteration, when iteration j waits for its copy i, the groups committed
// after G(i, j) are those of iterations j+1 .. j+S-2 (n each), the copies
// after i of iteration j (n-1-i) and the copies before i of iteration
// j+S-1 (i): (S-1)*n - 1 groups, the same for every copy and iteration.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

namespace mlir {
namespace tilegpu {
namespace pipeline {

LogicalResult Pipeliner::pipelineLoop(scf::ForOp loop,
                                      SmallVector<StagedCopy> copies,
                                      int stages, ArrayRef<Value> busy,
                                      Operation *issueAheadAfter) {
  Location loc = loop.getLoc();
  Type ivType = loop.getInductionVar().getType();
  OpBuilder b(loop);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, IntegerAttr::get(ivType, v));
  };
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();

  size_t ringsBefore = ringList.size();
  SmallVector<Value> loopRings(busy);
  for (StagedCopy c : copies)
    loopRings.push_back(getRing(c.copy.getBuffer(), stages, loopRings));
  loopRings.erase(loopRings.begin(), loopRings.begin() + busy.size());
  bool reusesRings = llvm::any_of(loopRings, [&](Value ring) {
    return llvm::is_contained(ArrayRef<Value>(ringList).take_front(ringsBefore),
                              ring);
  });
  if (mbarriers)
    return pipelineLoopMbarrier(loop, copies, loopRings, stages,
                                issueAheadAfter);

  // Prologue: the copies of the first S - 1 iterations, after a barrier
  // (an earlier loop may still read the ring).
  b.setInsertionPoint(loop);
  // An earlier loop's prefetches past its end still zero-fill the ring
  // stages (a copy of 0 bytes writes 16 zero bytes) and may be in flight:
  // drain them before this prologue writes the same stages.
  // So may this loop's own prefetches in the previous iteration of an
  // enclosing loop.
  if (reusesRings || loop->getParentOfType<scf::ForOp>())
    AsyncWaitOp::create(b, loc, 0);
  BarrierOp::create(b, loc);
  for (int s = 0; s < stages - 1; ++s) {
    Value offset = arith::MulIOp::create(b, loc, constant(s), step);
    Value iv = arith::AddIOp::create(b, loc, lb, offset);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub);
    Value stage = arith::ConstantIntOp::create(b, loc, b.getI32Type(), s);
    for (auto [c, ring] : llvm::zip(copies, loopRings))
      issueCopy(b, loop, c.copy, iv, ring, stage, inRange);
  }

  // Body: stage of this iteration and of the copy issued S - 1 ahead.
  b.setInsertionPointToStart(loop.getBody());
  Value iv = loop.getInductionVar();
  Value k = arith::DivSIOp::create(b, loc,
                                   arith::SubIOp::create(b, loc, iv, lb), step);
  Value sConst = constant(stages);
  Value stageIv = arith::RemSIOp::create(b, loc, k, sConst);
  Value nextIv = arith::RemSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, k, constant(stages - 1)), sConst);
  auto toI32 = [&](Value v) -> Value {
    if (v.getType().isInteger(32))
      return v;
    if (v.getType().isIndex())
      return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
    return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  };
  Value stage = toI32(stageIv);
  Value nextStage = toI32(nextIv);
  Value aheadOffset = arith::MulIOp::create(b, loc, constant(stages - 1), step);
  Value aheadIv = arith::AddIOp::create(b, loc, iv, aheadOffset);
  Value aheadInRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, aheadIv, ub);

  int pending = (stages - 1) * static_cast<int>(copies.size()) - 1;
  for (auto [c, ring] : llvm::zip(copies, loopRings)) {
    b.setInsertionPoint(c.copy);
    AsyncWaitOp::create(b, loc, pending);
    BarrierOp::create(b, loc);
    Value current = stageOfRing(b, loc, ring, stage);
    issueCopy(b, loop, c.copy, aheadIv, ring, nextStage, aheadInRange);
    Value buffer = c.copy.getBuffer();
    buffer.replaceUsesWithIf(current, [&](OpOperand &use) {
      return loop->isProperAncestor(use.getOwner()) &&
             use.getOwner() != c.copy.getOperation();
    });
    c.erase();
  }
  pipelinedLoops.push_back(loop);
  return success();
}

/// A copy outside any pipelined loop, waited for at once, whose buffer is
/// read only inside pipelined loops that follow it: those loops' first wait
/// (which leaves only younger groups pending) and barrier already cover it,
/// so the immediate wait and barrier go, and the copy overlaps the loop
/// prologue.
void Pipeliner::dropWaitsCoveredByLoops() {
  SmallVector<AsyncCopyOp> copies;
  func.walk([&](AsyncCopyOp copy) { copies.push_back(copy); });
  for (AsyncCopyOp copy : copies) {
    if (copy->getParentOfType<scf::ForOp>())
      continue;
    std::optional<StagedCopy> staged = matchStagedCopy(copy);
    if (!staged)
      continue;
    bool covered = true;
    for (Operation *user : copy.getBuffer().getUsers()) {
      if (user == copy.getOperation())
        continue;
      auto loop = llvm::find_if(pipelinedLoops, [&](scf::ForOp l) {
        return l->isProperAncestor(user) && copy->getBlock() == l->getBlock() &&
               copy->isBeforeInBlock(l);
      });
      if (loop == pipelinedLoops.end()) {
        covered = false;
        break;
      }
    }
    if (!covered)
      continue;
    staged->wait.erase();
    staged->barrierAfter.erase();
  }
}

} // namespace pipeline
} // namespace tilegpu
} // namespace mlir

//===- Pipeline.cpp - multi-stage asynchronous copies in loops ------------===//
//
// tilegpu-pipeline: the copies of a loop body are issued S - 1 iterations
// ahead into rings of S shared-memory stages (Rings.cpp). Two protocols keep
// a stage from being overwritten while it is read and read before it has
// landed: cp.async commit groups with block-wide barriers
// (CommitGroups.cpp), or a full and an empty mbarrier per stage
// (Mbarriers.cpp, MbarrierSlots.cpp; sm_90 and newer). This file chooses the
// loops, their stages within shared memory, and the protocol.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeline;

LogicalResult Pipeliner::run() {
  func.walk([&](MmaOp mma) {
    wgmma |= cast<MmaLayoutAttr>(mma.getAcc().getType().getEncoding())
                 .getVersion() == 3;
  });
  SmallVector<scf::ForOp> loops;
  func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  // Buffers that an innermost copy loop copies into with the staged
  // pattern: they become rings, sized with their loop (or shared with an
  // earlier loop's). A persistent loop's own copies and copies in branches
  // keep (at least) their one stage: they count.
  func.walk([&](AsyncCopyOp copy) {
    auto loop = dyn_cast<scf::ForOp>(copy->getParentOp());
    if (!loop || !matchStagedCopy(copy))
      return;
    bool outer = loop.getBody()
                     ->walk([&](AsyncCopyOp inner) {
                       return inner->getParentOfType<scf::ForOp>() != loop
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     })
                     .wasInterrupted();
    if (!outer)
      stagedAnywhere.insert(copy.getBuffer());
  });
  int64_t scratch = getScratchNeeds(func).totalBytes(/*alignment=*/128);
  // Buffers of single copies in a branch that may join a ring
  // (placeSingleCopies): they take no memory of their own then.
  DenseSet<Value> joinable;
  if (mbarriers)
    func.walk([&](AsyncCopyOp copy) {
      if (isa<scf::IfOp>(copy->getParentOp()) && matchStagedCopy(copy) &&
          !copy.getPredicate() && isReadOnlyInItsBlock(copy))
        joinable.insert(copy.getBuffer());
    });
  for (scf::ForOp loop : loops) {
    // A persistent loop (mbarriers, with pipelined loops in it): first the
    // single copies of its body take ring slots.
    bool persistent =
        mbarriers && llvm::any_of(pipelinedLoops, [&](scf::ForOp inner) {
          return inner->getParentOp() == loop.getOperation();
        });
    if (persistent && failed(placeSingleCopies(loop.getBody(), loop)))
      return failure();
    SmallVector<StagedCopy> copies;
    bool ok = true;
    for (Operation &op : *loop.getBody()) {
      auto copy = dyn_cast<AsyncCopyOp>(op);
      if (!copy)
        continue;
      std::optional<StagedCopy> staged = matchStagedCopy(copy);
      if (!staged || !copy.getBuffer().getDefiningOp<AllocOp>() ||
          copy.getPredicate()) {
        ok = false;
        break;
      }
      copies.push_back(*staged);
    }
    if (!ok || copies.empty())
      continue;
    // The prologue recomputes the offsets for other iterations: they may
    // depend on the induction variable and loop invariants only.
    if (llvm::any_of(copies, [&](StagedCopy c) {
          return !offsetsDependOnlyOnIV(loop, c.copy);
        }))
      continue;
    // Fit new rings of `s` stages for `copies` into shared memory with every
    // buffer that stays: buffers staged by any loop of the kernel become
    // (shared) rings, so only the other buffers and the rings made so far
    // count. Layout conversions through shared memory take scratch after
    // the buffers (tilegpu-allocate-shared: the largest of the shared area,
    // and each warp-local move's own).
    auto fits = [&](int s) {
      int64_t total = scratch;
      DenseSet<Value> staged;
      for (StagedCopy c : copies)
        staged.insert(c.copy.getBuffer());
      auto joinsRing = [&](Value v) {
        if (!joinable.contains(v))
          return false;
        auto type = cast<SharedBufferType>(v.getType());
        auto holds = [&](Value other) {
          return sameTiles(cast<SharedBufferType>(other.getType()), type);
        };
        return llvm::any_of(staged, holds) ||
               llvm::any_of(ringList, [&](Value r) {
                 return !heldRings.contains(r) && holds(r);
               });
      };
      func.walk([&](AllocOp alloc) {
        Value v = alloc.getResult();
        bool isRing = llvm::is_contained(ringList, v);
        if (!alloc->use_empty() && !staged.contains(v) && !joinsRing(v) &&
            (isRing || !stagedAnywhere.contains(v)))
          total += allocBytes(alloc);
      });
      for (Value buffer : staged)
        total += cast<SharedBufferType>(buffer.getType()).getTileBytes() * s;
      return total <= maxShared;
    };
    // A persistent loop (mbarriers, with pipelined loops in it): its own
    // copies (the tile's operands its inner loops read) get rings its inner
    // loops do not use, of two stages where they fit: the copies of tile
    // t + 1 are issued after tile t's last ring copy (its inner loops', a
    // single copy's after them), so a producer warpgroup loads them while
    // the consumers finish tile t, and their empty wait (for tile t - 1's
    // release) does not hold up the producer. Else one stage: the copy of
    // tile t + 1 waits for tile t's release.
    if (persistent) {
      SmallVector<Value> busy;
      loop.walk([&](SubviewOp view) {
        if (llvm::is_contained(ringList, view.getBuffer()) &&
            !llvm::is_contained(busy, view.getBuffer()))
          busy.push_back(view.getBuffer());
      });
      Operation *lastRingCopy = nullptr;
      for (Operation &op : *loop.getBody()) {
        bool issues = op.walk([](MbarrierArriveCopiesOp) {
                          return WalkResult::interrupt();
                        }).wasInterrupted();
        if (issues)
          lastRingCopy = &op;
      }
      int outerStages = fits(2) ? 2 : 1;
      size_t ringsBefore = ringList.size();
      if (failed(pipelineLoop(loop, copies, outerStages, busy, lastRingCopy)))
        return failure();
      for (Value ring : ArrayRef<Value>(ringList).drop_front(ringsBefore))
        heldRings.insert(ring);
      continue;
    }
    int stages = stagesOption;
    if (stages <= 0) {
      stages = 1;
      for (StagedCopy c : copies)
        stages = std::max(stages, stagesFromLatency(c.copy));
    }
    if (stages < 2)
      continue;
    // A loop that runs after an already pipelined one (a split loop's tail)
    // reuses its rings, and their stage count.
    SmallVector<Value> reused;
    for (StagedCopy c : copies) {
      auto type = cast<SharedBufferType>(c.copy.getBuffer().getType());
      for (Value ring : ringList) {
        if (sameTiles(cast<SharedBufferType>(ring.getType()), type) &&
            !llvm::is_contained(reused, ring)) {
          reused.push_back(ring);
          break;
        }
      }
    }
    if (reused.size() == copies.size()) {
      stages = cast<SharedBufferType>(reused.front().getType()).getNumStages();
    } else {
      while (stages >= 2 && !fits(stages))
        --stages;
      if (stages < 2)
        continue;
    }
    if (failed(pipelineLoop(loop, copies, stages, {})))
      return failure();
  }
  dropWaitsCoveredByLoops();
  if (mbarriers && !pipelinedLoops.empty() &&
      failed(placeSingleCopies(&func.getBody().front(), scf::ForOp())))
    return failure();
  carryOuterBases();
  // The barriers are initialized by one thread; every thread sees them
  // after a block-wide barrier.
  if (lastInit) {
    for (Operation &op : func.getBody().front())
      if (isa<MbarrierInitOp>(op))
        lastInit = &op;
    OpBuilder b(lastInit->getContext());
    b.setInsertionPointAfter(lastInit);
    BarrierOp::create(b, lastInit->getLoc());
  }
  // Buffers replaced by rings everywhere are dead.
  SmallVector<AllocOp> dead;
  func.walk([&](AllocOp alloc) {
    if (alloc->use_empty())
      dead.push_back(alloc);
  });
  for (AllocOp alloc : dead)
    alloc.erase();
  return success();
}

namespace {

/// True when the slots of every ring can be numbered in program order (see
/// runOnOperation): every loop with copies runs at the kernel's top level or
/// directly in a top-level loop.
bool slotsCanBeNumbered(func::FuncOp func) {
  Block *top = &func.getBody().front();
  WalkResult result = func.walk([&](AsyncCopyOp copy) {
    auto loop = copy->getParentOfType<scf::ForOp>();
    if (!loop || loop->getBlock() == top)
      return WalkResult::advance();
    auto outer = dyn_cast<scf::ForOp>(loop->getParentOp());
    if (!outer || outer->getBlock() != top)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

struct TileGPUPipelinePass
    : public tilegpu::impl::TileGPUPipelineBase<TileGPUPipelinePass> {
  using TileGPUPipelineBase::TileGPUPipelineBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (stages < 0 || stages > 8) {
      func.emitError() << "stages must be in [0, 8]";
      return signalPassFailure();
    }
    if (sync != "auto" && sync != "barrier" && sync != "mbarrier") {
      func.emitError() << "sync must be auto, barrier or mbarrier, got '"
                       << sync << "'";
      return signalPassFailure();
    }
    FailureOr<TargetChip> target = TargetChip::lookup(func);
    if (failed(target))
      return signalPassFailure();
    // mbarrier.try_wait needs sm_90; older chips keep block-wide barriers.
    bool hopper = target->isHopperOrNewer();
    if (sync == "mbarrier" && !hopper) {
      func.emitError() << "sync=mbarrier needs sm_90 or newer "
                          "(mbarrier.try_wait), got chip '"
                       << target->getName() << "'";
      return signalPassFailure();
    }
    bool mbarriers = sync == "mbarrier" || (sync == "auto" && hopper);
    // Slots are numbered in program order across the loops that share a
    // ring: every pipelined loop must run at the kernel's top level or in a
    // top-level loop (which carries the numbering). Else block-wide
    // barriers.
    if (mbarriers)
      mbarriers = slotsCanBeNumbered(func);
    if (failed(
            Pipeliner(func, stages, target->getMaxSharedPerBlock(), mbarriers)
                .run()))
      signalPassFailure();
  }
};

} // namespace

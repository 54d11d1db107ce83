//===- MbarrierSlots.cpp - ring slots across loops and single copies ------===//
//
// With mbarriers, a ring's slots are numbered in program order across the
// loops that share it. An outer (persistent) loop carries each ring's next
// slot as loop state; a staged copy outside the pipelined loops takes a
// slot of a ring too, so that a producer warpgroup can issue it ahead.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

namespace mlir {
namespace tilegpu {
namespace pipeline {

Pipeliner::OuterBase &Pipeliner::getOuterBase(scf::ForOp outer, Value ring) {
  auto [it, inserted] =
      outerBaseIndex.try_emplace({outer.getOperation(), ring}, 0);
  if (!inserted)
    return outerBases[it->second];
  RingSync &sync = getRingSync(ring);
  OpBuilder b(outer);
  Location loc = outer.getLoc();
  Type i32 = b.getI32Type();
  b.setInsertionPointToStart(outer.getBody());
  auto inside = UnrealizedConversionCastOp::create(b, loc, i32, ValueRange());
  b.setInsertionPointAfter(outer);
  auto after = UnrealizedConversionCastOp::create(b, loc, i32, ValueRange());
  it->second = outerBases.size();
  outerBases.push_back(
      OuterBase{outer, sync.slotBase, inside.getResult(0), inside, after});
  // The loops after the outer one continue from its result.
  sync.slotBase = after.getResult(0);
  return outerBases.back();
}

/// Turns the placeholders of getOuterBase into iteration arguments and
/// results of their outer loops.
void Pipeliner::carryOuterBases() {
  llvm::MapVector<Operation *, SmallVector<OuterBase *>> byLoop;
  for (OuterBase &base : outerBases)
    byLoop[base.outer.getOperation()].push_back(&base);
  IRRewriter rewriter(func.getContext());
  for (auto &[op, bases] : byLoop) {
    auto outer = cast<scf::ForOp>(op);
    SmallVector<Value> inits, yields;
    for (OuterBase *base : bases) {
      inits.push_back(base->init);
      yields.push_back(base->current);
    }
    rewriter.setInsertionPoint(outer);
    auto grown = cast<scf::ForOp>(
        outer
            .replaceWithAdditionalYields(
                rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                  return SmallVector<Value>(yields);
                })
            ->getOperation());
    unsigned first = grown.getNumResults() - bases.size();
    for (auto [i, base] : llvm::enumerate(bases)) {
      rewriter.replaceOp(base->inside, grown.getRegionIterArg(first + i));
      rewriter.replaceOp(base->after, grown.getResult(first + i));
    }
    for (scf::ForOp &loop : pipelinedLoops)
      if (loop.getOperation() == op)
        loop = grown;
  }
}

/// The value a ring's slot counter has at `point` of `context`: the chain
/// of counters ends at `last` (each a sum of the one before and a trip
/// count, defined in `context` before its loop); the latest defined before
/// `point`.
static Value counterAt(Value last, Operation *point, Block *context) {
  Value v = last;
  while (auto add = v.getDefiningOp<arith::AddIOp>()) {
    if (add->getBlock() != context || !point->isBeforeInBlock(add))
      break;
    v = add.getLhs();
  }
  return v;
}

/// True when every asynchronous mma of the buffer `view` in `block` is
/// waited for in `block` (its stage is released there).
static bool mmasWaitedIn(Block *block, Value view) {
  for (Operation *user : view.getUsers()) {
    auto mma = dyn_cast<MmaOp>(user);
    if (!mma || !mma.getAsync())
      continue;
    bool waited = llvm::any_of(mma.getResult().getUsers(), [&](Operation *op) {
      return isa<MmaWaitOp>(op) && ancestorIn(block, op);
    });
    if (!waited)
      return false;
  }
  return true;
}

bool isReadOnlyInItsBlock(AsyncCopyOp copy) {
  Block *block = copy->getBlock();
  Value buffer = copy.getBuffer();
  auto loop = copy->getParentOfType<scf::ForOp>();
  return llvm::all_of(buffer.getUsers(),
                      [&](Operation *user) {
                        return user == copy.getOperation() ||
                               (ancestorIn(block, user) &&
                                user->getParentOfType<scf::ForOp>() == loop);
                      }) &&
         mmasWaitedIn(block, buffer);
}

/// A staged copy outside the pipelined loops (fmha's first K tile before
/// the loop and last V tile after it, peeled by tile-overlap-mma; Q) gets
/// a slot of a ring with mbarriers, so that a producer warpgroup issues it
/// ahead like the loops' copies:
///   - a copy whose buffer is read only in its own block (not in a loop)
///     takes the next slot of a ring of its tile type, between the slots of
///     the loops before and after it (in an scf.if branch, the counter
///     advances when the branch runs);
///   - else, a copy in the kernel's top block gets a one-stage ring of its
///     own (its slot is held across the loops that read it).
/// The readers wait for the slot's full barrier where the copy's wait was,
/// and release it after their last read.
LogicalResult Pipeliner::placeSingleCopies(Block *context, scf::ForOp outer) {
  struct Single {
    StagedCopy staged;
    Operation *point; // the op of `context` holding the copy
  };
  SmallVector<Single> singles;
  auto collect = [&](Block &block, Operation *point) {
    for (Operation &op : block)
      if (auto copy = dyn_cast<AsyncCopyOp>(op))
        if (std::optional<StagedCopy> staged = matchStagedCopy(copy);
            staged && !copy.getPredicate() &&
            copy.getBuffer().getDefiningOp<AllocOp>())
          singles.push_back({*staged, point ? point : copy.getOperation()});
  };
  collect(*context, nullptr);
  for (Operation &op : *context)
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      for (Region &region : ifOp->getRegions())
        for (Block &block : region)
          collect(block, ifOp);
  llvm::sort(singles, [](const Single &a, const Single &b) {
    return a.point != b.point ? a.point->isBeforeInBlock(b.point)
                              : a.staged.copy->isBeforeInBlock(b.staged.copy);
  });
  // Copies one after another share a barrier: the one after a copy's wait
  // is the one before the next copy. It belongs to the first (erased with
  // it), not to the next, which would erase it a second time.
  DenseSet<Operation *> barriersAfter;
  for (Single &single : singles)
    barriersAfter.insert(single.staged.barrierAfter);
  for (Single &single : singles)
    if (single.staged.barrierBefore &&
        barriersAfter.contains(single.staged.barrierBefore))
      single.staged.barrierBefore = nullptr;
  Type i32 = IntegerType::get(func.getContext(), 32);
  for (Single &single : singles) {
    AsyncCopyOp copy = single.staged.copy;
    Block *block = copy->getBlock();
    Value buffer = copy.getBuffer();
    auto type = cast<SharedBufferType>(buffer.getType());
    Value ring;
    if (isReadOnlyInItsBlock(copy)) {
      auto shared = llvm::find_if(ringList, [&](Value r) {
        return !heldRings.contains(r) &&
               sameTiles(cast<SharedBufferType>(r.getType()), type);
      });
      if (shared != ringList.end())
        ring = *shared;
    }
    if (!ring) {
      // A ring of its own: only for a copy of the kernel's top block (a
      // persistent loop's own copies are that loop's to pipeline).
      if (outer || block != context)
        continue;
      ring = createRing(buffer, 1);
      ringList.push_back(ring);
      heldRings.insert(ring);
    }
    RingSync &sync = getRingSync(ring);
    Value last = outer ? getOuterBase(outer, ring).current : sync.slotBase;
    Operation *point = single.point;
    Location loc = copy.getLoc();
    OpBuilder b(point);
    auto c32 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, i32, v);
    };
    // The slot: the counter before `point`; after it, one more (when the
    // branch holding the copy runs).
    Value n = counterAt(last, point, context);
    Value taken = c32(1);
    if (auto ifOp = dyn_cast<scf::IfOp>(point)) {
      bool inThen = block == ifOp.thenBlock();
      taken = arith::SelectOp::create(b, loc, ifOp.getCondition(),
                                      inThen ? c32(1) : c32(0),
                                      inThen ? c32(0) : c32(1));
    }
    Value next = arith::AddIOp::create(b, loc, n, taken);
    n.replaceUsesWithIf(next, [&](OpOperand &use) {
      Operation *at = ancestorIn(context, use.getOwner());
      return at && point->isBeforeInBlock(at);
    });
    if (last == n) {
      if (outer)
        getOuterBase(outer, ring).current = next;
      else
        sync.slotBase = next;
    }
    // Issue (after the release of the slot's previous use), then wait.
    int64_t stages = cast<SharedBufferType>(ring.getType()).getNumStages();
    b.setInsertionPoint(copy);
    Value stage = slotStage(b, loc, n, stages);
    Value phase = arith::DivUIOp::create(b, loc, n, c32(stages));
    Value fullParity = arith::AndIOp::create(b, loc, phase, c32(1));
    Value emptyParity = arith::AndIOp::create(
        b, loc, arith::AddIOp::create(b, loc, phase, c32(1)), c32(1));
    Value always = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    issueIntoSlot(
        b, loc, sync, n, stages, always,
        [&](Value stage) {
          AsyncCopyOp::create(b, loc, copy.getView(), copy.getOffsets(),
                              copy.getDimsAttr(),
                              stageOfRing(b, loc, ring, stage), Value());
        },
        stage, emptyParity);
    Value current =
        waitForSlot(b, loc, sync, ring, n, stage, wgmma, fullParity);
    buffer.replaceUsesWithIf(current, [&](OpOperand &use) {
      return use.getOwner() != copy.getOperation();
    });
    single.staged.erase();
    Operation *lastReader = lastRead(block, current);
    if (!lastReader)
      return emitError(loc) << "tilegpu-pipeline: a staged buffer is never "
                               "read";
    b.setInsertionPointAfter(lastReader);
    MbarrierArriveOp::create(b, loc, sync.empty, stage);
  }
  return success();
}

} // namespace pipeline
} // namespace tilegpu
} // namespace mlir

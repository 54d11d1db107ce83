//===- Mbarriers.cpp - rings synchronized by mbarriers --------------------===//
//
// With mbarriers (sync=mbarrier; the default on sm_90 and newer) each ring
// has a full and an empty barrier per stage instead: a thread's copies into
// a stage arrive on its full barrier when they complete
// (cp.async.mbarrier.arrive.noinc), readers wait for the full barrier's
// phase, and arrive on the empty barrier after their last read (for an
// asynchronous wgmma, after its wait); a copy into a stage first waits for
// the empty barrier's phase of the stage's previous use. Ring slots are
// numbered across the loops that share a ring (slot n: stage n % S, phase
// n / S), so no copy is issued past a loop's end and no block-wide barrier
// remains in the loop. A loop whose one wgmma accumulates from shared
// memory into loop state keeps it in flight: iteration k's wait leaves
// iteration k's mma pending (it completes iteration k - 1's, whose slots
// it releases), so the tensor cores never drain between iterations; a wait
// after the loop completes the last. Pipelined loops may sit in an outer loop
// (a persistent kernel's loop over output tiles), with trip counts that
// change from one outer iteration to the next: the outer loop carries each
// ring's next slot as loop state, so a producer warpgroup can run ahead into
// the next tile's copies while the consumers finish this one. The outer
// loop's own copies (the tile's operands that its inner loops read) become
// rings of two stages where shared memory allows: the copies of tile t + 1
// are issued after tile t's last inner loop and wait for the release of
// tile t - 1's; else one stage, where the copy of tile t + 1 waits for the
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

namespace mlir {
namespace tilegpu {
namespace pipeline {

Value slotStage(OpBuilder &b, Location loc, Value n, int64_t stages) {
  Value s = arith::ConstantIntOp::create(b, loc, b.getI32Type(), stages);
  return arith::RemUIOp::create(b, loc, n, s);
}

Value slotParity(OpBuilder &b, Location loc, Value n, int64_t stages,
                 int64_t plus) {
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  };
  Value phase = arith::DivUIOp::create(b, loc, n, c32(stages));
  if (plus)
    phase = arith::AddIOp::create(b, loc, phase, c32(plus));
  return arith::AndIOp::create(b, loc, phase, c32(1));
}

scf::IfOp issueIntoSlot(OpBuilder &b, Location loc, const RingSync &sync,
                        Value n, int64_t stages, Value inRange,
                        function_ref<void(Value stage)> emitCopy, Value stage,
                        Value emptyParity) {
  auto ifOp = scf::IfOp::create(b, loc, inRange, /*else=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  if (!stage)
    stage = slotStage(b, loc, n, stages);
  if (!emptyParity)
    emptyParity = slotParity(b, loc, n, stages, 1);
  MbarrierWaitOp::create(b, loc, sync.empty, stage, emptyParity);
  emitCopy(stage);
  MbarrierArriveCopiesOp::create(b, loc, sync.full, stage);
  return ifOp;
}

Value waitForSlot(OpBuilder &b, Location loc, const RingSync &sync, Value ring,
                  Value n, Value stage, bool wgmma, Value fullParity) {
  int64_t stages = cast<SharedBufferType>(ring.getType()).getNumStages();
  if (!fullParity)
    fullParity = slotParity(b, loc, n, stages, 0);
  MbarrierWaitOp::create(b, loc, sync.full, stage, fullParity);
  if (wgmma)
    FenceAsyncSharedOp::create(b, loc);
  return stageOfRing(b, loc, ring, stage);
}

RingSync &Pipeliner::getRingSync(Value ring) {
  auto it = ringSync.find(ring);
  if (it != ringSync.end())
    return it->second;
  MLIRContext *ctx = func.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointAfterValue(ring);
  Location loc = ring.getLoc();
  int64_t stages = cast<SharedBufferType>(ring.getType()).getNumStages();
  auto type = MbarrierType::get(ctx, stages);
  // Every thread copies and every thread reads until warp specialization
  // splits the roles (and sets the counts).
  auto warps = func->getAttrOfType<IntegerAttr>("tilegpu.num_warps");
  int32_t threads = static_cast<int32_t>(warps ? warps.getInt() : 4) *
                    static_cast<int32_t>(kWarpSize);
  Value full = MbarrierAllocOp::create(b, loc, type, IntegerAttr());
  full.getDefiningOp()->setAttr("tilegpu.role", b.getStringAttr("full"));
  Value empty = MbarrierAllocOp::create(b, loc, type, IntegerAttr());
  empty.getDefiningOp()->setAttr("tilegpu.role", b.getStringAttr("empty"));
  MbarrierInitOp::create(b, loc, full, threads);
  lastInit = MbarrierInitOp::create(b, loc, empty, threads);
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  return ringSync[ring] = RingSync{full, empty, zero};
}

Operation *lastRead(Block *body, Value current) {
  Operation *last = nullptr;
  auto later = [&](Operation *op) {
    if (op && (!last || last->isBeforeInBlock(op)))
      last = op;
  };
  for (Operation *user : current.getUsers()) {
    Operation *inBody = ancestorIn(body, user);
    later(inBody);
    auto mma = dyn_cast<MmaOp>(user);
    if (!mma || !mma.getAsync())
      continue;
    // The waits of the result, also where a loop carries it in flight (a
    // wait after the loop completes it).
    SmallVector<Value> results = {mma.getResult()};
    while (!results.empty()) {
      Value result = results.pop_back_val();
      for (OpOperand &use : result.getUses()) {
        Operation *resultUser = use.getOwner();
        if (isa<MmaWaitOp>(resultUser))
          later(ancestorIn(body, resultUser));
        else if (isa<scf::YieldOp>(resultUser))
          if (auto loop = dyn_cast<scf::ForOp>(resultUser->getParentOp()))
            results.push_back(loop.getResult(use.getOperandNumber()));
      }
    }
  }
  return last;
}

/// The wait of a wgmma accumulation that can stay in flight across
/// iterations: the body's only asynchronous mma reads shared memory only
/// and accumulates into an iteration argument, and its wait returns the
/// mma's result to the yield only. Else null.
static MmaWaitOp carriedAccumulation(scf::ForOp loop) {
  Block *body = loop.getBody();
  MmaOp mma;
  MmaWaitOp wait;
  for (Operation &op : *body) {
    if (auto m = dyn_cast<MmaOp>(op)) {
      if (mma)
        return MmaWaitOp();
      mma = m;
    } else if (auto w = dyn_cast<MmaWaitOp>(op)) {
      if (wait)
        return MmaWaitOp();
      wait = w;
    }
  }
  if (!mma || !wait || !mma.getAsync() ||
      !isa<SharedBufferType>(mma.getA().getType()) ||
      !isa<SharedBufferType>(mma.getB().getType()))
    return MmaWaitOp();
  auto acc = dyn_cast<BlockArgument>(mma.getAcc());
  if (!acc || acc.getOwner() != body || acc == loop.getInductionVar() ||
      !acc.hasOneUse())
    return MmaWaitOp();
  if (wait.getValues().size() != 1 || wait.getValues()[0] != mma.getResult() ||
      !mma.getResult().hasOneUse() || !wait.getResult(0).hasOneUse())
    return MmaWaitOp();
  OpOperand &use = *wait.getResult(0).getUses().begin();
  if (use.getOwner() != body->getTerminator() ||
      use.getOperandNumber() + 1 != acc.getArgNumber())
    return MmaWaitOp();
  return wait;
}

/// Keeps the accumulation of `wait`'s mma in flight from one iteration to
/// the next (the wgmma of iteration k + 1 continues in the registers of
/// iteration k's): the wait in the body leaves one group pending, the
/// loop yields the mma's result, and a wait after the loop completes it;
/// then the last slot of each ring in `releases` (ring, slot base) is
/// released.
template <typename StageOf>
static void carryAccumulation(OpBuilder &b, scf::ForOp loop, MmaWaitOp wait,
                              Value trips,
                              ArrayRef<std::pair<RingSync *, Value>> releases,
                              StageOf stageOf) {
  Location loc = wait.getLoc();
  Value inFlight = wait.getValues()[0];
  unsigned index = wait.getResult(0).getUses().begin()->getOperandNumber();
  b.setInsertionPoint(wait);
  MmaWaitOp::create(b, loc, TypeRange(), ValueRange(), b.getI32IntegerAttr(1),
                    wait.getPinAttr());
  wait.getResult(0).replaceAllUsesWith(inFlight);
  wait.erase();

  b.setInsertionPointAfter(loop);
  Value result = loop.getResult(index);
  auto done = MmaWaitOp::create(b, loc, result.getType(), result,
                                b.getI32IntegerAttr(0), UnitAttr());
  result.replaceUsesWithIf(done.getResult(0), [&](OpOperand &use) {
    return use.getOwner() != done.getOperation();
  });
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  Value ran =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, trips, zero);
  auto ifOp = scf::IfOp::create(b, loc, ran, /*else=*/false);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value one = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
  for (auto [sync, base] : releases) {
    Value last = arith::SubIOp::create(
        b, loc, arith::AddIOp::create(b, loc, base, trips), one);
    MbarrierArriveOp::create(b, loc, sync->empty, stageOf(last));
  }
}

LogicalResult Pipeliner::pipelineLoopMbarrier(scf::ForOp loop,
                                              SmallVector<StagedCopy> copies,
                                              SmallVector<Value> loopRings,
                                              int stages,
                                              Operation *issueAheadAfter) {
  Location loc = loop.getLoc();
  Type ivType = loop.getInductionVar().getType();
  Type i32 = IntegerType::get(func.getContext(), 32);
  OpBuilder b(loop);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, IntegerAttr::get(ivType, v));
  };
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  auto toI32 = [&](Value v) -> Value {
    if (v.getType().isInteger(32))
      return v;
    if (v.getType().isIndex())
      return arith::IndexCastOp::create(b, loc, i32, v);
    return arith::TruncIOp::create(b, loc, i32, v);
  };
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  SmallVector<RingSync *> syncs;
  for (Value ring : loopRings)
    syncs.push_back(&getRingSync(ring));
  auto stageOf = [&](Value n) { return slotStage(b, loc, n, stages); };
  // Copy of iteration `iv` into slot `n`, when `inRange`.
  auto issue = [&](StagedCopy c, Value ring, RingSync *sync, Value iv, Value n,
                   Value inRange) -> Operation * {
    return issueIntoSlot(b, loc, *sync, n, stages, inRange, [&](Value stage) {
      issueCopy(b, loop, c.copy, iv, ring, stage, Value(), /*commit=*/false);
    });
  };

  // The slots this loop uses: its trip count, max(0, ceil((ub - lb) / step)).
  auto tripCount = [&](Value lower, Value upper, Value by) {
    Type type = lower.getType();
    Value span = arith::SubIOp::create(b, loc, upper, lower);
    Value trips = arith::CeilDivSIOp::create(b, loc, span, by);
    Value zero = arith::ConstantOp::create(b, loc, IntegerAttr::get(type, 0));
    return toI32(arith::MaxSIOp::create(b, loc, trips, zero));
  };
  // In an outer loop (checked by slotsCanBeNumbered: a top-level loop), the
  // ring's next slot is the outer loop's state (getOuterBase), advanced by
  // this loop's trip count in each outer iteration.
  SmallVector<Value> bases;
  Value trips = tripCount(lb, ub, step);
  auto outer = dyn_cast<scf::ForOp>(loop->getParentOp());
  for (auto [ring, sync] : llvm::zip(loopRings, syncs)) {
    if (!outer) {
      bases.push_back(sync->slotBase);
      sync->slotBase = arith::AddIOp::create(b, loc, sync->slotBase, trips);
      continue;
    }
    OuterBase &base = getOuterBase(outer, ring);
    bases.push_back(base.current);
    base.current = arith::AddIOp::create(b, loc, base.current, trips);
  }

  // Prologue: the first S - 1 iterations that exist.
  b.setInsertionPoint(loop);
  for (int s = 0; s < stages - 1; ++s) {
    Value offset = arith::MulIOp::create(b, loc, constant(s), step);
    Value iv = arith::AddIOp::create(b, loc, lb, offset);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub);
    for (auto [c, ring, sync, base] :
         llvm::zip(copies, loopRings, syncs, bases)) {
      Value n = arith::AddIOp::create(b, loc, base, c32(s));
      issue(c, ring, sync, iv, n, inRange);
    }
  }

  // An accumulation the mma of the next iteration may continue in flight.
  MmaWaitOp carried = wgmma ? carriedAccumulation(loop) : MmaWaitOp();
  SmallVector<std::pair<RingSync *, Value>> carriedReleases;

  // Body: iteration k reads slot base + k and copies iteration k + S - 1.
  b.setInsertionPointToStart(loop.getBody());
  Value iv = loop.getInductionVar();
  Value k = toI32(arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, lb), step));
  Value aheadIv = arith::AddIOp::create(
      b, loc, iv, arith::MulIOp::create(b, loc, constant(stages - 1), step));
  Value aheadInRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, aheadIv, ub);
  Block *body = loop.getBody();
  for (auto [c, ring, sync, base] :
       llvm::zip(copies, loopRings, syncs, bases)) {
    b.setInsertionPoint(c.copy);
    Value n = arith::AddIOp::create(b, loc, base, k);
    Value stage = stageOf(n);
    // One stage: the copy of this iteration itself, issued before its wait.
    Value nAhead = arith::AddIOp::create(b, loc, n, c32(stages - 1));
    if (stages == 1)
      issue(c, ring, sync, aheadIv, nAhead, aheadInRange);
    Value current = waitForSlot(b, loc, *sync, ring, n, stage, wgmma);
    if (stages > 1) {
      // Where the copy stood, or after `issueAheadAfter` (in program order
      // after the copies issued there before).
      OpBuilder::InsertionGuard guard(b);
      if (issueAheadAfter)
        b.setInsertionPointAfter(issueAheadAfter);
      Operation *issued = issue(c, ring, sync, aheadIv, nAhead, aheadInRange);
      if (issueAheadAfter)
        issueAheadAfter = issued;
    }
    Value buffer = c.copy.getBuffer();
    buffer.replaceUsesWithIf(current, [&](OpOperand &use) {
      return loop->isProperAncestor(use.getOwner()) &&
             use.getOwner() != c.copy.getOperation();
    });
    // Release the stage after its last read.
    Operation *last = lastRead(body, current);
    if (!last)
      return loop.emitError() << "tilegpu-pipeline: a staged buffer is never "
                                 "read in its loop";
    b.setInsertionPointAfter(last);
    if (carried && last == carried.getOperation()) {
      // Carried accumulation: this iteration's wait completes the previous
      // iteration's mma, so it releases the previous slot; the last slot is
      // released after the loop.
      Value notFirst =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, n, base);
      auto ifOp = scf::IfOp::create(b, loc, notFirst, /*else=*/false);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value previous = arith::SubIOp::create(b, loc, n, c32(1));
      MbarrierArriveOp::create(b, loc, sync->empty, stageOf(previous));
      carriedReleases.push_back({sync, base});
    } else {
      MbarrierArriveOp::create(b, loc, sync->empty, stage);
    }
    c.erase();
  }
  if (carried)
    carryAccumulation(b, loop, carried, trips, carriedReleases, stageOf);
  pipelinedLoops.push_back(loop);
  return success();
}

} // namespace pipeline
} // namespace tilegpu
} // namespace mlir

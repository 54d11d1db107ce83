//===- Pipeline.cpp - multi-stage asynchronous copies in loops ------------===//
//
// tilegpu-pipeline: the copies of a loop body are issued S - 1 iterations
// ahead into rings of S shared-memory stages.
//
// Commit order is by iteration, then by copy in program order; with n copies
// per iteration, when iteration j waits for its copy i, the groups committed
// after G(i, j) are those of iterations j+1 .. j+S-2 (n each), the copies
// after i of iteration j (n-1-i) and the copies before i of iteration
// j+S-1 (i): (S-1)*n - 1 groups, the same for every copy and iteration.
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
// release of tile t's, after the inner loops.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/Layouts.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/Transforms/ViewWrites.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// One staged copy of a loop body as tilegpu-assign-layouts emits it:
/// [barrier] copy commit wait(0) barrier.
struct StagedCopy {
  BarrierOp barrierBefore; // may be null
  AsyncCopyOp copy;
  AsyncCommitOp commit;
  AsyncWaitOp wait;
  BarrierOp barrierAfter;

  /// Erases the pattern (after the pipeliner has replaced it).
  void erase() {
    if (barrierBefore)
      barrierBefore.erase();
    barrierAfter.erase();
    wait.erase();
    commit.erase();
    copy.erase();
  }
};

/// Matches the staged-copy pattern starting at `copy`.
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

/// Stage `stage` of a ring (tilegpu.subview).
Value stageOfRing(OpBuilder &b, Location loc, Value ring, Value stage) {
  auto ringType = cast<SharedBufferType>(ring.getType());
  auto stageType =
      SharedBufferType::get(b.getContext(), ringType.getTileShape(),
                            ringType.getElementType(), ringType.getLayout());
  return SubviewOp::create(b, loc, stageType, ring, stage);
}

/// True when `a` and `b` (buffers or rings) hold tiles of one type: a ring
/// of `a`'s type can take `b`'s copies.
bool sameTiles(SharedBufferType a, SharedBufferType b) {
  return a.getTileShape() == b.getTileShape() &&
         a.getElementType() == b.getElementType() &&
         a.getLayout() == b.getLayout();
}

/// A ring of `stages` stages of `buffer`'s tiles, allocated beside it.
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

/// True when the copy's offsets are computed from the loop's induction
/// variable and values defined outside the loop only, through pure ops and
/// scalar reads (`tile.read`: a page of a block table) of views the loop
/// does not write. A read runs again for the iterations the prologue and
/// the body issue ahead, also past the loop's end; it is safe there: a
/// coordinate outside its view reads 0, never memory outside the view.
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

/// The full and empty barriers of a ring (mbarrier mode) and the number of
/// its slots the loops before used, at the point reached so far.
struct RingSync {
  Value full, empty;
  Value slotBase; // i32
};

// Slot n of a ring of S stages is stage n % S; its full barrier completes
// phase n / S when the copy lands, its empty barrier phase n / S when the
// readers are done. A copy into slot n waits for the release of slot
// n - S: parity (n / S + 1) % 2 (for n < S the phase "before the first",
// which counts as completed).
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

/// Issues a copy into slot `n` of `ring` when `inRange`, in a branch of its
/// own (warp specialization gives the producer the copies of an arrival's
/// block): waits for the slot's release, lets `emitCopy` copy into the
/// stage (given its index), and arrives on the full barrier when the copies
/// land (no cp.async group: the barrier tracks them). `stage` and
/// `emptyParity` are n's, computed in the branch unless the caller has them.
scf::IfOp issueIntoSlot(OpBuilder &b, Location loc, const RingSync &sync,
                        Value n, int64_t stages, Value inRange,
                        function_ref<void(Value stage)> emitCopy,
                        Value stage = {}, Value emptyParity = {}) {
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

/// Waits until the copies into slot `n` (stage `stage`) have landed; the
/// stage's view. wgmma reads shared memory through the async proxy: a
/// fence first. `fullParity` is n's, computed here unless given.
Value waitForSlot(OpBuilder &b, Location loc, const RingSync &sync, Value ring,
                  Value n, Value stage, bool wgmma, Value fullParity = {}) {
  int64_t stages = cast<SharedBufferType>(ring.getType()).getNumStages();
  if (!fullParity)
    fullParity = slotParity(b, loc, n, stages, 0);
  MbarrierWaitOp::create(b, loc, sync.full, stage, fullParity);
  if (wgmma)
    FenceAsyncSharedOp::create(b, loc);
  return stageOfRing(b, loc, ring, stage);
}

class Pipeliner {
public:
  Pipeliner(func::FuncOp func, int stagesOption, int64_t maxShared,
            bool mbarriers)
      : func(func), stagesOption(stagesOption), maxShared(maxShared),
        mbarriers(mbarriers) {}

  LogicalResult run();

private:
  func::FuncOp func;
  int stagesOption;
  int64_t maxShared;
  bool mbarriers;
  DenseMap<Value, RingSync> ringSync;
  Operation *lastInit = nullptr;
  /// Buffer (2-d alloc) -> its ring (3-d alloc); rings are shared by the
  /// loops that run one after the other.
  DenseMap<Value, Value> rings;
  SmallVector<Value> ringList;
  /// Rings whose slot one copy holds across loops (a persistent loop's own
  /// copies, a kernel's copy before the loops): no other copy joins them.
  DenseSet<Value> heldRings;
  DenseSet<Value> stagedAnywhere;
  /// The kernel's mmas are wgmma (readers of a stage fence the async proxy).
  bool wgmma = false;
  SmallVector<scf::ForOp> pipelinedLoops;
  /// A ring's next slot as the state of an outer loop: a placeholder for the
  /// loop's iteration argument in its body (`inside`) and for its result
  /// after it (`after`), the slot before the loop and the slot after the
  /// inner loops seen so far. Made loop state by carryOuterBases.
  struct OuterBase {
    scf::ForOp outer;
    Value init, current;
    Operation *inside, *after;
  };
  SmallVector<OuterBase> outerBases;
  DenseMap<std::pair<Operation *, Value>, size_t> outerBaseIndex;
  OuterBase &getOuterBase(scf::ForOp outer, Value ring);
  void carryOuterBases();

  /// With `issueAheadAfter` (mbarriers only), the copies S - 1 iterations
  /// ahead are issued after that op of the body instead of where the copies
  /// stood.
  LogicalResult pipelineLoop(scf::ForOp loop, SmallVector<StagedCopy> copies,
                             int stages, ArrayRef<Value> busy,
                             Operation *issueAheadAfter = nullptr);
  Value getRing(Value buffer, int stages, ArrayRef<Value> takenInThisLoop);
  void issueCopy(OpBuilder &b, scf::ForOp loop, AsyncCopyOp copy, Value iv,
                 Value ring, Value stage, Value inRange, bool commit = true);
  void dropWaitsCoveredByLoops();
  /// The staged copies of `context` (the kernel's top block, or the body of
  /// the persistent loop `outer`) and of the branches of its scf.if ops
  /// that are not in a pipelined loop: see the definition.
  LogicalResult placeSingleCopies(Block *context, scf::ForOp outer);
  RingSync &getRingSync(Value ring);
  LogicalResult pipelineLoopMbarrier(scf::ForOp loop,
                                     SmallVector<StagedCopy> copies,
                                     SmallVector<Value> loopRings, int stages,
                                     Operation *issueAheadAfter);
};

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

/// The op of `block` that is or contains `op`.
static Operation *ancestorIn(Block *block, Operation *op) {
  while (op && op->getBlock() != block)
    op = op->getParentOp();
  return op;
}

/// The last op of the loop body after which the stage `current` is no
/// longer read: its last reader, or for an asynchronous mma the wait that
/// completes it (the tensor cores read shared memory until then).
static Operation *lastRead(Block *body, Value current) {
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

/// True when the buffer `copy` fills is read only in the copy's block,
/// outside loops, with its asynchronous mmas waited for there: its stage
/// can be released before the loops that follow, so the copy may take a
/// slot of a ring they share.
static bool isReadOnlyInItsBlock(AsyncCopyOp copy) {
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
    // mbarrier.try_wait needs sm_90; older chips keep block-wide barriers.
    bool hopper = isHopperOrNewer(chip);
    if (sync == "mbarrier" && !hopper) {
      func.emitError() << "sync=mbarrier needs sm_90 or newer "
                          "(mbarrier.try_wait), got chip '"
                       << chip << "'";
      return signalPassFailure();
    }
    bool mbarriers = sync == "mbarrier" || (sync == "auto" && hopper);
    // Slots are numbered in program order across the loops that share a
    // ring: every pipelined loop must run at the kernel's top level or in a
    // top-level loop (which carries the numbering). Else block-wide
    // barriers.
    if (mbarriers)
      mbarriers = slotsCanBeNumbered(func);
    if (failed(Pipeliner(func, stages, maxSharedBytes, mbarriers).run()))
      signalPassFailure();
  }
};

} // namespace

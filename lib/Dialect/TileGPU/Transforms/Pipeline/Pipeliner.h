//===- Pipeliner.h - tilegpu-pipeline internals -----------------*- C++ -*-===//
//
// What the two synchronization protocols of tilegpu-pipeline share: the
// staged-copy pattern it rewrites, the rings of stages that replace the
// buffers, and the Pipeliner, whose loops go through cp.async commit groups
// and block-wide barriers (CommitGroups.cpp) or full and empty mbarriers per
// stage (Mbarriers.cpp, with the slot numbering across loops in
// MbarrierSlots.cpp). Pipeline.cpp holds the pass and the choice of stages.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_PIPELINE_PIPELINER_H
#define TILE_DIALECT_TILEGPU_TRANSFORMS_PIPELINE_PIPELINER_H

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
namespace pipeline {

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
std::optional<StagedCopy> matchStagedCopy(AsyncCopyOp copy);
/// Stage `stage` of a ring (tilegpu.subview).
Value stageOfRing(OpBuilder &b, Location loc, Value ring, Value stage);
/// True when `a` and `b` (buffers or rings) hold tiles of one type: a ring
/// of `a`'s type can take `b`'s copies.
bool sameTiles(SharedBufferType a, SharedBufferType b);
/// A ring of `stages` stages of `buffer`'s tiles, allocated beside it.
Value createRing(Value buffer, int64_t stages);
/// Stages for a copy from its `tilegpu.latency` hint: latency 1 keeps one
/// stage, 2-3 two, 4 and more three.
int stagesFromLatency(Operation *copy);
/// Bytes of a shared buffer or ring, all its stages.
int64_t allocBytes(AllocOp alloc);
/// True when the copy's offsets are computed from the loop's induction
/// variable and values defined outside the loop only, through pure ops and
/// scalar reads (`tile.read`: a page of a block table) of views the loop
/// does not write. A read runs again for the iterations the prologue and
/// the body issue ahead, also past the loop's end; it is safe there: a
/// coordinate outside its view reads 0, never memory outside the view.
bool offsetsDependOnlyOnIV(scf::ForOp loop, AsyncCopyOp copy);
/// The op of `block` that is or contains `op`.
Operation *ancestorIn(Block *block, Operation *op);

/// The full and empty barriers of a ring (mbarrier mode) and the number of
/// its slots the loops before used, at the point reached so far.
struct RingSync {
  Value full, empty;
  Value slotBase; // i32
};

/// Slot n of a ring of S stages is stage n % S; its full barrier completes
/// phase n / S when the copy lands, its empty barrier phase n / S when the
/// readers are done. A copy into slot n waits for the release of slot
/// n - S: parity (n / S + 1) % 2 (for n < S the phase "before the first",
/// which counts as completed).
Value slotStage(OpBuilder &b, Location loc, Value n, int64_t stages);
/// The parity of phase n / S + `plus` of slot `n`.
Value slotParity(OpBuilder &b, Location loc, Value n, int64_t stages,
                 int64_t plus);
/// Issues a copy into slot `n` of `ring` when `inRange`, in a branch of its
/// own (warp specialization gives the producer the copies of an arrival's
/// block): waits for the slot's release, lets `emitCopy` copy into the
/// stage (given its index), and arrives on the full barrier when the copies
/// land (no cp.async group: the barrier tracks them). `stage` and
/// `emptyParity` are n's, computed in the branch unless the caller has them.
scf::IfOp issueIntoSlot(OpBuilder &b, Location loc, const RingSync &sync,
                        Value n, int64_t stages, Value inRange,
                        function_ref<void(Value stage)> emitCopy,
                        Value stage = {}, Value emptyParity = {});
/// Waits until the copies into slot `n` (stage `stage`) have landed; the
/// stage's view. wgmma reads shared memory through the async proxy: a
/// fence first. `fullParity` is n's, computed here unless given.
Value waitForSlot(OpBuilder &b, Location loc, const RingSync &sync, Value ring,
                  Value n, Value stage, bool wgmma, Value fullParity = {});
/// The last op of the loop body after which the stage `current` is no
/// longer read: its last reader, or for an asynchronous mma the wait that
/// completes it (the tensor cores read shared memory until then).
Operation *lastRead(Block *body, Value current);
/// True when the buffer `copy` fills is read only in the copy's block,
/// outside loops, with its asynchronous mmas waited for there: its stage
/// can be released before the loops that follow, so the copy may take a
/// slot of a ring they share.
bool isReadOnlyInItsBlock(AsyncCopyOp copy);

/// Pipelines the staged copies of one kernel.
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

} // namespace pipeline
} // namespace tilegpu
} // namespace mlir

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_PIPELINE_PIPELINER_H

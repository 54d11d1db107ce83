//===- WarpSpecialize.cpp - a producer warpgroup for the copies -----------===//
//
// tilegpu-warp-specialize: splits a kernel with mbarrier pipelines into a
// producer warpgroup that issues the pipelined copies and consumer warps
// that compute (tilegpu.warp_specialize). Both roles start from the same
// code; each keeps its part:
//   producer: the copies into pipeline rings (their empty waits and full
//     arrivals) and a copy before the loops that only they read, with the
//     loops (with only the state the copies need), the branches (without
//     results) and the index arithmetic those need;
//   consumers: everything else; their block-wide barriers become named
//     barriers over the consumer threads.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/Transforms/ViewWrites.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUWARPSPECIALIZE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

std::string mlir::tilegpu::getProducerRegsError(int64_t regs) {
  if (regs >= 24 && regs <= 256 && regs % 8 == 0)
    return "";
  return "producer-regs must be a multiple of 8 in [24, 256], got " +
         std::to_string(regs);
}

namespace {

constexpr int32_t kProducerWarps = 4;

StringRef roleOf(Value barriers) {
  if (auto alloc = barriers.getDefiningOp<MbarrierAllocOp>())
    if (auto role = alloc->getAttrOfType<StringAttr>("tilegpu.role"))
      return role.getValue();
  return "";
}

/// A copy before the loops whose wait the pipeline dropped (the first full
/// barrier covers it): copy, commit, and no wait after.
bool isCoveredCopy(Operation *op, Block *top) {
  auto copy = dyn_cast<AsyncCopyOp>(op);
  if (!copy || copy->getBlock() != top)
    return false;
  auto commit = dyn_cast_or_null<AsyncCommitOp>(copy->getNextNode());
  return commit && !isa_and_nonnull<AsyncWaitOp>(commit->getNextNode());
}

/// The producer's ops in `top` (a copy of the kernel after the split):
/// ring copies, the waits on empty barriers, the arrivals on full ones, and
/// the covered copies with their commits.
SmallVector<Operation *> producerRoots(Block *top) {
  llvm::SetVector<Operation *> roots;
  top->walk([&](Operation *op) {
    if (auto arrive = dyn_cast<MbarrierArriveCopiesOp>(op)) {
      roots.insert(op);
      for (Operation &sibling : *op->getBlock())
        if (isa<AsyncCopyOp>(sibling))
          roots.insert(&sibling);
    } else if (auto wait = dyn_cast<MbarrierWaitOp>(op)) {
      if (roleOf(wait.getBarriers()) == "empty")
        roots.insert(op);
    } else if (isCoveredCopy(op, top)) {
      roots.insert(op);
      roots.insert(op->getNextNode());
    }
  });
  return roots.takeVector();
}

/// True when the kernel around `read` writes the view it reads (a store,
/// scatter or atomic on it): the producer's copy of the read could then see
/// another value than the consumers'.
bool kernelWritesView(Operation *read, Value view) {
  Operation *func = read->getParentOfType<FunctionOpInterface>();
  return !func || writesView(func, view);
}

/// Moves `from`'s ops but its terminator to the start of `to`.
void moveBody(Block *from, Block *to) {
  to->getOperations().splice(to->begin(), from->getOperations(), from->begin(),
                             from->getTerminator()->getIterator());
}

/// True for the ops the producer may run as well as the consumers: those
/// without memory effects, and scalar reads (tile.read: cu_seqlens, a block
/// table) of views the kernel does not write, so both roles read the same.
bool producerMayRun(Operation *op) {
  if (auto read = dyn_cast<tile::ReadOp>(op))
    return !kernelWritesView(op, read.getView());
  return isMemoryEffectFree(op) && op->getNumRegions() == 0;
}

/// Keeps in `top` only `roots` and what they need; loops keep only the
/// state the copies need (a persistent loop's ring slots). Fails, with why
/// in `whyNot` and nothing changed, when a copy needs what the producer
/// cannot compute on its own.
LogicalResult pruneProducer(Block *top, ArrayRef<Operation *> roots,
                            std::string &whyNot) {
  DenseSet<Operation *> needed;
  DenseSet<std::pair<Operation *, unsigned>> neededState; // (loop, iter arg)
  SmallVector<Operation *> work(roots.begin(), roots.end());
  Region *region = top->getParent();
  whyNot.clear();
  std::function<void(Value)> need = [&](Value v) {
    if (!region->isAncestor(v.getParentRegion()))
      return; // defined before the split: visible to both roles
    // Loop state, as an iteration argument or a result: its initial value
    // and what each iteration yields.
    auto needState = [&](scf::ForOp loop, unsigned i) {
      work.push_back(loop);
      if (!neededState.insert({loop.getOperation(), i}).second)
        return;
      need(loop.getInitArgs()[i]);
      need(loop.getBody()->getTerminator()->getOperand(i));
    };
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop) {
        whyNot = "a copy depends on a block argument";
        return;
      }
      if (arg == loop.getInductionVar())
        work.push_back(loop);
      else
        needState(loop, arg.getArgNumber() - 1);
      return;
    }
    if (auto loop = v.getDefiningOp<scf::ForOp>()) {
      needState(loop, cast<OpResult>(v).getResultNumber());
      return;
    }
    if (isa<scf::IfOp>(v.getDefiningOp())) {
      whyNot = "a copy depends on the result of a branch";
      return;
    }
    work.push_back(v.getDefiningOp());
  };
  while (!work.empty() && whyNot.empty()) {
    Operation *op = work.pop_back_val();
    if (!needed.insert(op).second)
      continue;
    bool root = llvm::is_contained(roots, op);
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (Value v :
           {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
        need(v);
    } else if (!root && !isa<scf::IfOp>(op) && op->getNumRegions() != 0) {
      // A loop of scalar code (scf.while: a search over offsets read from
      // memory) is cloned whole, with what it uses from outside, when every
      // op in it only computes or reads (see producerMayRun).
      WalkResult walk = op->walk([&](Operation *inner) {
        if (inner != op && !producerMayRun(inner))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (walk.wasInterrupted()) {
        whyNot = ("a copy depends on '" + op->getName().getStringRef() +
                  "', whose region has side effects")
                     .str();
        break;
      }
      op->walk([&](Operation *inner) {
        needed.insert(inner);
        for (Value v : inner->getOperands()) {
          Operation *def = v.getDefiningOp();
          bool inside =
              op->isAncestor(def ? def : v.getParentBlock()->getParentOp());
          if (!inside)
            need(v);
        }
      });
    } else {
      if (!root && !isa<scf::IfOp>(op) && !producerMayRun(op)) {
        whyNot = ("a copy depends on '" + op->getName().getStringRef() +
                  "', which has side effects or regions")
                     .str();
        break;
      }
      for (Value v : op->getOperands())
        need(v);
    }
    if (Operation *parent = op->getParentOp();
        parent && region->isAncestor(parent->getParentRegion()))
      work.push_back(parent);
  }
  if (!whyNot.empty())
    return failure();

  // Drop everything else; terminators stay.
  SmallVector<Operation *> dead;
  std::function<void(Block &)> collect = [&](Block &block) {
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        continue;
      if (!needed.contains(&op)) {
        dead.push_back(&op);
        continue;
      }
      for (Region &r : op.getRegions())
        for (Block &b : r)
          collect(b);
    }
  };
  collect(*top);
  for (Operation *op : dead)
    op->dropAllDefinedValueUses();
  for (Operation *op : llvm::reverse(dead))
    op->erase();

  // Branches holding copies: their results are the consumers' (a copy
  // never depends on them, see need): rebuilt without results.
  SmallVector<scf::IfOp> branches;
  top->walk([&](scf::IfOp ifOp) {
    if (ifOp.getNumResults())
      branches.push_back(ifOp);
  });
  for (scf::IfOp ifOp : branches) {
    OpBuilder b(ifOp);
    auto fresh = scf::IfOp::create(b, ifOp.getLoc(), ifOp.getCondition(),
                                   /*withElse=*/!ifOp.getElseRegion().empty());
    moveBody(ifOp.thenBlock(), fresh.thenBlock());
    if (ifOp.elseBlock())
      moveBody(ifOp.elseBlock(), fresh.elseBlock());
    ifOp->dropAllDefinedValueUses();
    ifOp.erase();
  }

  // Loops with only the state needed: rebuilt with the body moved over.
  SmallVector<scf::ForOp> loops;
  top->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) { // inner loops first (post-order)
    SmallVector<unsigned> kept;
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
      if (neededState.contains({loop.getOperation(), i}))
        kept.push_back(i);
    if (kept.size() == loop.getNumRegionIterArgs())
      continue;
    OpBuilder b(loop);
    SmallVector<Value> inits;
    for (unsigned i : kept)
      inits.push_back(loop.getInitArgs()[i]);
    auto fresh =
        scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound(),
                           loop.getUpperBound(), loop.getStep(), inits);
    Block *from = loop.getBody(), *to = fresh.getBody();
    if (!to->empty())
      to->getTerminator()->erase(); // the builder's, for a loop without state
    Operation *yield = from->getTerminator();
    SmallVector<Value> yielded;
    for (unsigned i : kept)
      yielded.push_back(yield->getOperand(i));
    moveBody(from, to);
    b.setInsertionPointToEnd(to);
    scf::YieldOp::create(b, yield->getLoc(), yielded);
    loop.getInductionVar().replaceAllUsesWith(fresh.getInductionVar());
    for (auto [j, i] : llvm::enumerate(kept)) {
      loop.getRegionIterArg(i).replaceAllUsesWith(fresh.getRegionIterArg(j));
      loop.getResult(i).replaceAllUsesWith(fresh.getResult(j));
    }
    loop->dropAllDefinedValueUses();
    loop.erase();
  }
  return success();
}

/// Drops the producer's ops from the consumers' copy of the code, and
/// branches left empty.
void pruneConsumers(Block *top) {
  SmallVector<Operation *> roots = producerRoots(top);
  for (Operation *op : roots)
    op->erase();
  SmallVector<scf::IfOp> empty;
  top->walk([&](scf::IfOp ifOp) {
    if (ifOp.getNumResults() == 0 &&
        ifOp.thenBlock()->getOperations().size() == 1 &&
        (!ifOp.elseBlock() || ifOp.elseBlock()->getOperations().size() == 1))
      empty.push_back(ifOp);
  });
  for (scf::IfOp ifOp : empty)
    ifOp.erase();
}

struct TileGPUWarpSpecializePass
    : public tilegpu::impl::TileGPUWarpSpecializeBase<
          TileGPUWarpSpecializePass> {
  using TileGPUWarpSpecializeBase::TileGPUWarpSpecializeBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (std::string error = getProducerRegsError(producerRegs);
        !error.empty()) {
      func.emitError() << error;
      return signalPassFailure();
    }
    FailureOr<TargetChip> target = TargetChip::lookup(func);
    if (failed(target))
      return signalPassFailure();
    FailureOr<SwitchGate> gate =
        SwitchGate::resolve(func, mode, "warp_specialize", target->getName(),
                            "warp-specialize", [&] { signalPassFailure(); });
    if (failed(gate))
      return signalPassFailure();
    if (gate->isOff())
      return;
    if (func.walk([](WarpSpecializeOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return gate->skip("the kernel is already warp-specialized");
    auto warps = func->getAttrOfType<IntegerAttr>("tilegpu.num_warps");
    auto version = func->getAttrOfType<IntegerAttr>("tilegpu.mma_version");
    if (!target->hasWgmma())
      return gate->skip("setmaxnreg needs chip sm_90a, got '" +
                        target->getName() + "'");
    if (!warps || !version || version.getInt() != 3)
      return gate->skip("the kernel does not use wgmma");
    int32_t consumerWarps = static_cast<int32_t>(warps.getInt());
    if (consumerWarps % 4 != 0)
      return gate->skip("the consumers are not whole warpgroups");

    // The split point: after the barrier that publishes the mbarriers.
    Block &entry = func.getBody().front();
    Operation *lastInit = nullptr;
    for (Operation &op : entry)
      if (isa<MbarrierInitOp>(op))
        lastInit = &op;
    if (!lastInit || !isa_and_nonnull<BarrierOp>(lastInit->getNextNode()))
      return gate->skip("the kernel has no mbarrier pipeline (sync=mbarrier)");
    Operation *split = lastInit->getNextNode()->getNextNode();
    // Shared buffers are the block's, not a role's: allocations stay
    // before the split (they have no operands).
    for (Operation &op : llvm::make_early_inc_range(
             llvm::make_range(split->getIterator(), entry.end())))
      if (isa<AllocOp, MbarrierAllocOp>(op)) {
        if (&op == split)
          split = op.getNextNode();
        op.moveBefore(lastInit->getNextNode());
      }
    Operation *ret = entry.getTerminator();
    if (ret->getNumOperands() != 0)
      return gate->skip("the kernel returns values");
    if (split == ret)
      return gate->skip("nothing follows the barrier initialization");

    int32_t consumerThreads = consumerWarps * 32;
    int32_t producerThreads = kProducerWarps * 32;
    // setmaxnreg moves registers inside the block's allocation, which the
    // occupancy hint fixes: ptxas caps every thread at entry to its share
    // of the register file (65536 / blocks an SM / threads, a multiple of
    // 8). The consumers get what the producer gives back, in multiples of
    // 8, up to 240 (FlashAttention-3's split).
    auto occupancyAttr = func->getAttrOfType<IntegerAttr>("tilegpu.occupancy");
    int64_t occupancy = occupancyAttr ? occupancyAttr.getInt() : 1;
    if (occupancy < 1)
      occupancy = 1;
    int64_t entryRegs =
        std::min<int64_t>(255, 65536 / occupancy /
                                   (consumerThreads + producerThreads)) /
        8 * 8;
    int64_t poolRegs = entryRegs * (consumerThreads + producerThreads);
    if (producerRegs > entryRegs)
      return gate->skip("the producer's " +
                        Twine(static_cast<int>(producerRegs)) +
                        " registers are more than the " + Twine(entryRegs) +
                        " a thread has at occupancy " + Twine(occupancy));
    int32_t consumerRegs = static_cast<int32_t>(std::min<int64_t>(
        240, (poolRegs - int64_t(producerThreads) * producerRegs) /
                 consumerThreads / 8 * 8));
    if (consumerRegs < 24)
      return gate->skip("no registers are left for the consumers");

    OpBuilder b(ret);
    auto ws = WarpSpecializeOp::create(b, func.getLoc(), kProducerWarps,
                                       static_cast<int32_t>(producerRegs),
                                       consumerWarps, consumerRegs);
    Block *consumers = &ws.getConsumers().emplaceBlock();
    consumers->getOperations().splice(consumers->end(), entry.getOperations(),
                                      split->getIterator(), ws->getIterator());
    Block *producer = &ws.getProducer().emplaceBlock();
    {
      OpBuilder pb = OpBuilder::atBlockEnd(producer);
      IRMapping map;
      for (Operation &op : *consumers)
        pb.clone(op, map);
    }
    SmallVector<Operation *> roots = producerRoots(producer);
    if (llvm::none_of(roots, [](Operation *op) {
          return isa<MbarrierArriveCopiesOp>(op);
        })) {
      // Undo: nothing for a producer to do.
      entry.getOperations().splice(ws->getIterator(),
                                   consumers->getOperations());
      ws.erase();
      return gate->skip("no pipelined copies");
    }
    if (std::string why; failed(pruneProducer(producer, roots, why))) {
      // Not applicable: leave the kernel as it was.
      entry.getOperations().splice(ws->getIterator(),
                                   consumers->getOperations());
      ws.erase();
      return gate->skip(why);
    }
    pruneConsumers(consumers);

    // Threads per role: the copies are spread over their role's threads,
    // barrier 0 (the whole block) becomes barrier 1 over the consumers.
    MLIRContext *ctx = func.getContext();
    producer->walk([&](AsyncCopyOp copy) {
      copy->setAttr(
          "tilegpu.threads",
          DenseI32ArrayAttr::get(ctx, {consumerThreads, producerThreads}));
    });
    consumers->walk([&](AsyncCopyOp copy) {
      copy->setAttr("tilegpu.threads",
                    DenseI32ArrayAttr::get(ctx, {0, consumerThreads}));
    });
    SmallVector<BarrierOp> barriers;
    consumers->walk([&](BarrierOp barrier) { barriers.push_back(barrier); });
    for (BarrierOp barrier : barriers) {
      OpBuilder bb(barrier);
      NamedBarrierOp::create(bb, barrier.getLoc(), 1, /*offset=*/Value(),
                             consumerThreads, false);
      barrier.erase();
    }
    for (Operation &op : entry)
      if (auto init = dyn_cast<MbarrierInitOp>(op))
        init.setArrivals(roleOf(init.getBarriers()) == "full"
                             ? producerThreads
                             : consumerThreads);
    Builder builder(ctx);
    func->setAttr("tilegpu.num_warps",
                  builder.getI32IntegerAttr(consumerWarps + kProducerWarps));
    // setmaxnreg needs a register cap at entry: the occupancy gives it.
    func->setAttr("tilegpu.occupancy",
                  builder.getI32IntegerAttr(static_cast<int32_t>(occupancy)));
  }
};

} // namespace

//===- PingPong.cpp - consumer warpgroups take turns at the tensor cores
//---===//
//
// tilegpu-ping-pong: in the consumer region of a tilegpu.warp_specialize
// with G >= 2 warpgroups, every block that issues asynchronous wgmmas (loop
// bodies, peeled iterations in scf.ifs) gets named barriers around every
// group of wgmmas issued back to back: warpgroup g syncs on barrier 2 + g
// before the group and arrives on barrier 2 + (g + 1) % G after it. Barrier
// 0 is the block's, barrier 1 the consumers' (tilegpu-warp-specialize).
// Warpgroup 0 pre-arrives on its barrier before the consumers' work and
// syncs on it at the end: every barrier then sees as many arrivals as
// syncs, provided every warpgroup passes the same groups (the control flow
// around them must not depend on the thread or warpgroup id).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUPINGPONG
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

constexpr int32_t kFirstBarrier = 2;
constexpr int32_t kWarpgroupThreads = 128;

bool isAsyncWgmma(Operation *op) {
  auto mma = dyn_cast<MmaOp>(op);
  return mma && mma.getAsync();
}

/// Groups of async wgmmas issued back to back in `body`: each group runs
/// from an async mma to the last async mma before the next mma_wait.
SmallVector<std::pair<Operation *, Operation *>> issueGroups(Block &body) {
  SmallVector<std::pair<Operation *, Operation *>> groups;
  Operation *first = nullptr, *last = nullptr;
  for (Operation &op : body) {
    if (isAsyncWgmma(&op)) {
      if (!first)
        first = &op;
      last = &op;
    } else if (isa<MmaWaitOp>(op) && first) {
      groups.push_back({first, last});
      first = last = nullptr;
    }
  }
  if (first)
    groups.push_back({first, last});
  return groups;
}

/// Values in the consumers that can differ between warpgroups: those
/// computed from the thread or warpgroup id, through any op, loop-carried
/// value or region result (conservative: every result of a user is taken).
DenseSet<Value> threadDependentValues(Block &consumers) {
  DenseSet<Value> tainted;
  SmallVector<Value> worklist;
  auto taint = [&](ValueRange values) {
    for (Value v : values)
      if (tainted.insert(v).second)
        worklist.push_back(v);
  };
  consumers.walk([&](Operation *op) {
    if (isa<ThreadIdOp, WarpgroupIdOp>(op))
      taint(op->getResults());
  });
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      Operation *target = isa<scf::YieldOp>(user) ? user->getParentOp() : user;
      taint(target->getResults());
      for (Region &region : target->getRegions())
        for (Block &block : region)
          taint(block.getArguments());
    }
  }
  return tainted;
}

/// Why the issue groups of `block` cannot take turns, or "" when they can:
/// every warpgroup must reach them equally often and in the same order, so
/// each op around `block` up to the consumer region is a loop with scalar,
/// warpgroup-independent bounds and no block or consumer barrier, or an
/// `scf.if` on a warpgroup-independent condition.
std::string whyNot(Block &block, WarpSpecializeOp ws,
                   const DenseSet<Value> &threadDependent) {
  for (Operation *op = block.getParentOp(); op != ws.getOperation();
       op = op->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      bool barrier = false;
      loop.getBody()->walk([&](Operation *inner) {
        barrier |= isa<BarrierOp, NamedBarrierOp>(inner);
      });
      if (barrier)
        return "the loop has a block or consumer barrier";
      for (Value bound :
           {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}) {
        if (isa<RankedTensorType>(bound.getType()))
          return "the loop bounds are not scalars";
        if (threadDependent.contains(bound))
          return "the loop bounds differ between warpgroups";
      }
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (threadDependent.contains(branch.getCondition()))
        return "a wgmma is under a condition that differs between "
               "warpgroups";
    } else {
      return ("a wgmma is inside '" + op->getName().getStringRef() + "'").str();
    }
  }
  return "";
}

struct TileGPUPingPongPass
    : public tilegpu::impl::TileGPUPingPongBase<TileGPUPingPongPass> {
  using TileGPUPingPongBase::TileGPUPingPongBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FailureOr<TargetChip> target = TargetChip::lookup(func);
    if (failed(target))
      return signalPassFailure();
    FailureOr<SwitchGate> gate =
        SwitchGate::resolve(func, mode, "ping_pong", target->getName(),
                            "ping-pong", [&] { signalPassFailure(); });
    if (failed(gate))
      return signalPassFailure();
    if (gate->isOff())
      return;

    SmallVector<WarpSpecializeOp> regions;
    func.walk([&](WarpSpecializeOp ws) { regions.push_back(ws); });
    if (regions.empty())
      return gate->skipAt(func, "the kernel is not warp-specialized");
    for (WarpSpecializeOp ws : regions) {
      int32_t groups = ws.getConsumerWarps() / 4;
      if (groups < 2) {
        gate->skipAt(ws, "it has one consumer warpgroup");
        continue;
      }
      if (kFirstBarrier + groups > 16) {
        gate->skipAt(ws, "too many consumer warpgroups for the named barriers");
        continue;
      }
      Block &consumers = ws.getConsumers().front();
      // Every block that issues async wgmmas directly: the loop bodies, and
      // the peeled first and last iterations in their `scf.if`s (in a
      // persistent kernel once a tile), so the turns go on across them.
      DenseSet<Value> threadDependent = threadDependentValues(consumers);
      SmallVector<Block *> blocks;
      std::string reason;
      auto consider = [&](Block *block) {
        if (issueGroups(*block).empty())
          return;
        std::string why = whyNot(*block, ws, threadDependent);
        if (why.empty())
          blocks.push_back(block);
        else if (reason.empty())
          reason = why;
      };
      consider(&consumers);
      consumers.walk([&](Block *block) { consider(block); });
      if (!reason.empty()) {
        gate->skipAt(ws, reason);
        continue;
      }
      if (blocks.empty()) {
        gate->skipAt(ws, "no consumer issues asynchronous wgmma");
        continue;
      }

      int32_t threads = 2 * kWarpgroupThreads;
      Location loc = ws.getLoc();
      OpBuilder b = OpBuilder::atBlockBegin(&consumers);
      Value wg = WarpgroupIdOp::create(b, loc);
      Value one = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
      Value next = arith::RemUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, wg, one),
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), groups));
      Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
      Value isFirst =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wg, zero);
      // Warpgroup 0 goes first: one arrival on its own barrier.
      auto pre = scf::IfOp::create(b, loc, isFirst, /*else=*/false);
      {
        OpBuilder ib = OpBuilder::atBlockBegin(pre.thenBlock());
        NamedBarrierOp::create(ib, loc, kFirstBarrier, zero, threads,
                               /*arrive=*/true);
      }
      for (Block *block : blocks)
        for (auto [first, last] : issueGroups(*block)) {
          OpBuilder lb(first);
          NamedBarrierOp::create(lb, loc, kFirstBarrier, wg, threads,
                                 /*arrive=*/false);
          lb.setInsertionPointAfter(last);
          NamedBarrierOp::create(lb, loc, kFirstBarrier, next, threads,
                                 /*arrive=*/true);
        }
      // ... and takes the last warpgroup's last arrival.
      OpBuilder eb = OpBuilder::atBlockEnd(&consumers);
      auto post = scf::IfOp::create(eb, loc, isFirst, /*else=*/false);
      OpBuilder ib = OpBuilder::atBlockBegin(post.thenBlock());
      NamedBarrierOp::create(ib, loc, kFirstBarrier, zero, threads,
                             /*arrive=*/false);
    }
  }
};

} // namespace

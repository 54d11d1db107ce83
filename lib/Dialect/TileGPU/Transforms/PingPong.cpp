//===- PingPong.cpp - consumer warpgroups take turns at the tensor cores
//---===//
//
// tilegpu-ping-pong: in the consumer region of a tilegpu.warp_specialize
// with G >= 2 warpgroups, each loop that issues asynchronous wgmmas gets
// named barriers around every group of wgmmas issued back to back:
// warpgroup g syncs on barrier 2 + g before the group and arrives on
// barrier 2 + (g + 1) % G after it. Barrier 0 is the block's, barrier 1 the
// consumers' (tilegpu-warp-specialize). Warpgroup 0 pre-arrives on its
// barrier before the first loop and syncs on it after the last: every
// barrier then sees as many arrivals as syncs.
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

/// Why `loop` cannot take turns, or "" when it can.
std::string whyNot(scf::ForOp loop) {
  bool nested = false, barrier = false;
  loop.getBody()->walk([&](Operation *op) {
    if (isAsyncWgmma(op) && op->getParentOp() != loop)
      nested = true;
    if (isa<BarrierOp, NamedBarrierOp>(op))
      barrier = true;
  });
  if (nested)
    return "a wgmma of the loop is inside a nested region";
  if (barrier)
    return "the loop has a block or consumer barrier";
  for (Value bound :
       {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (isa<RankedTensorType>(bound.getType()))
      return "the loop bounds are not scalars";
  return "";
}

struct TileGPUPingPongPass
    : public tilegpu::impl::TileGPUPingPongBase<TileGPUPingPongPass> {
  using TileGPUPingPongBase::TileGPUPingPongBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FailureOr<SwitchGate> gate =
        SwitchGate::resolve(func, mode, "ping_pong", chip, "ping-pong",
                            [&] { signalPassFailure(); });
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
      SmallVector<scf::ForOp> loops;
      std::string reason;
      consumers.walk([&](scf::ForOp loop) {
        if (issueGroups(*loop.getBody()).empty())
          return;
        std::string why = whyNot(loop);
        if (why.empty())
          loops.push_back(loop);
        else if (reason.empty())
          reason = why;
      });
      if (!reason.empty()) {
        gate->skipAt(ws, reason);
        continue;
      }
      if (loops.empty()) {
        gate->skipAt(ws, "no consumer loop issues asynchronous wgmma");
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
      for (scf::ForOp loop : loops)
        for (auto [first, last] : issueGroups(*loop.getBody())) {
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

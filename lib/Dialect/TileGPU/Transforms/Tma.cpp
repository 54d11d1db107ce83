//===- Tma.cpp - the producer's pipelined tiles through TMA ---------------===//
//
// tilegpu-tma: in a warp-specialized kernel, every copy of the producer
// becomes a cp.async.bulk.tensor issued by one producer thread, completing
// on the stage's full barrier (expect_tx announces its bytes); the views
// get tensor-map kernel arguments. A copy before the loops that the first
// full barrier covered gets a barrier of its own that the consumers wait
// for before first reading its buffer. A producer left with scalar work
// only runs in its first warp; the other three leave.
//
//===----------------------------------------------------------------------===//

#include "LayoutRules.h"
#include "tile/Dialect/TileGPU/IR/Layouts.h"

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUTMA
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

constexpr int64_t kPieceBytes = 128; // one 128-byte swizzled row

/// A producer copy to rewrite: into a ring stage (arrival on `full`) or a
/// covered copy before the loops (followed by its commit).
struct ProducerCopy {
  AsyncCopyOp copy;
  MbarrierArriveCopiesOp arrive; // null for a covered copy
  AsyncCommitOp commit;          // null for a ring copy
};

/// The tensor-map box of `copy`: the view dimensions of the buffer's inner
/// and outer dimension first, then the others (outermost last).
struct MapKey {
  unsigned viewArg;
  SmallVector<int64_t> dims, box;
  bool operator==(const MapKey &o) const {
    return viewArg == o.viewArg && dims == o.dims && box == o.box;
  }
};

/// The view argument's `tile.name`, else "argN".
std::string viewName(func::FuncOp func, unsigned argNumber) {
  auto name = func.getArgAttrOfType<StringAttr>(
      argNumber, tile::TileDialect::getArgNameAttrName());
  return name ? name.str() : "arg" + std::to_string(argNumber);
}

std::string whyNot(AsyncCopyOp copy, func::FuncOp func, MapKey &key) {
  auto arg = dyn_cast<BlockArgument>(copy.getView());
  if (!arg || arg.getOwner() != &func.getBody().front())
    return "a copied view is not a kernel argument";
  if (copy.getPredicate())
    return "a copy has a predicate";
  // A tensor map needs a 16-byte aligned base and row strides (contract C2).
  if (int64_t align = getViewAlign(copy.getView()); align < 16)
    return "view '" + viewName(func, arg.getArgNumber()) +
           "' is compiled for align " + std::to_string(align) +
           " (view-align); a tensor map needs 16 (or compile with --tma=off)";
  SharedBufferType buffer = copy.getBuffer().getType();
  auto layout = dyn_cast<SharedLayoutAttr>(buffer.getLayout());
  // 16-bit elements, or fp8's 8: a piece (one swizzled row) holds 64 or 128.
  unsigned bits = buffer.getElementType().getIntOrFloatBitWidth();
  int64_t piece = kPieceBytes * 8 / bits;
  if (!layout || (bits != 16 && bits != 8) || layout.getChunk() != piece ||
      layout.getMaxPhase() != 8 || layout.getPerPhase() != 1)
    return "a copy's buffer is not in the 128B-swizzle layout of 16-bit "
           "or 8-bit elements";
  unsigned inner = layout.getOrder()[0], outer = 1 - inner;
  int64_t rows = buffer.getShape()[outer];
  if (buffer.getShape()[inner] % piece != 0 || rows % 8 != 0 || rows > 256)
    return "a copy's tile is not whole 128-byte pieces of at most 256 rows";
  ArrayRef<int64_t> dims = copy.getDims();
  int64_t rank = cast<tile::ViewType>(copy.getView().getType()).getRank();
  if (rank > 5)
    return "a copied view has more than 5 dimensions";
  key.viewArg = arg.getArgNumber();
  key.dims = {dims[inner], dims[outer]};
  for (int64_t d = rank - 1; d >= 0; --d)
    if (d != dims[inner] && d != dims[outer])
      key.dims.push_back(d);
  key.box.assign(rank, 1);
  key.box[0] = piece;
  key.box[1] = rows;
  return "";
}

int32_t tileBytes(AsyncCopyOp copy) {
  return static_cast<int32_t>(copy.getBuffer().getType().getTileBytes());
}

/// True when every op left in the producer is scalar work that one warp
/// can do alone: the copies are the leader's, and nothing else counts
/// producer threads (no barrier, no per-thread arrival, no tile values).
bool oneWarpSuffices(Block &producer) {
  WalkResult r = producer.walk([](Operation *op) {
    if (llvm::any_of(op->getResultTypes(),
                     [](Type t) { return isa<ShapedType>(t); }))
      return WalkResult::interrupt();
    Dialect *d = op->getDialect();
    bool scalar = d && isa<arith::ArithDialect, scf::SCFDialect>(d);
    if (scalar ||
        isa<MbarrierWaitOp, MbarrierExpectTxOp, TmaCopyOp, SubviewOp,
            ThreadIdOp, tile::DimOp, tile::BlockIdOp, tile::NumBlocksOp>(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !r.wasInterrupted();
}

/// Moves the producer's work under `if (tid < first + 32)`: the other
/// warps of the producer warpgroup (after its setmaxnreg) have nothing to
/// do, and would only spin on the empty barriers next to the consumers.
/// `tid` and `first` (the producer's first thread) open the block.
void confineToFirstWarp(Block &producer, Value tid, Value first) {
  Location loc = producer.getParentOp()->getLoc();
  OpBuilder b(first.getDefiningOp()->getNextNode());
  Value warpSize =
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), int64_t(kWarpSize));
  Value end = arith::AddIOp::create(b, loc, first, warpSize);
  Value inWarp =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, end);
  auto ifOp = scf::IfOp::create(b, loc, inWarp, /*else=*/false);
  Operation *yield = ifOp.thenBlock()->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(std::next(ifOp->getIterator()), producer.end())))
    op.moveBefore(yield);
}

struct TileGPUTmaPass : public tilegpu::impl::TileGPUTmaBase<TileGPUTmaPass> {
  using TileGPUTmaBase::TileGPUTmaBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    FailureOr<TargetChip> target = TargetChip::lookup(func);
    if (failed(target))
      return signalPassFailure();
    FailureOr<SwitchGate> gate =
        SwitchGate::resolve(func, mode, "tma", target->getName(), "use TMA",
                            [&] { signalPassFailure(); });
    if (failed(gate))
      return signalPassFailure();
    if (gate->isOff())
      return;
    if (!target->isHopperOrNewer())
      return gate->skip("TMA needs sm_90 or newer, got '" + target->getName() +
                        "'");
    WarpSpecializeOp ws;
    func.walk([&](WarpSpecializeOp op) { ws = op; });
    if (!ws)
      return gate->skip(
          "the kernel has no producer warpgroup (warp-specialize; or "
          "compile with --tma=off)");

    Block &producer = ws.getProducer().front();
    SmallVector<ProducerCopy> copies;
    std::string reason;
    producer.walk([&](AsyncCopyOp copy) {
      Operation *next = copy->getNextNode();
      if (auto arrive = dyn_cast_or_null<MbarrierArriveCopiesOp>(next))
        copies.push_back({copy, arrive, nullptr});
      else if (auto commit = dyn_cast_or_null<AsyncCommitOp>(next);
               commit && copy->getBlock() == &producer)
        copies.push_back({copy, nullptr, commit});
      else
        reason = "a producer copy is neither a ring copy nor a covered copy";
    });
    if (copies.empty())
      return gate->skip("the producer has no copies");
    SmallVector<MapKey> keys(copies.size());
    for (auto [i, pc] : llvm::enumerate(copies))
      if (reason.empty())
        reason = whyNot(pc.copy, func, keys[i]);
    if (!reason.empty())
      return gate->skip(reason);

    MLIRContext *ctx = func.getContext();
    Builder attrs(ctx);
    Location loc = func.getLoc();
    Block &entry = func.getBody().front();

    // One tensor-map argument per (view, box).
    SmallVector<std::pair<MapKey, Value>> maps;
    auto mapFor = [&](const MapKey &key) -> Value {
      for (auto &[k, v] : maps)
        if (k == key)
          return v;
      std::string view = viewName(func, key.viewArg);
      int count = llvm::count_if(
          maps, [&](auto &m) { return m.first.viewArg == key.viewArg; });
      NamedAttrList argAttrs;
      argAttrs.set(tile::TileDialect::getArgNameAttrName(),
                   attrs.getStringAttr(view + "@tma" + std::to_string(count)));
      argAttrs.set(
          "tilegpu.tensor_map",
          attrs.getDictionaryAttr({
              attrs.getNamedAttr("view", attrs.getStringAttr(view)),
              attrs.getNamedAttr("dims", attrs.getI64ArrayAttr(key.dims)),
              attrs.getNamedAttr("box", attrs.getI64ArrayAttr(key.box)),
              attrs.getNamedAttr("swizzle", attrs.getI64IntegerAttr(128)),
          }));
      unsigned index = func.getNumArguments();
      if (failed(func.insertArgument(index, TensorMapType::get(ctx),
                                     argAttrs.getDictionary(ctx), loc)))
        return Value();
      maps.push_back({key, entry.getArgument(index)});
      return maps.back().second;
    };

    // The one issuing thread: the producer's first.
    OpBuilder pb = OpBuilder::atBlockBegin(&producer);
    Value tid = ThreadIdOp::create(pb, loc);
    Value first = arith::ConstantIntOp::create(
        pb, loc, pb.getI32Type(), int64_t(ws.getConsumerWarps()) * kWarpSize);
    Value leader =
        arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::eq, tid, first);

    // Barrier inits go before the barrier that publishes them.
    Operation *lastInit = nullptr;
    for (Operation &op : entry)
      if (isa<MbarrierInitOp>(op))
        lastInit = &op;
    DenseSet<Value> tmaFull;
    for (auto [pc, key] : llvm::zip(copies, keys)) {
      Value map = mapFor(key);
      if (!map)
        return signalPassFailure();
      AsyncCopyOp copy = pc.copy;
      Value barriers, index;
      OpBuilder b(copy);
      if (pc.arrive) {
        barriers = pc.arrive.getBarriers();
        index = pc.arrive.getIndex();
        tmaFull.insert(barriers);
      } else {
        // A barrier of its own, waited for by the consumers before their
        // first use of the buffer.
        OpBuilder ib(lastInit->getNextNode());
        barriers = MbarrierAllocOp::create(ib, loc, MbarrierType::get(ctx, 1),
                                           IntegerAttr());
        barriers.getDefiningOp()->setAttr("tilegpu.role",
                                          attrs.getStringAttr("tma"));
        MbarrierInitOp::create(ib, loc, barriers, 1);
        index = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
        Value buffer = copy.getBuffer();
        Block &consumers = ws.getConsumers().front();
        Operation *firstUse = nullptr;
        for (Operation *user : buffer.getUsers()) {
          Operation *top = consumers.findAncestorOpInBlock(*user);
          if (top && (!firstUse || top->isBeforeInBlock(firstUse)))
            firstUse = top;
        }
        if (firstUse) {
          OpBuilder wb(firstUse);
          Value c0 = arith::ConstantIntOp::create(wb, loc, wb.getI32Type(), 0);
          MbarrierWaitOp::create(wb, loc, barriers, c0, c0);
        }
      }
      auto ifOp = scf::IfOp::create(b, loc, leader, /*else=*/false);
      OpBuilder tb = OpBuilder::atBlockBegin(ifOp.thenBlock());
      MbarrierExpectTxOp::create(tb, loc, barriers, index, tileBytes(copy));
      TmaCopyOp::create(tb, loc, map, copy.getOffsets(), copy.getDims(),
                        copy.getBuffer(), barriers, index);
      if (pc.arrive)
        pc.arrive.erase();
      if (pc.commit)
        pc.commit.erase();
      copy.erase();
    }
    // Full barriers of TMA rings expect the one expect_tx arrival; the
    // consumers need no proxy fence after waiting on them.
    for (Operation &op : entry)
      if (auto init = dyn_cast<MbarrierInitOp>(op);
          init && tmaFull.contains(init.getBarriers()))
        init.setArrivals(1);
    if (oneWarpSuffices(producer))
      confineToFirstWarp(producer, tid, first);
    SmallVector<Operation *> fences;
    ws.getConsumers().walk([&](FenceAsyncSharedOp fence) {
      auto wait = dyn_cast_or_null<MbarrierWaitOp>(fence->getPrevNode());
      if (wait && tmaFull.contains(wait.getBarriers()))
        fences.push_back(fence);
    });
    for (Operation *fence : fences)
      fence->erase();
  }
};

} // namespace

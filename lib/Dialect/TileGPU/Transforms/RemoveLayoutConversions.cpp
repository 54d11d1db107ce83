//===- RemoveLayoutConversions.cpp - fewer tilegpu.convert_layout ---------===//
//
// tilegpu-remove-layout-conversions: rebuilds cheap tiles in the layout a
// conversion asks for, moves conversions onto smaller tiles or out of loops,
// and carries loop values in the layout the loop body wants, so that only
// the conversions a kernel needs are left.
//
//===----------------------------------------------------------------------===//

#include "LayoutRules.h"

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUREMOVELAYOUTCONVERSIONS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

Attribute layoutOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getEncoding();
}

/// Tiles whose value is a constant, a scalar or a thread index: building
/// them in another layout costs nothing.
bool isFreeToBuild(Operation *op) {
  if (!op || op->getNumResults() != 1)
    return false;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue());
  return isa<tile::FullOp, tile::SplatOp, tile::IotaOp>(op);
}

/// convert(cheap op) -> the op built in the target layout.
struct RebuildFreeTile : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSource().getDefiningOp();
    if (!isFreeToBuild(def))
      return rewriter.notifyMatchFailure(op, "not a free tile");
    Operation *clone = rewriter.clone(*def);
    clone->getResult(0).setType(op.getType());
    if (auto constant = dyn_cast<arith::ConstantOp>(clone))
      constant.setValueAttr(
          cast<SplatElementsAttr>(constant.getValue()).reshape(op.getType()));
    rewriter.replaceOp(op, clone->getResults());
    return success();
  }
};

/// The layout `layout` (of a tile of `shape`) on the source of a broadcast
/// or elementwise op, when it fits.
Attribute layoutOnShape(Attribute layout, Value operand) {
  auto type = cast<RankedTensorType>(operand.getType());
  return fitsRegisterLayout(layout, type.getShape()) ? layout : Attribute();
}

/// convert(broadcast(x)) -> broadcast(convert(x)): the conversion moves to
/// the smaller tile (often free to build, or a row of a tile).
struct ConvertBeforeBroadcast : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto bcast = op.getSource().getDefiningOp<tile::BroadcastOp>();
    if (!bcast)
      return rewriter.notifyMatchFailure(op, "not a broadcast");
    Attribute target = layoutOnShape(layoutOf(op), bcast.getSource());
    if (!target)
      return rewriter.notifyMatchFailure(op, "no such layout on the source");
    Value source = rewriter.createOrFold<ConvertLayoutOp>(
        op.getLoc(), withLayout(bcast.getSource().getType(), target),
        bcast.getSource());
    rewriter.replaceOpWithNewOp<tile::BroadcastOp>(op, op.getType(), source,
                                                   bcast.getShapeAttr());
    return success();
  }
};

/// Whether `v` is cheap to have in `layout`: already there, free to build,
/// a conversion (which then folds), or a broadcast of such a value.
bool isCheapIn(Value v, Attribute layout, int depth = 0) {
  if (!isa<RankedTensorType>(v.getType()))
    return true;
  if (layoutOf(v) == layout)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 3)
    return false;
  if (isFreeToBuild(def))
    return true;
  if (auto convert = dyn_cast<ConvertLayoutOp>(def))
    return layoutOf(convert.getSource()) == layout;
  if (auto bcast = dyn_cast<tile::BroadcastOp>(def)) {
    Attribute target = layoutOnShape(layout, bcast.getSource());
    return target && isCheapIn(bcast.getSource(), target, depth + 1);
  }
  return false;
}

/// convert(f(a, b)) for an elementwise f whose operands are all cheap in
/// the target layout -> f(convert(a), convert(b)) in the target layout.
struct ComputeInTargetLayout : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSource().getDefiningOp();
    if (!def || !isElementwiseTileOp(def))
      return rewriter.notifyMatchFailure(op, "not an elementwise op");
    Attribute target = layoutOf(op);
    if (!llvm::all_of(def->getOperands(),
                      [&](Value v) { return isCheapIn(v, target); }))
      return rewriter.notifyMatchFailure(op, "an operand is costly");
    SmallVector<Value> operands;
    for (Value v : def->getOperands()) {
      if (auto type = dyn_cast<RankedTensorType>(v.getType()))
        v = rewriter.createOrFold<ConvertLayoutOp>(op.getLoc(),
                                                   withLayout(type, target), v);
      operands.push_back(v);
    }
    Operation *clone = rewriter.clone(*def);
    clone->setOperands(operands);
    clone->getResult(0).setType(op.getType());
    rewriter.replaceOp(op, clone->getResults());
    return success();
  }
};

/// Moves conversions of loop-invariant values before the loop.
void hoistOutOfLoops(func::FuncOp func) {
  SmallVector<ConvertLayoutOp> converts;
  func.walk([&](ConvertLayoutOp op) { converts.push_back(op); });
  for (ConvertLayoutOp op : converts) {
    scf::ForOp outermost;
    for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>())
      if (loop.isDefinedOutsideOfLoop(op.getSource()))
        outermost = loop;
    if (outermost)
      op->moveBefore(outermost);
  }
}

/// A loop-carried value that the body only converts to layout B and that
/// is yielded as a conversion from B: carry it in B.
bool carryInBodyLayout(scf::ForOp loop) {
  bool changed = false;
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    BlockArgument arg = loop.getRegionIterArgs()[i];
    if (!isa<RankedTensorType>(arg.getType()))
      continue;
    auto yielded = loop.getYieldedValues()[i].getDefiningOp<ConvertLayoutOp>();
    if (!yielded || arg.use_empty())
      continue;
    Type bodyType = yielded.getSource().getType();
    if (!llvm::all_of(arg.getUsers(), [&](Operation *user) {
          auto convert = dyn_cast<ConvertLayoutOp>(user);
          return convert && convert.getType() == bodyType;
        }))
      continue;
    Type oldType = arg.getType();
    OpBuilder b(loop);
    OpOperand &init = loop.getInitArgsMutable()[i];
    init.set(ConvertLayoutOp::create(b, loop.getLoc(), bodyType, init.get()));
    arg.setType(bodyType);
    for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
      user->getResult(0).replaceAllUsesWith(arg);
      user->erase();
    }
    (*loop.getYieldedValuesMutable())[i].set(yielded.getSource());
    Value result = loop.getResult(i);
    result.setType(bodyType);
    b.setInsertionPointAfter(loop);
    auto back = ConvertLayoutOp::create(b, loop.getLoc(), oldType, result);
    result.replaceAllUsesExcept(back.getResult(), back);
    if (yielded->use_empty())
      yielded->erase();
    changed = true;
  }
  return changed;
}

struct TileGPURemoveLayoutConversionsPass
    : public tilegpu::impl::TileGPURemoveLayoutConversionsBase<
          TileGPURemoveLayoutConversionsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    RewritePatternSet patterns(&getContext());
    patterns
        .add<RebuildFreeTile, ConvertBeforeBroadcast, ComputeInTargetLayout>(
            &getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Each step can enable the others; the rewrites only remove or shrink
    // conversions, so a few rounds reach the fixed point.
    for (int round = 0; round < 4; ++round) {
      if (failed(applyPatternsGreedily(func, frozen)))
        return signalPassFailure();
      hoistOutOfLoops(func);
      bool changed = false;
      func.walk([&](scf::ForOp loop) { changed |= carryInBodyLayout(loop); });
      if (!changed)
        break;
    }
    if (failed(applyPatternsGreedily(func, frozen)))
      signalPassFailure();
  }
};

} // namespace

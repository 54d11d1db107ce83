//===- FastMath.cpp - approximate math for speed --------------------------===//
//
// tile-fast-math: flush-to-zero exp2, approximate f32 division, fused
// multiply-add and approximate tanh. WARNING: every part of this pass changes
// numerical results; see the pass description.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEFASTMATH
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// tile.exp2 %x -> tile.exp2 %x flush_to_zero.
struct FlushExp2 : OpRewritePattern<Exp2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Exp2Op op,
                                PatternRewriter &rewriter) const override {
    if (op.getFlushToZero())
      return rewriter.notifyMatchFailure(op, "already flushes to zero");
    rewriter.modifyOpInPlace(op, [&] { op.setFlushToZero(true); });
    return success();
  }
};

/// tile.div (f32) -> tile.div rounding approx flush_to_zero.
struct ApproximateDiv : OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "approx division is f32 only");
    if (op.getRounding() == Rounding::approx && op.getFlushToZero())
      return rewriter.notifyMatchFailure(op, "already approximate");
    rewriter.modifyOpInPlace(op, [&] {
      op.setRounding(Rounding::approx);
      op.setFlushToZero(true);
    });
    return success();
  }
};

/// math.tanh %x -> math.tanh %x fastmath<afn> (tanh.approx.f32 on the GPU).
struct ApproximateTanh : OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    arith::FastMathFlags flags = op.getFastmath();
    if (bitEnumContainsAll(flags, arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "already approximate");
    rewriter.modifyOpInPlace(
        op, [&] { op.setFastmath(flags | arith::FastMathFlags::afn); });
    return success();
  }
};

/// -v, computed before a broadcast or splat where there is one (fewer
/// elements to negate), folded into a tile.full constant.
Value negate(PatternRewriter &rewriter, Location loc, Value value) {
  if (auto broadcast = value.getDefiningOp<BroadcastOp>())
    return BroadcastOp::create(rewriter, loc, broadcast.getType(),
                               negate(rewriter, loc, broadcast.getSource()),
                               broadcast.getShape());
  if (auto splat = value.getDefiningOp<SplatOp>())
    return SplatOp::create(rewriter, loc, splat.getType(),
                           negate(rewriter, loc, splat.getValue()),
                           splat.getShape());
  if (auto full = value.getDefiningOp<FullOp>()) {
    Attribute fill;
    if (auto f = dyn_cast<FloatAttr>(full.getValue()))
      fill = rewriter.getF64FloatAttr(-f.getValueAsDouble());
    else if (auto i = dyn_cast<IntegerAttr>(full.getValue()))
      fill = rewriter.getF64FloatAttr(-static_cast<double>(i.getInt()));
    if (fill)
      return FullOp::create(rewriter, loc, full.getType(), fill,
                            full.getShape());
  }
  if (auto neg = value.getDefiningOp<arith::NegFOp>())
    return neg.getOperand();
  return arith::NegFOp::create(rewriter, loc, value);
}

/// The single-use arith.mulf that defines `value`, if any.
arith::MulFOp getFusibleMul(Value value) {
  auto mul = value.getDefiningOp<arith::MulFOp>();
  if (!mul || !mul->hasOneUse())
    return {};
  return mul;
}

/// addf(mulf(a, b), c) and addf(c, mulf(a, b)) -> fma(a, b, c).
struct FuseMulAdd : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp op,
                                PatternRewriter &rewriter) const override {
    for (int i = 0; i < 2; ++i) {
      arith::MulFOp mul = getFusibleMul(op->getOperand(i));
      if (!mul)
        continue;
      rewriter.replaceOpWithNewOp<math::FmaOp>(op, mul.getLhs(), mul.getRhs(),
                                               op->getOperand(1 - i));
      rewriter.eraseOp(mul);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no single-use multiply operand");
  }
};

/// subf(mulf(a, b), c) -> fma(a, b, -c); subf(c, mulf(a, b)) -> fma(-a, b, c).
struct FuseMulSub : OpRewritePattern<arith::SubFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SubFOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (arith::MulFOp mul = getFusibleMul(op.getLhs())) {
      Value addend = negate(rewriter, loc, op.getRhs());
      rewriter.replaceOpWithNewOp<math::FmaOp>(op, mul.getLhs(), mul.getRhs(),
                                               addend);
      rewriter.eraseOp(mul);
      return success();
    }
    if (arith::MulFOp mul = getFusibleMul(op.getRhs())) {
      Value factor = negate(rewriter, loc, mul.getLhs());
      rewriter.replaceOpWithNewOp<math::FmaOp>(op, factor, mul.getRhs(),
                                               op.getLhs());
      rewriter.eraseOp(mul);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no single-use multiply operand");
  }
};

struct TileFastMathPass
    : public tile::impl::TileFastMathBase<TileFastMathPass> {
  using TileFastMathBase::TileFastMathBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTileFastMathPatterns(patterns, flushExp2, approxDiv, fuseFma,
                                 approxTanh);
    // No folding: the pass rewrites what it names and nothing else.
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace

void mlir::tile::populateTileFastMathPatterns(RewritePatternSet &patterns,
                                              bool flushExp2, bool approxDiv,
                                              bool fuseFma, bool approxTanh) {
  MLIRContext *ctx = patterns.getContext();
  if (flushExp2)
    patterns.add<FlushExp2>(ctx);
  if (approxDiv)
    patterns.add<ApproximateDiv>(ctx);
  if (fuseFma)
    patterns.add<FuseMulAdd, FuseMulSub>(ctx);
  if (approxTanh)
    patterns.add<ApproximateTanh>(ctx);
}

//===- ExpandReductions.cpp - argmax/argmin as max/min reductions ---------===//
//
// tilegpu-expand-reductions: argmax (argmin) of a tile becomes the max
// (min) of its values, then the min of the indices where a value equals
// that extreme or is NaN: the lowest index among ties and the first NaN's
// index, as torch. The GPU lowering then reduces one value per element.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUEXPANDREDUCTIONS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;

namespace {

LogicalResult expandArgReduction(tile::ReduceOp reduce) {
  auto type = cast<RankedTensorType>(reduce.getSource().getType());
  if (!type.hasStaticShape())
    return reduce.emitOpError() << "needs a static shape: run tile-specialize";
  OpBuilder b(reduce);
  Location loc = reduce.getLoc();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t axis = reduce.getAxis();
  MLIRContext *ctx = b.getContext();
  ArrayAttr shapeSpec = tile::buildShapeSpec(ctx, shape);
  // The lowering reduces f32 and i32: narrower values widen exactly.
  Value x = reduce.getSource();
  Type element = type.getElementType();
  bool isFloat = isa<FloatType>(element);
  Type wide = isFloat ? Type(b.getF32Type()) : Type(b.getI32Type());
  if (!isFloat && element.getIntOrFloatBitWidth() > 32)
    return reduce.emitOpError()
           << stringifyReduceKind(reduce.getKind()) << " of " << element
           << " is not lowered (f16, bf16, f32 and integers up to i32 are)";
  if (element != wide)
    x = tile::AsTypeOp::create(b, loc, RankedTensorType::get(shape, wide), x);
  auto wideType = RankedTensorType::get(shape, wide);
  bool isMax = reduce.getKind() == tile::ReduceKind::argmax;
  SmallVector<int64_t> keptShape(shape);
  keptShape[axis] = 1;
  Value extreme = tile::ReduceOp::create(
      b, loc, RankedTensorType::get(keptShape, wide), x,
      isMax ? tile::ReduceKind::max : tile::ReduceKind::min, axis,
      /*keepdims=*/true);
  extreme = tile::BroadcastOp::create(b, loc, wideType, extreme, shapeSpec);
  Value hit;
  if (isFloat) {
    Value equal =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, extreme);
    Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    hit = arith::OrIOp::create(b, loc, equal, nan);
  } else {
    hit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, extreme);
  }
  auto indexType = RankedTensorType::get(shape, b.getI32Type());
  Value iota = tile::IotaOp::create(b, loc, indexType, shapeSpec, axis);
  Value past = tile::FullOp::create(
      b, loc, indexType, b.getI32IntegerAttr(shape[axis]), shapeSpec);
  Value candidates = tile::SelectOp::create(b, loc, hit, iota, past);
  Value index =
      tile::ReduceOp::create(b, loc, reduce.getType(), candidates,
                             tile::ReduceKind::min, axis, reduce.getKeepdims());
  reduce.replaceAllUsesWith(index);
  reduce.erase();
  return success();
}

struct TileGPUExpandReductionsPass
    : public tilegpu::impl::TileGPUExpandReductionsBase<
          TileGPUExpandReductionsPass> {
  void runOnOperation() override {
    SmallVector<tile::ReduceOp> reduces;
    getOperation().walk([&](tile::ReduceOp reduce) {
      if (reduce.getKind() == tile::ReduceKind::argmax ||
          reduce.getKind() == tile::ReduceKind::argmin)
        reduces.push_back(reduce);
    });
    for (tile::ReduceOp reduce : reduces)
      if (failed(expandArgReduction(reduce)))
        return signalPassFailure();
  }
};

} // namespace

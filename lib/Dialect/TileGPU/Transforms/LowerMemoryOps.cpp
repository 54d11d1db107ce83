//===- LowerMemoryOps.cpp - tile loads/stores to element offsets ----------===//
//
// tilegpu-lower-memory-ops: tile-space loads, stores and tile atomics
// become their tilegpu forms at element offsets that walk chosen view
// dimensions, with the `order` permutation and unit-dimension reshapes
// folded in. Accesses written with `at` have their element offsets already.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPULOWERMEMORYOPS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// Element offsets of the tile at `indices` (in tile-dimension order) of a
/// tile of `shape` walking view dimensions `order`: tile space, or element
/// offsets already (`at`).
SmallVector<Value> elementOffsets(OpBuilder &b, Location loc,
                                  ValueRange indices, ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> order, bool atElements) {
  SmallVector<Value> offsets(indices.size());
  for (auto [t, index] : llvm::enumerate(indices)) {
    if (atElements) {
      offsets[order[t]] = index;
      continue;
    }
    Value size = arith::ConstantIntOp::create(b, loc, b.getI32Type(), shape[t]);
    offsets[order[t]] = arith::MulIOp::create(b, loc, index, size);
  }
  return offsets;
}

SmallVector<int64_t> nonUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> dims;
  for (auto [i, d] : llvm::enumerate(shape))
    if (d != 1)
      dims.push_back(i);
  return dims;
}

/// `value`, or the source of a reshape that only added unit dimensions to
/// it (stores and atomics take the tile as it was computed).
Value withoutUnitDims(Value value) {
  auto reshape = value.getDefiningOp<tile::ReshapeOp>();
  if (!reshape)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  auto source = cast<RankedTensorType>(reshape.getSource().getType());
  SmallVector<int64_t> srcSizes, dstSizes;
  for (int64_t d : nonUnitDims(source.getShape()))
    srcSizes.push_back(source.getDimSize(d));
  for (int64_t d : nonUnitDims(type.getShape()))
    dstSizes.push_back(type.getDimSize(d));
  return srcSizes == dstSizes ? reshape.getSource() : value;
}

LogicalResult lowerLoad(tile::LoadOp load) {
  auto type = load.getType();
  if (!type.hasStaticShape())
    return load.emitOpError() << "needs a static shape: run tile-specialize";
  int64_t rank = type.getRank();
  SmallVector<int64_t> order =
      load.getOrder() ? SmallVector<int64_t>(*load.getOrder())
                      : llvm::to_vector(llvm::seq<int64_t>(0, rank));
  OpBuilder b(load);
  Location loc = load.getLoc();
  SmallVector<Value> offsets =
      elementOffsets(b, loc, load.getIndices(), type.getShape(), order,
                     load.getElementOffsets());
  SmallVector<int64_t> tileDims = nonUnitDims(type.getShape());
  // A tile of one element keeps its last dimension: layouts need rank 1 or
  // more (a [1, 1] load squeezed to rank 0 crashed the layout assignment).
  if (tileDims.empty() && rank > 0)
    tileDims.push_back(rank - 1);
  SmallVector<int64_t> viewDims, squeezed;
  for (int64_t t : tileDims) {
    viewDims.push_back(order[t]);
    squeezed.push_back(type.getDimSize(t));
  }
  auto resultType = RankedTensorType::get(squeezed, type.getElementType());
  auto newLoad =
      LoadOp::create(b, loc, resultType, load.getView(), offsets,
                     b.getDenseI64ArrayAttr(viewDims), load.getPaddingAttr());
  if (std::optional<uint32_t> latency = load.getLatency())
    newLoad->setAttr("tilegpu.latency", b.getI32IntegerAttr(*latency));
  // Users that only drop the unit dimensions take the new load directly.
  for (Operation *user : llvm::make_early_inc_range(load->getUsers())) {
    auto reshape = dyn_cast<tile::ReshapeOp>(user);
    if (reshape && reshape.getType() == resultType) {
      reshape.replaceAllUsesWith(newLoad.getResult());
      reshape.erase();
    }
  }
  if (!load->use_empty()) {
    // Without unit dimensions the new load has the old type: no reshape.
    Value back = newLoad.getResult();
    if (resultType != type)
      back = tile::ReshapeOp::create(b, loc, type, back, load.getShapeAttr());
    load.replaceAllUsesWith(back);
  }
  load.erase();
  return success();
}

LogicalResult lowerStore(tile::StoreOp store) {
  auto type = cast<RankedTensorType>(store.getValue().getType());
  if (!type.hasStaticShape())
    return store.emitOpError() << "needs a static shape: run tile-specialize";
  OpBuilder b(store);
  Location loc = store.getLoc();
  SmallVector<int64_t> identity =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  SmallVector<Value> offsets =
      elementOffsets(b, loc, store.getIndices(), type.getShape(), identity,
                     store.getElementOffsets());
  StoreOp::create(b, loc, withoutUnitDims(store.getValue()), store.getView(),
                  offsets,
                  b.getDenseI64ArrayAttr(nonUnitDims(type.getShape())));
  Operation *reshape = store.getValue().getDefiningOp();
  store.erase();
  if (reshape && isa<tile::ReshapeOp>(reshape) && reshape->use_empty())
    reshape->erase();
  return success();
}

/// A tile atomic: addressed as a store; its mask, compare value and result
/// keep the value's shape (the lowering reads them register by register).
LogicalResult lowerAtomic(tile::AtomicOp atomic) {
  auto type = dyn_cast<RankedTensorType>(atomic.getValue().getType());
  if (!type)
    return success(); // a scalar atomic is lowered as it is
  if (!type.hasStaticShape())
    return atomic.emitOpError() << "needs a static shape: run tile-specialize";
  OpBuilder b(atomic);
  Location loc = atomic.getLoc();
  SmallVector<int64_t> identity =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  SmallVector<Value> offsets =
      elementOffsets(b, loc, atomic.getIndices(), type.getShape(), identity,
                     atomic.getElementOffsets());
  // Every tile operand takes the value's shape without its unit dimensions.
  SmallVector<int64_t> dims = nonUnitDims(type.getShape());
  if (dims.empty())
    dims.push_back(type.getRank() - 1);
  SmallVector<int64_t> squeezed;
  for (int64_t d : dims)
    squeezed.push_back(type.getDimSize(d));
  auto squeeze = [&](Value v) -> Value {
    if (!v)
      return v;
    auto t = cast<RankedTensorType>(v.getType());
    auto to = RankedTensorType::get(squeezed, t.getElementType());
    if (to == t)
      return v;
    // The tile as it was computed when a reshape only added unit
    // dimensions (as stores take it): a reshape of that reshape would meet
    // layout assignment unfolded, and a layout that a reshape cannot carry
    // (the mma accumulator's) would go through shared memory for nothing.
    if (Value source = withoutUnitDims(v); source.getType() == to)
      return source;
    return tile::ReshapeOp::create(
        b, loc, to, v, tile::buildShapeSpec(b.getContext(), squeezed));
  };
  Type resultType;
  if (atomic.getResult())
    resultType = RankedTensorType::get(squeezed, type.getElementType());
  auto newAtomic = AtomicOp::create(
      b, loc, resultType ? TypeRange{resultType} : TypeRange{},
      atomic.getKindAttr(), squeeze(atomic.getValue()), atomic.getView(),
      offsets, b.getDenseI64ArrayAttr(dims), squeeze(atomic.getCompare()),
      squeeze(atomic.getMask()), atomic.getSemAttr(), /*vector=*/nullptr);
  if (Value result = atomic.getResult()) {
    Value back = newAtomic.getResult();
    if (back.getType() != type)
      back = tile::ReshapeOp::create(
          b, loc, type, back,
          tile::buildShapeSpec(b.getContext(), type.getShape()));
    result.replaceAllUsesWith(back);
  }
  Operation *reshape = atomic.getValue().getDefiningOp();
  atomic.erase();
  if (reshape && isa<tile::ReshapeOp>(reshape) && reshape->use_empty())
    reshape->erase();
  return success();
}

struct TileGPULowerMemoryOpsPass
    : public tilegpu::impl::TileGPULowerMemoryOpsBase<
          TileGPULowerMemoryOpsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<tile::LoadOp, tile::StoreOp, tile::AtomicOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      LogicalResult result =
          llvm::TypeSwitch<Operation *, LogicalResult>(op)
              .Case([](tile::LoadOp load) { return lowerLoad(load); })
              .Case([](tile::StoreOp store) { return lowerStore(store); })
              .Case([](tile::AtomicOp atomic) { return lowerAtomic(atomic); });
      if (failed(result))
        return signalPassFailure();
    }
  }
};

} // namespace

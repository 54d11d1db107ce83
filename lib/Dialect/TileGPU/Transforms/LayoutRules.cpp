//===- LayoutRules.cpp - how tile ops relate the layouts of their tiles ---===//
//
// The layout rules of tile ops and of global accesses (LayoutRules.h).
//
//===----------------------------------------------------------------------===//

#include "LayoutRules.h"

#include "tile/Dialect/Tile/IR/ViewAlign.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tilegpu;

bool mlir::tilegpu::isElementwiseTileOp(Operation *op) {
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<tile::Exp2Op, tile::DivOp, tile::SelectOp, tile::AsTypeOp>(op);
}

bool mlir::tilegpu::isLayoutTransparent(Operation *op) {
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  return isElementwiseTileOp(op) ||
         isa<tile::BroadcastOp, tile::ReduceOp, tile::ReshapeOp,
             tile::PermuteOp, tile::GatherOp, AtomicOp>(op);
}

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// A #slice in its keepdims form (a tile of the parent's rank) is its
/// parent on that tile: use the parent, so that rules see one name.
static Attribute normalize(Attribute layout, ArrayRef<int64_t> shape) {
  while (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout)) {
    if (getLayoutRank(slice) + 1 != shape.size())
      break;
    layout = slice.getParent();
  }
  return layout;
}

SmallVector<std::pair<Value, Attribute>>
mlir::tilegpu::deriveLayouts(Operation *op, Value known, Attribute layout) {
  SmallVector<std::pair<Value, Attribute>> out;
  layout = normalize(layout, shapeOf(known));
  Value result = op->getResult(0);
  bool fromResult = known == result;
  auto other = [&](Value v, Attribute derived) {
    if (v != known)
      out.push_back({v, derived});
  };
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    unsigned axis = reduce.getAxis();
    if (!fromResult) {
      other(result, reduce.getKeepdims()
                        ? layout
                        : Attribute(SliceLayoutAttr::get(op->getContext(), axis,
                                                         layout)));
      return out;
    }
    Attribute source;
    if (reduce.getKeepdims())
      source = layout;
    else if (auto slice = dyn_cast<SliceLayoutAttr>(layout);
             slice && slice.getDim() == axis)
      source = slice.getParent();
    other(reduce.getSource(), source);
    return out;
  }
  if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
    Value source = reshape.getSource();
    if (fromResult)
      other(source,
            getReshapedLayout(layout, shapeOf(result), shapeOf(source)));
    else
      other(result,
            getReshapedLayout(layout, shapeOf(source), shapeOf(result)));
    return out;
  }
  if (auto permute = dyn_cast<tile::PermuteOp>(op)) {
    ArrayRef<int64_t> perm = permute.getPermutation();
    if (fromResult) {
      SmallVector<int64_t> inverse(perm.size());
      for (auto [i, p] : llvm::enumerate(perm))
        inverse[p] = i;
      other(permute.getSource(), getPermutedLayout(layout, inverse));
    } else {
      other(result, getPermutedLayout(layout, perm));
    }
    return out;
  }
  // Elementwise ops and broadcasts: one layout (a broadcast's source is
  // the layout on its shape with size-1 dimensions, which replicate).
  for (Value v : op->getOperands())
    if (isa<RankedTensorType>(v.getType()))
      other(v, layout);
  other(result, layout);
  return out;
}

int mlir::tilegpu::getContiguousTileDim(int64_t viewRank,
                                        ArrayRef<int64_t> dims) {
  for (auto [t, d] : llvm::enumerate(dims))
    if (d == viewRank - 1)
      return static_cast<int>(t);
  return -1;
}

int mlir::tilegpu::getContiguousTileDim(LoadOp load) {
  return getContiguousTileDim(load.getView().getType().getRank(),
                              load.getDims());
}

int mlir::tilegpu::getContiguousTileDim(StoreOp store) {
  return getContiguousTileDim(
      store.getView().getType().getRank(),
      cast<RankedTensorType>(store.getValue().getType()), store.getDims());
}

int mlir::tilegpu::getContiguousTileDim(int64_t viewRank, RankedTensorType type,
                                        ArrayRef<int64_t> dims) {
  // The value's non-unit dimensions walk `dims` when it has fewer entries
  // than the value's rank (the store lowering's rule).
  unsigned next = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.getDimSize(d) == 1 &&
        type.getRank() > static_cast<int64_t>(dims.size()))
      continue;
    if (dims[next++] == viewRank - 1)
      return static_cast<int>(d);
  }
  return -1;
}

unsigned mlir::tilegpu::getVectorElements(Type type, int64_t bytes) {
  int64_t bits = type.getIntOrFloatBitWidth();
  return static_cast<unsigned>(std::max<int64_t>(1, bytes * 8 / bits));
}

BlockedLayoutAttr mlir::tilegpu::getAccessLayout(Value view, ValueRange offsets,
                                                 RankedTensorType type,
                                                 int contiguousDim,
                                                 int numWarps) {
  unsigned rank = type.getRank();
  SmallVector<unsigned> order;
  unsigned vec = 1;
  if (contiguousDim >= 0) {
    order.push_back(contiguousDim);
    vec =
        getVectorElements(type.getElementType(),
                          std::min<int64_t>(16, getAccessAlign(view, offsets)));
  }
  for (unsigned d : getRowMajorOrder(rank))
    if (static_cast<int>(d) != contiguousDim)
      order.push_back(d);
  return getDefaultBlockedLayout(type.getContext(), type.getShape(), order, vec,
                                 numWarps);
}

BlockedLayoutAttr mlir::tilegpu::getStoreLayout(Value view, ValueRange offsets,
                                                RankedTensorType type,
                                                int contiguousDim, int numWarps,
                                                Attribute from) {
  BlockedLayoutAttr access =
      getAccessLayout(view, offsets, type, contiguousDim, numWarps);
  auto moveFrom = [&](BlockedLayoutAttr to) {
    return getRegisterMove(type.cloneWithEncoding(from),
                           type.cloneWithEncoding(to));
  };
  FailureOr<RegisterMove> move = moveFrom(access);
  if (failed(move) || move->kind != RegisterMove::Shared || move->warpLocal)
    return access;
  // The one dimension the warps split.
  ArrayRef<unsigned> warps = access.getWarpsPerCTA();
  auto isSplit = [](unsigned w) { return w > 1; };
  if (llvm::count_if(warps, isSplit) != 1)
    return access;
  unsigned dim = llvm::find_if(warps, isSplit) - warps.begin();
  SmallVector<unsigned> perThread(access.getSizePerThread());
  int64_t span =
      int64_t(perThread[dim]) * access.getThreadsPerWarp()[dim] * warps[dim];
  for (int64_t k = 2; span * k <= type.getDimSize(dim); k *= 2) {
    perThread[dim] = access.getSizePerThread()[dim] * k;
    auto candidate = BlockedLayoutAttr::get(type.getContext(), perThread,
                                            access.getThreadsPerWarp(), warps,
                                            access.getOrder());
    if (!fitsRegisterLayout(candidate, type.getShape()))
      break;
    FailureOr<RegisterMove> local = moveFrom(candidate);
    if (succeeded(local) && local->warpLocal)
      return candidate;
  }
  return access;
}

bool mlir::tilegpu::isGoodAccessLayout(Attribute layout,
                                       ArrayRef<int64_t> shape,
                                       int contiguousDim) {
  if (!layout)
    return false;
  if (contiguousDim < 0 || shape[contiguousDim] == 1)
    return true;
  FailureOr<RegisterLayout> map =
      getRegisterLayout(layout, shape, [] { return InFlightDiagnostic(); });
  if (failed(map))
    return false;
  if (getVectorWidth(*map, contiguousDim, 2) >= 2)
    return true;
  // The lowest lane bit that does not replicate walks the dimension.
  if (!map->usedLaneBits)
    return true;
  unsigned lowest = map->usedLaneBits & -map->usedLaneBits;
  return llvm::any_of(
      map->threadTerms[contiguousDim],
      [&](const ThreadTerm &t) { return !t.isWarp && t.div == lowest; });
}

//===- TileGPUOps.cpp - tilegpu operations --------------------------------===//

#include "tile/Dialect/TileGPU/IR/Layouts.h"
#include "tile/Dialect/TileGPU/IR/MmaTranspose.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tilegpu;

/// Checks offsets and dims of an op addressing a view.
static LogicalResult verifyViewAccess(Operation *op, tile::ViewType view,
                                      size_t numOffsets, ArrayRef<int64_t> dims,
                                      int64_t tileRank) {
  if (static_cast<int64_t>(numOffsets) != view.getRank())
    return op->emitOpError() << "needs one offset per view dimension ("
                             << view.getRank() << "), got " << numOffsets;
  if (static_cast<int64_t>(dims.size()) != tileRank)
    return op->emitOpError() << "needs one view dimension per tile dimension";
  SmallVector<bool> seen(view.getRank(), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= view.getRank() || seen[d])
      return op->emitOpError() << "dims must be distinct view dimensions";
    seen[d] = true;
  }
  return success();
}

LogicalResult LoadOp::verify() {
  auto type = getType();
  if (type.getElementType() != getView().getType().getElementType())
    return emitOpError() << "element type differs from the view's";
  return verifyViewAccess(*this, getView().getType(), getOffsets().size(),
                          getDims(), type.getRank());
}

LogicalResult StoreOp::verify() {
  auto type = cast<RankedTensorType>(getValue().getType());
  if (type.getElementType() != getView().getType().getElementType())
    return emitOpError() << "element type differs from the view's";
  int64_t nonUnit =
      llvm::count_if(type.getShape(), [](int64_t d) { return d != 1; });
  if (static_cast<int64_t>(getDims().size()) < nonUnit)
    return emitOpError() << "needs a view dimension for each non-unit "
                            "dimension of the value";
  return verifyViewAccess(*this, getView().getType(), getOffsets().size(),
                          getDims(), getDims().size());
}

LogicalResult SubviewOp::verify() {
  SharedBufferType source = getBuffer().getType();
  SharedBufferType result = getResult().getType();
  if (source.getShape().size() != 3 || result.getShape().size() != 2 ||
      source.getTileShape() != result.getShape() ||
      source.getElementType() != result.getElementType() ||
      source.getLayout() != result.getLayout())
    return emitOpError() << "selects one 2-d stage of a 3-d ring buffer";
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  SharedBufferType buffer = getBuffer().getType();
  if (buffer.getShape().size() != 2)
    return emitOpError() << "copies into one 2-d stage (use subview)";
  if (buffer.getElementType() != getView().getType().getElementType())
    return emitOpError() << "element type differs from the view's";
  unsigned bits = buffer.getElementType().getIntOrFloatBitWidth();
  if (bits != 16 && bits != 8)
    return emitOpError() << "copies 16-bit or 8-bit elements only";
  return verifyViewAccess(*this, getView().getType(), getOffsets().size(),
                          getDims(), 2);
}

LogicalResult TmaCopyOp::verify() {
  SharedBufferType buffer = getBuffer().getType();
  if (buffer.getShape().size() != 2)
    return emitOpError() << "copies into one 2-d stage (use subview)";
  unsigned bits = buffer.getElementType().getIntOrFloatBitWidth();
  if (bits != 16 && bits != 8)
    return emitOpError() << "copies 16-bit or 8-bit elements only";
  auto layout = dyn_cast<SharedLayoutAttr>(buffer.getLayout());
  if (!layout || layout.getChunk() * bits != 128 * 8 ||
      layout.getMaxPhase() != 8 || layout.getPerPhase() != 1)
    return emitOpError() << "needs the 128B-swizzle layout with 128-byte "
                            "pieces (64 16-bit or 128 8-bit elements), got "
                         << buffer;
  int64_t rank = static_cast<int64_t>(getCoords().size());
  if (rank < 2 || rank > 5)
    return emitOpError() << "a tensor map has 2 to 5 dimensions, got " << rank;
  ArrayRef<int64_t> dims = getDims();
  if (dims.size() != 2 || dims[0] == dims[1] ||
      llvm::any_of(dims, [&](int64_t d) { return d < 0 || d >= rank; }))
    return emitOpError() << "dims must be two distinct view dimensions";
  int64_t outer = buffer.getShape()[1 - layout.getOrder()[0]];
  if (outer > 256 || outer % 8 != 0)
    return emitOpError() << "a box has at most 256 rows, in whole 8-row "
                            "swizzle atoms, got "
                         << outer;
  return success();
}

LogicalResult MmaOp::verify() {
  auto acc = getAcc().getType();
  if (!isa_and_nonnull<MmaLayoutAttr>(acc.getEncoding()) ||
      getResult().getType() != acc)
    return emitOpError() << "accumulator and result need one #mma layout";
  if (acc.getRank() != 2)
    return emitOpError() << "the accumulator must be a 2-d tile";
  for (StringRef name : {kMmaTransposeA, kMmaTransposeB})
    if (Attribute flag = (*this)->getAttr(name); flag && !isa<UnitAttr>(flag))
      return emitOpError() << "'" << name << "' must be a unit attribute";
  SmallVector<int64_t, 2> aShape,
      bShape = llvm::to_vector<2>(getB().getType().getShape());
  if (auto buffer = dyn_cast<SharedBufferType>(getA().getType())) {
    if (buffer.getShape().size() != 2)
      return emitOpError() << "operand a must be a 2-d shared tile";
    aShape = llvm::to_vector<2>(buffer.getShape());
    // transpose_a: the buffer is K x M, read as its transpose.
    if (isTransposedA(*this))
      std::swap(aShape[0], aShape[1]);
  } else if (auto tensor = dyn_cast<RankedTensorType>(getA().getType())) {
    if (isTransposedA(*this))
      return emitOpError() << "a register operand a cannot be transposed "
                              "(transpose_a reads a shared tile)";
    if (tensor.getEncoding() != acc.getEncoding())
      return emitOpError() << "a register operand a must have the "
                              "accumulator's layout";
    if (tensor.getRank() != 2)
      return emitOpError() << "a register operand a must be a 2-d tile";
    aShape = llvm::to_vector<2>(tensor.getShape());
  } else {
    return emitOpError() << "operand a must be a shared tile or a register "
                            "tile";
  }
  if (bShape.size() != 2)
    return emitOpError() << "operand b must be a 2-d shared tile";
  if (isTransposedB(*this))
    std::swap(bShape[0], bShape[1]);
  if (aShape[1] != bShape[0] || aShape[0] != acc.getDimSize(0) ||
      bShape[1] != acc.getDimSize(1))
    return emitOpError() << "shapes do not compose: a x b must be the "
                            "accumulator's shape";
  if (getAsync() && cast<MmaLayoutAttr>(acc.getEncoding()).getVersion() != 3)
    return emitOpError() << "only wgmma (#mma version 3) is asynchronous";
  return success();
}

LogicalResult MmaWaitOp::verify() {
  // getPending() is unsigned; the attribute's signed value is what was
  // written.
  if (getPendingAttr().getInt() < 0)
    return emitOpError() << "pending must be non-negative";
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (source.getShape() != result.getShape() ||
      source.getElementType() != result.getElementType())
    return emitOpError() << "changes the layout only: the shape and element "
                            "type must stay";
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSource().getType() == getResult().getType())
    return getSource();
  // A conversion of a conversion converts the original value.
  if (auto inner = getSource().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSource().getType() == getResult().getType())
      return inner.getSource();
    getSourceMutable().assign(inner.getSource());
    return getResult();
  }
  return {};
}

LogicalResult LocalStoreOp::verify() {
  auto value = cast<RankedTensorType>(getValue().getType());
  SharedBufferType buffer = getBuffer().getType();
  if (buffer.getShape().size() != 2)
    return emitOpError() << "stores into one 2-d stage (use subview)";
  if (value.getShape() != buffer.getShape() ||
      value.getElementType() != buffer.getElementType())
    return emitOpError() << "the value and the shared tile need one shape and "
                            "element type";
  return success();
}

LogicalResult MbarrierInitOp::verify() {
  if (getArrivals() < 1 || getArrivals() >= (1 << 20))
    return emitOpError() << "arrivals must be in [1, 2^20 - 1], got "
                         << getArrivals();
  return success();
}

LogicalResult NamedBarrierOp::verify() {
  // The getters are unsigned; the attributes' signed values are what was
  // written.
  int64_t id = getIdAttr().getInt();
  int64_t threads = getThreadsAttr().getInt();
  if (id < 0 || id > 15)
    return emitOpError() << "barrier id must be in [0, 15], got " << id;
  if (threads <= 0 || threads % 32 != 0)
    return emitOpError() << "threads must be a positive multiple of 32, got "
                         << threads;
  return success();
}

LogicalResult WarpSpecializeOp::verify() {
  for (int32_t regs : {getProducerRegs(), getConsumerRegs()})
    if (regs < 24 || regs > 256 || regs % 8 != 0)
      return emitOpError() << "register counts must be multiples of 8 in "
                              "[24, 256] (setmaxnreg), got "
                           << regs;
  // setmaxnreg acts on whole warpgroups.
  for (int32_t warps : {getProducerWarps(), getConsumerWarps()})
    if (warps <= 0 || warps % 4 != 0)
      return emitOpError() << "each role needs whole warpgroups (a positive "
                              "multiple of 4 warps), got "
                           << warps;
  int64_t total = int64_t(getProducerWarps()) * getProducerRegs() +
                  int64_t(getConsumerWarps()) * getConsumerRegs();
  if (total * 32 > 65536)
    return emitOpError() << "the roles need " << total * 32
                         << " registers; an SM has 65536";
  return success();
}

#define GET_OP_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"

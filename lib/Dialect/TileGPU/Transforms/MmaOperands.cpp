//===- MmaOperands.cpp - mma operands staged in shared memory -------------===//
//
// The staging tilegpu-assign-layouts emits for tensor-core operands: a tile
// loaded from a view goes to shared memory by cp.async (the view's
// alignment sets the copy width in the lowering), or, for views aligned
// below 4 bytes, by a register load and tilegpu.local_store; a computed
// tile goes by tilegpu.local_store. Each is followed by a barrier, and
// preceded by one inside loops (the previous iteration may still read the
// buffer).
//
// An operand that is the transpose of a loaded tile (tile.permute [1, 0])
// reads that load's buffer: a shared tile [R, C] holds the same bytes as
// its transpose [C, R] read with the other dimension contiguous, so the
// mma takes the buffer with transpose_a / transpose_b instead of a second
// buffer, copy and barrier (attention backward's Q^T and dO^T).
//
//===----------------------------------------------------------------------===//

#include "LayoutRules.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tilegpu;

/// `value` without reshapes that only add or drop unit dimensions.
static Value withoutUnitReshapes(Value value) {
  auto nonUnit = [](RankedTensorType type) {
    SmallVector<int64_t> sizes;
    for (int64_t d : type.getShape())
      if (d != 1)
        sizes.push_back(d);
    return sizes;
  };
  while (auto reshape = value.getDefiningOp<tile::ReshapeOp>()) {
    auto from = cast<RankedTensorType>(reshape.getSource().getType());
    auto to = cast<RankedTensorType>(value.getType());
    if (!from.hasStaticShape() || !to.hasStaticShape() ||
        nonUnit(from) != nonUnit(to))
      break;
    value = reshape.getSource();
  }
  return value;
}

LoadOp mlir::tilegpu::getTransposedLoad(Value operand) {
  auto type = dyn_cast<RankedTensorType>(operand.getType());
  if (!type || type.getRank() != 2)
    return {};
  auto permute = withoutUnitReshapes(operand).getDefiningOp<tile::PermuteOp>();
  if (!permute || permute.getPermutation() != ArrayRef<int64_t>{1, 0})
    return {};
  auto load = withoutUnitReshapes(permute.getSource()).getDefiningOp<LoadOp>();
  if (!load || load.getType().getRank() != 2 ||
      load.getType().getDimSize(0) != type.getDimSize(1) ||
      load.getType().getDimSize(1) != type.getDimSize(0))
    return {};
  // Only a load that stageLoad stages (zero padding, a contiguous tile
  // dimension); any other stays a computed operand, staged as before.
  if (load.getPadding() != tile::Padding::zero ||
      getContiguousTileDim(load) < 0)
    return {};
  return load;
}

SharedLayoutAttr
MmaOperandStager::getOperandLayout(ArrayRef<int64_t> shape,
                                   unsigned elementBits,
                                   unsigned contiguousDim) const {
  MLIRContext *ctx = mma.getContext();
  if (mma.getVersion() == 3)
    return getWgmmaSharedLayout(ctx, elementBits, contiguousDim);
  if (padded)
    return getPaddedSharedLayout(ctx, elementBits, contiguousDim);
  return getSwizzledSharedLayout(ctx, shape, elementBits, contiguousDim);
}

Value MmaOperandStager::allocate(SharedBufferType type, Operation *loop,
                                 Location loc) {
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&func.getBody().front());
  // Loops that run one after the other (a split loop and its tail) share a
  // buffer of the same type: each copy in a loop is preceded by a barrier,
  // so the second loop cannot overwrite what the first still reads.
  Value buffer;
  if (loop)
    for (const StagedBuffer &other : stagedBuffers)
      if (other.loop && other.loop != loop && other.type == type &&
          !other.loop->isAncestor(loop) && !loop->isAncestor(other.loop) &&
          !llvm::is_contained(takenIn[loop], other.buffer)) {
        buffer = other.buffer;
        break;
      }
  if (!buffer) {
    buffer = AllocOp::create(b, loc, type, IntegerAttr());
    stagedBuffers.push_back({buffer, loop, type});
  }
  if (loop)
    takenIn[loop].push_back(buffer);
  return buffer;
}

FailureOr<Value> MmaOperandStager::stageLoad(LoadOp load, bool isOperandA) {
  if (Value buffer = staged.lookup(load.getResult()))
    return buffer;
  auto type = load.getType();
  if (type.getRank() != 2)
    return load.emitOpError() << "an mma operand must be a 2-d tile";
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  // fp8 operands (wgmma only, checked by the layout assignment) are 8-bit.
  if (bits != 16 && !(bits == 8 && mma.getVersion() == 3))
    return load.emitOpError() << "mma operands must be 16-bit";
  if (load.getPadding() != tile::Padding::zero)
    return load.emitOpError()
           << "loads feeding mma pad with zero only (mask the scores instead)";
  // cp.async moves 4, 8 or 16 bytes; a view aligned below 4 bytes (an f16
  // row of odd length) is loaded into registers and stored to shared memory.
  // So is a tile at element offsets not known to keep 4-byte alignment.
  bool byRegisters = getAccessAlign(load.getView(), load.getOffsets()) < 4;
  // The tile dimension that walks the view's last dimension is contiguous
  // in global memory; it stays contiguous in shared memory so that each
  // thread copies whole vectors.
  int contiguous = getContiguousTileDim(load);
  if (contiguous < 0 && !byRegisters)
    return load.emitOpError()
           << "cannot stage this mma operand in shared memory: no tile "
              "dimension walks the view's last (contiguous) dimension";
  if (contiguous < 0)
    contiguous = 1;
  if (byRegisters && bits == 8)
    return load.emitOpError()
           << "an fp8 mma operand is copied to shared memory by cp.async or "
              "TMA: its view needs an alignment of at least 4 bytes (rows of "
              "a multiple of 4 elements; 16 for TMA)";
  auto bufferType = SharedBufferType::get(
      func.getContext(), type.getShape(), type.getElementType(),
      getOperandLayout(type.getShape(), bits,
                       static_cast<unsigned>(contiguous)));
  auto loop = load->getParentOfType<scf::ForOp>();
  Location loc = load.getLoc();
  Value buffer = allocate(bufferType, loop, loc);
  OpBuilder b(load);
  if (byRegisters) {
    b.setInsertionPointAfter(load);
    if (loop)
      BarrierOp::create(b, loc);
    LocalStoreOp::create(b, loc, load.getResult(), buffer);
    BarrierOp::create(b, loc);
  } else {
    // Copy where the load was: a barrier first when inside a loop, then
    // wait for the copy and make it visible to every thread.
    if (loop)
      BarrierOp::create(b, loc);
    auto copy = AsyncCopyOp::create(b, loc, load.getView(), load.getOffsets(),
                                    load.getDimsAttr(), buffer, Value());
    if (Attribute latency = load->getAttr("tilegpu.latency"))
      copy->setAttr("tilegpu.latency", latency);
    AsyncCommitOp::create(b, loc);
    AsyncWaitOp::create(b, loc, 0);
    BarrierOp::create(b, loc);
  }
  staged[load.getResult()] = buffer;
  (void)isOperandA;
  return buffer;
}

FailureOr<Value> MmaOperandStager::stageValue(Value value, Operation *user,
                                              bool isOperandA) {
  if (Value buffer = staged.lookup(value))
    return buffer;
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() != 2)
    return user->emitOpError() << "an mma operand must be a 2-d tile";
  if (!type.getElementType().isF16() && !type.getElementType().isBF16())
    return user->emitOpError()
           << "a computed mma operand must be f16 or bf16, got "
           << type.getElementType();
  if (mma.getVersion() == 3 && !fitsWgmmaSharedLayout(type.getShape(), 16, 1))
    return user->emitOpError()
           << "a computed operand staged for wgmma must fill whole "
              "128B-swizzle atoms (columns a multiple of 64, rows of 8); "
              "compile with mma-version=2";
  // Row-major in shared memory: A (M x K) K-contiguous, B (K x N)
  // N-contiguous (read with ldmatrix.trans, or MN-major by wgmma).
  auto bufferType = SharedBufferType::get(
      func.getContext(), type.getShape(), type.getElementType(),
      getOperandLayout(type.getShape(), 16, /*dim=*/1));
  OpBuilder b(func.getContext());
  if (Operation *def = value.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
  Operation *parent = b.getInsertionBlock()->getParentOp();
  auto loop = dyn_cast<scf::ForOp>(parent);
  if (!loop)
    loop = parent->getParentOfType<scf::ForOp>();
  Location loc = user->getLoc();
  Value buffer = allocate(bufferType, loop, loc);
  if (loop)
    BarrierOp::create(b, loc);
  LocalStoreOp::create(b, loc, value, buffer);
  BarrierOp::create(b, loc);
  staged[value] = buffer;
  (void)isOperandA;
  return buffer;
}

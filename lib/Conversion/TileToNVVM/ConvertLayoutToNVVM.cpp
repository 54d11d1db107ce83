//===- ConvertLayoutToNVVM.cpp - tiles moving between layouts -------------===//
//
// tilegpu.convert_layout, tile.reshape and tile.permute move a tile from the
// registers of one layout to those of another (RegisterMove, Layouts.h):
// nothing when every thread holds the same elements in the same registers,
// a register shuffle when only the order differs, else through the scratch
// area in shared memory: barrier, each thread writes its elements at their
// (row-padded) row-major positions, barrier, each thread reads its new ones.
// When every element stays in its warp, the barriers are the warp's.
// tilegpu.local_store writes a register tile into a shared tile's layout.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

/// Addresses of the scratch elements a thread touches on one side of a
/// move: a per-thread part computed once plus a constant per register when
/// the index splits that way (power-of-two rows, register and thread bits
/// disjoint), else the full index per register.
class ScratchSide {
public:
  ScratchSide(OpBuilder &b, Location loc, Value base, const RegisterMove &move,
              const RegisterLayout &layout, ArrayRef<int64_t> strides,
              Value lane, Value warp)
      : b(b), loc(loc), base(base), move(move),
        map(getStridedLinearMap(layout, strides)) {
    thread = threadIndex(b, loc, layout, strides, lane, warp);
    split = move.splitsByThread(map);
    if (split)
      threadBase = elementPtr(base, paddedOffset(thread));
  }

  /// The address of register `reg`'s element.
  Value address(int64_t reg) {
    int64_t index = map.regs[reg];
    if (split) {
      int64_t bytes = move.offset(index) * move.elementBytes;
      if (bytes == 0)
        return threadBase;
      return LLVM::GEPOp::create(
          b, loc, threadBase.getType(), b.getI8Type(), threadBase,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(bytes)});
    }
    Value full = arith::AddIOp::create(b, loc, thread, i32Const(b, loc, index));
    return elementPtr(base, paddedOffset(full));
  }

private:
  Value paddedOffset(Value index) {
    Value row =
        arith::DivUIOp::create(b, loc, index, i32Const(b, loc, move.rowSize));
    return arith::AddIOp::create(
        b, loc, index,
        arith::MulIOp::create(b, loc, row, i32Const(b, loc, move.pad)));
  }
  Value elementPtr(Value ptr, Value elements) {
    Value bytes = arith::MulIOp::create(b, loc, elements,
                                        i32Const(b, loc, move.elementBytes));
    return LLVM::GEPOp::create(b, loc, ptr.getType(), b.getI8Type(), ptr,
                               ValueRange{bytes});
  }

  OpBuilder &b;
  Location loc;
  Value base;
  const RegisterMove &move;
  LinearMap map;
  Value thread, threadBase;
  bool split = false;
};

/// The registers of `source` (converted) moved as `move` says.
FailureOr<Value> moveRegisters(ConversionPatternRewriter &rewriter,
                               Operation *op, Value source, Type resultType,
                               const RegisterMove &move) {
  Location loc = op->getLoc();
  switch (move.kind) {
  case RegisterMove::None:
    return source;
  case RegisterMove::Permutation:
    return Value(vector::ShuffleOp::create(rewriter, loc, resultType, source,
                                           source, move.shuffle));
  case RegisterMove::Shared:
    break;
  }
  FailureOr<Value> base = scratchBase(rewriter, loc, op);
  if (failed(base))
    return failure();
  Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
  Type elementType = cast<VectorType>(resultType).getElementType();
  // A warp-local move has scratch of its own that only its warp touches:
  // a warp barrier orders it. Else the previous user of the scratch area
  // may still read it, in any warp.
  auto barrier = [&] {
    if (move.warpLocal)
      NVVM::SyncWarpOp::create(rewriter, loc, i32Const(rewriter, loc, -1));
    else
      scratchBarrier(rewriter, loc, op);
  };
  barrier();
  SmallVector<Value> elements = unpackVector(rewriter, loc, source);
  ScratchSide writer(rewriter, loc, *base, move, move.src, move.srcStrides,
                     lane, warp);
  for (size_t r = 0; r < elements.size(); r += move.writeVec)
    storeElements(rewriter, loc,
                  ArrayRef<Value>(elements).slice(r, move.writeVec),
                  writer.address(r));
  barrier();
  ScratchSide reader(rewriter, loc, *base, move, move.dst, move.dstStrides,
                     lane, warp);
  SmallVector<Value> out;
  for (int64_t r = 0; r < move.dst.getNumRegs(); r += move.readVec) {
    Value v = loadElements(rewriter, loc, elementType, move.readVec,
                           reader.address(r));
    if (move.readVec == 1)
      out.push_back(v);
    else
      llvm::append_range(out, unpackVector(rewriter, loc, v));
  }
  return packVector(rewriter, loc, resultType, out);
}

template <typename Op> struct MoveLowering : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSource().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> permutation;
    if constexpr (std::is_same_v<Op, PermuteOp>)
      permutation = op.getPermutation();
    FailureOr<RegisterMove> move =
        getRegisterMove(srcType, dstType, permutation);
    if (failed(move))
      return op.emitOpError()
             << "has no register move from " << srcType << " to " << dstType;
    Type resultType = this->getTypeConverter()->convertType(dstType);
    FailureOr<Value> result =
        moveRegisters(rewriter, op, adaptor.getSource(), resultType, *move);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// Each thread writes its registers to their places in the shared tile,
/// vectors of consecutive elements along its contiguous dimension.
struct LocalStoreLowering : OpConversionPattern<LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    RegisterLayout layout = getLayout(type);
    SharedBufferType bufferType = op.getBuffer().getType();
    auto shared = cast<SharedLayoutAttr>(bufferType.getLayout());
    ArrayRef<int64_t> shape = bufferType.getShape();
    Type elementType = type.getElementType();
    unsigned inner = shared.getOrder()[0];
    int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
    unsigned vec = getVectorWidth(
        layout, inner,
        std::min<unsigned>(shared.getVec(),
                           16 / std::max<int64_t>(1, elementBytes)));
    // The thread part of the contiguous coordinate, in 16-byte vectors.
    int64_t maxThread = 0;
    for (const ThreadTerm &term : layout.threadTerms[inner])
      maxThread += (term.mod - 1) * term.mul;
    unsigned chunkBits = llvm::Log2_64_Ceil(maxThread / shared.getVec() + 1);
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    Value t0 = threadCoord(rewriter, loc, layout, 0, lane, warp);
    Value t1 = threadCoord(rewriter, loc, layout, 1, lane, warp);
    Value base = opaqueInLoop(rewriter, loc, op, adaptor.getBuffer());
    SmallVector<Value> elements =
        unpackVector(rewriter, loc, adaptor.getValue());
    for (int64_t r = 0; r < layout.getNumRegs(); r += vec) {
      ArrayRef<int64_t> c = layout.regCoords[r];
      Value addr = sharedAddress(rewriter, loc, base, shared, shape,
                                 elementType, t0, c[0], t1, c[1], chunkBits);
      storeElements(rewriter, loc, ArrayRef<Value>(elements).slice(r, vec),
                    addr);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateConvertLayoutPatterns(TileTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<MoveLowering<ConvertLayoutOp>, MoveLowering<ReshapeOp>,
               MoveLowering<PermuteOp>, LocalStoreLowering>(
      converter, patterns.getContext());
}

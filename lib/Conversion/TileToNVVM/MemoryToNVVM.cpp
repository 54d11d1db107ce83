//===- MemoryToNVVM.cpp - global and shared memory ------------------------===//
//
// Shared buffers, cp.async copies into swizzled shared memory, waits and
// barriers. (Register loads and stores: GlobalAccessToNVVM.cpp.)
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

struct AllocLowering : OpConversionPattern<AllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return replaceBySharedAddress(rewriter, op, op.getOffset());
  }
};

struct SubviewLowering : OpConversionPattern<SubviewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SubviewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t bytes = op.getResult().getType().getTileBytes();
    Value offset = arith::MulIOp::create(rewriter, loc, adaptor.getStage(),
                                         i32Const(rewriter, loc, bytes));
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
        op, adaptor.getBuffer().getType(), rewriter.getI8Type(),
        adaptor.getBuffer(), ValueRange{offset});
    return success();
  }
};

/// Each thread copies 16-byte vectors of the tile: vector q of the tile
/// (row-major over the shared layout's rows) goes to thread q % threads.
struct AsyncCopyLowering : OpConversionPattern<AsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto func = op->getParentOfType<FunctionOpInterface>();
    auto warps = func->getAttrOfType<IntegerAttr>("tilegpu.num_warps");
    if (!warps)
      return op.emitOpError() << "kernel has no tilegpu.num_warps";
    int64_t threads = warps.getInt() * kWarpSize;
    // A warp-specialized kernel spreads a copy over its role's threads.
    Value tid = threadIdX(rewriter, loc);
    if (auto range = op->getAttrOfType<DenseI32ArrayAttr>("tilegpu.threads")) {
      if (range.size() != 2 || range[1] <= 0)
        return op.emitOpError() << "tilegpu.threads must be [first, count]";
      threads = range[1];
      tid = arith::SubIOp::create(rewriter, loc, tid,
                                  i32Const(rewriter, loc, range[0]));
    }
    SharedBufferType bufferType = op.getBuffer().getType();
    auto layout = cast<SharedLayoutAttr>(bufferType.getLayout());
    ArrayRef<int64_t> shape = bufferType.getTileShape();
    unsigned inner = layout.getOrder()[0];
    // 16-byte copies (cp.async.cg), or 8 and 4 bytes (cp.async.ca) for
    // views the kernel assumes aligned only that far (tile.align).
    int64_t elementBytes =
        bufferType.getElementType().getIntOrFloatBitWidth() / 8;
    int64_t copyBytes = std::min<int64_t>(16, getAccessAlign(op));
    if (copyBytes < 4)
      return op.emitOpError() << "cp.async needs views aligned to 4 bytes at "
                                 "least (this one: "
                              << copyBytes << ")";
    int64_t vec = copyBytes / elementBytes;
    int64_t innerSize = shape[inner], outerSize = shape[1 - inner];
    if (innerSize % layout.getVec() != 0)
      return op.emitOpError() << "the contiguous tile dimension (" << innerSize
                              << ") must be a multiple of " << layout.getVec();
    int64_t perRow = innerSize / vec;
    // The thread part of a column, in 16-byte vectors of the layout.
    unsigned columnBits = llvm::Log2_64(innerSize / layout.getVec());
    int64_t total = perRow * outerSize;
    unsigned rank = op.getView().getType().getRank();
    ViewDescriptor view = unpackView(rewriter, loc, adaptor.getView(), rank);
    ArrayRef<int64_t> dims = op.getDims();
    int64_t innerViewDim = dims[inner], outerViewDim = dims[1 - inner];
    Type elementType = bufferType.getElementType();

    Value perRowC = i32Const(rewriter, loc, perRow);
    Value vecC = i32Const(rewriter, loc, vec);
    Value zero = i32Const(rewriter, loc, 0);
    Value bytesPerElement = i32Const(rewriter, loc, elementBytes);
    (void)total;
    // Bytes of a vector inside the view along the contiguous dimension: 16,
    // fewer at its end, 0 past it; the rest of the 16 bytes is zero-filled.
    auto innerBytes = [&](Value innerCoord) -> Value {
      Value left = arith::SubIOp::create(rewriter, loc,
                                         view.sizes[innerViewDim], innerCoord);
      left = arith::MaxSIOp::create(rewriter, loc, left, zero);
      left = arith::MinSIOp::create(rewriter, loc, left, vecC);
      return arith::MulIOp::create(rewriter, loc, left, bytesPerElement);
    };
    auto issue = [&](Value inside, Value bytes, Value src, Value dst) {
      // A copy of 0 bytes reads nothing (the 16 bytes are zero-filled), so
      // its source address may lie outside the view, as CUTLASS's zfill
      // copies do; no clamped address needs to stay live.
      bytes = arith::SelectOp::create(rewriter, loc, inside, bytes, zero);
      NVVM::CpAsyncOp::create(rewriter, loc, dst, src,
                              static_cast<unsigned>(copyBytes),
                              copyBytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                              : NVVM::LoadCacheModifierKind::CA,
                              bytes);
    };
    Value dstBase = opaqueInLoop(rewriter, loc, op, adaptor.getBuffer());
    auto dstOf = [&](Value tRow, int64_t cRow, Value col, unsigned bits) {
      Value buffer = dstBase;
      return inner == 1 ? sharedAddress(rewriter, loc, buffer, layout, shape,
                                        elementType, tRow, cRow, col, 0, bits)
                        : sharedAddress(rewriter, loc, buffer, layout, shape,
                                        elementType, col, 0, tRow, cRow, bits);
    };

    // Row and column (in elements) of 16-byte vector `q` of the tile, and the
    // view coordinates of its first element.
    auto locate = [&](Value q, Value &row, Value &col) {
      row = arith::DivUIOp::create(rewriter, loc, q, perRowC);
      col = arith::MulIOp::create(
          rewriter, loc, arith::RemUIOp::create(rewriter, loc, q, perRowC),
          vecC);
      SmallVector<Value> coords(adaptor.getOffsets());
      coords[outerViewDim] =
          arith::AddIOp::create(rewriter, loc, coords[outerViewDim], row);
      coords[innerViewDim] =
          arith::AddIOp::create(rewriter, loc, coords[innerViewDim], col);
      return coords;
    };

    if (threads % perRow == 0) {
      // Whole rows per round: a thread keeps its vector column, its row
      // advances by rowsPerRound, and so does its source address (one
      // 64-bit add per round keeps the address registers few).
      int64_t rowsPerRound = threads / perRow;
      Value threadRow, col;
      SmallVector<Value> coords = locate(tid, threadRow, col);
      SmallVector<Value> fixedCoords(coords);
      fixedCoords[innerViewDim] = zero;
      fixedCoords[outerViewDim] = zero;
      Value fixedInside = inBounds(rewriter, loc, view, fixedCoords);
      Value bytes = innerBytes(coords[innerViewDim]);
      Value src = viewElementAddress(rewriter, loc, view, coords, elementType);
      Value step =
          arith::MulIOp::create(rewriter, loc, view.strides[outerViewDim],
                                i64Const(rewriter, loc, rowsPerRound));
      Value outer = coords[outerViewDim];
      unsigned bits = columnBits;
      for (int64_t round = 0; round * rowsPerRound < outerSize; ++round) {
        if (round > 0) {
          src = LLVM::GEPOp::create(rewriter, loc, src.getType(), elementType,
                                    src, ValueRange{step});
          outer = arith::AddIOp::create(rewriter, loc, outer,
                                        i32Const(rewriter, loc, rowsPerRound));
        }
        Value inside = arith::AndIOp::create(
            rewriter, loc, fixedInside,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  outer, view.sizes[outerViewDim]));
        if (Value pred = adaptor.getPredicate())
          inside = arith::AndIOp::create(rewriter, loc, inside, pred);
        issue(inside, bytes, src,
              dstOf(threadRow, round * rowsPerRound, col, bits));
      }
      rewriter.eraseOp(op);
      return success();
    }

    // General case: vector q of the tile goes to thread q % threads.
    for (int64_t first = 0; first < total; first += threads) {
      Value q = arith::AddIOp::create(rewriter, loc, tid,
                                      i32Const(rewriter, loc, first));
      Value active =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, q,
                                i32Const(rewriter, loc, total));
      q = arith::SelectOp::create(rewriter, loc, active, q, zero);
      Value row, col;
      SmallVector<Value> coords = locate(q, row, col);
      SmallVector<Value> outerCoords(coords);
      outerCoords[innerViewDim] = zero;
      Value inside = arith::AndIOp::create(
          rewriter, loc, inBounds(rewriter, loc, view, outerCoords), active);
      if (Value pred = adaptor.getPredicate())
        inside = arith::AndIOp::create(rewriter, loc, inside, pred);
      Value src = viewElementAddress(rewriter, loc, view, coords, elementType);
      issue(inside, innerBytes(coords[innerViewDim]), src,
            dstOf(row, 0, col, columnBits));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitLowering : OpConversionPattern<AsyncCommitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncCommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitLowering : OpConversionPattern<AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, op.getPending());
    return success();
  }
};

struct BarrierLowering : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::Barrier0Op>(op);
    return success();
  }
};

} // namespace

void lowering::populateMemoryPatterns(TileTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<AllocLowering, SubviewLowering, AsyncCopyLowering,
               AsyncCommitLowering, AsyncWaitLowering, BarrierLowering>(
      converter, patterns.getContext());
}

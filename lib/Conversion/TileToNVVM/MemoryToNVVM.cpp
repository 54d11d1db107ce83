//===- MemoryToNVVM.cpp - global and shared memory ------------------------===//
//
// Shared buffers, cp.async copies into swizzled shared memory, register
// loads and stores of distributed tiles, waits and barriers.
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
    int64_t vec = layout.getVec();
    int64_t innerSize = shape[inner], outerSize = shape[1 - inner];
    if (innerSize % vec != 0)
      return op.emitOpError() << "the contiguous tile dimension (" << innerSize
                              << ") must be a multiple of " << vec;
    int64_t perRow = innerSize / vec;
    int64_t total = perRow * outerSize;
    unsigned rank = op.getView().getType().getRank();
    ViewDescriptor view = unpackView(rewriter, loc, adaptor.getView(), rank);
    ArrayRef<int64_t> dims = op.getDims();
    int64_t innerViewDim = dims[inner], outerViewDim = dims[1 - inner];
    Type elementType = bufferType.getElementType();
    int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;

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
      NVVM::CpAsyncOp::create(rewriter, loc, dst, src, /*size=*/16u,
                              NVVM::LoadCacheModifierKind::CG, bytes);
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
      unsigned bits = llvm::Log2_64(perRow);
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
            dstOf(row, 0, col, llvm::Log2_64(perRow)));
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

/// The thread-dependent part of every coordinate of a layout.
SmallVector<Value> threadCoords(OpBuilder &b, Location loc,
                                const RegisterLayout &layout, Value lane,
                                Value warp) {
  SmallVector<Value> coords;
  for (unsigned d = 0; d < layout.threadTerms.size(); ++d)
    coords.push_back(threadCoord(b, loc, layout, d, lane, warp));
  return coords;
}

/// Coordinates of register `reg` of a distributed tile in the view:
/// the tile's non-unit dimensions walk `dims` from the offsets.
SmallVector<Value>
registerViewCoords(OpBuilder &b, Location loc, RankedTensorType type,
                   const RegisterLayout &layout, ArrayRef<Value> threadPart,
                   ValueRange offsets, ArrayRef<int64_t> dims, int64_t reg) {
  SmallVector<Value> coords(offsets);
  unsigned next = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.getDimSize(d) == 1 &&
        type.getRank() > static_cast<int64_t>(dims.size()))
      continue;
    int64_t viewDim = dims[next++];
    Value c = arith::AddIOp::create(b, loc, threadPart[d],
                                    i32Const(b, loc, layout.regCoords[reg][d]));
    coords[viewDim] = arith::AddIOp::create(b, loc, coords[viewDim], c);
  }
  return coords;
}

struct LoadLowering : OpConversionPattern<tilegpu::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    RegisterLayout layout = getLayout(type);
    unsigned rank = op.getView().getType().getRank();
    ViewDescriptor view = unpackView(rewriter, loc, adaptor.getView(), rank);
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    SmallVector<Value> threadPart =
        threadCoords(rewriter, loc, layout, lane, warp);
    Type elementType = type.getElementType();
    auto floatType = dyn_cast<FloatType>(elementType);
    TypedAttr padAttr;
    switch (op.getPadding()) {
    case Padding::zero:
      padAttr = rewriter.getZeroAttr(elementType);
      break;
    case Padding::neg_inf:
    case Padding::pos_inf:
      padAttr = FloatAttr::get(
          floatType, APFloat::getInf(floatType.getFloatSemantics(),
                                     op.getPadding() == Padding::neg_inf));
      break;
    case Padding::nan:
      padAttr = FloatAttr::get(floatType,
                               APFloat::getNaN(floatType.getFloatSemantics()));
      break;
    }
    Value pad = arith::ConstantOp::create(rewriter, loc, padAttr);
    SmallVector<Value> elements;
    for (int64_t reg = 0; reg < layout.getNumRegs(); ++reg) {
      SmallVector<Value> coords =
          registerViewCoords(rewriter, loc, type, layout, threadPart,
                             adaptor.getOffsets(), op.getDims(), reg);
      Value inside = inBounds(rewriter, loc, view, coords);
      SmallVector<Value> safe;
      for (Value c : coords)
        safe.push_back(arith::SelectOp::create(rewriter, loc, inside, c,
                                               i32Const(rewriter, loc, 0)));
      Value addr = viewElementAddress(rewriter, loc, view, safe, elementType);
      Value value = LLVM::LoadOp::create(rewriter, loc, elementType, addr);
      elements.push_back(
          arith::SelectOp::create(rewriter, loc, inside, value, pad));
    }
    rewriter.replaceOp(op, packVector(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      elements));
    return success();
  }
};

/// Stores every register the thread owns, predicated on the view's bounds;
/// two 16-bit elements adjacent along the view's last dimension go out as
/// one 32-bit store (the view's last dimension is contiguous).
struct StoreLowering : OpConversionPattern<tilegpu::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    RegisterLayout layout = getLayout(type);
    unsigned rank = op.getView().getType().getRank();
    ViewDescriptor view = unpackView(rewriter, loc, adaptor.getView(), rank);
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    SmallVector<Value> threadPart =
        threadCoords(rewriter, loc, layout, lane, warp);
    Value owner = isOwnerThread(rewriter, loc, layout, lane, warp);
    Type elementType = type.getElementType();
    SmallVector<Value> elements =
        unpackVector(rewriter, loc, adaptor.getValue());
    ArrayRef<int64_t> dims = op.getDims();
    int64_t lastTileDim = type.getRank() - 1;
    bool canPair = elementType.getIntOrFloatBitWidth() == 16 && !dims.empty() &&
                   dims.back() == static_cast<int64_t>(rank) - 1 &&
                   type.getDimSize(lastTileDim) % 2 == 0;
    for (int64_t reg = 0; reg < layout.getNumRegs(); ++reg) {
      SmallVector<Value> coords =
          registerViewCoords(rewriter, loc, type, layout, threadPart,
                             adaptor.getOffsets(), dims, reg);
      // Pair with the next register when it is the next element of the row.
      bool paired = false;
      if (canPair && reg + 1 < layout.getNumRegs()) {
        SmallVector<int64_t> next(layout.regCoords[reg].begin(),
                                  layout.regCoords[reg].end());
        next[lastTileDim] += 1;
        paired = layout.regCoords[reg + 1] == ArrayRef<int64_t>(next) &&
                 layout.regCoords[reg][lastTileDim] % 2 == 0;
      }
      Value inside = inBounds(rewriter, loc, view, coords);
      if (owner)
        inside = arith::AndIOp::create(rewriter, loc, inside, owner);
      if (!paired) {
        storeIf(rewriter, loc, inside, elements[reg], view, coords, elementType,
                /*alignment=*/0);
        continue;
      }
      // The pair's second element is inside when its column is: then one
      // 32-bit store; else the first alone, if it is inside.
      SmallVector<Value> second(coords);
      second[rank - 1] = arith::AddIOp::create(rewriter, loc, second[rank - 1],
                                               i32Const(rewriter, loc, 1));
      Value both = arith::AndIOp::create(rewriter, loc, inside,
                                         inBounds(rewriter, loc, view, second));
      auto pairType = VectorType::get({2}, elementType);
      Value pair = vector::FromElementsOp::create(
          rewriter, loc, pairType,
          ValueRange{elements[reg], elements[reg + 1]});
      auto ifOp = scf::IfOp::create(rewriter, loc, both, /*else=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
        Value addr =
            viewElementAddress(rewriter, loc, view, coords, elementType);
        LLVM::StoreOp::create(rewriter, loc, pair, addr, /*alignment=*/4);
        rewriter.setInsertionPointToStart(ifOp.elseBlock());
        storeIf(rewriter, loc, inside, elements[reg], view, coords, elementType,
                /*alignment=*/0);
      }
      ++reg;
    }
    rewriter.eraseOp(op);
    return success();
  }

  static void storeIf(OpBuilder &b, Location loc, Value cond, Value value,
                      const ViewDescriptor &view, ArrayRef<Value> coords,
                      Type elementType, unsigned alignment) {
    auto ifOp = scf::IfOp::create(b, loc, cond, /*else=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value addr = viewElementAddress(b, loc, view, coords, elementType);
    LLVM::StoreOp::create(b, loc, value, addr, alignment);
  }
};

} // namespace

void lowering::populateMemoryPatterns(TileTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<AllocLowering, SubviewLowering, AsyncCopyLowering,
               AsyncCommitLowering, AsyncWaitLowering, BarrierLowering,
               LoadLowering, StoreLowering>(converter, patterns.getContext());
}

//===- GlobalAccessToNVVM.cpp - register loads and stores of views --------===//
//
// tilegpu.load and tilegpu.store: each thread accesses the elements its
// layout gives it, masked at the view's bounds (loads read the padding
// value there, stores skip), one writer per replicated element. Registers
// holding consecutive elements along the view's contiguous dimension go as
// one vector access (ld/st.global.v2/v4, up to 16 bytes) when the view's
// alignment (tile.align, contract C2) and the tile's offset allow it; a
// vector that crosses the view's edge goes element by element.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

/// The thread-dependent part of every coordinate of a layout.
SmallVector<Value> threadCoords(OpBuilder &b, Location loc,
                                const RegisterLayout &layout, Value lane,
                                Value warp) {
  SmallVector<Value> coords;
  for (unsigned d = 0; d < layout.threadTerms.size(); ++d)
    coords.push_back(threadCoord(b, loc, layout, d, lane, warp));
  return coords;
}

/// Calls `fn(tileDim, viewDim)` for each tile dimension that walks a view
/// dimension: the tile's non-unit dimensions walk `dims` when it has fewer
/// entries than the tile's rank.
template <typename Fn>
void forEachWalkedDim(RankedTensorType type, ArrayRef<int64_t> dims, Fn fn) {
  unsigned next = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.getDimSize(d) == 1 &&
        type.getRank() > static_cast<int64_t>(dims.size()))
      continue;
    fn(d, dims[next++]);
  }
}

/// The tile dimension that walks view dimension `viewDim`, or -1.
int tileDimOf(RankedTensorType type, ArrayRef<int64_t> dims, int64_t viewDim) {
  int found = -1;
  forEachWalkedDim(type, dims, [&](int64_t d, int64_t walked) {
    if (walked == viewDim && found < 0)
      found = static_cast<int>(d);
  });
  return found;
}

/// Coordinates of register `reg` of a distributed tile in the view:
/// the tile's non-unit dimensions walk `dims` from the offsets.
SmallVector<Value>
registerViewCoords(OpBuilder &b, Location loc, RankedTensorType type,
                   const RegisterLayout &layout, ArrayRef<Value> threadPart,
                   ValueRange offsets, ArrayRef<int64_t> dims, int64_t reg) {
  SmallVector<Value> coords(offsets);
  forEachWalkedDim(type, dims, [&](int64_t d, int64_t viewDim) {
    Value c = arith::AddIOp::create(b, loc, threadPart[d],
                                    i32Const(b, loc, layout.regCoords[reg][d]));
    coords[viewDim] = arith::AddIOp::create(b, loc, coords[viewDim], c);
  });
  return coords;
}

/// The addresses of a thread's registers as one base (the offsets plus the
/// thread's part of the coordinates) and a per-register offset (the
/// register's constant part times the strides): along the contiguous
/// dimension (stride 1) that offset is a constant, which folds into the
/// access's immediate, so a thread keeps one address a view instead of one
/// a vector. Equal to viewElementAddress at in-bounds coordinates (their
/// i32 sums cannot wrap there); only used where the access is inside.
struct ThreadAddresses {
  Value base;
  const ViewDescriptor &view;
  RankedTensorType type;
  const RegisterLayout &layout;
  ArrayRef<int64_t> dims;

  ThreadAddresses(OpBuilder &b, Location loc, const ViewDescriptor &view,
                  RankedTensorType type, const RegisterLayout &layout,
                  ArrayRef<Value> threadPart, ValueRange offsets,
                  ArrayRef<int64_t> dims, Type elementType)
      : view(view), type(type), layout(layout), dims(dims) {
    SmallVector<Value> coords(offsets);
    forEachWalkedDim(type, dims, [&](int64_t d, int64_t viewDim) {
      coords[viewDim] =
          arith::AddIOp::create(b, loc, coords[viewDim], threadPart[d]);
    });
    base = viewElementAddress(b, loc, view, coords, elementType);
  }

  Value of(OpBuilder &b, Location loc, int64_t reg, Type elementType) const {
    Value offset;
    forEachWalkedDim(type, dims, [&](int64_t d, int64_t viewDim) {
      int64_t c = layout.regCoords[reg][d];
      if (c == 0)
        return;
      Value term = arith::MulIOp::create(b, loc, i64Const(b, loc, c),
                                         view.strides[viewDim]);
      offset = offset ? arith::AddIOp::create(b, loc, offset, term) : term;
    });
    if (!offset)
      return base;
    return LLVM::GEPOp::create(b, loc, base.getType(), elementType, base,
                               ValueRange{offset});
  }
};

/// Registers per vector access of `op` to a tile in `layout`: consecutive
/// along the tile dimension that walks the view's contiguous dimension, at
/// most 16 bytes and the view's alignment, and only when the tile's offset
/// there keeps vectors aligned.
unsigned accessWidth(Operation *op, RankedTensorType type,
                     const RegisterLayout &layout, ValueRange offsets,
                     ArrayRef<int64_t> dims, unsigned viewRank) {
  Type elementType = type.getElementType();
  if (elementType.isInteger(1))
    return 1;
  int dim = tileDimOf(type, dims, viewRank - 1);
  if (dim < 0)
    return 1;
  int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  int64_t bytes = std::min<int64_t>(16, getAccessAlign(op));
  int64_t maxWidth = std::max<int64_t>(1, bytes / elementBytes);
  maxWidth = std::min(maxWidth, knownDivisor(offsets[viewRank - 1]));
  return getVectorWidth(layout, dim, static_cast<unsigned>(maxWidth));
}

/// The coordinates `coords` moved by `k` along the view's last dimension.
SmallVector<Value> along(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                         int64_t k) {
  SmallVector<Value> out(coords);
  out.back() = arith::AddIOp::create(b, loc, out.back(), i32Const(b, loc, k));
  return out;
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
      if (!floatType)
        return op.emitOpError() << "pads an integer tile with infinity";
      padAttr = FloatAttr::get(
          floatType, APFloat::getInf(floatType.getFloatSemantics(),
                                     op.getPadding() == Padding::neg_inf));
      break;
    case Padding::nan:
      if (!floatType)
        return op.emitOpError() << "pads an integer tile with NaN";
      padAttr = FloatAttr::get(floatType,
                               APFloat::getNaN(floatType.getFloatSemantics()));
      break;
    }
    Value pad = arith::ConstantOp::create(rewriter, loc, padAttr);
    unsigned width =
        accessWidth(op, type, layout, op.getOffsets(), op.getDims(), rank);
    ThreadAddresses addresses(rewriter, loc, view, type, layout, threadPart,
                              adaptor.getOffsets(), op.getDims(), elementType);
    // One element, masked: out-of-bounds elements read the padding.
    // Outside, it reads the view's first element instead (the address
    // stays valid) and discards it.
    auto loadOne = [&](ArrayRef<Value> coords, int64_t reg) -> Value {
      Value inside = inBounds(rewriter, loc, view, coords);
      Value addr = LLVM::SelectOp::create(
          rewriter, loc, inside, addresses.of(rewriter, loc, reg, elementType),
          view.ptr);
      Value value = loadElements(rewriter, loc, elementType, 1, addr);
      return arith::SelectOp::create(rewriter, loc, inside, value, pad);
    };
    SmallVector<Value> elements;
    for (int64_t reg = 0; reg < layout.getNumRegs(); reg += width) {
      SmallVector<Value> coords =
          registerViewCoords(rewriter, loc, type, layout, threadPart,
                             adaptor.getOffsets(), op.getDims(), reg);
      if (width == 1) {
        elements.push_back(loadOne(coords, reg));
        continue;
      }
      // The whole vector inside: one load; else element by element. (One
      // branch for all of a thread's vectors instead, with the loads in one
      // block, was measured slower for the row kernels: more registers.)
      Value full = inBounds(rewriter, loc, view,
                            along(rewriter, loc, coords, width - 1));
      full = arith::AndIOp::create(rewriter, loc, full,
                                   inBounds(rewriter, loc, view, coords));
      auto vectorType = VectorType::get({width}, elementType);
      auto ifOp = scf::IfOp::create(rewriter, loc, vectorType, full,
                                    /*withElse=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
        Value addr = addresses.of(rewriter, loc, reg, elementType);
        scf::YieldOp::create(
            rewriter, loc,
            loadElements(rewriter, loc, elementType, width, addr));
        rewriter.setInsertionPointToStart(ifOp.elseBlock());
        SmallVector<Value> parts;
        for (unsigned k = 0; k < width; ++k)
          parts.push_back(loadOne(along(rewriter, loc, coords, k), reg + k));
        scf::YieldOp::create(rewriter, loc,
                             packVector(rewriter, loc, vectorType, parts));
      }
      llvm::append_range(elements,
                         unpackVector(rewriter, loc, ifOp.getResult(0)));
    }
    rewriter.replaceOp(op, packVector(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      elements));
    return success();
  }
};

/// Stores every register the thread owns, predicated on the view's bounds;
/// runs of registers consecutive along the view's last dimension go out as
/// one vector store when all of it is inside.
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
    unsigned width = accessWidth(op, type, layout, op.getOffsets(), dims, rank);
    ThreadAddresses addresses(rewriter, loc, view, type, layout, threadPart,
                              adaptor.getOffsets(), dims, elementType);
    for (int64_t reg = 0; reg < layout.getNumRegs(); reg += width) {
      SmallVector<Value> coords =
          registerViewCoords(rewriter, loc, type, layout, threadPart,
                             adaptor.getOffsets(), dims, reg);
      Value inside = inBounds(rewriter, loc, view, coords);
      if (owner)
        inside = arith::AndIOp::create(rewriter, loc, inside, owner);
      if (width == 1) {
        storeIf(rewriter, loc, inside, elements[reg], addresses, reg,
                elementType);
        continue;
      }
      // The vector's last element is inside when the whole vector is: then
      // one store; else those of its elements that are inside (never the
      // last).
      Value full = arith::AndIOp::create(
          rewriter, loc, inside,
          inBounds(rewriter, loc, view,
                   along(rewriter, loc, coords, width - 1)));
      auto vectorType = VectorType::get({width}, elementType);
      Value vector = vector::FromElementsOp::create(
          rewriter, loc, vectorType,
          ArrayRef<Value>(elements).slice(reg, width));
      auto ifOp = scf::IfOp::create(rewriter, loc, full, /*else=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
        Value addr = addresses.of(rewriter, loc, reg, elementType);
        int64_t bytes = elementType.getIntOrFloatBitWidth() / 8 * width;
        LLVM::StoreOp::create(rewriter, loc, vector, addr, bytes);
        rewriter.setInsertionPointToStart(ifOp.elseBlock());
        storeIf(rewriter, loc, inside, elements[reg], addresses, reg,
                elementType);
        for (unsigned k = 1; k + 1 < width; ++k) {
          SmallVector<Value> at = along(rewriter, loc, coords, k);
          Value in = inBounds(rewriter, loc, view, at);
          if (owner)
            in = arith::AndIOp::create(rewriter, loc, in, owner);
          storeIf(rewriter, loc, in, elements[reg + k], addresses, reg + k,
                  elementType);
        }
      }
    }
    rewriter.eraseOp(op);
    return success();
  }

  static void storeIf(OpBuilder &b, Location loc, Value cond, Value value,
                      const ThreadAddresses &addresses, int64_t reg,
                      Type elementType) {
    auto ifOp = scf::IfOp::create(b, loc, cond, /*else=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value addr = addresses.of(b, loc, reg, elementType);
    if (elementType.isInteger(1))
      storeElements(b, loc, value, addr);
    else
      LLVM::StoreOp::create(b, loc, value, addr, /*alignment=*/0);
  }
};

} // namespace

void lowering::populateGlobalAccessPatterns(TileTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<LoadLowering, StoreLowering>(converter, patterns.getContext());
}

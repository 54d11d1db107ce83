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
// Element-addressed accesses: tile.read (one element, every thread reads
// it), tile.gather / tile.scatter (each register's coordinates come from the
// index tiles' registers, which share its layout), tilegpu.atomic (one
// atomic instruction per owned element, at GPU scope) and the scalar
// tile.atomic (one thread of the block, the block synchronized around it,
// the old value handed to all through the scratch area).
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

/// The value read for an out-of-bounds element of a load or gather.
FailureOr<Value> paddingConstant(OpBuilder &b, Location loc, Operation *op,
                                 Padding padding, Type elementType) {
  auto floatType = dyn_cast<FloatType>(elementType);
  TypedAttr padAttr;
  switch (padding) {
  case Padding::zero:
    padAttr = b.getZeroAttr(elementType);
    break;
  case Padding::neg_inf:
  case Padding::pos_inf:
    if (!floatType)
      return op->emitOpError() << "pads an integer tile with infinity";
    padAttr =
        FloatAttr::get(floatType, APFloat::getInf(floatType.getFloatSemantics(),
                                                  padding == Padding::neg_inf));
    break;
  case Padding::nan:
    if (!floatType)
      return op->emitOpError() << "pads an integer tile with NaN";
    padAttr = FloatAttr::get(floatType,
                             APFloat::getNaN(floatType.getFloatSemantics()));
    break;
  }
  return Value(arith::ConstantOp::create(b, loc, padAttr));
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
    FailureOr<Value> padValue =
        paddingConstant(rewriter, loc, op, op.getPadding(), elementType);
    if (failed(padValue))
      return failure();
    Value pad = *padValue;
    // fp8 has no LLVM type: its bytes are loaded as i8 (and the padding's
    // bit pattern with them), the result bitcast back.
    bool fp8 = isa<Float8E4M3FNType, Float8E5M2Type>(elementType);
    if (fp8) {
      elementType = rewriter.getI8Type();
      pad = arith::BitcastOp::create(rewriter, loc, elementType, pad);
    }
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
    Type resultType = getTypeConverter()->convertType(type);
    if (fp8) {
      Value bytes = packVector(
          rewriter, loc,
          VectorType::get({static_cast<int64_t>(elements.size())}, elementType),
          elements);
      rewriter.replaceOp(
          op, arith::BitcastOp::create(rewriter, loc, resultType, bytes));
      return success();
    }
    rewriter.replaceOp(op, packVector(rewriter, loc, resultType, elements));
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
    Value registers = adaptor.getValue();
    // fp8 has no LLVM type: its bytes are stored as i8.
    if (isa<Float8E4M3FNType, Float8E5M2Type>(elementType)) {
      elementType = rewriter.getI8Type();
      registers = arith::BitcastOp::create(
          rewriter, loc,
          VectorType::get(cast<VectorType>(registers.getType()).getShape(),
                          elementType),
          registers);
    }
    SmallVector<Value> elements = unpackVector(rewriter, loc, registers);
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

//===----------------------------------------------------------------------===//
// Element-addressed accesses
//===----------------------------------------------------------------------===//

/// `value` if `cond`, else `otherwise`, computed only when `cond` holds
/// (an scf.if yielding the result of `build`).
Value guarded(OpBuilder &b, Location loc, Value cond, Type type,
              function_ref<Value(OpBuilder &)> build, Value otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, type, cond, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, build(b));
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, loc, otherwise);
  return ifOp.getResult(0);
}

/// The coordinates of element `reg` of an element-addressed access (one
/// index tile per view dimension, registers unpacked) as i32, and whether
/// they lie inside the view. i64 indices are checked before narrowing.
Value indexedCoords(OpBuilder &b, Location loc, const ViewDescriptor &view,
                    ArrayRef<SmallVector<Value>> indices, int64_t reg,
                    SmallVector<Value> &coords) {
  Value ok;
  coords.clear();
  for (auto [d, regs] : llvm::enumerate(indices)) {
    Value index = regs[reg];
    Value in;
    if (index.getType().isInteger(64)) {
      Value size =
          arith::ExtSIOp::create(b, loc, b.getI64Type(), view.sizes[d]);
      in =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, size);
      index = arith::TruncIOp::create(b, loc, b.getI32Type(), index);
    } else {
      in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                                 view.sizes[d]);
    }
    coords.push_back(index);
    ok = ok ? arith::AndIOp::create(b, loc, ok, in) : in;
  }
  return ok;
}

/// The registers of a gather's or scatter's index tiles and mask, which
/// share the data tile's layout.
struct IndexRegisters {
  SmallVector<SmallVector<Value>> indices;
  SmallVector<Value> mask;

  IndexRegisters(OpBuilder &b, Location loc, ValueRange indexTiles,
                 Value maskTile) {
    for (Value index : indexTiles)
      indices.push_back(unpackVector(b, loc, index));
    if (maskTile)
      mask = unpackVector(b, loc, maskTile);
  }

  /// Whether element `reg` is inside the view and not masked off; its
  /// coordinates in `coords`.
  Value inside(OpBuilder &b, Location loc, const ViewDescriptor &view,
               int64_t reg, SmallVector<Value> &coords) const {
    Value ok = indexedCoords(b, loc, view, indices, reg, coords);
    return mask.empty() ? ok : arith::AndIOp::create(b, loc, ok, mask[reg]);
  }
};

struct ReadLowering : OpConversionPattern<tile::ReadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned rank = op.getView().getType().getRank();
    ViewDescriptor view = unpackView(rewriter, loc, adaptor.getView(), rank);
    SmallVector<Value> coords(adaptor.getIndices());
    Value inside = inBounds(rewriter, loc, view, coords);
    Type type = op.getType();
    // Outside, the view's first element is read instead and discarded.
    Value addr = LLVM::SelectOp::create(
        rewriter, loc, inside,
        viewElementAddress(rewriter, loc, view, coords, type), view.ptr);
    Value value = loadElements(rewriter, loc, type, 1, addr);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type));
    rewriter.replaceOp(
        op, arith::SelectOp::create(rewriter, loc, inside, value, zero));
    return success();
  }
};

struct GatherLowering : OpConversionPattern<tile::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    RegisterLayout layout = getLayout(type);
    unsigned rank = op.getView().getType().getRank();
    ViewDescriptor view = unpackView(rewriter, loc, adaptor.getView(), rank);
    Type elementType = type.getElementType();
    FailureOr<Value> pad =
        paddingConstant(rewriter, loc, op, op.getPadding(), elementType);
    if (failed(pad))
      return failure();
    IndexRegisters index(rewriter, loc, adaptor.getIndices(),
                         adaptor.getMask());
    SmallVector<Value> elements, coords;
    for (int64_t reg = 0; reg < layout.getNumRegs(); ++reg) {
      Value inside = index.inside(rewriter, loc, view, reg, coords);
      Value addr = LLVM::SelectOp::create(
          rewriter, loc, inside,
          viewElementAddress(rewriter, loc, view, coords, elementType),
          view.ptr);
      Value value = loadElements(rewriter, loc, elementType, 1, addr);
      elements.push_back(
          arith::SelectOp::create(rewriter, loc, inside, value, *pad));
    }
    rewriter.replaceOp(op, packVector(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      elements));
    return success();
  }
};

struct ScatterLowering : OpConversionPattern<tile::ScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    RegisterLayout layout = getLayout(type);
    unsigned rank = op.getView().getType().getRank();
    ViewDescriptor view = unpackView(rewriter, loc, adaptor.getView(), rank);
    Value owner = isOwnerThread(rewriter, loc, layout, laneId(rewriter, loc),
                                warpId(rewriter, loc));
    Type elementType = type.getElementType();
    SmallVector<Value> values = unpackVector(rewriter, loc, adaptor.getValue());
    IndexRegisters index(rewriter, loc, adaptor.getIndices(),
                         adaptor.getMask());
    SmallVector<Value> coords;
    for (int64_t reg = 0; reg < layout.getNumRegs(); ++reg) {
      Value inside = index.inside(rewriter, loc, view, reg, coords);
      if (owner)
        inside = arith::AndIOp::create(rewriter, loc, inside, owner);
      auto ifOp = scf::IfOp::create(rewriter, loc, inside, /*else=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      storeElements(
          rewriter, loc, values[reg],
          viewElementAddress(rewriter, loc, view, coords, elementType));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

LLVM::AtomicOrdering atomicOrdering(MemoryOrder order) {
  switch (order) {
  case MemoryOrder::relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case MemoryOrder::acquire:
    return LLVM::AtomicOrdering::acquire;
  case MemoryOrder::release:
    return LLVM::AtomicOrdering::release;
  case MemoryOrder::acq_rel:
    return LLVM::AtomicOrdering::acq_rel;
  }
  return LLVM::AtomicOrdering::monotonic;
}

/// GPU scope (PTX `.gpu`): every block of the grid sees the operation.
constexpr llvm::StringLiteral kGpuScope = "device";

/// One atomic read-modify-write of the element at `addr`; the old value.
Value emitAtomic(OpBuilder &b, Location loc, AtomicKind kind, MemoryOrder order,
                 Value addr, Value value, Value compare) {
  Type type = value.getType();
  bool isFloat = isa<FloatType>(type);
  unsigned bytes = type.getIntOrFloatBitWidth() / 8;
  if (kind == AtomicKind::cas) {
    LLVM::AtomicOrdering failure =
        order == MemoryOrder::acquire || order == MemoryOrder::acq_rel
            ? LLVM::AtomicOrdering::acquire
            : LLVM::AtomicOrdering::monotonic;
    auto cas = LLVM::AtomicCmpXchgOp::create(b, loc, addr, compare, value,
                                             atomicOrdering(order), failure,
                                             kGpuScope, bytes);
    return LLVM::ExtractValueOp::create(b, loc, cas, ArrayRef<int64_t>{0});
  }
  LLVM::AtomicBinOp binOp = LLVM::AtomicBinOp::xchg;
  switch (kind) {
  case AtomicKind::add:
    binOp = isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
    break;
  case AtomicKind::max:
    binOp = isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max;
    break;
  case AtomicKind::min:
    binOp = isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min;
    break;
  case AtomicKind::xchg:
  case AtomicKind::cas:
    break;
  }
  // NVPTX (LLVM 22) drops the ordering of an atomicrmw (it emits a relaxed
  // atom); the fences give it: a release fence before a relaxed RMW is a
  // release, an acquire fence after it an acquire (fence.acq_rel.gpu).
  bool releases =
      order == MemoryOrder::release || order == MemoryOrder::acq_rel;
  bool acquires =
      order == MemoryOrder::acquire || order == MemoryOrder::acq_rel;
  if (releases)
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, kGpuScope);
  Value old = LLVM::AtomicRMWOp::create(b, loc, binOp, addr, value,
                                        LLVM::AtomicOrdering::monotonic,
                                        kGpuScope, bytes);
  if (acquires)
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acquire, kGpuScope);
  return old;
}

/// A tile atomic: every owned element inside the view (and the mask) is
/// combined by one atomic instruction; the others give 0.
struct AtomicLowering : OpConversionPattern<tilegpu::AtomicOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::AtomicOp op, OpAdaptor adaptor,
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
    if (owner && op.getResult())
      return op.emitOpError()
             << "returns old values from a tile held by several threads each "
                "(a layout that replicates it): not lowered";
    Type elementType = type.getElementType();
    SmallVector<Value> values = unpackVector(rewriter, loc, adaptor.getValue());
    SmallVector<Value> compare, mask;
    if (adaptor.getCompare())
      compare = unpackVector(rewriter, loc, adaptor.getCompare());
    if (adaptor.getMask())
      mask = unpackVector(rewriter, loc, adaptor.getMask());
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(elementType));
    if (op.getVector()) {
      unsigned width =
          accessWidth(op, type, layout, op.getOffsets(), op.getDims(), rank);
      if (width > 1) {
        reduceVectors(rewriter, loc, op, type, layout, view, threadPart,
                      adaptor.getOffsets(), owner, values, width);
        rewriter.eraseOp(op);
        return success();
      }
    }
    SmallVector<Value> old;
    for (int64_t reg = 0; reg < layout.getNumRegs(); ++reg) {
      SmallVector<Value> coords =
          registerViewCoords(rewriter, loc, type, layout, threadPart,
                             adaptor.getOffsets(), op.getDims(), reg);
      Value inside = inBounds(rewriter, loc, view, coords);
      if (!mask.empty())
        inside = arith::AndIOp::create(rewriter, loc, inside, mask[reg]);
      if (owner)
        inside = arith::AndIOp::create(rewriter, loc, inside, owner);
      old.push_back(guarded(
          rewriter, loc, inside, elementType,
          [&](OpBuilder &b) {
            Value addr = viewElementAddress(b, loc, view, coords, elementType);
            return emitAtomic(b, loc, op.getKind(), op.getSem(), addr,
                              values[reg],
                              compare.empty() ? Value() : compare[reg]);
          },
          zero));
    }
    if (op.getResult())
      rewriter.replaceOp(op, packVector(rewriter, loc,
                                        getTypeConverter()->convertType(
                                            op.getResult().getType()),
                                        old));
    else
      rewriter.eraseOp(op);
    return success();
  }

  /// `vector`: each run of `width` registers along the contiguous dimension
  /// (aligned, as accessWidth proved) is added by one red.global.add.vN.f32
  /// when its last element is inside the view; else element by element.
  static void reduceVectors(OpBuilder &b, Location loc, tilegpu::AtomicOp op,
                            RankedTensorType type, const RegisterLayout &layout,
                            const ViewDescriptor &view,
                            ArrayRef<Value> threadPart, ValueRange offsets,
                            Value owner, ArrayRef<Value> values,
                            unsigned width) {
    Type f32 = b.getF32Type();
    std::string asmText =
        "red.global.add.v" + std::to_string(width) + ".f32 [$0], {";
    std::string constraints = "l";
    for (unsigned k = 0; k < width; ++k) {
      asmText += (k ? ", $" : "$") + std::to_string(k + 1);
      constraints += ",f";
    }
    asmText += "};";
    auto one = [&](OpBuilder &ib, ArrayRef<Value> coords, Value value) {
      Value in = inBounds(ib, loc, view, coords);
      if (owner)
        in = arith::AndIOp::create(ib, loc, in, owner);
      auto ifOp = scf::IfOp::create(ib, loc, in, /*else=*/false);
      OpBuilder::InsertionGuard guard(ib);
      ib.setInsertionPointToStart(ifOp.thenBlock());
      Value addr = viewElementAddress(ib, loc, view, coords, f32);
      emitAtomic(ib, loc, tile::AtomicKind::add, tile::MemoryOrder::relaxed,
                 addr, value, Value());
    };
    for (int64_t reg = 0; reg < layout.getNumRegs(); reg += width) {
      SmallVector<Value> coords = registerViewCoords(
          b, loc, type, layout, threadPart, offsets, op.getDims(), reg);
      Value full = arith::AndIOp::create(
          b, loc, inBounds(b, loc, view, coords),
          inBounds(b, loc, view, along(b, loc, coords, width - 1)));
      if (owner)
        full = arith::AndIOp::create(b, loc, full, owner);
      auto ifOp = scf::IfOp::create(b, loc, full, /*else=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      SmallVector<Value> operands{
          viewElementAddress(b, loc, view, coords, f32)};
      llvm::append_range(operands, values.slice(reg, width));
      LLVM::InlineAsmOp::create(
          b, loc, TypeRange{}, operands, asmText, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
      b.setInsertionPointToStart(ifOp.elseBlock());
      for (unsigned k = 0; k < width; ++k)
        one(b, along(b, loc, coords, k), values[reg + k]);
    }
  }
};

/// A scalar atomic: thread 0 of the block performs it between two block
/// (or consumer) barriers (a release then publishes the block's earlier writes,
/// an acquire orders the block's later reads) and hands the old value to every
/// thread through the scratch area.
struct ScalarAtomicLowering : OpConversionPattern<tile::AtomicOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AtomicOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (isa<RankedTensorType>(op.getValue().getType()))
      return op.emitOpError()
             << "a tile atomic reaches the lowering: run tilegpu-lower-"
                "memory-ops";
    // In a warp-specialized kernel's consumers (recordConsumerBarriers
    // marks those) the barriers are the consumers' and thread 0, the first
    // consumer thread, performs the atomic for them: the producer warps
    // write no global memory a release would need to publish.
    unsigned rank = op.getView().getType().getRank();
    ViewDescriptor view = unpackView(rewriter, loc, adaptor.getView(), rank);
    SmallVector<Value> coords(adaptor.getIndices());
    Type type = op.getValue().getType();
    Value inside = inBounds(rewriter, loc, view, coords);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        threadIdX(rewriter, loc),
                                        i32Const(rewriter, loc, 0));
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type));
    scratchBarrier(rewriter, loc, op);
    Value old = guarded(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, first, inside),
        type,
        [&](OpBuilder &b) {
          Value addr = viewElementAddress(b, loc, view, coords, type);
          return emitAtomic(b, loc, op.getKind(), op.getSem(), addr,
                            adaptor.getValue(), adaptor.getCompare());
        },
        zero);
    if (!op.getResult()) {
      scratchBarrier(rewriter, loc, op);
      rewriter.eraseOp(op);
      return success();
    }
    FailureOr<Value> slot = scratchBase(rewriter, loc, op);
    if (failed(slot))
      return failure();
    auto ifOp = scf::IfOp::create(rewriter, loc, first, /*else=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      LLVM::StoreOp::create(rewriter, loc, old, *slot);
    }
    scratchBarrier(rewriter, loc, op);
    rewriter.replaceOp(op, LLVM::LoadOp::create(rewriter, loc, type, *slot));
    return success();
  }
};
} // namespace

void lowering::populateGlobalAccessPatterns(TileTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<LoadLowering, StoreLowering, ReadLowering, GatherLowering,
               ScatterLowering, AtomicLowering, ScalarAtomicLowering>(
      converter, patterns.getContext());
}

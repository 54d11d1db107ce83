//===- ElementwiseToNVVM.cpp - register-level tile ops --------------------===//
//
// Tile construction, elementwise math and broadcasts: each becomes code on
// the registers one thread holds, guided by the layouts' index maps.
// (Reductions: ReduceToNVVM.cpp; math functions: MathToNVVM.cpp.)
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

/// A scalar attribute of `type` holding the fill value `value`.
TypedAttr scalarAttr(Type type, Attribute value) {
  if (auto f = dyn_cast<FloatType>(type)) {
    double v = isa<FloatAttr>(value)
                   ? cast<FloatAttr>(value).getValueAsDouble()
                   : static_cast<double>(cast<IntegerAttr>(value).getInt());
    return FloatAttr::get(f, v);
  }
  auto i = cast<IntegerType>(type);
  if (auto b = dyn_cast<BoolAttr>(value))
    return IntegerAttr::get(i, b.getValue() ? 1 : 0);
  return IntegerAttr::get(
      i, cast<IntegerAttr>(value).getValue().sextOrTrunc(i.getWidth()));
}

struct FullLowering : OpConversionPattern<FullOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FullOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "tile without a layout");
    auto attr = DenseElementsAttr::get(
        type, scalarAttr(type.getElementType(), op.getValue()));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, attr);
    return success();
  }
};

struct TensorConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<SplatElementsAttr>(op.getValue());
    auto type = dyn_cast_or_null<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!dense || !type)
      return rewriter.notifyMatchFailure(op, "not a splat tile constant");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type,
        DenseElementsAttr::get(type, dense.getSplatValue<Attribute>()));
    return success();
  }
};

struct SplatLowering : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getValue());
    return success();
  }
};

struct IotaLowering : OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    RegisterLayout layout = getLayout(op.getType());
    unsigned dim = op.getDimension();
    Location loc = op.getLoc();
    SmallVector<Attribute> constants;
    for (ArrayRef<int64_t> coord : layout.regCoords)
      constants.push_back(IntegerAttr::get(type.getElementType(), coord[dim]));
    Value base = arith::ConstantOp::create(
        rewriter, loc, type, DenseElementsAttr::get(type, constants));
    Value thread = opaqueI32InLoop(rewriter, loc, op,
                                   threadCoord(rewriter, loc, layout, dim,
                                               laneId(rewriter, loc),
                                               warpId(rewriter, loc)));
    if (!type.getElementType().isInteger(32))
      thread =
          arith::ExtSIOp::create(rewriter, loc, type.getElementType(), thread);
    Value splat = vector::BroadcastOp::create(rewriter, loc, type, thread);
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, base, splat);
    return success();
  }
};

struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getSource().getType() == op.getType()) {
      rewriter.replaceOp(op, adaptor.getSource());
      return success();
    }
    auto srcType = cast<RankedTensorType>(op.getSource().getType());
    RegisterLayout src = getLayout(srcType);
    RegisterLayout dst = getLayout(op.getType());
    SmallVector<int64_t> mask;
    for (ArrayRef<int64_t> coord : dst.regCoords) {
      SmallVector<int64_t> srcCoord(coord);
      for (unsigned d = 0; d < srcCoord.size(); ++d)
        if (srcType.getDimSize(d) == 1)
          srcCoord[d] = 0;
      int64_t reg = src.findReg(srcCoord);
      if (reg < 0)
        return op.emitOpError()
               << "broadcast between layouts that do not share threads";
      mask.push_back(reg);
    }
    Type type = getTypeConverter()->convertType(op.getType());
    Value source = adaptor.getSource();
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, type, source, source,
                                                   mask);
    return success();
  }
};

struct Exp2Lowering : OpConversionPattern<Exp2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Exp2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().getElementType().isF32())
      return op.emitOpError() << "exp2 is lowered for f32 tiles";
    // ex2.approx.ftz.f32 is one MUFU instruction; without ftz ptxas wraps
    // it to handle subnormal inputs and results.
    StringRef name = op.getFlushToZero() ? "llvm.nvvm.ex2.approx.ftz.f32"
                                         : "llvm.nvvm.ex2.approx.f32";
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, mapScalars(rewriter, loc, adaptor.getX(), [&](Value x) {
          return callIntrinsic(rewriter, loc, name, x.getType(), x);
        }));
    return success();
  }
};

/// The high half of an unsigned product: widen, multiply, shift, narrow on
/// the per-thread vectors; LLVM's NVPTX backend selects this pattern as one
/// mul.hi.u32 (mul.hi.u64 for i64) per element.
struct MulHiULowering : OpConversionPattern<MulHiUOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MulHiUOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "tile without a layout");
    Location loc = op.getLoc();
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    auto wide = type.clone(rewriter.getIntegerType(2 * width));
    Value lhs = arith::ExtUIOp::create(rewriter, loc, wide, adaptor.getLhs());
    Value rhs = arith::ExtUIOp::create(rewriter, loc, wide, adaptor.getRhs());
    Value product = arith::MulIOp::create(rewriter, loc, lhs, rhs);
    Value shift = arith::ConstantOp::create(
        rewriter, loc, wide,
        DenseElementsAttr::get(
            wide, rewriter.getIntegerAttr(wide.getElementType(), width)));
    Value high = arith::ShRUIOp::create(rewriter, loc, product, shift);
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, type, high);
    return success();
  }
};

struct DivLowering : OpConversionPattern<DivOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DivOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool ftz = op.getFlushToZero();
    if (op.getRounding() == Rounding::nearest_even && !ftz) {
      rewriter.replaceOpWithNewOp<arith::DivFOp>(op, adaptor.getLhs(),
                                                 adaptor.getRhs());
      return success();
    }
    if (!op.getType().getElementType().isF32())
      return op.emitOpError() << "rounded division is lowered for f32 tiles";
    StringRef name;
    switch (op.getRounding()) {
    case Rounding::approx:
      name = ftz ? "llvm.nvvm.div.approx.ftz.f" : "llvm.nvvm.div.approx.f";
      break;
    case Rounding::full:
      name = ftz ? "llvm.nvvm.div.full.ftz" : "llvm.nvvm.div.full";
      break;
    case Rounding::nearest_even:
      name = "llvm.nvvm.div.rn.ftz.f";
      break;
    }
    SmallVector<Value> lhs = unpackVector(rewriter, loc, adaptor.getLhs());
    SmallVector<Value> rhs = unpackVector(rewriter, loc, adaptor.getRhs());
    SmallVector<Value> out;
    for (auto [x, y] : llvm::zip(lhs, rhs))
      out.push_back(callIntrinsic(rewriter, loc, name, x.getType(), {x, y}));
    rewriter.replaceOp(
        op, packVector(rewriter, loc, adaptor.getLhs().getType(), out));
    return success();
  }
};

struct SelectLowering : OpConversionPattern<SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCondition(),
                                                 adaptor.getTrueValue(),
                                                 adaptor.getFalseValue());
    return success();
  }
};

bool isFloat8(Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); }

/// One inline-asm instruction of one result and `inputs`.
Value asmOp(OpBuilder &b, Location loc, Type result, StringRef ptx,
            StringRef constraints, ValueRange inputs) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, result, inputs, ptx, constraints, /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  return op.getResult(0);
}

/// fp8 <-> float, two elements an instruction (sm_89+; tilegpu-assign-
/// layouts refuses older chips): to fp8 by cvt.rn.satfinite.{e4m3x2,e5m2x2}
/// .f32 (nearest even, saturating to the largest finite value, as the CPU
/// executor), from fp8 by cvt.rn.f16x2.{e4m3x2,e5m2x2} (exact: every fp8
/// value is an f16) and then f16 -> the float type. fp8 registers are i8
/// vectors under an arith.bitcast.
Value convertFloat8(OpBuilder &b, Location loc, Value src, Type from, Type to,
                    Type resultType) {
  Type i8 = b.getI8Type(), i16 = b.getI16Type(), i32 = b.getI32Type();
  Type f16 = b.getF16Type(), f32 = b.getF32Type();
  auto srcType = cast<VectorType>(src.getType());
  int64_t n = srcType.getNumElements();
  SmallVector<Value> out;
  if (isFloat8(from)) {
    StringRef fmt = isa<Float8E4M3FNType>(from) ? "e4m3x2" : "e5m2x2";
    std::string ptx = ("cvt.rn.f16x2." + fmt + " $0, $1;").str();
    Value bytes =
        arith::BitcastOp::create(b, loc, VectorType::get({n}, i8), src);
    SmallVector<Value> elems = unpackVector(b, loc, bytes);
    for (int64_t i = 0; i < n; i += 2) {
      // The pair's first element in the low byte (the low f16 of the result).
      Value lo = arith::ExtUIOp::create(b, loc, i16, elems[i]);
      Value pair = lo;
      if (i + 1 < n) {
        Value hi = arith::ExtUIOp::create(b, loc, i16, elems[i + 1]);
        hi = arith::ShLIOp::create(
            b, loc, hi, arith::ConstantIntOp::create(b, loc, i16, 8));
        pair = arith::OrIOp::create(b, loc, lo, hi);
      }
      Value halves = asmOp(b, loc, i32, ptx, "=r,h", ValueRange{pair});
      Value vec =
          LLVM::BitcastOp::create(b, loc, VectorType::get({2}, f16), halves);
      for (int64_t j = 0; j < 2 && i + j < n; ++j) {
        Value h = vector::ExtractOp::create(b, loc, vec, j);
        if (to.isF16())
          out.push_back(h);
        else if (to.isF32())
          out.push_back(arith::ExtFOp::create(b, loc, f32, h));
        else // exact: f16 -> f32 -> bf16 keeps every fp8 value
          out.push_back(arith::TruncFOp::create(
              b, loc, to, arith::ExtFOp::create(b, loc, f32, h)));
      }
    }
    return packVector(b, loc, resultType, out);
  }
  StringRef fmt = isa<Float8E4M3FNType>(to) ? "e4m3x2" : "e5m2x2";
  std::string ptx = ("cvt.rn.satfinite." + fmt + ".f32 $0, $1, $2;").str();
  SmallVector<Value> elems = unpackVector(b, loc, src);
  for (Value &e : elems)
    if (!e.getType().isF32())
      e = arith::ExtFOp::create(b, loc, f32, e);
  SmallVector<Value> bytes;
  for (int64_t i = 0; i < n; i += 2) {
    // cvt puts its first source in the high byte: the pair's second element.
    Value second =
        i + 1 < n
            ? elems[i + 1]
            : arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0.0f));
    Value pair =
        asmOp(b, loc, i16, ptx, "=h,f,f", ValueRange{second, elems[i]});
    Value vec = LLVM::BitcastOp::create(b, loc, VectorType::get({2}, i8), pair);
    for (int64_t j = 0; j < 2 && i + j < n; ++j)
      bytes.push_back(vector::ExtractOp::create(b, loc, vec, j));
  }
  Value packed = packVector(b, loc, VectorType::get({n}, i8), bytes);
  return arith::BitcastOp::create(b, loc, resultType, packed);
}

struct AsTypeLowering : OpConversionPattern<AsTypeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsTypeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = op.getSource().getType().getElementType();
    Type to = op.getType().getElementType();
    Type type = getTypeConverter()->convertType(op.getType());
    Value src = adaptor.getSource();
    Location loc = op.getLoc();
    Value result;
    if (from == to)
      result = src;
    else if ((isFloat8(from) || isFloat8(to)) &&
             (!isa<FloatType>(from) || !isa<FloatType>(to) ||
              (isFloat8(from) && isFloat8(to))))
      return op.emitOpError()
             << "fp8 converts to and from f16, bf16 and f32 only, got " << from
             << " -> " << to;
    else if (isFloat8(from) || isFloat8(to))
      result = convertFloat8(rewriter, loc, src, from, to, type);
    else if (isa<FloatType>(from) && isa<FloatType>(to))
      result = from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth()
                   ? Value(arith::TruncFOp::create(rewriter, loc, type, src))
                   : Value(arith::ExtFOp::create(rewriter, loc, type, src));
    else if (isa<IntegerType>(from) && isa<FloatType>(to))
      result = arith::SIToFPOp::create(rewriter, loc, type, src);
    else if (isa<FloatType>(from) && isa<IntegerType>(to))
      result = arith::FPToSIOp::create(rewriter, loc, type, src);
    else if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      result = arith::TruncIOp::create(rewriter, loc, type, src);
    else
      result = arith::ExtSIOp::create(rewriter, loc, type, src);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Any other elementwise arith op on tiles: the same op on the per-thread
/// vectors (fast-math flags kept). Math functions: MathToNVVM.cpp.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::Elementwise>() ||
        !isa<arith::ArithDialect>(op->getDialect()))
      return failure();
    if (llvm::none_of(op->getResultTypes(),
                      [](Type t) { return isa<RankedTensorType>(t); }))
      return failure();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, types,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct BlockIdLowering : OpConversionPattern<BlockIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Value id;
    switch (op.getDim()) {
    case GridDim::x:
      id = NVVM::BlockIdXOp::create(rewriter, op.getLoc(), i32);
      break;
    case GridDim::y:
      id = NVVM::BlockIdYOp::create(rewriter, op.getLoc(), i32);
      break;
    case GridDim::z:
      id = NVVM::BlockIdZOp::create(rewriter, op.getLoc(), i32);
      break;
    }
    rewriter.replaceOp(op, id);
    return success();
  }
};

struct NumBlocksLowering : OpConversionPattern<NumBlocksOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NumBlocksOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Value n;
    switch (op.getDim()) {
    case GridDim::x:
      n = NVVM::GridDimXOp::create(rewriter, op.getLoc(), i32);
      break;
    case GridDim::y:
      n = NVVM::GridDimYOp::create(rewriter, op.getLoc(), i32);
      break;
    case GridDim::z:
      n = NVVM::GridDimZOp::create(rewriter, op.getLoc(), i32);
      break;
    }
    rewriter.replaceOp(op, n);
    return success();
  }
};

struct DimLowering : OpConversionPattern<DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ExtractValueOp>(
        op, adaptor.getView(),
        ArrayRef<int64_t>{1, static_cast<int64_t>(op.getDimension())});
    return success();
  }
};

} // namespace

void lowering::populateElementwisePatterns(TileTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FullLowering, TensorConstantLowering, SplatLowering,
               IotaLowering, BroadcastLowering, Exp2Lowering, MulHiULowering,
               DivLowering, SelectLowering, AsTypeLowering, BlockIdLowering,
               NumBlocksLowering, DimLowering, ElementwiseLowering>(converter,
                                                                    ctx);
}

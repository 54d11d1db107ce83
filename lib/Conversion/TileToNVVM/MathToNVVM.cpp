//===- MathToNVVM.cpp - math functions without libdevice ------------------===//
//
// `math` ops on tiles and scalars become NVVM/LLVM intrinsics directly: no
// libdevice is linked, so the upstream lowering to __nv_* calls would leave
// unresolved symbols. The set is the CPU executor's (lib/Executor):
//   exp    ex2.approx.f32(x * log2(e))     exp2   ex2.approx.f32
//   log    lg2.approx.f32(x) * ln(2)       log2   lg2.approx.f32
//   tanh   tanh.approx.f32 (sm_75+) where the op allows approximate
//          functions (fastmath<afn>, set by tile-fast-math), else within
//          3 ulp: an odd polynomial below 0.55, 1 - 2 / (2^(2|x|/ln 2) + 1)
//          above
//   sqrt   sqrt.rn.f32
//   rsqrt  rsqrt.approx.f32                fma    fma.rn
//   floor  cvt.rmi.f32.f32                 ceil   cvt.rpi.f32.f32
//   absf, copysign   on the sign bit (and/or of the bit pattern)
//   absi             LLVM's intrinsic
// f16 and bf16 compute in f32 (fma, absf and copysign natively). Any other
// math op, or an f64 function, is reported at the op. LLVM's fabs, sqrt,
// floor, ceil and copysign intrinsics are not used: convert-gpu-to-nvvm
// marks them illegal (it expects them as libdevice calls).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

constexpr double kLog2E = 1.4426950408889634;
constexpr double kLn2 = 0.6931471805599453;

Value f32Const(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

/// tanh(x) in f32 within 3 ulp (measured against float64 over [-12, 12],
/// allowing ex2.approx.f32 its documented 2^-22 relative error): below
/// |x| = 0.55 the odd polynomial x + x^3 Q(x^2) (Q fitted for relative
/// error, 0.7 ulp there), above it 1 - 2 / (e + 1) with e = 2^(2|x| log2(e))
/// and the sign of x (e = inf gives 1; NaN stays NaN).
Value preciseTanh(OpBuilder &b, Location loc, Value x) {
  Type f32 = b.getF32Type();
  Type i32 = b.getI32Type();
  auto fma = [&](Value a, Value m, Value c) {
    return Value(LLVM::FMAOp::create(b, loc, a, m, c));
  };
  Value bits = LLVM::BitcastOp::create(b, loc, i32, x);
  Value magnitudeBits = arith::AndIOp::create(
      b, loc, bits, arith::ConstantIntOp::create(b, loc, i32, 0x7fffffff));
  Value ax = LLVM::BitcastOp::create(b, loc, f32, magnitudeBits);
  // Small |x|: Horner in x^2, then fma(x^3 Q, 1, x) as fma(x^2 Q, x, x).
  Value x2 = arith::MulFOp::create(b, loc, x, x);
  static constexpr double kQ[] = {-0.33333319425582886, 0.13332632184028625,
                                  -0.05385666340589523, 0.02108817920088768,
                                  -0.0062960051000118256};
  Value q = f32Const(b, loc, kQ[4]);
  for (int i = 3; i >= 0; --i)
    q = fma(q, x2, f32Const(b, loc, kQ[i]));
  Value x2q = arith::MulFOp::create(b, loc, q, x2);
  Value small = fma(x2q, x, x);
  // Large |x|: 1 - 2 / (e + 1), precise division, the sign put back.
  Value arg = arith::MulFOp::create(b, loc, ax, f32Const(b, loc, 2 * kLog2E));
  Value e = callIntrinsic(b, loc, "llvm.nvvm.ex2.approx.f32", f32, arg);
  Value denom = arith::AddFOp::create(b, loc, e, f32Const(b, loc, 1.0));
  Value frac = arith::DivFOp::create(b, loc, f32Const(b, loc, 2.0), denom);
  Value t = arith::SubFOp::create(b, loc, f32Const(b, loc, 1.0), frac);
  Value signBit = arith::AndIOp::create(
      b, loc, bits,
      arith::ConstantIntOp::create(b, loc, i32,
                                   static_cast<int32_t>(0x80000000u)));
  Value tBits = LLVM::BitcastOp::create(b, loc, i32, t);
  Value large = LLVM::BitcastOp::create(
      b, loc, f32, arith::OrIOp::create(b, loc, tBits, signBit));
  Value isSmall = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, ax,
                                        f32Const(b, loc, 0.55));
  return arith::SelectOp::create(b, loc, isSmall, small, large);
}

/// An f32 unary function of one scalar, or null for ops this file does not
/// compute through f32.
Value computeF32(OpBuilder &b, Location loc, Operation *op, Value x) {
  Type f32 = b.getF32Type();
  auto intrinsic = [&](StringRef name, Value arg) {
    return callIntrinsic(b, loc, name, f32, arg);
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](math::ExpOp) {
        Value scaled =
            arith::MulFOp::create(b, loc, x, f32Const(b, loc, kLog2E));
        return intrinsic("llvm.nvvm.ex2.approx.f32", scaled);
      })
      .Case([&](math::Exp2Op) {
        return intrinsic("llvm.nvvm.ex2.approx.f32", x);
      })
      .Case([&](math::LogOp) {
        Value log2 = intrinsic("llvm.nvvm.lg2.approx.f", x);
        return Value(
            arith::MulFOp::create(b, loc, log2, f32Const(b, loc, kLn2)));
      })
      .Case(
          [&](math::Log2Op) { return intrinsic("llvm.nvvm.lg2.approx.f", x); })
      .Case([&](math::TanhOp tanh) {
        if (!bitEnumContainsAll(tanh.getFastmath(), arith::FastMathFlags::afn))
          return preciseTanh(b, loc, x);
        return LLVM::InlineAsmOp::create(
                   b, loc, f32, ValueRange{x}, "tanh.approx.f32 $0, $1;",
                   "=f,f", /*has_side_effects=*/false,
                   /*is_align_stack=*/false, LLVM::TailCallKind::None,
                   LLVM::AsmDialectAttr(), ArrayAttr())
            .getResult(0);
      })
      .Case([&](math::SqrtOp) { return intrinsic("llvm.nvvm.sqrt.rn.f", x); })
      .Case([&](math::RsqrtOp) {
        return intrinsic("llvm.nvvm.rsqrt.approx.f", x);
      })
      .Case([&](math::FloorOp) { return intrinsic("llvm.nvvm.floor.f", x); })
      .Case([&](math::CeilOp) { return intrinsic("llvm.nvvm.ceil.f", x); })
      .Default([](Operation *) { return Value(); });
}

/// Whether computeScalar handles `op` on elements of `type`.
bool isSupported(Operation *op, Type type) {
  if (isa<math::FmaOp, math::AbsFOp, math::CopySignOp>(op))
    return isa<FloatType>(type);
  if (isa<math::AbsIOp>(op))
    return isa<IntegerType>(type);
  return (type.isF32() || type.isF16() || type.isBF16()) &&
         isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::TanhOp,
             math::SqrtOp, math::RsqrtOp, math::FloorOp, math::CeilOp>(op);
}

/// One scalar result of `op` from its scalar operands.
FailureOr<Value> computeScalar(OpBuilder &b, Operation *op,
                               ArrayRef<Value> args) {
  Location loc = op->getLoc();
  Type type = args[0].getType();
  if (isa<math::FmaOp>(op))
    return Value(LLVM::FMAOp::create(b, loc, args[0], args[1], args[2]));
  if (isa<math::AbsFOp, math::CopySignOp>(op)) {
    // |x| clears the sign bit; copysign(x, y) takes y's.
    unsigned width = type.getIntOrFloatBitWidth();
    Type intType = b.getIntegerType(width);
    APInt signBit = APInt::getSignMask(width);
    auto constant = [&](const APInt &v) {
      return arith::ConstantOp::create(b, loc, b.getIntegerAttr(intType, v));
    };
    Value bits = LLVM::BitcastOp::create(b, loc, intType, args[0]);
    Value magnitude = arith::AndIOp::create(b, loc, bits, constant(~signBit));
    if (isa<math::CopySignOp>(op)) {
      Value other = LLVM::BitcastOp::create(b, loc, intType, args[1]);
      Value sign = arith::AndIOp::create(b, loc, other, constant(signBit));
      magnitude = arith::OrIOp::create(b, loc, magnitude, sign);
    }
    return Value(LLVM::BitcastOp::create(b, loc, type, magnitude));
  }
  if (isa<math::AbsIOp>(op))
    return Value(LLVM::AbsOp::create(b, loc, type, args[0],
                                     /*is_int_min_poison=*/false));
  if (!type.isF32() && !type.isF16() && !type.isBF16())
    return failure();
  Value x = type.isF32()
                ? args[0]
                : Value(arith::ExtFOp::create(b, loc, b.getF32Type(), args[0]));
  Value y = computeF32(b, loc, op, x);
  if (!y)
    return failure();
  return type.isF32() ? y : Value(arith::TruncFOp::create(b, loc, type, y));
}

struct MathLowering : ConversionPattern {
  MathLowering(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<math::MathDialect>(op->getDialect()))
      return failure();
    Location loc = op->getLoc();
    Type elementType = getElementTypeOrSelf(operands[0].getType());
    if (op->getNumResults() != 1 || !isSupported(op, elementType))
      return op->emitOpError()
             << "is not lowered for the GPU (no libdevice is linked): math "
                "functions are exp, exp2, log, log2, tanh, sqrt, rsqrt, floor "
                "and ceil on f32/f16/bf16, and fma, absf, copysign, absi";
    // math.fma on tiles keeps one vector op (LLVM scalarizes it).
    if (isa<math::FmaOp>(op) && isa<VectorType>(operands[0].getType())) {
      rewriter.replaceOpWithNewOp<LLVM::FMAOp>(op, operands[0], operands[1],
                                               operands[2]);
      return success();
    }
    auto vectorType = dyn_cast<VectorType>(operands[0].getType());
    if (!vectorType) {
      FailureOr<Value> result = computeScalar(rewriter, op, operands);
      if (failed(result))
        return failure();
      rewriter.replaceOp(op, *result);
      return success();
    }
    SmallVector<SmallVector<Value>> lanes;
    for (Value operand : operands)
      lanes.push_back(unpackVector(rewriter, loc, operand));
    SmallVector<Value> results;
    for (int64_t i = 0; i < vectorType.getNumElements(); ++i) {
      SmallVector<Value> args;
      for (auto &operand : lanes)
        args.push_back(operand[i]);
      FailureOr<Value> result = computeScalar(rewriter, op, args);
      if (failed(result))
        return failure();
      results.push_back(*result);
    }
    Type resultType =
        getTypeConverter()->convertType(op->getResult(0).getType());
    rewriter.replaceOp(op, packVector(rewriter, loc, resultType, results));
    return success();
  }
};

} // namespace

void lowering::populateMathPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<MathLowering>(converter, patterns.getContext());
}

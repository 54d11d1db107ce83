//===- ReduceToNVVM.cpp - reductions along any axis of any layout ---------===//
//
// tile.reduce in three steps, read from the source layout's map: inside the
// thread (every register of one output element), across the lanes of the
// axis (shfl.sync.bfly over each lane bit the axis uses: every lane ends
// with the same value, so replicas agree), and, when warps split the axis,
// across warps through the scratch area (each warp writes one partial per
// output element, barrier, every thread combines the partials in warp
// order). The result is the source layout on the reduced shape (keepdims)
// or its #slice: the registers of coordinate 0 along the axis.
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

/// Combines two scalars with a reduction's operator.
Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x, Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  if (kind == ReduceKind::sum)
    return isFloat ? Value(arith::AddFOp::create(b, loc, x, y))
                   : Value(arith::AddIOp::create(b, loc, x, y));
  if (kind == ReduceKind::min)
    return isFloat ? Value(arith::MinimumFOp::create(b, loc, x, y))
                   : Value(arith::MinSIOp::create(b, loc, x, y));
  assert(kind == ReduceKind::max &&
         "argmax/argmin are expanded before the lowering");
  return isFloat ? Value(arith::MaximumFOp::create(b, loc, x, y))
                 : Value(arith::MaxSIOp::create(b, loc, x, y));
}

struct ReduceLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSource().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    RegisterLayout src = getLayout(srcType);
    RegisterLayout dst = getLayout(dstType);
    unsigned axis = op.getAxis();
    bool keepdims = op.getKeepdims();
    Type elementType = srcType.getElementType();
    if (op.getKind() == ReduceKind::argmax ||
        op.getKind() == ReduceKind::argmin)
      return op.emitOpError() << "argmax and argmin are lowered by "
                                 "tilegpu-expand-reductions first";
    if (!elementType.isF32() && !elementType.isInteger(32))
      return op.emitOpError() << "reductions of " << elementType
                              << " are not lowered (f32 and i32 are)";
    // The output element of a source coordinate.
    auto outputOf = [&](ArrayRef<int64_t> coord) {
      SmallVector<int64_t, 2> key(coord);
      if (keepdims)
        key[axis] = 0;
      else
        key.erase(key.begin() + axis);
      return key;
    };
    // The result must be held by the same threads as the source rows it
    // reduces: the same thread terms off the axis.
    SmallVector<SmallVector<ThreadTerm, 2>, 2> offAxis(src.threadTerms);
    if (keepdims)
      offAxis[axis].clear();
    else
      offAxis.erase(offAxis.begin() + axis);
    auto sameTerms = [](ArrayRef<ThreadTerm> x, ArrayRef<ThreadTerm> y) {
      return x.size() == y.size() &&
             llvm::all_of(llvm::zip(x, y), [](auto pair) {
               auto [a, b] = pair;
               return a.isWarp == b.isWarp && a.div == b.div &&
                      a.mod == b.mod && a.mul == b.mul;
             });
    };
    for (auto [x, y] : llvm::zip(offAxis, dst.threadTerms))
      if (!sameTerms(x, y))
        return op.emitOpError()
               << "the result layout does not keep the source's threads";
    SmallVector<Value> elements =
        unpackVector(rewriter, loc, adaptor.getSource());
    // In-thread: every register of one output element.
    SmallVector<Value> partial(dst.getNumRegs());
    for (auto [reg, coord] : llvm::enumerate(src.regCoords)) {
      int64_t out = dst.findReg(outputOf(coord));
      if (out < 0)
        return op.emitOpError() << "reduction layouts do not match";
      partial[out] = partial[out] ? combine(rewriter, loc, op.getKind(),
                                            partial[out], elements[reg])
                                  : elements[reg];
    }
    if (llvm::is_contained(partial, Value()))
      return op.emitOpError() << "reduction layouts do not match";
    // Across lanes: butterfly shuffles over the lane bits along the axis.
    unsigned laneBits = 0;
    int64_t axisWarps = 1;
    for (const ThreadTerm &term : src.threadTerms[axis]) {
      if (term.isWarp)
        axisWarps *= term.mod;
      else
        laneBits |= ((term.mod - 1) * term.div);
    }
    Value allLanes = i32Const(rewriter, loc, -1);
    Value clamp = i32Const(rewriter, loc, 31);
    for (unsigned bit = 1; bit < 32; bit <<= 1) {
      if (!(laneBits & bit))
        continue;
      Value offset = i32Const(rewriter, loc, bit);
      for (Value &value : partial) {
        Value other = NVVM::ShflOp::create(rewriter, loc, value.getType(),
                                           allLanes, value, offset, clamp,
                                           NVVM::ShflKind::bfly, UnitAttr());
        value = combine(rewriter, loc, op.getKind(), value, other);
      }
    }
    if (axisWarps > 1 &&
        failed(reduceAcrossWarps(rewriter, op, src, dst, axisWarps, partial)))
      return failure();
    rewriter.replaceOp(op, packVector(rewriter, loc,
                                      getTypeConverter()->convertType(dstType),
                                      partial));
    return success();
  }

  /// Partials of the warps along the axis: scratch[k * N + i] holds warp k's
  /// partial of output element i (row-major index in the result).
  LogicalResult reduceAcrossWarps(ConversionPatternRewriter &rewriter,
                                  ReduceOp op, const RegisterLayout &src,
                                  const RegisterLayout &dst, int64_t axisWarps,
                                  SmallVector<Value> &partial) const {
    Location loc = op.getLoc();
    FailureOr<Value> base = scratchBase(rewriter, loc, op);
    if (failed(base))
      return failure();
    auto dstType = cast<RankedTensorType>(op.getType());
    int64_t numOut = dstType.getNumElements();
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    // This warp's position along the axis.
    Value k = i32Const(rewriter, loc, 0);
    int64_t weight = 1;
    for (const ThreadTerm &term : src.threadTerms[op.getAxis()]) {
      if (!term.isWarp)
        continue;
      Value idx = arith::ShRUIOp::create(
          rewriter, loc, warp,
          i32Const(rewriter, loc, llvm::Log2_32(term.div)));
      idx = arith::AndIOp::create(rewriter, loc, idx,
                                  i32Const(rewriter, loc, term.mod - 1));
      if (weight != 1)
        idx = arith::MulIOp::create(rewriter, loc, idx,
                                    i32Const(rewriter, loc, weight));
      k = arith::AddIOp::create(rewriter, loc, k, idx);
      weight *= term.mod;
    }
    SmallVector<int64_t> strides = getRowMajorStrides(dstType.getShape());
    LinearMap map = getStridedLinearMap(dst, strides);
    Value thread = threadIndex(rewriter, loc, dst, strides, lane, warp);
    Type elementType = partial[0].getType();
    Type i8 = rewriter.getI8Type();
    auto slot = [&](Value warpIndex, int64_t reg) {
      Value index = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, warpIndex,
                                i32Const(rewriter, loc, numOut)),
          arith::AddIOp::create(rewriter, loc, thread,
                                i32Const(rewriter, loc, map.regs[reg])));
      Value bytes = arith::MulIOp::create(rewriter, loc, index,
                                          i32Const(rewriter, loc, 4));
      return LLVM::GEPOp::create(rewriter, loc, base->getType(), i8, *base,
                                 ValueRange{bytes});
    };
    scratchBarrier(rewriter, loc, op);
    for (auto [reg, value] : llvm::enumerate(partial))
      LLVM::StoreOp::create(rewriter, loc, value, slot(k, reg), 4);
    scratchBarrier(rewriter, loc, op);
    for (auto [reg, value] : llvm::enumerate(partial)) {
      Value total;
      for (int64_t w = 0; w < axisWarps; ++w) {
        Value v =
            LLVM::LoadOp::create(rewriter, loc, elementType,
                                 slot(i32Const(rewriter, loc, w), reg), 4);
        total = total ? combine(rewriter, loc, op.getKind(), total, v) : v;
      }
      value = total;
    }
    return success();
  }
};

} // namespace

void lowering::populateReducePatterns(TileTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<ReduceLowering>(converter, patterns.getContext());
}

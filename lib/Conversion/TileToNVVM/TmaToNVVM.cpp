//===- TmaToNVVM.cpp - tensor-memory-accelerator copies -------------------===//
//
// tilegpu.tma_copy -> one cp.async.bulk.tensor per 128-byte piece (64
// 16-bit or 128 8-bit elements) of the 128B-swizzled stage (a box of the tensor
// map: the piece's rows of 128 bytes, which the copy engine swizzles as wgmma
// reads them), completing on an mbarrier; tilegpu.mbarrier_expect_tx ->
// mbarrier.arrive.expect_tx; tilegpu.thread_id -> tid.x.
//
// The tensor map is a kernel parameter (a grid-constant byval array of 128
// bytes); its generic address is what the copy names. Coordinates go
// innermost first, in the order of the map's dims (tilegpu-tma): the
// buffer's inner view dimension, its outer one, then the others.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

constexpr int64_t kPieceRowBytes = 128;

struct TmaCopyLowering : OpConversionPattern<TmaCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedBufferType buffer = op.getBuffer().getType();
    auto layout = cast<SharedLayoutAttr>(buffer.getLayout());
    unsigned inner = layout.getOrder()[0], outer = 1 - inner;
    int64_t rows = buffer.getShape()[outer];
    // Elements of a 128-byte row: 64 of 16 bits, 128 of 8 (fp8).
    int64_t piece =
        kPieceRowBytes * 8 / buffer.getElementType().getIntOrFloatBitWidth();
    int64_t pieces = buffer.getShape()[inner] / piece;
    ArrayRef<int64_t> dims = op.getDims();
    int64_t rank = static_cast<int64_t>(adaptor.getCoords().size());
    SmallVector<int64_t> order = {dims[inner], dims[outer]};
    for (int64_t d = rank - 1; d >= 0; --d)
      if (d != dims[inner] && d != dims[outer])
        order.push_back(d);
    Value mbar = barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                adaptor.getIndex());
    for (int64_t p = 0; p < pieces; ++p) {
      SmallVector<Value> coords;
      for (int64_t d : order)
        coords.push_back(adaptor.getCoords()[d]);
      if (p)
        coords[0] = arith::AddIOp::create(rewriter, loc, coords[0],
                                          i32Const(rewriter, loc, p * piece));
      Value dst = LLVM::GEPOp::create(
          rewriter, loc, adaptor.getBuffer().getType(), rewriter.getI8Type(),
          adaptor.getBuffer(),
          ValueRange{i32Const(rewriter, loc, p * rows * kPieceRowBytes)});
      // shared::cluster names this CTA's shared memory by the same address.
      dst = LLVM::AddrSpaceCastOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext(), 7),
          dst);
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          rewriter, loc, dst, adaptor.getMap(), coords, mbar,
          /*im2colOffsets=*/ValueRange{}, /*multicastMask=*/Value(),
          /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
          /*isCTAOnly=*/false, /*group=*/NVVM::CTAGroupKindAttr(),
          /*predicate=*/Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct MbarrierExpectTxLowering : OpConversionPattern<MbarrierExpectTxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MbarrierExpectTxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value addr = barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                adaptor.getIndex());
    NVVM::MBarrierArriveExpectTxOp::create(
        rewriter, loc, /*res=*/Type(), addr,
        i32Const(rewriter, loc, op.getBytes()), NVVM::MemScopeKind::CTA,
        /*relaxed=*/false, /*predicate=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct ThreadIdLowering : OpConversionPattern<ThreadIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ThreadIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, threadIdX(rewriter, op.getLoc()));
    return success();
  }
};

} // namespace

void lowering::populateTmaPatterns(TileTypeConverter &converter,
                                   RewritePatternSet &patterns) {
  patterns.add<TmaCopyLowering, MbarrierExpectTxLowering, ThreadIdLowering>(
      converter, patterns.getContext());
}

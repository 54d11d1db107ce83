//===- BarrierToNVVM.cpp - mbarriers and named barriers -------------------===//
//
// The synchronization of the Hopper pipeline: mbarrier groups in shared
// memory (init, arrive, cp.async arrivals, phase-parity waits), the async
// proxy fence, named barriers (with a warpgroup id), and the split into
// producer and consumer warps (one if/else with setmaxnreg at the top of each
// branch), lowered to NVVM ops.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;
using namespace mlir::tilegpu;

namespace {

struct MbarrierAllocLowering : OpConversionPattern<MbarrierAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MbarrierAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return replaceBySharedAddress(rewriter, op, op.getOffset());
  }
};

/// Thread 0 initializes every barrier of the group.
struct MbarrierInitLowering : OpConversionPattern<MbarrierInitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MbarrierInitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        threadIdX(rewriter, loc),
                                        i32Const(rewriter, loc, 0));
    auto ifOp = scf::IfOp::create(rewriter, loc, first, /*else=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Value count = i32Const(rewriter, loc, op.getArrivals());
    for (int64_t i = 0; i < op.getBarriers().getType().getCount(); ++i)
      NVVM::MBarrierInitOp::create(rewriter, loc,
                                   barrierAddress(rewriter, loc,
                                                  adaptor.getBarriers(),
                                                  i32Const(rewriter, loc, i)),
                                   count, /*predicate=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// A loop of mbarrier.try_wait.parity until the phase has completed (the
/// instruction may give up after a time limit).
struct MbarrierWaitLowering : OpConversionPattern<MbarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MbarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value addr = barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                adaptor.getIndex());
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{}, ValueRange{});
    OpBuilder::InsertionGuard guard(rewriter);
    Block *before = rewriter.createBlock(&loop.getBefore());
    Value done = NVVM::MBarrierTryWaitOp::create(
        rewriter, loc, rewriter.getI1Type(), addr, adaptor.getParity(),
        /*ticks=*/Value());
    Value notDone = arith::XOrIOp::create(
        rewriter, loc, done,
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1));
    scf::ConditionOp::create(rewriter, loc, notDone, ValueRange{});
    (void)before;
    rewriter.createBlock(&loop.getAfter());
    scf::YieldOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MbarrierArriveLowering : OpConversionPattern<MbarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MbarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value addr = barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                adaptor.getIndex());
    NVVM::MBarrierArriveOp::create(rewriter, loc, /*res=*/Type(), addr,
                                   /*count=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct MbarrierArriveCopiesLowering
    : OpConversionPattern<MbarrierArriveCopiesOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MbarrierArriveCopiesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value addr = barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                adaptor.getIndex());
    NVVM::CpAsyncMBarrierArriveOp::create(rewriter, loc, addr, /*noinc=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

struct FenceAsyncSharedLowering : OpConversionPattern<FenceAsyncSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FenceAsyncSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::FenceProxyOp>(
        op, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    return success();
  }
};

struct NamedBarrierLowering : OpConversionPattern<NamedBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NamedBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value id = i32Const(rewriter, loc, op.getId());
    if (adaptor.getOffset())
      id = arith::AddIOp::create(rewriter, loc, id, adaptor.getOffset());
    Value threads = i32Const(rewriter, loc, op.getThreads());
    if (op.getArrive())
      NVVM::BarrierArriveOp::create(rewriter, loc, id, threads);
    else
      NVVM::BarrierOp::create(rewriter, loc, TypeRange{}, id, threads,
                              NVVM::BarrierReductionAttr(), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct WarpgroupIdLowering : OpConversionPattern<WarpgroupIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WarpgroupIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(op, uniformWarpgroupId(rewriter, loc));
    return success();
  }
};

/// if (tid >= consumer threads) { setmaxnreg.dec; producer }
/// else { setmaxnreg.inc; consumers }: each role one branch of one if/else,
/// as ptxas requires to honour setmaxnreg.
struct WarpSpecializeLowering : OpConversionPattern<WarpSpecializeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WarpSpecializeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value isProducer = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::uge, threadIdX(rewriter, loc),
        i32Const(rewriter, loc, int64_t(op.getConsumerWarps()) * kWarpSize));
    auto ifOp = scf::IfOp::create(rewriter, loc, isProducer, /*else=*/true);
    auto fill = [&](Block *block, Region &region, int32_t regs,
                    NVVM::SetMaxRegisterAction action) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(block);
      NVVM::SetMaxRegisterOp::create(rewriter, loc, regs, action);
      rewriter.inlineBlockBefore(&region.front(), block->getTerminator());
    };
    fill(ifOp.thenBlock(), op.getProducer(), op.getProducerRegs(),
         NVVM::SetMaxRegisterAction::decrease);
    fill(ifOp.elseBlock(), op.getConsumers(), op.getConsumerRegs(),
         NVVM::SetMaxRegisterAction::increase);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populateBarrierPatterns(TileTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns
      .add<MbarrierAllocLowering, MbarrierInitLowering, MbarrierWaitLowering,
           MbarrierArriveLowering, MbarrierArriveCopiesLowering,
           FenceAsyncSharedLowering, NamedBarrierLowering, WarpgroupIdLowering,
           WarpSpecializeLowering>(converter, patterns.getContext());
}

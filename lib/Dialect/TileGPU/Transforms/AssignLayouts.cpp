//===- AssignLayouts.cpp - thread layouts for every tile ------------------===//
//
// tilegpu-assign-layouts: anchors #mma on tensor-core results, stages mma
// operands that come from global memory in swizzled shared memory, and
// propagates layouts through the rest of the kernel.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/Layouts.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUASSIGNLAYOUTS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

int64_t mlir::tilegpu::getLaunchHint(Operation *kernel, StringRef name,
                                     StringRef chip, int64_t defaultValue) {
  auto hints = kernel->getAttrOfType<DictionaryAttr>(
      tile::TileDialect::getKernelAttrName());
  if (!hints)
    return defaultValue;
  int64_t value = defaultValue;
  if (auto v = dyn_cast_or_null<IntegerAttr>(hints.get(name)))
    value = v.getInt();
  auto perArch = dyn_cast_or_null<DictionaryAttr>(hints.get("hints"));
  if (!perArch)
    return value;
  // sm_90a takes hints written for sm_90a first, then for sm_90.
  SmallVector<StringRef> keys = {chip};
  if (chip.ends_with("a"))
    keys.push_back(chip.drop_back());
  for (StringRef key : keys)
    if (auto arch = dyn_cast_or_null<DictionaryAttr>(perArch.get(key)))
      if (auto v = dyn_cast_or_null<IntegerAttr>(arch.get(name)))
        return v.getInt();
  return value;
}

LogicalResult
mlir::tilegpu::verifyTargetChip(StringRef chip,
                                function_ref<InFlightDiagnostic()> emitError) {
  // Each of these compiles and assembles (ptxas) with the current lowering.
  static constexpr llvm::StringLiteral kChips[] = {"sm_80",  "sm_86", "sm_87",
                                                   "sm_89",  "sm_90", "sm_90a",
                                                   "sm_100", "sm_120"};
  if (llvm::is_contained(kChips, chip))
    return success();
  InFlightDiagnostic diag = emitError();
  diag << "unsupported target chip '" << chip
       << "' (the GPU lowering needs mma.sync and cp.async, sm_80 or newer; "
          "supported: ";
  llvm::interleaveComma(kChips, diag);
  return diag << ")";
}

namespace {

bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<tile::Exp2Op, tile::DivOp, tile::SelectOp, tile::AsTypeOp>(op);
}

bool isTensor(Value v) { return isa<RankedTensorType>(v.getType()); }

bool isConstantSource(Operation *op) {
  return isa<tile::FullOp, tile::SplatOp, tile::IotaOp, arith::ConstantOp>(op);
}

/// The tile dimension of a load that walks the view's last (contiguous)
/// dimension, or -1.
int contiguousDim(LoadOp load) {
  int64_t viewRank = load.getView().getType().getRank();
  ArrayRef<int64_t> dims = load.getDims();
  if (dims.size() != 2)
    return -1;
  return dims[1] == viewRank - 1 ? 1 : dims[0] == viewRank - 1 ? 0 : -1;
}

/// Why `mma` cannot run on wgmma with `numWarps` warps, or "" when it can:
/// whole warpgroups over M, N <= 256, 16-bit operands, and every operand
/// staged from a load fitting the 128B-swizzle layout.
std::string wgmmaMismatch(tile::MmaOp mma, int numWarps) {
  auto accType = cast<RankedTensorType>(mma.getAcc().getType());
  auto aType = cast<RankedTensorType>(mma.getA().getType());
  if (numWarps % 4 != 0)
    return "wgmma needs whole warpgroups (num_warps a multiple of 4)";
  if (!aType.getElementType().isF16() && !aType.getElementType().isBF16())
    return "wgmma is lowered for f16 and bf16 operands";
  if (accType.hasStaticShape() && accType.getDimSize(1) > 256)
    return "wgmma needs N <= 256";
  for (Value v : {mma.getA(), mma.getB()}) {
    auto load = v.getDefiningOp<LoadOp>();
    if (!load)
      continue;
    int dim = contiguousDim(load);
    if (dim < 0 || !load.getType().hasStaticShape() ||
        !fitsWgmmaSharedLayout(load.getType().getShape(), 16,
                               static_cast<unsigned>(dim)))
      return "a shared operand does not fit the 128B-swizzle layout "
             "(contiguous dimension a multiple of 64, the other of 8)";
  }
  return "";
}

class LayoutAssigner {
public:
  LayoutAssigner(func::FuncOp func, int numWarps, bool padded, unsigned version)
      : func(func), numWarps(numWarps), padded(padded),
        mmaLayout(MmaLayoutAttr::get(func.getContext(), version,
                                     {static_cast<unsigned>(numWarps), 1u})) {}

  LogicalResult run();

private:
  func::FuncOp func;
  int numWarps;
  bool padded;
  MmaLayoutAttr mmaLayout;
  DenseMap<Value, Attribute> layouts;
  SmallVector<Value> worklist;
  /// Shared buffers already made for a load, so two mmas share one copy.
  DenseMap<Operation *, Value> staged;
  /// Every staging buffer, with the loop it was made for (null outside
  /// loops), and the buffers each loop uses, for reuse across loops.
  struct StagedBuffer {
    Value buffer;
    Operation *loop;
    SharedBufferType type;
  };
  SmallVector<StagedBuffer> stagedBuffers;
  DenseMap<Operation *, SmallVector<Value>> takenIn;
  LogicalResult status = success();

  FailureOr<Value> stageInShared(LoadOp load, bool isOperandA);
  LogicalResult rewriteMma(tile::MmaOp mma);
  void require(Value value, Attribute layout, Operation *where);
  void visit(Value value);
  LogicalResult apply();
};

/// Builds a tensor type of `type`'s shape and element type with `layout`.
RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

FailureOr<Value> LayoutAssigner::stageInShared(LoadOp load, bool isOperandA) {
  if (Value buffer = staged.lookup(load))
    return buffer;
  auto type = load.getType();
  if (type.getRank() != 2)
    return load.emitOpError() << "an mma operand must be a 2-d tile";
  // The tile dimension that walks the view's last dimension is contiguous
  // in global memory; it stays contiguous in shared memory so that each
  // thread copies 16 bytes.
  int contiguous = contiguousDim(load);
  if (contiguous < 0)
    return load.emitOpError()
           << "cannot stage this mma operand in shared memory: no tile "
              "dimension walks the view's last (contiguous) dimension";
  if (type.getElementType().getIntOrFloatBitWidth() != 16)
    return load.emitOpError() << "mma operands must be 16-bit";
  if (load.getPadding() != tile::Padding::zero)
    return load.emitOpError()
           << "loads feeding mma pad with zero only (mask the scores instead)";
  MLIRContext *ctx = func.getContext();
  auto sharedLayout =
      mmaLayout.getVersion() == 3
          ? getWgmmaSharedLayout(ctx, 16, static_cast<unsigned>(contiguous))
      : padded
          ? getPaddedSharedLayout(ctx, 16, static_cast<unsigned>(contiguous))
          : getSwizzledSharedLayout(ctx, type.getShape(), 16,
                                    static_cast<unsigned>(contiguous));
  auto bufferType = SharedBufferType::get(ctx, type.getShape(),
                                          type.getElementType(), sharedLayout);
  OpBuilder b(ctx);
  b.setInsertionPointToStart(&func.getBody().front());
  // Loops that run one after the other (a split loop and its tail) share a
  // buffer of the same type: each copy in a loop is preceded by a barrier,
  // so the second loop cannot overwrite what the first still reads.
  auto loop = load->getParentOfType<scf::ForOp>();
  Value buffer;
  if (loop)
    for (const StagedBuffer &other : stagedBuffers)
      if (other.loop && other.loop != loop && other.type == bufferType &&
          !other.loop->isAncestor(loop) && !loop->isAncestor(other.loop) &&
          !llvm::is_contained(takenIn[loop], other.buffer)) {
        buffer = other.buffer;
        break;
      }
  if (!buffer) {
    buffer = AllocOp::create(b, load.getLoc(), bufferType, IntegerAttr());
    stagedBuffers.push_back({buffer, loop, bufferType});
  }
  if (loop)
    takenIn[loop].push_back(buffer);

  // Copy where the load was: a barrier first when inside a loop (the
  // previous iteration may still read the buffer), then wait for the copy
  // and make it visible to every thread.
  b.setInsertionPoint(load);
  Location loc = load.getLoc();
  bool inLoop = load->getParentOfType<scf::ForOp>() != nullptr;
  if (inLoop)
    BarrierOp::create(b, loc);
  auto copy = AsyncCopyOp::create(b, loc, load.getView(), load.getOffsets(),
                                  load.getDimsAttr(), buffer, Value());
  if (Attribute latency = load->getAttr("tilegpu.latency"))
    copy->setAttr("tilegpu.latency", latency);
  AsyncCommitOp::create(b, loc);
  AsyncWaitOp::create(b, loc, 0);
  BarrierOp::create(b, loc);
  staged[load] = buffer;
  (void)isOperandA;
  return buffer;
}

LogicalResult LayoutAssigner::rewriteMma(tile::MmaOp mma) {
  Value a = mma.getA(), b = mma.getB();
  // mma.sync m16n8k16 with warps splitting M: each warp owns whole 16-row
  // blocks, and the lowering steps N by 8 and K by 16.
  auto aType = cast<RankedTensorType>(a.getType());
  auto accType = cast<RankedTensorType>(mma.getAcc().getType());
  if (!aType.hasStaticShape() || !accType.hasStaticShape())
    return mma.emitOpError() << "needs static shapes: run tile-specialize";
  int64_t m = accType.getDimSize(0), n = accType.getDimSize(1),
          k = aType.getDimSize(1);
  if (m % (16 * numWarps) != 0 || n % 8 != 0 || k % 16 != 0)
    return mma.emitOpError()
           << "a " << m << "x" << n << "x" << k
           << " (MxNxK) mma does not fit mma.sync.m16n8k16 with " << numWarps
           << " warps: M must be a multiple of " << 16 * numWarps
           << ", N of 8 and K of 16";
  auto operand = [&](Value v, bool isA) -> FailureOr<Value> {
    if (auto load = v.getDefiningOp<LoadOp>())
      return stageInShared(load, isA);
    if (!isA)
      return mma.emitOpError()
             << "operand b must come from a load (staging a computed tile in "
                "shared memory is not implemented)";
    return v; // a register tile; it takes the accumulator layout.
  };
  FailureOr<Value> newA = operand(a, true);
  FailureOr<Value> newB = operand(b, false);
  if (failed(newA) || failed(newB))
    return failure();
  OpBuilder builder(mma);
  auto resultType = withLayout(mma.getType(), mmaLayout);
  auto newMma = MmaOp::create(builder, mma.getLoc(), resultType, *newA, *newB,
                              mma.getAcc());
  mma.replaceAllUsesWith(newMma.getResult());
  mma.erase();
  layouts[newMma.getResult()] = mmaLayout;
  worklist.push_back(newMma.getResult());
  require(newMma.getAcc(), mmaLayout, newMma);
  if (isTensor(*newA))
    require(*newA, mmaLayout, newMma);
  // Loads whose only users were mmas are dead now.
  for (Value v : {a, b})
    if (auto load = v.getDefiningOp<LoadOp>())
      if (load->use_empty())
        load.erase();
  return success();
}

void LayoutAssigner::require(Value value, Attribute layout, Operation *where) {
  if (!isTensor(value))
    return;
  auto it = layouts.find(value);
  if (it == layouts.end()) {
    layouts[value] = layout;
    worklist.push_back(value);
    return;
  }
  if (it->second == layout || failed(status))
    return;
  InFlightDiagnostic diag = where->emitOpError()
                            << "needs a tile in layout " << layout
                            << " that is already in layout " << it->second
                            << " (layout conversions are not implemented)";
  if (Operation *def = value.getDefiningOp())
    diag.attachNote(def->getLoc()) << "the tile is defined here";
  status = failure();
}

/// The layout of the size-1 side of a broadcast into `parent`, or null.
Attribute sliceOf(Attribute parent, ArrayRef<int64_t> sourceShape,
                  ArrayRef<int64_t> resultShape) {
  if (!isa<MmaLayoutAttr>(parent) || sourceShape.size() != 2)
    return {};
  SmallVector<unsigned> broadcastDims;
  for (unsigned d = 0; d < 2; ++d)
    if (sourceShape[d] == 1 && resultShape[d] != 1)
      broadcastDims.push_back(d);
  if (broadcastDims.size() != 1)
    return {};
  return SliceLayoutAttr::get(parent.getContext(), broadcastDims[0], parent);
}

void LayoutAssigner::visit(Value value) {
  Attribute layout = layouts.lookup(value);
  auto shape = cast<RankedTensorType>(value.getType()).getShape();

  // Backward: what the producer's operands need.
  if (Operation *def = value.getDefiningOp()) {
    if (isElementwise(def)) {
      for (Value operand : def->getOperands())
        require(operand, layout, def);
      for (Value result : def->getResults())
        require(result, layout, def);
    } else if (auto bcast = dyn_cast<tile::BroadcastOp>(def)) {
      auto sourceShape =
          cast<RankedTensorType>(bcast.getSource().getType()).getShape();
      if (sourceShape == shape) {
        require(bcast.getSource(), layout, def);
      } else if (Attribute slice = sliceOf(layout, sourceShape, shape)) {
        require(bcast.getSource(), slice, def);
      } else {
        def->emitOpError() << "cannot broadcast into layout " << layout;
        status = failure();
      }
    } else if (auto reduce = dyn_cast<tile::ReduceOp>(def)) {
      auto slice = dyn_cast<SliceLayoutAttr>(layout);
      if (!reduce.getKeepdims() || !slice ||
          slice.getDim() != reduce.getAxis()) {
        def->emitOpError() << "reductions are lowered with keepdims into a "
                              "#tilegpu.slice layout along the reduced axis";
        status = failure();
      } else {
        require(reduce.getSource(), slice.getParent(), def);
      }
    } else if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      unsigned i = cast<OpResult>(value).getResultNumber();
      require(forOp.getInitArgs()[i], layout, def);
      require(forOp.getRegionIterArgs()[i], layout, def);
      require(forOp.getYieldedValues()[i], layout, def);
    } else if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      unsigned i = cast<OpResult>(value).getResultNumber();
      require(ifOp.thenYield().getOperand(i), layout, def);
      if (!ifOp.getElseRegion().empty())
        require(ifOp.elseYield().getOperand(i), layout, def);
    }
  } else if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
      if (arg.getArgNumber() > 0) {
        unsigned i = arg.getArgNumber() - 1;
        require(forOp.getInitArgs()[i], layout, forOp);
        require(forOp.getResult(i), layout, forOp);
        require(forOp.getYieldedValues()[i], layout, forOp);
      }
    }
  }

  // Forward: what the users produce.
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isElementwise(user)) {
      for (Value operand : user->getOperands())
        require(operand, layout, user);
      for (Value result : user->getResults())
        require(result, layout, user);
    } else if (auto reduce = dyn_cast<tile::ReduceOp>(user)) {
      if (!isa<MmaLayoutAttr>(layout) || !reduce.getKeepdims()) {
        user->emitOpError() << "reductions are lowered from an #mma tile with "
                               "keepdims";
        status = failure();
        continue;
      }
      require(
          reduce.getResult(),
          SliceLayoutAttr::get(layout.getContext(), reduce.getAxis(), layout),
          user);
    } else if (auto bcast = dyn_cast<tile::BroadcastOp>(user)) {
      if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
        require(bcast.getResult(), slice.getParent(), user);
      else if (bcast.getSource().getType() == bcast.getResult().getType())
        require(bcast.getResult(), layout, user);
    } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      Operation *parent = yield->getParentOp();
      unsigned i = use.getOperandNumber();
      if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
        require(forOp.getResult(i), layout, parent);
        require(forOp.getRegionIterArgs()[i], layout, parent);
      } else if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
        require(ifOp.getResult(i), layout, parent);
      }
    } else if (auto forOp = dyn_cast<scf::ForOp>(user)) {
      if (use.getOperandNumber() >= 3) {
        unsigned i = use.getOperandNumber() - 3;
        require(forOp.getRegionIterArgs()[i], layout, user);
        require(forOp.getResult(i), layout, user);
      }
    }
  }
}

LogicalResult LayoutAssigner::apply() {
  // Every tile value now has its layout in its type.
  WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isTensor(arg)) {
            Attribute layout = layouts.lookup(arg);
            if (!layout)
              return op->emitOpError()
                     << "no layout could be derived for a loop-carried tile";
            arg.setType(withLayout(arg.getType(), layout));
          }
    for (OpResult result : op->getResults()) {
      if (!isTensor(result))
        continue;
      Attribute layout = layouts.lookup(result);
      if (!layout)
        return op->emitOpError()
               << "no thread layout could be derived for this tile (it does "
                  "not feed or come from a tensor-core mma)";
      // Every tile must fit its layout, or the lowering has no map for it.
      if (failed(getRegisterLayout(
              layout, cast<RankedTensorType>(result.getType()).getShape(),
              [&] { return op->emitOpError(); })))
        return failure();
      result.setType(withLayout(result.getType(), layout));
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult LayoutAssigner::run() {
  // Constant-like sources may be shared by tiles of different layouts after
  // CSE; give each use its own copy so each can take its user's layout.
  SmallVector<Operation *> sources;
  func.walk([&](Operation *op) {
    if (isConstantSource(op) && op->getNumResults() == 1 &&
        isTensor(op->getResult(0)))
      sources.push_back(op);
  });
  for (Operation *source : sources) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : source->getResult(0).getUses())
      uses.push_back(&use);
    for (OpOperand *use : llvm::drop_begin(uses)) {
      OpBuilder b(source);
      use->set(b.clone(*source)->getResult(0));
    }
  }

  SmallVector<tile::MmaOp> mmas;
  func.walk([&](tile::MmaOp mma) { mmas.push_back(mma); });
  if (mmas.empty())
    return func.emitError()
           << "tilegpu-assign-layouts: the kernel has no tile.mma to anchor "
              "layouts on (kernels without tensor-core work are not supported "
              "on the GPU path yet)";
  for (tile::MmaOp mma : mmas)
    if (failed(rewriteMma(mma)))
      return failure();

  while (!worklist.empty() && succeeded(status))
    visit(worklist.pop_back_val());
  if (failed(status))
    return failure();
  if (failed(apply()))
    return failure();
  func->setAttr(
      "tilegpu.num_warps",
      IntegerAttr::get(IntegerType::get(func.getContext(), 32), numWarps));
  func->setAttr("tilegpu.mma_version",
                IntegerAttr::get(IntegerType::get(func.getContext(), 32),
                                 mmaLayout.getVersion()));
  return success();
}

struct TileGPUAssignLayoutsPass
    : public tilegpu::impl::TileGPUAssignLayoutsBase<TileGPUAssignLayoutsPass> {
  using TileGPUAssignLayoutsBase::TileGPUAssignLayoutsBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func->hasAttr(tile::TileDialect::getKernelAttrName()))
      return;
    if (failed(verifyTargetChip(chip, [&] { return func.emitError(); })))
      return signalPassFailure();
    int warps = numWarps > 0 ? numWarps
                             : static_cast<int>(getLaunchHint(
                                   func, "num_warps", chip, /*default=*/4));
    if (warps < 1 || warps > 32 || !llvm::isPowerOf2_32(warps)) {
      func.emitError() << "num_warps must be a power of two in [1, 32], got "
                       << warps;
      return signalPassFailure();
    }
    if (sharedLayout != "padded" && sharedLayout != "swizzled") {
      func.emitError() << "shared-layout must be padded or swizzled, got '"
                       << sharedLayout << "'";
      return signalPassFailure();
    }
    // The occupancy hint for this chip (per-architecture hints first) goes
    // with the kernel to the conversion, which emits it as .minnctapersm.
    func->setAttr("tilegpu.occupancy",
                  IntegerAttr::get(IntegerType::get(func.getContext(), 32),
                                   getLaunchHint(func, "occupancy", chip, 1)));
    if (mmaVersion != 0 && mmaVersion != 2 && mmaVersion != 3) {
      func.emitError() << "mma-version must be 0 (auto), 2 (mma.sync) or 3 "
                          "(wgmma), got "
                       << static_cast<unsigned>(mmaVersion);
      return signalPassFailure();
    }
    // wgmma where the chip has it (sm_90a) and every mma fits; mma.sync
    // otherwise. An explicit version 3 reports the mma that does not fit.
    unsigned version = mmaVersion == 2 ? 2 : 3;
    if (version == 3 && chip != "sm_90a") {
      if (mmaVersion == 3) {
        func.emitError() << "mma-version=3 (wgmma) needs chip sm_90a, got '"
                         << chip << "'";
        return signalPassFailure();
      }
      version = 2;
    }
    if (version == 3) {
      WalkResult walk = func.walk([&](tile::MmaOp mma) {
        std::string why = wgmmaMismatch(mma, warps);
        if (why.empty())
          return WalkResult::advance();
        if (mmaVersion == 3)
          mma.emitOpError() << "cannot use wgmma (mma-version=3): " << why;
        return WalkResult::interrupt();
      });
      if (walk.wasInterrupted()) {
        if (mmaVersion == 3)
          return signalPassFailure();
        version = 2;
      }
    }
    if (failed(LayoutAssigner(func, warps, sharedLayout == "padded", version)
                   .run()))
      signalPassFailure();
  }
};

} // namespace

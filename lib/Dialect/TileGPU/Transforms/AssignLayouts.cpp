//===- AssignLayouts.cpp - thread layouts for every tile ------------------===//
//
// tilegpu-assign-layouts: gives every tile a register layout. Anchors come
// first (#mma on tensor-core results, then a coalesced #blocked layout at
// each global load and store, largest tiles first); layouts propagate
// forward and backward through the ops that relate them (elementwise ops,
// broadcasts, reductions, reshapes, permutes, scf); where a value is needed
// in a layout other than its own, an explicit tilegpu.convert_layout is
// inserted. mma operands are staged in shared memory (MmaOperands.cpp).
//
//===----------------------------------------------------------------------===//

#include "LayoutRules.h"

#include "tile/Dialect/TileGPU/IR/Layouts.h"
#include "tile/Dialect/TileGPU/IR/MmaTranspose.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

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

FailureOr<SwitchGate> SwitchGate::resolve(Operation *func, StringRef mode,
                                          StringRef hint, StringRef chip,
                                          StringRef action,
                                          std::function<void()> fail) {
  if (mode != "auto" && mode != "on" && mode != "off")
    return func->emitError()
           << "mode must be auto, on or off, got '" << mode << "'";
  int64_t value = getLaunchHint(func, hint, chip, -1);
  SwitchChoice choice = SwitchChoice::Auto;
  if (mode == "off" || (mode == "auto" && value == 0))
    choice = SwitchChoice::Off;
  else if (mode == "on" || value > 0)
    choice = SwitchChoice::Forced;
  return SwitchGate(func, choice, action, std::move(fail));
}

void SwitchGate::skip(const Twine &why) const {
  if (!isForced())
    return;
  func->emitError() << "cannot " << action << ": " << why;
  fail();
}

void SwitchGate::skipAt(Operation *at, const Twine &why) const {
  if (!isForced())
    return;
  at->emitOpError() << "cannot " << action << ": " << why;
  fail();
}

std::string mlir::tilegpu::getMmaVersionError(int64_t version) {
  if (version == 0 || version == 2 || version == 3)
    return "";
  return "mma-version must be 0 (auto), 2 (mma.sync) or 3 (wgmma), got " +
         std::to_string(version);
}

namespace {

bool isTensor(Value v) { return isa<RankedTensorType>(v.getType()); }

/// Whether `mma` (static shapes) fits mma.sync m16n8k16 with `numWarps`
/// warps splitting M: each warp owns whole 16-row blocks (so do wgmma's
/// warpgroups, 64 rows each), and the lowering steps N by 8 and K by 16.
bool fitsMmaSync(tile::MmaOp mma, int numWarps) {
  auto accType = cast<RankedTensorType>(mma.getAcc().getType());
  auto aType = cast<RankedTensorType>(mma.getA().getType());
  return accType.getDimSize(0) % (16 * numWarps) == 0 &&
         accType.getDimSize(1) % 8 == 0 && aType.getDimSize(1) % 16 == 0;
}

bool isConstantSource(Operation *op) {
  return isa<tile::FullOp, tile::SplatOp, tile::IotaOp, arith::ConstantOp>(op);
}

/// Whether `mma` multiplies fp8 (e4m3 or e5m2) operands.
bool isFp8Mma(tile::MmaOp mma) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(
      cast<RankedTensorType>(mma.getA().getType()).getElementType());
}

bool anyFp8Mma(func::FuncOp func) {
  return func
      .walk([](tile::MmaOp mma) {
        return isFp8Mma(mma) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Why `mma` cannot run on wgmma with `numWarps` warps, or "" when it can:
/// whole warpgroups over M, N <= 256, 16-bit operands, and every operand
/// staged from a load fitting the 128B-swizzle layout. fp8 operands (K = 32
/// per instruction, no transposed operands) must both be loads that are
/// K-major in memory: A row-major, B read from an N x K view.
std::string wgmmaMismatch(tile::MmaOp mma, int numWarps) {
  auto accType = cast<RankedTensorType>(mma.getAcc().getType());
  auto aType = cast<RankedTensorType>(mma.getA().getType());
  Type element = aType.getElementType();
  bool fp8 = isFp8Mma(mma);
  unsigned bits = element.getIntOrFloatBitWidth();
  if (numWarps % 4 != 0)
    return "wgmma needs whole warpgroups (num_warps a multiple of 4)";
  if (!element.isF16() && !element.isBF16() && !fp8)
    return "wgmma is lowered for f16, bf16, f8E4M3FN and f8E5M2 operands";
  if (accType.hasStaticShape() && accType.getDimSize(1) > 256)
    return "wgmma needs N <= 256";
  if (fp8 && aType.hasStaticShape() && aType.getDimSize(1) % 32 != 0)
    return "fp8 wgmma needs K a multiple of 32";
  for (Value v : {mma.getA(), mma.getB()}) {
    auto load = v.getDefiningOp<LoadOp>();
    auto type = cast<RankedTensorType>(v.getType());
    if (fp8) {
      // The K dimension: A's 1, B's 0.
      unsigned kDim = v == mma.getA() ? 1 : 0;
      if (!load)
        return "fp8 operands must be loaded from memory (a computed fp8 "
               "operand is not staged)";
      int dim = getContiguousTileDim(load.getView().getType().getRank(),
                                     load.getDims());
      if (dim != static_cast<int>(kDim))
        return v == mma.getA()
                   ? "fp8 wgmma needs A K-major (row-major M x K)"
                   : "fp8 wgmma needs B K-major (an N x K view loaded with "
                     "order [1, 0])";
    }
    // The transpose of a load reads the load's buffer (transpose_a/_b).
    if (!load)
      load = getTransposedLoad(v);
    if (!load) {
      // B is staged from registers, row-major; a computed A is normally in
      // the accumulator layout already (attention's P) and not staged.
      if (v == mma.getB() && type.hasStaticShape() &&
          !fitsWgmmaSharedLayout(type.getShape(), 16, 1))
        return "a computed operand does not fit the 128B-swizzle layout "
               "(columns a multiple of 64, rows of 8)";
      continue;
    }
    int dim = getContiguousTileDim(load.getView().getType().getRank(),
                                   load.getDims());
    if (dim < 0 || load.getType().getRank() != 2 ||
        !load.getType().hasStaticShape() ||
        !fitsWgmmaSharedLayout(load.getType().getShape(), bits,
                               static_cast<unsigned>(dim)))
      return "a shared operand does not fit the 128B-swizzle layout "
             "(contiguous dimension a multiple of 128 bytes, the other of "
             "8)";
  }
  return "";
}

/// Builds a tensor type of `type`'s shape and element type with `layout`.
RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

class LayoutAssigner {
public:
  LayoutAssigner(func::FuncOp func, int numWarps, bool padded, unsigned version,
                 bool coalesceStores)
      : func(func), numWarps(numWarps),
        mmaLayout(MmaLayoutAttr::get(func.getContext(), version,
                                     {static_cast<unsigned>(numWarps), 1u})),
        stager(func, mmaLayout, padded), coalesceStores(coalesceStores) {}

  LogicalResult run();

private:
  func::FuncOp func;
  int numWarps;
  MmaLayoutAttr mmaLayout;
  MmaOperandStager stager;
  /// Accumulator-layout tiles are stored through shared memory in the
  /// coalesced layout (coalesce-stores).
  bool coalesceStores;
  DenseMap<Value, Attribute> layouts;
  SmallVector<Value> worklist;

  LogicalResult rewriteMma(tile::MmaOp mma);
  void propose(Value value, Attribute layout, bool fromUser);
  bool canProduce(Value value, Attribute layout);
  void visit(Value value);
  void drain() {
    while (!worklist.empty())
      visit(worklist.pop_back_val());
  }
  void anchor(Value value, Attribute layout) {
    propose(value, layout, /*fromUser=*/false);
    drain();
  }
  LogicalResult materialize();
  LogicalResult materializeOp(Operation *op);
  Value convertTo(OpBuilder &b, Value value, Attribute layout);
  LogicalResult apply();
};

LogicalResult LayoutAssigner::rewriteMma(tile::MmaOp mma) {
  Value a = mma.getA(), b = mma.getB();
  auto aType = cast<RankedTensorType>(a.getType());
  auto accType = cast<RankedTensorType>(mma.getAcc().getType());
  if (!aType.hasStaticShape() || !accType.hasStaticShape() ||
      !cast<RankedTensorType>(b.getType()).hasStaticShape())
    return mma.emitOpError() << "needs static shapes: run tile-specialize";
  int64_t m = accType.getDimSize(0), n = accType.getDimSize(1),
          k = aType.getDimSize(1);
  if (!fitsMmaSync(mma, numWarps))
    return mma.emitOpError()
           << "a " << m << "x" << n << "x" << k
           << " (MxNxK) mma does not fit mma.sync.m16n8k16 with " << numWarps
           << " warps: M must be a multiple of " << 16 * numWarps
           << ", N of 8 and K of 16";
  // A: staged from a load, or a register tile (the accumulator layout, or
  // through shared memory if it ends up in another layout: materialize).
  // An operand that is the transpose of a load (tile.permute [1, 0]) reads
  // that load's buffer transposed: one buffer for the tile and its
  // transpose.
  LoadOp aTransposed =
      a.getDefiningOp<LoadOp>() ? LoadOp() : getTransposedLoad(a);
  LoadOp bTransposed =
      b.getDefiningOp<LoadOp>() ? LoadOp() : getTransposedLoad(b);
  FailureOr<Value> newA = a;
  if (auto load = a.getDefiningOp<LoadOp>())
    newA = stager.stageLoad(load, /*isOperandA=*/true);
  else if (aTransposed)
    newA = stager.stageLoad(aTransposed, /*isOperandA=*/true);
  FailureOr<Value> newB =
      b.getDefiningOp<LoadOp>()
          ? stager.stageLoad(b.getDefiningOp<LoadOp>(), /*isOperandA=*/false)
      : bTransposed ? stager.stageLoad(bTransposed, /*isOperandA=*/false)
                    : stager.stageValue(b, mma, /*isOperandA=*/false);
  if (failed(newA) || failed(newB))
    return failure();
  OpBuilder builder(mma);
  auto resultType = withLayout(mma.getType(), mmaLayout);
  auto newMma = MmaOp::create(builder, mma.getLoc(), resultType, *newA, *newB,
                              mma.getAcc());
  setTransposed(newMma, static_cast<bool>(aTransposed),
                static_cast<bool>(bTransposed));
  // The loads (and the permutes and unit reshapes between a transposed
  // operand and its load) that may be dead once the mma is replaced,
  // collected before anything is erased (a and b may share a load).
  SmallVector<Operation *> feeders;
  for (Value v : {a, b})
    for (Operation *def = v.getDefiningOp();
         def && isa<LoadOp, tile::PermuteOp, tile::ReshapeOp>(def);
         def = isa<LoadOp>(def) ? nullptr : def->getOperand(0).getDefiningOp())
      if (!llvm::is_contained(feeders, def))
        feeders.push_back(def);
  mma.replaceAllUsesWith(newMma.getResult());
  mma.erase();
  anchor(newMma.getResult(), mmaLayout);
  anchor(newMma.getAcc(), mmaLayout);
  if (isTensor(*newA))
    anchor(*newA, mmaLayout);
  // Loads whose only users were mmas are dead now (users first: each chain
  // was collected from the mma towards its load).
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&op : feeders)
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        erased = true;
      }
  }
  return success();
}

/// Whether the op defining `value` can produce it in `layout`: its operands
/// then take layouts that fit them, and it is not an anchor of its own.
bool LayoutAssigner::canProduce(Value value, Attribute layout) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return true; // loop-carried block arguments follow their group
  if (isa<MmaOp, tile::MmaOp>(def))
    return false;
  if (auto load = dyn_cast<LoadOp>(def))
    return isGoodAccessLayout(layout, load.getType().getShape(),
                              getContiguousTileDim(load));
  if (isConstantSource(def) || isa<scf::ForOp, scf::IfOp>(def))
    return true;
  if (!isLayoutTransparent(def))
    return false;
  for (auto [other, derived] : deriveLayouts(def, value, layout))
    if (llvm::is_contained(def->getOperands(), other) &&
        (!derived || !fitsRegisterLayout(derived, shapeOf(other))))
      return false;
  return true;
}

void LayoutAssigner::propose(Value value, Attribute layout, bool fromUser) {
  if (!value || !isTensor(value) || !layout || layouts.count(value))
    return;
  if (!fitsRegisterLayout(layout, shapeOf(value)))
    return;
  if (fromUser && !canProduce(value, layout))
    return;
  layouts[value] = layout;
  worklist.push_back(value);
}

void LayoutAssigner::visit(Value value) {
  Attribute layout = layouts.lookup(value);
  // The loop-carried group of an scf.for iteration argument: init, region
  // argument, yielded value and result share one layout.
  auto proposeForGroup = [&](scf::ForOp forOp, unsigned i) {
    propose(forOp.getResult(i), layout, false);
    propose(forOp.getRegionIterArgs()[i], layout, false);
    propose(forOp.getInitArgs()[i], layout, true);
    propose(forOp.getYieldedValues()[i], layout, true);
  };
  auto proposeForIf = [&](scf::IfOp ifOp, unsigned i) {
    propose(ifOp.getResult(i), layout, false);
    propose(ifOp.thenYield().getOperand(i), layout, true);
    if (!ifOp.getElseRegion().empty())
      propose(ifOp.elseYield().getOperand(i), layout, true);
  };

  // Backward: what the producer's operands need.
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg.getArgNumber() > 0)
        proposeForGroup(forOp, arg.getArgNumber() - 1);
  } else if (Operation *def = value.getDefiningOp()) {
    unsigned i = cast<OpResult>(value).getResultNumber();
    if (auto forOp = dyn_cast<scf::ForOp>(def))
      proposeForGroup(forOp, i);
    else if (auto ifOp = dyn_cast<scf::IfOp>(def))
      proposeForIf(ifOp, i);
    else if (isLayoutTransparent(def))
      for (auto [other, derived] : deriveLayouts(def, value, layout))
        propose(other, derived, llvm::is_contained(def->getOperands(), other));
  }

  // Forward: what the users produce.
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      unsigned i = use.getOperandNumber();
      if (auto forOp = dyn_cast<scf::ForOp>(yield->getParentOp()))
        proposeForGroup(forOp, i);
      else if (auto ifOp = dyn_cast<scf::IfOp>(yield->getParentOp()))
        proposeForIf(ifOp, i);
    } else if (auto forOp = dyn_cast<scf::ForOp>(user)) {
      if (use.getOperandNumber() >= forOp.getNumControlOperands())
        proposeForGroup(forOp,
                        use.getOperandNumber() - forOp.getNumControlOperands());
    } else if (isLayoutTransparent(user)) {
      for (auto [other, derived] : deriveLayouts(user, value, layout))
        propose(other, derived, llvm::is_contained(user->getOperands(), other));
    }
  }
}

Value LayoutAssigner::convertTo(OpBuilder &b, Value value, Attribute layout) {
  auto type = withLayout(value.getType(), layout);
  return ConvertLayoutOp::create(b, value.getLoc(), type, value);
}

/// Inserts the conversions `op` needs: each tile operand must be in the
/// layout the op computes in (derived from its results), or the one its
/// region or memory access asks for.
LogicalResult LayoutAssigner::materializeOp(Operation *op) {
  OpBuilder b(op);
  auto require = [&](OpOperand &operand, Attribute layout) {
    Value v = operand.get();
    if (!isTensor(v) || !layout || layouts.lookup(v) == layout)
      return;
    operand.set(convertTo(b, v, layout));
  };
  if (auto yield = dyn_cast<scf::YieldOp>(op)) {
    Operation *parent = yield->getParentOp();
    if (!isa<scf::ForOp, scf::IfOp>(parent))
      return success();
    for (OpOperand &operand : yield->getOpOperands())
      if (isTensor(operand.get()))
        require(operand,
                layouts.lookup(parent->getResult(operand.getOperandNumber())));
    return success();
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    for (auto [i, init] : llvm::enumerate(forOp.getInitArgsMutable()))
      require(init, layouts.lookup(forOp.getResult(i)));
    return success();
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    // A layout that stores one element per thread along the view's
    // contiguous dimension is converted to the coalesced one; so is the
    // accumulator layout (two elements, 4 or 8 bytes, an access) with
    // coalesce-stores into a view aligned for 16-byte accesses: through
    // shared memory, 16-byte accesses after, each warp storing the rows it
    // computed where the layouts allow (no barrier across warps).
    auto type = cast<RankedTensorType>(store.getValue().getType());
    int contiguous = getContiguousTileDim(store);
    Attribute layout = layouts.lookup(store.getValue());
    bool throughShared =
        coalesceStores && isa_and_nonnull<MmaLayoutAttr>(layout) &&
        getAccessAlign(store.getView(), store.getOffsets()) >= 16;
    if (throughShared)
      require(store.getValueMutable(),
              getStoreLayout(store.getView(), store.getOffsets(), type,
                             contiguous, numWarps, layout));
    else if (!isGoodAccessLayout(layout, type.getShape(), contiguous))
      require(store.getValueMutable(),
              getAccessLayout(store.getView(), store.getOffsets(), type,
                              contiguous, numWarps));
    return success();
  }
  // Element-addressed accesses compute in one layout: the data tile's
  // (a gather's result is layout-transparent and handled below).
  if (auto scatter = dyn_cast<tile::ScatterOp>(op)) {
    Attribute layout = layouts.lookup(scatter.getValue());
    for (OpOperand &index : scatter.getIndicesMutable())
      require(index, layout);
    for (OpOperand &mask : scatter.getMaskMutable())
      require(mask, layout);
    return success();
  }
  if (auto atomic = dyn_cast<AtomicOp>(op); atomic && !atomic.getResult()) {
    Attribute layout = layouts.lookup(atomic.getValue());
    for (OpOperand &compare : atomic.getCompareMutable())
      require(compare, layout);
    for (OpOperand &mask : atomic.getMaskMutable())
      require(mask, layout);
    return success();
  }
  if (auto mma = dyn_cast<MmaOp>(op)) {
    require(mma.getAccMutable(), mmaLayout);
    if (isTensor(mma.getA()) && layouts.lookup(mma.getA()) != mmaLayout) {
      // Not in the accumulator layout: through shared memory, as A.
      FailureOr<Value> staged =
          stager.stageValue(mma.getA(), mma, /*isOperandA=*/true);
      if (failed(staged))
        return failure();
      mma.getAMutable().assign(*staged);
    }
    return success();
  }
  // Region results follow their yields; local stores take any layout.
  if (isa<LocalStoreOp, scf::IfOp>(op))
    return success();
  if (!isLayoutTransparent(op)) {
    bool hasTiles = llvm::any_of(op->getOperands(), isTensor) ||
                    llvm::any_of(op->getResults(), isTensor);
    if (hasTiles && !isa<LoadOp, func::ReturnOp>(op) && !isConstantSource(op))
      return op->emitOpError()
             << "tilegpu-assign-layouts has no layout rule for this op";
    return success();
  }
  // The op computes in its result's layout; if that cannot be derived back
  // to an operand, it computes in its first operand's (the users convert).
  Value result = op->getResult(0);
  auto derivedOperands = [&](Value from) {
    SmallVector<Attribute> out;
    for (Value operand : op->getOperands())
      out.push_back(isTensor(operand) ? Attribute() : Attribute());
    for (auto [other, derived] : deriveLayouts(op, from, layouts.lookup(from)))
      for (auto [i, operand] : llvm::enumerate(op->getOperands()))
        if (operand == other && derived &&
            fitsRegisterLayout(derived, shapeOf(operand)))
          out[i] = derived;
    return out;
  };
  auto complete = [&](ArrayRef<Attribute> required) {
    for (auto [operand, layout] : llvm::zip(op->getOperands(), required))
      if (isTensor(operand) && !layout)
        return false;
    return true;
  };
  SmallVector<Attribute> required = derivedOperands(result);
  if (!complete(required)) {
    Value first = op->getOperand(0);
    for (auto [other, derived] : deriveLayouts(op, first, layouts[first]))
      if (other == result && derived &&
          fitsRegisterLayout(derived, shapeOf(result)))
        layouts[result] = derived;
    required = derivedOperands(result);
    // A reshape or permute between layouts that do not line up moves its
    // elements through shared memory itself (like a conversion).
    if (!complete(required) && isa<tile::ReshapeOp, tile::PermuteOp>(op))
      return success();
    if (!complete(required))
      return op->emitOpError()
             << "no layout of the operands gives this op's result a register "
                "layout (result in "
             << layouts.lookup(result) << ")";
  }
  for (auto [operand, layout] : llvm::zip(op->getOpOperands(), required))
    require(operand, layout);
  return success();
}

LogicalResult LayoutAssigner::materialize() {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops)
    if (failed(materializeOp(op)))
      return failure();
  return success();
}

LogicalResult LayoutAssigner::apply() {
  // Every tile value now has its layout in its type.
  WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isTensor(arg) &&
              !cast<RankedTensorType>(arg.getType()).getEncoding()) {
            Attribute layout = layouts.lookup(arg);
            if (!layout)
              return op->emitOpError()
                     << "no layout could be derived for a loop-carried tile";
            arg.setType(withLayout(arg.getType(), layout));
          }
    if (isa<ConvertLayoutOp>(op))
      return WalkResult::advance();
    for (OpResult result : op->getResults()) {
      if (!isTensor(result))
        continue;
      Attribute layout = layouts.lookup(result);
      if (!layout)
        return op->emitOpError() << "no thread layout could be derived for "
                                    "this tile";
      // Every tile must fit its layout, or the lowering has no map for it.
      if (failed(getRegisterLayout(layout, shapeOf(result),
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
    // An unused source keeps no copy (drop_begin of nothing read past the
    // end: a segfault, fuzzer seed 1 of make check).
    if (uses.size() < 2)
      continue;
    for (OpOperand *use : llvm::drop_begin(uses)) {
      OpBuilder b(source);
      use->set(b.clone(*source)->getResult(0));
    }
  }
  // Tiles come from views: a kernel's arguments have no layout to give.
  for (BlockArgument arg : func.getArguments())
    if (isTensor(arg))
      return func.emitError()
             << "tilegpu-assign-layouts: kernel argument " << arg.getArgNumber()
             << " is a tile; pass a view and load it";
  // Every tile needs a static shape.
  WalkResult dynamic = func.walk([&](Operation *op) -> WalkResult {
    for (Value v : op->getResults())
      if (isTensor(v) && !cast<RankedTensorType>(v.getType()).hasStaticShape())
        return op->emitOpError() << "needs static shapes: run tile-specialize";
    return WalkResult::advance();
  });
  if (dynamic.wasInterrupted())
    return failure();

  // 1. Tensor cores: #mma on every mma result, accumulator and register A.
  SmallVector<tile::MmaOp> mmas;
  func.walk([&](tile::MmaOp mma) { mmas.push_back(mma); });
  for (tile::MmaOp mma : mmas)
    if (failed(rewriteMma(mma)))
      return failure();

  // 2. Global loads, then stores, each in its coalesced layout unless a
  // layout reached it already; the largest tiles first, so that small tiles
  // (a bias, norm weights) adapt to the big ones rather than the reverse.
  auto bySize = [](SmallVector<std::pair<Value, Operation *>> &values) {
    llvm::stable_sort(values, [](auto &x, auto &y) {
      return cast<RankedTensorType>(x.first.getType()).getNumElements() >
             cast<RankedTensorType>(y.first.getType()).getNumElements();
    });
  };
  SmallVector<std::pair<Value, Operation *>> loads, stores;
  func.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      loads.push_back({load.getResult(), op});
    else if (auto gather = dyn_cast<tile::GatherOp>(op))
      loads.push_back({gather.getResult(), op});
    else if (auto store = dyn_cast<StoreOp>(op))
      stores.push_back({store.getValue(), op});
    else if (auto atomic = dyn_cast<AtomicOp>(op))
      stores.push_back({atomic.getValue(), op});
    else if (auto scatter = dyn_cast<tile::ScatterOp>(op))
      stores.push_back({scatter.getValue(), op});
  });
  bySize(loads);
  bySize(stores);
  // Element-addressed accesses go element by element: lanes along the last
  // dimension, one element each, keep a warp's addresses together when the
  // last index walks contiguous memory (a gathered row).
  auto elementLayout = [&](Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return getDefaultBlockedLayout(func.getContext(), type.getShape(),
                                   getRowMajorOrder(type.getRank()),
                                   /*vec=*/1, numWarps);
  };
  for (auto [value, op] : loads) {
    if (isa<tile::GatherOp>(op)) {
      anchor(value, elementLayout(value));
      continue;
    }
    auto load = cast<LoadOp>(op);
    anchor(value,
           getAccessLayout(load.getView(), load.getOffsets(), load.getType(),
                           getContiguousTileDim(load), numWarps));
  }
  for (auto [value, op] : stores) {
    auto type = cast<RankedTensorType>(value.getType());
    if (isa<tile::ScatterOp>(op)) {
      anchor(value, elementLayout(value));
    } else if (auto atomic = dyn_cast<AtomicOp>(op)) {
      anchor(value, getAccessLayout(atomic.getView(), atomic.getOffsets(), type,
                                    getContiguousTileDim(
                                        atomic.getView().getType().getRank(),
                                        type, atomic.getDims()),
                                    numWarps));
    } else {
      auto store = cast<StoreOp>(op);
      anchor(value, getAccessLayout(store.getView(), store.getOffsets(), type,
                                    getContiguousTileDim(store), numWarps));
    }
  }

  // 3. Tiles connected to none of these: a row-major blocked layout.
  func.walk([&](Operation *op) {
    auto anchorDefault = [&](Value v) {
      if (!isTensor(v) || layouts.count(v))
        return;
      auto type = cast<RankedTensorType>(v.getType());
      anchor(v, getDefaultBlockedLayout(
                    func.getContext(), type.getShape(),
                    getRowMajorOrder(type.getRank()),
                    getVectorElements(type.getElementType(), 16), numWarps));
    };
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          anchorDefault(arg);
    for (Value result : op->getResults())
      anchorDefault(result);
  });

  if (failed(materialize()) || failed(apply()))
    return failure();
  func->setAttr(
      "tilegpu.num_warps",
      IntegerAttr::get(IntegerType::get(func.getContext(), 32), numWarps));
  // The tensor-core instruction, for kernels that have one.
  if (!mmas.empty())
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
    FailureOr<TargetChip> target = TargetChip::lookup(func);
    if (failed(target))
      return signalPassFailure();
    // fp8 <-> float conversions are sm_89's cvt (e4m3x2, e5m2x2).
    unsigned chipVersion = 0;
    StringRef chipDigits = target->getName();
    if (chipDigits.consume_front("sm_") &&
        !chipDigits.consumeInteger(10, chipVersion) && chipVersion < 89) {
      WalkResult walk = func.walk([&](tile::AsTypeOp op) {
        Type from = op.getSource().getType().getElementType();
        Type to = op.getType().getElementType();
        if (!isa<Float8E4M3FNType, Float8E5M2Type>(from) &&
            !isa<Float8E4M3FNType, Float8E5M2Type>(to))
          return WalkResult::advance();
        op.emitOpError() << "converts fp8 (" << from << " -> " << to
                         << "), which needs chip sm_89 or newer (cvt "
                            "e4m3x2/e5m2x2), got '"
                         << target->getName() << "'";
        return WalkResult::interrupt();
      });
      if (walk.wasInterrupted())
        return signalPassFailure();
    }
    int warps = numWarps > 0 ? numWarps
                             : static_cast<int>(getLaunchHint(func, "num_warps",
                                                              target->getName(),
                                                              /*default=*/4));
    // A per-architecture num_warps hint is a preference for the kernel's
    // usual tiles: where an mma of the tiles bound here cannot be split
    // over that many warps (both instructions give each warp whole 16-row
    // blocks of M), the kernel's own num_warps is used: fmha.mlir's default
    // 64-row tiles on sm_90, whose hint of 8 warps is for 128-row tiles. An
    // explicit num-warps is never changed.
    int base = static_cast<int>(getLaunchHint(func, "num_warps", "",
                                              /*default=*/4));
    auto fits = [&](int w) {
      return !func.walk([&](tile::MmaOp mma) {
                    return fitsMmaSync(mma, w) ? WalkResult::advance()
                                               : WalkResult::interrupt();
                  })
                  .wasInterrupted();
    };
    if (numWarps <= 0 && warps != base && !fits(warps) && fits(base))
      warps = base;
    // A count such as 12 likely includes the producer warpgroup that
    // tilegpu-warp-specialize adds (docs/kernels.md's gemm: 8 + 4).
    if (warps > 8 && warps <= 32 && llvm::isPowerOf2_32(warps - 4)) {
      func.emitError() << "num_warps must be a power of two in [1, 32], got "
                       << warps
                       << "; a warp-specialized kernel's producer warpgroup "
                          "(4 warps) is added by the compiler: give the "
                          "consumer warps, "
                       << warps - 4 << " for " << warps << " in all";
      return signalPassFailure();
    }
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
                  IntegerAttr::get(
                      IntegerType::get(func.getContext(), 32),
                      getLaunchHint(func, "occupancy", target->getName(), 1)));
    if (std::string error = getMmaVersionError(mmaVersion); !error.empty()) {
      func.emitError() << error;
      return signalPassFailure();
    }
    // wgmma where the chip has it (sm_90a) and every mma fits; mma.sync
    // otherwise. An explicit version 3 reports the mma that does not fit.
    unsigned version = mmaVersion == 2 ? 2 : 3;
    if (version == 3 && !target->hasWgmma()) {
      if (mmaVersion == 3) {
        func.emitError() << "mma-version=3 (wgmma) needs chip sm_90a, got '"
                         << target->getName() << "'";
        return signalPassFailure();
      }
      version = 2;
    }
    if (version == 3) {
      WalkResult walk = func.walk([&](tile::MmaOp mma) {
        std::string why = wgmmaMismatch(mma, warps);
        if (why.empty())
          return WalkResult::advance();
        // fp8 has no mma.sync to fall back to: say why wgmma does not fit.
        if (mmaVersion == 3 || isFp8Mma(mma))
          mma.emitOpError()
              << "cannot use wgmma"
              << (mmaVersion == 3 ? " (mma-version=3)" : "") << ": " << why;
        return WalkResult::interrupt();
      });
      if (walk.wasInterrupted()) {
        if (mmaVersion == 3 || anyFp8Mma(func))
          return signalPassFailure();
        version = 2;
      }
    }
    // mma.sync is lowered for 16-bit operands only (sm_89's e4m3 mma.sync
    // is not used): fp8 needs wgmma, so sm_90a.
    if (version == 2) {
      WalkResult walk =
          func.walk([&](tile::MmaOp mma) {
            if (!isFp8Mma(mma))
              return WalkResult::advance();
            mma.emitOpError()
                << "fp8 operands need Hopper's wgmma (chip sm_90a, mma-version "
                   "0 or 3); chip '"
                << target->getName() << "' with mma-version "
                << static_cast<int>(mmaVersion)
                << " lowers mma.sync, which is lowered for f16 and bf16 only";
            return WalkResult::interrupt();
          });
      if (walk.wasInterrupted())
        return signalPassFailure();
    }
    // Off unless asked for (the option, or the kernel's hint): the
    // conversion needs shared memory for the whole tile.
    FailureOr<SwitchGate> coalesce = SwitchGate::resolve(
        func, coalesceStores, "coalesce_stores", target->getName(),
        "coalesce stores", [&] { signalPassFailure(); });
    if (failed(coalesce))
      return signalPassFailure();
    if (failed(LayoutAssigner(func, warps, sharedLayout == "padded", version,
                              coalesce->isForced())
                   .run()))
      return signalPassFailure();
    // sm_90 and newer add f32 vectors in one reduction (red.v2/v4.f32).
    if (target->isHopperOrNewer())
      func.walk([](AtomicOp atomic) {
        if (atomic.getKind() == tile::AtomicKind::add &&
            atomic.getValue().getType().getElementType().isF32() &&
            !atomic.getResult() && !atomic.getMask() &&
            atomic.getSem() == tile::MemoryOrder::relaxed)
          atomic.setVector(true);
      });
    remarkReplication(func);
  }

  /// A remark at the first op of each tile type whose layout holds every
  /// element in more than 2 threads although the tile has an element per
  /// thread: a tile dimension that is not a power of two (the default
  /// layouts split only powers of two over lanes and warps) or narrower
  /// than the threads laid along it. Its registers are that many times the
  /// data's: RoPE at head dim 80 was replicated 16-fold and spilled 420
  /// bytes with nothing said. Slices and tiles with a unit dimension (row
  /// sums, broadcasts) replicate by design and are not reported.
  static void remarkReplication(func::FuncOp func) {
    llvm::SmallPtrSet<Type, 8> seen;
    func.walk([&](Operation *op) {
      for (Value value : op->getResults()) {
        auto type = dyn_cast<RankedTensorType>(value.getType());
        if (!type || !type.hasStaticShape() ||
            !isa_and_nonnull<BlockedLayoutAttr, MmaLayoutAttr>(
                type.getEncoding()) ||
            llvm::is_contained(type.getShape(), 1) || !seen.insert(type).second)
          continue;
        FailureOr<RegisterLayout> map =
            getRegisterLayout(type.getEncoding(), type.getShape(),
                              [] { return InFlightDiagnostic(); });
        if (failed(map))
          continue;
        int64_t threads = int64_t(kWarpSize) * map->numWarps;
        int64_t copies =
            (int64_t(kWarpSize) >> llvm::popcount(map->usedLaneBits)) *
            (int64_t(map->numWarps) >> llvm::popcount(map->usedWarpBits));
        if (type.getNumElements() < threads || copies <= 2)
          continue;
        std::string shape;
        for (int64_t d : type.getShape())
          shape += (shape.empty() ? "" : "x") + std::to_string(d);
        op->emitRemark()
            << "the layout of this " << shape << " tile holds each element in "
            << copies << " threads of " << threads << " (" << type.getEncoding()
            << "): its registers are " << copies
            << " times its data, which may spill; tile sizes that are powers "
               "of two and cover the threads (or fewer warps) avoid it";
      }
    });
  }
};

} // namespace

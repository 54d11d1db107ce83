//===- RemapBlocks.cpp - reorder the blocks of a kernel -------------------===//
//
// tile-remap-blocks: rewrites the block ids a kernel reads by a bijection of
// the grid, so that the hardware's launch order runs the heaviest blocks
// first (reversal) and/or runs blocks that read the same K/V tiles side by
// side (grouping). Blocks do not communicate, so results are bitwise equal.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEREMAPBLOCKS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

//===----------------------------------------------------------------------===//
// How a scalar varies with the block id of one grid dimension
//===----------------------------------------------------------------------===//

/// `Constant`: independent of the block id. `Increasing`/`Decreasing`:
/// monotone (not necessarily strictly) and dependent on it.
enum class Trend { Constant, Increasing, Decreasing, Unknown };

Trend negate(Trend t) {
  if (t == Trend::Increasing)
    return Trend::Decreasing;
  if (t == Trend::Decreasing)
    return Trend::Increasing;
  return t;
}

/// The trend of `a + b`, `min(a, b)` or `max(a, b)`; also of a value that is
/// either `a` or `b` by a condition independent of the block id.
Trend join(Trend a, Trend b) {
  if (a == Trend::Constant)
    return b;
  if (b == Trend::Constant || a == b)
    return a;
  return Trend::Unknown;
}

class TrendAnalysis {
public:
  explicit TrendAnalysis(GridDim dim) : dim(dim) {}

  Trend get(Value value, unsigned depth = 0) {
    auto it = cache.find(value);
    if (it != cache.end())
      return it->second;
    Trend trend = compute(value, depth);
    cache[value] = trend;
    return trend;
  }

private:
  static constexpr unsigned kMaxDepth = 32;
  GridDim dim;
  DenseMap<Value, Trend> cache;

  std::optional<int64_t> constant(Value value) {
    APInt c;
    if (!matchPattern(value, m_ConstantInt(&c)) || c.getSignificantBits() > 64)
      return std::nullopt;
    return c.getSExtValue();
  }

  Trend compute(Value value, unsigned depth) {
    if (depth > kMaxDepth)
      return Trend::Unknown;
    auto arg = dyn_cast<BlockArgument>(value);
    if (arg) {
      // Arguments of the kernel are the same for every block.
      Operation *owner = arg.getOwner()->getParentOp();
      return isa<func::FuncOp>(owner) ? Trend::Constant : Trend::Unknown;
    }
    Operation *def = value.getDefiningOp();
    auto recurse = [&](Value v) { return get(v, depth + 1); };
    if (auto bid = dyn_cast<BlockIdOp>(def))
      return bid.getDim() == dim ? Trend::Increasing : Trend::Constant;
    if (isa<arith::AddIOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
            arith::MinUIOp>(def))
      return join(recurse(def->getOperand(0)), recurse(def->getOperand(1)));
    if (isa<arith::SubIOp>(def))
      return join(recurse(def->getOperand(0)),
                  negate(recurse(def->getOperand(1))));
    if (isa<arith::MulIOp>(def)) {
      for (int i = 0; i < 2; ++i) {
        std::optional<int64_t> c = constant(def->getOperand(i));
        if (!c)
          continue;
        Trend other = recurse(def->getOperand(1 - i));
        return *c > 0 ? other : *c < 0 ? negate(other) : Trend::Constant;
      }
    }
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
            arith::CeilDivUIOp, arith::FloorDivSIOp>(def)) {
      std::optional<int64_t> divisor = constant(def->getOperand(1));
      if (divisor && *divisor > 0)
        return recurse(def->getOperand(0));
    }
    if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp>(def))
      return recurse(def->getOperand(0));
    if (auto select = dyn_cast<arith::SelectOp>(def))
      if (recurse(select.getCondition()) == Trend::Constant)
        return join(recurse(select.getTrueValue()),
                    recurse(select.getFalseValue()));
    if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      if (recurse(ifOp.getCondition()) != Trend::Constant ||
          ifOp.getElseRegion().empty())
        return Trend::Unknown;
      unsigned index = cast<OpResult>(value).getResultNumber();
      return join(recurse(ifOp.thenYield().getOperand(index)),
                  recurse(ifOp.elseYield().getOperand(index)));
    }
    // Anything else computed from values that do not depend on the block
    // id (constants, views' sizes, the number of blocks, ...) does not either.
    if (def->getNumRegions() == 0 && isPure(def) &&
        llvm::all_of(def->getOperands(), [&](Value operand) {
          return recurse(operand) == Trend::Constant;
        }))
      return Trend::Constant;
    return Trend::Unknown;
  }
};

/// Whether the work of a block (the trip count of its loops) grows, shrinks
/// or does not provably vary with its block id along `dim`.
Trend getWorkTrend(func::FuncOp kernel, GridDim dim) {
  TrendAnalysis analysis(dim);
  bool grows = false, shrinks = false;
  kernel.walk([&](scf::ForOp loop) {
    Trend lb = analysis.get(loop.getLowerBound());
    Trend ub = analysis.get(loop.getUpperBound());
    Trend step = analysis.get(loop.getStep());
    if (step != Trend::Constant)
      return;
    // Trip count ~ ub - lb.
    Trend trips = join(ub, negate(lb));
    grows |= trips == Trend::Increasing;
    shrinks |= trips == Trend::Decreasing;
  });
  if (grows && !shrinks)
    return Trend::Increasing;
  if (shrinks && !grows)
    return Trend::Decreasing;
  return grows ? Trend::Unknown : Trend::Constant;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct TileRemapBlocksPass
    : public tile::impl::TileRemapBlocksBase<TileRemapBlocksPass> {
  using TileRemapBlocksBase::TileRemapBlocksBase;

  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    if (!kernel->hasAttr(TileDialect::getKernelAttrName()) ||
        kernel.isExternal())
      return;
    if (mode != "auto" && mode != "reverse" && mode != "none") {
      kernel.emitError() << "tile-remap-blocks: mode must be auto, reverse or "
                            "none, got '"
                         << mode << "'";
      return signalPassFailure();
    }
    std::optional<GridDim> reverseDim = symbolizeGridDim(dim);
    if (!reverseDim) {
      kernel.emitError() << "tile-remap-blocks: dim must be x, y or z, got '"
                         << dim << "'";
      return signalPassFailure();
    }
    if (groupSize < 1) {
      kernel.emitError() << "tile-remap-blocks: group-size must be at least "
                            "1, got "
                         << static_cast<int>(groupSize);
      return signalPassFailure();
    }
    bool reverse = mode == "reverse" ||
                   (mode == "auto" &&
                    getWorkTrend(kernel, *reverseDim) == Trend::Increasing);
    bool group = groupSize > 1;
    if (!reverse && !group)
      return;

    // The ids the kernel reads, by dimension.
    SmallVector<BlockIdOp> reads;
    kernel.walk([&](BlockIdOp op) { reads.push_back(op); });
    if (reads.empty())
      return;

    OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
    Location loc = kernel.getLoc();
    Type i32 = b.getI32Type();
    Value ids[3];
    for (GridDim d : {GridDim::x, GridDim::y, GridDim::z})
      ids[static_cast<int>(d)] = BlockIdOp::create(b, loc, i32, d);
    Value logical[3] = {ids[0], ids[1], ids[2]};

    if (group) {
      // L = x + nx * y; groups of G rows of the grid, y fastest inside.
      Type i64 = b.getI64Type();
      auto ext = [&](Value v) -> Value {
        return arith::ExtSIOp::create(b, loc, i64, v);
      };
      auto cst = [&](int64_t v) -> Value {
        return arith::ConstantIntOp::create(b, loc, i64, v);
      };
      Value x = ext(ids[0]), y = ext(ids[1]);
      Value nx = ext(NumBlocksOp::create(b, loc, i32, GridDim::x));
      Value ny = ext(NumBlocksOp::create(b, loc, i32, GridDim::y));
      Value g = cst(groupSize);
      Value linear = arith::AddIOp::create(
          b, loc, x, arith::MulIOp::create(b, loc, nx, y));
      Value groupBlocks = arith::MulIOp::create(b, loc, g, nx);
      Value groupIndex = arith::DivSIOp::create(b, loc, linear, groupBlocks);
      Value first = arith::MulIOp::create(b, loc, groupIndex, g);
      Value rows = arith::MinSIOp::create(
          b, loc, g, arith::SubIOp::create(b, loc, ny, first));
      Value r = arith::RemSIOp::create(b, loc, linear, groupBlocks);
      Value newY = arith::AddIOp::create(
          b, loc, first, arith::RemSIOp::create(b, loc, r, rows));
      Value newX = arith::DivSIOp::create(b, loc, r, rows);
      logical[0] = arith::TruncIOp::create(b, loc, i32, newX);
      logical[1] = arith::TruncIOp::create(b, loc, i32, newY);
    }
    if (reverse) {
      int d = static_cast<int>(*reverseDim);
      Value n = NumBlocksOp::create(b, loc, i32, *reverseDim);
      Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
      Value last = arith::SubIOp::create(b, loc, n, one);
      logical[d] = arith::SubIOp::create(b, loc, last, logical[d]);
    }

    for (BlockIdOp read : reads) {
      read.replaceAllUsesWith(logical[static_cast<int>(read.getDim())]);
      read.erase();
    }
    // Drop the hardware ids nothing reads.
    for (Value id : ids)
      if (id.use_empty())
        id.getDefiningOp()->erase();
  }
};

} // namespace

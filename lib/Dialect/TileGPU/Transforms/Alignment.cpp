//===- Alignment.cpp - what the compiler can prove about addresses --------===//

#include "tile/Dialect/TileGPU/Transforms/Alignment.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/IR/ViewAlign.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <algorithm>

using namespace mlir;

int64_t mlir::tilegpu::knownDivisor(Value v) {
  static constexpr int64_t kZero = int64_t(1) << 30;
  auto clamp = [](int64_t x) { return std::min(x, kZero); };
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant))) {
    int64_t c = constant.getSExtValue();
    return c == 0 ? kZero : clamp(c & -c);
  }
  Operation *def = v.getDefiningOp();
  if (!def) {
    // An scf.for induction variable runs lb, lb + step, ...
    if (auto forOp = scf::getForInductionVarOwner(v))
      return std::min(knownDivisor(forOp.getLowerBound()),
                      knownDivisor(forOp.getStep()));
    return 1;
  }
  if (isa<arith::MulIOp>(def))
    return clamp(knownDivisor(def->getOperand(0)) *
                 knownDivisor(def->getOperand(1)));
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::min(knownDivisor(def->getOperand(0)),
                    knownDivisor(def->getOperand(1)));
  if (isa<arith::ShLIOp>(def) &&
      matchPattern(def->getOperand(1), m_ConstantInt(&constant)) &&
      constant.getZExtValue() < 30)
    return clamp(knownDivisor(def->getOperand(0)) << constant.getZExtValue());
  return 1;
}

int64_t mlir::tilegpu::getViewAlign(Value view) {
  auto viewType = cast<tile::ViewType>(view.getType());
  int64_t elementBytes = std::max<int64_t>(
      1, viewType.getElementType().getIntOrFloatBitWidth() / 8);
  auto arg = dyn_cast<BlockArgument>(view);
  if (!arg)
    return elementBytes;
  auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!func || arg.getOwner() != &func.getFunctionBody().front())
    return elementBytes;
  if (auto align = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                      tile::kAlignArgAttrName))
    return align.getInt();
  return tile::kDefaultViewAlign;
}

int64_t mlir::tilegpu::getAccessAlign(Value view, ValueRange offsets) {
  int64_t align = getViewAlign(view);
  if (offsets.empty())
    return align;
  auto viewType = cast<tile::ViewType>(view.getType());
  int64_t elementBytes = std::max<int64_t>(
      1, viewType.getElementType().getIntOrFloatBitWidth() / 8);
  int64_t divisor = knownDivisor(offsets.back());
  if (divisor >= align / elementBytes)
    return align;
  return std::max<int64_t>(1, divisor * elementBytes);
}

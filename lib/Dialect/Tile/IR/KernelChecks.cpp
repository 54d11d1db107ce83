//===- KernelChecks.cpp - what the lowering must never see ----------------===//
//
// Checks of a specialized kernel's body that no single op's verifier can
// make: integer division by a constant zero and the signed minimum divided
// by -1 (undefined behaviour in LLVM IR, which the GPU lowering turns into a
// kernel whose body is `ret;`), unstructured control flow (which fails
// deep inside the lowering). tile-specialize runs them, so every pipeline
// (tile-O0..3, tile-source-to-ptx, tile-compile) and the CPU executor paths
// see them before anything else.
//
// A divisor that is zero only at run time is not refused: on the GPU an
// integer division by zero has an unspecified result (PTX ISA, `div`: "the
// result is unspecified"; no trap), and LLVM may assume it does not happen;
// the CPU executor reports it (tile-exec: "integer division by zero").
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/KernelChecks.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult mlir::tile::verifyInsideFunction(Operation *op) {
  if (op->getParentOfType<FunctionOpInterface>())
    return success();
  return op->emitOpError()
         << "must be inside a function (a kernel's func.func), not at "
            "module level";
}

namespace {

/// The lanes of an integer constant: one value when it is a scalar or a
/// splat, else every element (at most kMaxLanes).
using Lanes = SmallVector<APInt, 1>;
constexpr size_t kMaxLanes = 4096;

/// Folds the integer constants a value is built from: arith.constant,
/// tile.full, tile.splat / broadcast / reshape of a constant, and arith ops
/// whose operands all fold (after tile-specialize, `N - N` with N a bound
/// parameter).
class ConstantLanes {
public:
  std::optional<Lanes> get(Value value, unsigned depth = 0);

private:
  llvm::DenseMap<Value, std::optional<Lanes>> cache;
  std::optional<Lanes> compute(Value value, unsigned depth);
};

std::optional<Lanes> lanesOf(Attribute attr) {
  if (auto i = dyn_cast_or_null<IntegerAttr>(attr))
    return Lanes{i.getValue()};
  if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr)) {
    if (dense.isSplat())
      return Lanes{dense.getSplatValue<APInt>()};
    if (static_cast<size_t>(dense.getNumElements()) > kMaxLanes)
      return std::nullopt;
    Lanes lanes;
    for (const APInt &v : dense.getValues<APInt>())
      lanes.push_back(v);
    return lanes;
  }
  return std::nullopt;
}

/// The attribute fold() takes for an operand of `type` with `lanes`.
Attribute attrOf(Type type, const Lanes &lanes) {
  if (isa<IntegerType, IndexType>(type))
    return lanes.size() == 1 ? IntegerAttr::get(type, lanes[0]) : Attribute();
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || !shaped.hasStaticShape() || shaped.getEncoding())
    return {};
  if (lanes.size() == 1)
    return DenseElementsAttr::get(shaped, ArrayRef<APInt>(lanes[0]));
  if (static_cast<int64_t>(lanes.size()) != shaped.getNumElements())
    return {};
  return DenseElementsAttr::get(shaped, ArrayRef<APInt>(lanes));
}

std::optional<Lanes> ConstantLanes::get(Value value, unsigned depth) {
  auto it = cache.find(value);
  if (it != cache.end())
    return it->second;
  std::optional<Lanes> lanes = compute(value, depth);
  // In the value's width: tile.full keeps its integer as an i64 attribute.
  Type element = getElementTypeOrSelf(value.getType());
  if (lanes && element.isSignlessInteger())
    for (APInt &lane : *lanes)
      lane = lane.sextOrTrunc(element.getIntOrFloatBitWidth());
  else if (lanes && !element.isIndex())
    lanes = std::nullopt;
  cache[value] = lanes;
  return lanes;
}

std::optional<Lanes> ConstantLanes::compute(Value value, unsigned depth) {
  if (depth > 32)
    return std::nullopt;
  Attribute attr;
  if (matchPattern(value, m_Constant(&attr)))
    return lanesOf(attr);
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto full = dyn_cast<FullOp>(op))
    return lanesOf(full.getValue());
  if (isa<SplatOp, BroadcastOp, ReshapeOp>(op)) {
    std::optional<Lanes> source = get(op->getOperand(0), depth + 1);
    if (source && source->size() == 1)
      return source;
    return std::nullopt;
  }
  if (op->getName().getDialectNamespace() !=
          arith::ArithDialect::getDialectNamespace() ||
      op->getNumResults() != 1 || op->getNumRegions() != 0)
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    std::optional<Lanes> lanes = get(operand, depth + 1);
    Attribute a = lanes ? attrOf(operand.getType(), *lanes) : Attribute();
    if (!a)
      return std::nullopt;
    operands.push_back(a);
  }
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) || results.size() != 1)
    return std::nullopt;
  if (auto folded = dyn_cast<Attribute>(results[0]))
    return lanesOf(folded);
  Value same = cast<Value>(results[0]);
  return same == value ? std::nullopt : get(same, depth + 1);
}

bool isSignedDivision(Operation *op) {
  return isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
             arith::FloorDivSIOp>(op);
}

LogicalResult checkDivision(Operation *op, ConstantLanes &constants) {
  if (!isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
           arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
    return success();
  std::optional<Lanes> divisor = constants.get(op->getOperand(1));
  if (!divisor)
    return success();
  for (size_t i = 0; i < divisor->size(); ++i)
    if ((*divisor)[i].isZero())
      return op->emitOpError()
             << "divides by the constant zero"
             << (divisor->size() > 1 ? " (element " + std::to_string(i) + ")"
                                     : std::string())
             << ": undefined behaviour, which the GPU lowering turns into a "
                "kernel that does nothing";
  if (!isSignedDivision(op))
    return success();
  std::optional<Lanes> dividend = constants.get(op->getOperand(0));
  if (!dividend)
    return success();
  size_t n = std::max(dividend->size(), divisor->size());
  if ((dividend->size() != 1 && dividend->size() != n) ||
      (divisor->size() != 1 && divisor->size() != n))
    return success();
  for (size_t i = 0; i < n; ++i) {
    const APInt &a = (*dividend)[dividend->size() == 1 ? 0 : i];
    const APInt &b = (*divisor)[divisor->size() == 1 ? 0 : i];
    if (!a.isMinSignedValue() || !b.isAllOnes())
      continue;
    SmallString<24> minimum;
    a.toStringSigned(minimum);
    return op->emitOpError()
           << "divides the constant " << minimum << " (the minimum i"
           << a.getBitWidth()
           << ") by -1, which overflows: undefined behaviour, which the GPU "
              "lowering turns into a kernel that does nothing";
  }
  return success();
}

} // namespace

LogicalResult mlir::tile::checkKernelBody(Operation *kernel) {
  ConstantLanes constants;
  WalkResult result = kernel->walk([&](Operation *op) {
    if (op->getNumSuccessors() > 0) {
      op->emitOpError() << "branches to a block: a tile kernel has "
                           "structured control flow only (scf.for, scf.while, "
                           "scf.if)";
      return WalkResult::interrupt();
    }
    for (Region &region : op->getRegions())
      if (!region.empty() && !region.hasOneBlock()) {
        op->emitOpError() << "has a region of several blocks: a tile kernel "
                             "has structured control flow only (scf.for, "
                             "scf.while, scf.if)";
        return WalkResult::interrupt();
      }
    if (failed(checkDivision(op, constants)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===- Target.cpp - the chip a kernel is compiled for ---------------------===//

#include "tile/Dialect/TileGPU/IR/Target.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tilegpu;

FailureOr<TargetChip>
TargetChip::get(StringRef chip, function_ref<InFlightDiagnostic()> emitError) {
  std::string reason = tilebundle::unsupportedLoweringTargetReason(chip.str());
  if (!reason.empty())
    return emitError() << reason;
  tilebundle::SmTarget sm;
  tilebundle::parseSmTarget(chip.str(), sm);
  // Every lowering target has a row (unittests/Bundle/TargetTest.cpp).
  const tilebundle::ChipFacts *facts = tilebundle::findChipFacts(sm);
  assert(facts && "a lowering target without chip facts");
  return TargetChip(chip.str(), sm, facts);
}

FailureOr<TargetChip> TargetChip::lookup(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  auto chip =
      module ? module->getAttrOfType<StringAttr>(kTargetAttrName) : nullptr;
  if (!chip)
    return op->emitError()
           << "no target chip: the module has no " << kTargetAttrName
           << " attribute (tilegpu-set-target{target=sm_XY} or the "
              "tile-to-ptx pipeline's chip option sets it)";
  return get(chip.getValue(), [&] { return op->emitError(); });
}

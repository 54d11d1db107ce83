//===- SetTarget.cpp - the chip on the module -----------------------------===//
//
// tilegpu-set-target: the one place a chip name enters the tilegpu passes.
// It is checked against the lowering's targets here, once; the passes read
// the module's tilegpu.target and the chip table's facts of it.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUSETTARGET
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

struct TileGPUSetTargetPass
    : public tilegpu::impl::TileGPUSetTargetBase<TileGPUSetTargetPass> {
  using TileGPUSetTargetBase::TileGPUSetTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<TargetChip> chip =
        TargetChip::get(target, [&] { return module.emitError(); });
    if (failed(chip))
      return signalPassFailure();
    module->setAttr(kTargetAttrName,
                    StringAttr::get(module.getContext(), chip->getName()));
  }
};

} // namespace

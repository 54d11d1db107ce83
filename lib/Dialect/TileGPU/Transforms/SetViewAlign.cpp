//===- SetViewAlign.cpp - the alignment a kernel assumes for its views ----===//
//
// tilegpu-set-view-align: `tile.align = view-align` on every view argument
// of a kernel that has no `tile.align` (contract C2).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "tile/Dialect/Tile/IR/ViewAlign.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace tilegpu {
#define GEN_PASS_DEF_TILEGPUSETVIEWALIGN
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace tilegpu
} // namespace mlir

using namespace mlir;
using namespace mlir::tilegpu;

std::string mlir::tilegpu::getViewAlignError(int64_t align) {
  if (align >= 1 && align <= 16 && llvm::isPowerOf2_64(align))
    return "";
  return "view-align must be a power of two from 1 to 16 (bytes), got " +
         std::to_string(align);
}

namespace {

struct TileGPUSetViewAlignPass
    : public tilegpu::impl::TileGPUSetViewAlignBase<TileGPUSetViewAlignPass> {
  using TileGPUSetViewAlignBase::TileGPUSetViewAlignBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func->hasAttr(tile::TileDialect::getKernelAttrName()))
      return;
    if (std::string error = getViewAlignError(viewAlign); !error.empty()) {
      func.emitError() << error;
      return signalPassFailure();
    }
    StringRef name = tile::kAlignArgAttrName;
    Builder b(func.getContext());
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isa<tile::ViewType>(type) && !func.getArgAttr(i, name))
        func.setArgAttr(i, name, b.getI64IntegerAttr(viewAlign));
  }
};

} // namespace

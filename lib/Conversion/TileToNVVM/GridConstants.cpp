//===- GridConstants.cpp - tensor-map parameters as grid constants --------===//
//
// tile-grid-constants: after convert-gpu-to-nvvm, each kernel parameter
// listed in `tilegpu.grid_constants` (a TMA tensor map, marked by
// convert-tile-to-nvvm) becomes a 128-byte by-value grid constant, 64-byte
// aligned: what `.param .align 64 .b8 p[128]` and cuTensorMapEncodeTiled's
// CUtensorMap need. convert-gpu-to-nvvm drops `llvm.byval`, and the NVVM
// verifier accepts `nvvm.grid_constant` on llvm.func kernels only, so this
// cannot happen earlier.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVVM/Passes.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEGRIDCONSTANTS
#include "tile/Conversion/TileToNVVM/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kListAttr = "tilegpu.grid_constants";

struct TileGridConstantsPass
    : public tile::impl::TileGridConstantsBase<TileGridConstantsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    auto byval =
        TypeAttr::get(LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 128));
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto list = func->getAttrOfType<DenseI64ArrayAttr>(kListAttr);
      if (!list)
        continue;
      func->removeAttr(kListAttr);
      for (int64_t index : list.asArrayRef()) {
        if (index < 0 || index >= func.getNumArguments() ||
            !isa<LLVM::LLVMPointerType>(func.getArgumentTypes()[index])) {
          func.emitOpError() << "tilegpu.grid_constants names argument "
                             << index << ", which is not a pointer parameter";
          return signalPassFailure();
        }
        unsigned i = static_cast<unsigned>(index);
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(), byval);
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(64));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
    }
  }
};

} // namespace

//===- TileToNVVM.cpp - outline kernels and convert them to NVVM ----------===//
//
// convert-tile-to-nvvm: every tilegpu kernel becomes a gpu.func in
// gpu.module @tile_kernels with the bundle's launch ABI, and a dialect
// conversion turns tiles into per-thread registers and tile ops into NVVM.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVVM/Passes.h"

#include "LoweringUtils.h"

#include "tile/Dialect/Tile/IR/ViewAlign.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_CONVERTTILETONVVM
#include "tile/Conversion/TileToNVVM/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

namespace {

constexpr llvm::StringLiteral kKernelModuleName = "tile_kernels";

bool hasTileTypes(Operation *op) {
  auto isTileType = [](Type t) {
    return isa<RankedTensorType, ViewType, tilegpu::SharedBufferType,
               tilegpu::MbarrierType, tilegpu::TensorMapType>(t);
  };
  return llvm::any_of(op->getOperandTypes(), isTileType) ||
         llvm::any_of(op->getResultTypes(), isTileType);
}

/// Creates gpu.module @tile_kernels (once) with the dynamic shared memory.
gpu::GPUModuleOp getOrCreateKernelModule(ModuleOp module) {
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName))
    return existing;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule =
      gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModuleName);
  b.setInsertionPointToStart(gpuModule.getBody());
  auto i8 = b.getI8Type();
  LLVM::GlobalOp::create(b, module.getLoc(), LLVM::LLVMArrayType::get(i8, 0),
                         /*isConstant=*/false, LLVM::Linkage::External,
                         kSharedMemorySymbol, Attribute(),
                         /*alignment=*/1024, // wgmma swizzle atoms
                         /*addrSpace=*/3);
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  b.getUnitAttr());
  return gpuModule;
}

/// Records on every op that accesses a view the alignment the kernel
/// assumes for it (the argument's tile.align), which the outlined gpu.func
/// no longer carries: the lowering takes vector widths from it.
void recordViewAlignment(func::FuncOp kernel) {
  kernel.walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      auto arg = dyn_cast<BlockArgument>(operand);
      if (!arg || !isa<ViewType>(arg.getType()) ||
          arg.getOwner() != &kernel.getBody().front())
        continue;
      if (auto align = kernel.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                            kAlignArgAttrName))
        op->setAttr(kViewAlignAttrName, align);
    }
  });
}

/// Ops that synchronize the block around their scratch area but run in
/// the consumers of a warp-specialized kernel synchronize the consumers
/// only (the producer warps never reach them).
void recordConsumerBarriers(func::FuncOp kernel) {
  kernel.walk([&](tilegpu::WarpSpecializeOp ws) {
    int64_t threads =
        static_cast<int64_t>(ws.getConsumerWarps()) * tilegpu::kWarpSize;
    ws.getConsumers().walk([&](Operation *op) {
      // Scalar atomics synchronize the block too (the lowering refuses
      // them there).
      if (tilegpu::getScratchBytes(op) > 0 || isa<tile::AtomicOp>(op))
        op->setAttr(
            kBarrierThreadsAttrName,
            IntegerAttr::get(IntegerType::get(op->getContext(), 32), threads));
    });
  });
}

/// Moves `kernel` into the gpu.module as a gpu.func with the flattened ABI.
LogicalResult outlineKernel(func::FuncOp kernel, gpu::GPUModuleOp gpuModule) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  SmallVector<Type> abiTypes;
  for (Type type : kernel.getArgumentTypes()) {
    if (auto view = dyn_cast<ViewType>(type)) {
      abiTypes.push_back(LLVM::LLVMPointerType::get(ctx, 1));
      abiTypes.append(view.getRank(), IntegerType::get(ctx, 32));
      abiTypes.append(view.getRank(), IntegerType::get(ctx, 64));
      continue;
    }
    if (isa<tilegpu::TensorMapType>(type)) {
      abiTypes.push_back(LLVM::LLVMPointerType::get(ctx));
      continue;
    }
    if (!type.isIntOrFloat())
      return kernel.emitError()
             << "kernel argument type " << type << " has no launch ABI";
    abiTypes.push_back(type);
  }
  if (kernel.getNumResults() != 0)
    return kernel.emitError() << "a kernel returns nothing";

  OpBuilder b(gpuModule.getBody(), gpuModule.getBody()->end());
  auto gpuFunc = gpu::GPUFuncOp::create(b, loc, kernel.getName(),
                                        FunctionType::get(ctx, abiTypes, {}));
  gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  auto warps = kernel->getAttrOfType<IntegerAttr>("tilegpu.num_warps");
  int32_t threads = static_cast<int32_t>(warps.getInt()) * tilegpu::kWarpSize;
  gpuFunc->setAttr("nvvm.maxntid", b.getDenseI32ArrayAttr({threads, 1, 1}));
  if (auto occupancy = kernel->getAttrOfType<IntegerAttr>("tilegpu.occupancy"))
    gpuFunc->setAttr("nvvm.minctasm", b.getI32IntegerAttr(static_cast<int32_t>(
                                          occupancy.getInt())));
  for (StringRef name : {"tile.kernel", "tile.params", "tilegpu.num_warps",
                         "tilegpu.shared_bytes", "tilegpu.occupancy"})
    if (Attribute attr = kernel->getAttr(name))
      gpuFunc->setAttr(name, attr);

  // Rebuild each view from its ABI pieces, then hand the old body the
  // values it expects. A tensor map is a CUtensorMap passed by value as a
  // grid constant (.param .align 64 .b8 p[128]); the body uses its address.
  Block &entry = gpuFunc.getBody().front();
  b.setInsertionPointToStart(&entry);
  SmallVector<Value> replacements;
  SmallVector<int64_t> gridConstants;
  unsigned next = 0;
  for (Type type : kernel.getArgumentTypes()) {
    if (isa<tilegpu::TensorMapType>(type)) {
      unsigned index = next++;
      gridConstants.push_back(index);
      replacements.push_back(UnrealizedConversionCastOp::create(
                                 b, loc, type, entry.getArgument(index))
                                 .getResult(0));
      continue;
    }
    auto view = dyn_cast<ViewType>(type);
    if (!view) {
      replacements.push_back(entry.getArgument(next++));
      continue;
    }
    unsigned rank = view.getRank();
    auto structType = getViewStructType(ctx, rank);
    Value desc = LLVM::UndefOp::create(b, loc, structType);
    desc = LLVM::InsertValueOp::create(b, loc, desc, entry.getArgument(next++),
                                       ArrayRef<int64_t>{0});
    for (unsigned d = 0; d < rank; ++d)
      desc = LLVM::InsertValueOp::create(
          b, loc, desc, entry.getArgument(next++),
          ArrayRef<int64_t>{1, static_cast<int64_t>(d)});
    for (unsigned d = 0; d < rank; ++d)
      desc = LLVM::InsertValueOp::create(
          b, loc, desc, entry.getArgument(next++),
          ArrayRef<int64_t>{2, static_cast<int64_t>(d)});
    replacements.push_back(
        UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0));
  }
  // Made grid constants after convert-gpu-to-nvvm (tile-grid-constants).
  if (!gridConstants.empty())
    gpuFunc->setAttr("tilegpu.grid_constants",
                     b.getDenseI64ArrayAttr(gridConstants));
  Block &oldEntry = kernel.getBody().front();
  IRRewriter rewriter(ctx);
  rewriter.inlineBlockBefore(&oldEntry, &entry, entry.end(), replacements);
  for (auto ret :
       llvm::make_early_inc_range(gpuFunc.getOps<func::ReturnOp>())) {
    rewriter.setInsertionPoint(ret);
    rewriter.replaceOpWithNewOp<gpu::ReturnOp>(ret);
  }
  kernel.erase();
  return success();
}

/// wgmma reads shared memory through the async proxy, cp.async and
/// st.shared write it through the generic one: in a kernel with wgmma, each
/// thread orders its completed copies and stores before the barrier that
/// publishes them to the warpgroups (fence.proxy.async after every cp.async
/// wait and tilegpu.local_store).
void insertProxyFences(gpu::GPUFuncOp func) {
  bool usesWgmma = false;
  func.walk([&](tilegpu::MmaOp mma) {
    usesWgmma |=
        cast<tilegpu::MmaLayoutAttr>(mma.getAcc().getType().getEncoding())
            .getVersion() == 3;
  });
  if (!usesWgmma)
    return;
  // Stores of registers to shared memory (tilegpu.local_store) too.
  func.walk([&](Operation *op) {
    if (!isa<tilegpu::AsyncWaitOp, tilegpu::LocalStoreOp>(op))
      return;
    OpBuilder b(op->getContext());
    b.setInsertionPointAfter(op);
    NVVM::FenceProxyOp::create(
        b, op->getLoc(), NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  });
}

struct ConvertTileToNVVMPass
    : public tile::impl::ConvertTileToNVVMBase<ConvertTileToNVVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func->hasAttr("tilegpu.num_warps")) {
        kernels.push_back(func);
        continue;
      }
      // A kernel without layouts would be left as it is, and the module
      // "converted" with nothing in it.
      if (func->hasAttr(TileDialect::getKernelAttrName())) {
        func.emitError()
            << "kernel '" << func.getName()
            << "' has no layouts (no 'tilegpu.num_warps'): run "
               "tilegpu-assign-layouts and the other tile-to-tilegpu steps "
               "first (the tile-to-ptx pipeline runs them all)";
        return signalPassFailure();
      }
    }
    if (kernels.empty())
      return;
    gpu::GPUModuleOp gpuModule = getOrCreateKernelModule(module);
    for (func::FuncOp kernel : kernels) {
      // The occupancy hint for the target chip, recorded by
      // tilegpu-assign-layouts, becomes .minnctapersm; IR that did not go
      // through it uses the kernel's top-level hint.
      if (!kernel->hasAttr("tilegpu.occupancy"))
        if (auto hints = kernel->getAttrOfType<DictionaryAttr>(
                TileDialect::getKernelAttrName()))
          if (auto occ = dyn_cast_or_null<IntegerAttr>(hints.get("occupancy")))
            kernel->setAttr("tilegpu.occupancy", occ);
      recordViewAlignment(kernel);
      recordConsumerBarriers(kernel);
      if (failed(outlineKernel(kernel, gpuModule)))
        return signalPassFailure();
    }

    TileTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                           vector::VectorDialect, gpu::GPUDialect>();
    target.addIllegalDialect<TileDialect, tilegpu::TileGPUDialect>();
    // Math functions on tiles and scalars: MathToNVVM.cpp (no libdevice).
    target.addIllegalDialect<math::MathDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect>(
        [](Operation *op) { return !hasTileTypes(op); });
    target.addLegalOp<UnrealizedConversionCastOp>();
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateElementwisePatterns(converter, patterns);
    populateMemoryPatterns(converter, patterns);
    populateMmaPatterns(converter, patterns);
    populateWgmmaPatterns(converter, patterns);
    populateConvertLayoutPatterns(converter, patterns);
    populateReducePatterns(converter, patterns);
    populateGlobalAccessPatterns(converter, patterns);
    populateMathPatterns(converter, patterns);
    populateBarrierPatterns(converter, patterns);
    populateTmaPatterns(converter, patterns);
    for (gpu::GPUFuncOp func : gpuModule.getOps<gpu::GPUFuncOp>())
      insertProxyFences(func);
    if (failed(applyPartialConversion(gpuModule, target, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

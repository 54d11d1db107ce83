//===- Pipelines.cpp - the compiler's named pass pipelines ----------------===//

#include "tile/Pipelines/Pipelines.h"

#include "tile/Conversion/TileToNVVM/Passes.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

int64_t mlir::tile::getMaxSharedMemoryPerBlock(StringRef chip) {
  // sm_90: 228 KB per SM, 227 KB per block; sm_80: 163 KB; sm_86/89: 99 KB.
  if (chip.starts_with("sm_90"))
    return 232448;
  if (chip == "sm_80" || chip == "sm_87")
    return 166912;
  return 101376;
}

std::string mlir::tile::getPTXFeatures(StringRef chip) {
  return chip.ends_with("a") ? "+ptx80" : "";
}

void mlir::tile::buildTileToPTXPipeline(OpPassManager &pm,
                                        const GPUPipelineOptions &options) {
  buildTileToTileGPUPipeline(pm, options);
  buildTileGPUToPTXPipeline(pm, options);
}

void mlir::tile::buildTileToTileGPUPipeline(OpPassManager &pm,
                                            const GPUPipelineOptions &options) {
  int64_t maxShared = getMaxSharedMemoryPerBlock(options.chip);
  OpPassManager &func = pm.nest<func::FuncOp>();
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
  func.addPass(tilegpu::createTileGPULowerMemoryOps());
  func.addPass(tilegpu::createTileGPURematerialize());
  tilegpu::TileGPUAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = options.numWarps;
  layoutOptions.chip = options.chip;
  layoutOptions.sharedLayout = options.sharedLayout;
  layoutOptions.mmaVersion = options.mmaVersion;
  func.addPass(tilegpu::createTileGPUAssignLayouts(layoutOptions));
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
  // wgmma issued early, waited for at the first use of its result (before
  // pipelining, which releases a stage after the wait of its last reader).
  tilegpu::TileGPUAsyncMmaOptions asyncOptions;
  asyncOptions.pinWaits = options.pinWaits;
  func.addPass(tilegpu::createTileGPUAsyncMma(asyncOptions));
  tilegpu::TileGPUPipelineOptions pipelineOptions;
  pipelineOptions.stages = options.stages;
  pipelineOptions.maxSharedBytes = maxShared;
  pipelineOptions.sync = options.sync;
  pipelineOptions.chip = options.chip;
  func.addPass(tilegpu::createTileGPUPipeline(pipelineOptions));
  tilegpu::TileGPUWarpSpecializeOptions wsOptions;
  wsOptions.mode = options.warpSpecialize;
  wsOptions.chip = options.chip;
  wsOptions.producerRegs = options.producerRegs;
  func.addPass(tilegpu::createTileGPUWarpSpecialize(wsOptions));
  tilegpu::TileGPUPingPongOptions pingPongOptions;
  pingPongOptions.mode = options.pingPong;
  pingPongOptions.chip = options.chip;
  func.addPass(tilegpu::createTileGPUPingPong(pingPongOptions));
  tilegpu::TileGPUTmaOptions tmaOptions;
  tmaOptions.mode = options.tma;
  tmaOptions.chip = options.chip;
  func.addPass(tilegpu::createTileGPUTma(tmaOptions));
  tilegpu::TileGPUAllocateSharedOptions allocOptions;
  allocOptions.maxSharedBytes = maxShared;
  func.addPass(tilegpu::createTileGPUAllocateShared(allocOptions));
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
}

void mlir::tile::buildTileGPUToPTXPipeline(OpPassManager &pm,
                                           const GPUPipelineOptions &options) {
  pm.addPass(tile::createConvertTileToNVVM());
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(createSCFToControlFlowPass());
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  gpu.addPass(createConvertVectorToLLVMPass());
  gpu.addPass(createConvertGpuOpsToNVVMOps());
  gpu.addPass(createReconcileUnrealizedCastsPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = getPTXFeatures(options.chip);
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  if (options.emitBinary) {
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = "isa";
    pm.addPass(createGpuModuleToBinaryPass(binary));
  }
}

void mlir::tile::enableShortSharedPointers() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("nvptx-short-ptr");
  if (it == options.end())
    return;
  if (auto *flag = static_cast<llvm::cl::opt<bool> *>(it->second))
    flag->setValue(true);
}

void mlir::tile::registerTilePipelines() {
  PassPipelineRegistration<GPUPipelineOptions>(
      "tile-to-ptx",
      "Lower specialized tile IR to a gpu.module and PTX (layouts, shared "
      "memory, pipelining, NVVM, NVPTX)",
      buildTileToPTXPipeline);
}

void mlir::tile::registerGPUTargetDialects(DialectRegistry &registry) {
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect, LLVM::LLVMDialect,
                  vector::VectorDialect, cf::ControlFlowDialect>();
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  // convert-gpu-to-nvvm lowers the other dialects through their
  // ConvertToLLVM interfaces.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}

//===- GPUPipelines.cpp - tile-to-ptx and tile-source-to-ptx --------------===//
//
// The pipelines that lower to the GPU, stage by stage (tilegpu, nvvm, ptx,
// each ending at a tile-checkpoint), and the named source-to-PTX pipeline
// that tile-compile runs.
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"

#include "tile/Bundle/Target.h"

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
using namespace mlir::tile;

/// `chip` parsed (a lowering target: checkLoweringOptions).
static tilebundle::SmTarget getSmTarget(StringRef chip) {
  tilebundle::SmTarget target;
  tilebundle::parseSmTarget(chip.str(), target);
  return target;
}

/// Ends `stage` with its checkpoint; true when the pipeline goes on.
static bool endStage(OpPassManager &pm, Stage stage,
                     const PipelineOptions &options) {
  TileCheckpointOptions checkpoint;
  checkpoint.stage = getStageName(stage).str();
  pm.addPass(createTileCheckpoint(checkpoint));
  return stage < *parseStage(options.stopAfter);
}

/// tile IR -> tilegpu IR (layouts, shared memory, pipelining, allocation),
/// still func.func kernels; `tilegpu.num_warps` and `tilegpu.shared_bytes`
/// are set on them.
static void addTileGPUStage(OpPassManager &pm, const PipelineOptions &options) {
  // The chip, once, on the module: every tilegpu pass reads it there.
  tilegpu::TileGPUSetTargetOptions targetOptions;
  targetOptions.target = options.chip;
  pm.addPass(tilegpu::createTileGPUSetTarget(targetOptions));
  OpPassManager &func = pm.nest<func::FuncOp>();
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
  tilegpu::TileGPUSetViewAlignOptions alignOptions;
  alignOptions.viewAlign = options.viewAlign;
  func.addPass(tilegpu::createTileGPUSetViewAlign(alignOptions));
  func.addPass(tilegpu::createTileGPULowerMemoryOps());
  func.addPass(tilegpu::createTileGPUExpandReductions());
  func.addPass(tilegpu::createTileGPURematerialize());
  tilegpu::TileGPUAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = options.numWarps;
  layoutOptions.sharedLayout = options.sharedLayout;
  layoutOptions.mmaVersion = options.mmaVersion;
  layoutOptions.coalesceStores = options.coalesceStores;
  func.addPass(tilegpu::createTileGPUAssignLayouts(layoutOptions));
  func.addPass(tilegpu::createTileGPURemoveLayoutConversions());
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
  // wgmma issued early, waited for at the first use of its result (before
  // pipelining, which releases a stage after the wait of its last reader).
  tilegpu::TileGPUAsyncMmaOptions asyncOptions;
  asyncOptions.pinWaits = options.pinWaits;
  func.addPass(tilegpu::createTileGPUAsyncMma(asyncOptions));
  tilegpu::TileGPUPipelineOptions pipelineOptions;
  pipelineOptions.stages = options.stages;
  pipelineOptions.sync = options.sync;
  func.addPass(tilegpu::createTileGPUPipeline(pipelineOptions));
  tilegpu::TileGPUWarpSpecializeOptions wsOptions;
  wsOptions.mode = options.warpSpecialize;
  wsOptions.producerRegs = options.producerRegs;
  func.addPass(tilegpu::createTileGPUWarpSpecialize(wsOptions));
  tilegpu::TileGPUPingPongOptions pingPongOptions;
  pingPongOptions.mode = options.pingPong;
  func.addPass(tilegpu::createTileGPUPingPong(pingPongOptions));
  tilegpu::TileGPUTmaOptions tmaOptions;
  tmaOptions.mode = options.tma;
  func.addPass(tilegpu::createTileGPUTma(tmaOptions));
  func.addPass(tilegpu::createTileGPUAllocateShared());
  func.addPass(createCanonicalizerPass());
  func.addPass(createCSEPass());
  // Before ptxas: registers and launch hints the chip cannot hold.
  tilegpu::TileGPUCheckResourcesOptions checkOptions;
  checkOptions.maxRegisters = options.maxRegisters;
  func.addPass(tilegpu::createTileGPUCheckResources(checkOptions));
}

/// tilegpu IR -> gpu.module of NVVM with its target attached.
static void addNVVMStage(OpPassManager &pm, const PipelineOptions &options) {
  pm.addPass(tile::createConvertTileToNVVM());
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(createSCFToControlFlowPass());
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  gpu.addPass(createConvertVectorToLLVMPass());
  gpu.addPass(createConvertGpuOpsToNVVMOps());
  // NVVM ops without an LLVM intrinsic (bar.arrive of ping-pong) become
  // inline PTX.
  gpu.addPass(createConvertNVVMToLLVMPass());
  gpu.addPass(createReconcileUnrealizedCastsPass());
  gpu.addPass(createTileGridConstants());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = tilebundle::ptxFeatures(getSmTarget(options.chip));
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
}

/// gpu.module -> gpu.binary holding PTX (LLVM's NVPTX back end).
static void addPTXStage(OpPassManager &pm) {
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::tile::buildTileToPTXPipeline(OpPassManager &pm,
                                        const PipelineOptions &options) {
  if (*parseStage(options.stopAfter) < Stage::TileGPU)
    return;
  addTileGPUStage(pm, options);
  if (!endStage(pm, Stage::TileGPU, options))
    return;
  addNVVMStage(pm, options);
  if (!endStage(pm, Stage::NVVM, options))
    return;
  addPTXStage(pm);
  endStage(pm, Stage::PTX, options);
}

/// The lowering's options, checked when the pipeline is built and not only
/// by the passes that read them, where those run: a source compiled only to
/// tile IR (--emit=tile) took any chip (fuzzer, seed 20261203), and any
/// --producer-regs, --view-align or --mma-version.
static LogicalResult checkLoweringOptions(const PipelineOptions &options,
                                          raw_ostream &errorStream) {
  for (const std::string &error :
       {tilebundle::unsupportedLoweringTargetReason(options.chip),
        tilegpu::getProducerRegsError(options.producerRegs),
        tilegpu::getViewAlignError(options.viewAlign),
        tilegpu::getMmaVersionError(options.mmaVersion)}) {
    if (!error.empty()) {
      errorStream << error << "\n";
      return failure();
    }
  }
  return success();
}

LogicalResult
mlir::tile::buildSourceToPTXPipeline(OpPassManager &pm,
                                     const PipelineOptions &options,
                                     raw_ostream &errorStream) {
  if (failed(checkLoweringOptions(options, errorStream)) ||
      failed(buildTileStage(pm, options, errorStream)))
    return failure();
  buildTileToPTXPipeline(pm, options);
  return success();
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
  // Pipelines may be registered once only; tools may call this more often.
  static bool registered = false;
  if (std::exchange(registered, true))
    return;
  registerPipeline(
      "tile-to-ptx",
      "Lower specialized tile IR to a gpu.module and PTX (layouts, shared "
      "memory, pipelining, NVVM, NVPTX)",
      ReadByLowering,
      [](OpPassManager &pm, const PipelineOptions &options,
         raw_ostream &errorStream) {
        if (failed(checkLoweringOptions(options, errorStream)))
          return failure();
        buildTileToPTXPipeline(pm, options);
        return success();
      });
  registerPipeline("tile-source-to-ptx",
                   "Compile a kernel source to PTX: tile-specialize, the "
                   "tile-level pipeline (tile-pipeline), then tile-to-ptx",
                   ReadBySource, buildSourceToPTXPipeline);
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

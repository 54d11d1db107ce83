//===- Pipelines.h - the compiler's named pass pipelines --------*- C++ -*-===//
//
// `tile-to-ptx`: specialized, optimized tile IR -> gpu.module with PTX,
// as one pass pipeline, shared by tile-opt (`--pass-pipeline=...` or
// `-tile-to-ptx`) and tile-compile.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
namespace tile {

struct GPUPipelineOptions : public PassPipelineOptions<GPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip: sm_80, sm_89, sm_90, sm_90a"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<int> numWarps{
      *this, "num-warps",
      llvm::cl::desc("Warps per block (0: the kernel's hint for the chip)"),
      llvm::cl::init(0)};
  PassOptions::Option<int> stages{
      *this, "stages",
      llvm::cl::desc("Pipeline stages (0: from the loads' latency hints)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> sync{
      *this, "sync",
      llvm::cl::desc("Pipeline stage synchronization: barrier, mbarrier "
                     "(sm_90+) or auto (mbarrier on sm_90 and newer)"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("A producer warpgroup for the pipelined copies: auto "
                     "(the kernel's hint, else when it qualifies), on, off"),
      llvm::cl::init("auto")};
  PassOptions::Option<int> producerRegs{
      *this, "producer-regs",
      llvm::cl::desc("Registers per producer thread (setmaxnreg)"),
      llvm::cl::init(40)};
  PassOptions::Option<std::string> pingPong{
      *this, "ping-pong",
      llvm::cl::desc("Consumer warpgroups take turns issuing wgmma: auto "
                     "(the kernel's hint, else when it qualifies), on, off"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> tma{
      *this, "tma",
      llvm::cl::desc("The producer's pipelined tiles through TMA: off (the "
                     "default until every launcher builds tensor maps), on, "
                     "auto (the kernel's hint, else when it qualifies)"),
      llvm::cl::init("off")};
  PassOptions::Option<bool> pinWaits{
      *this, "pin-waits",
      llvm::cl::desc("Keep a wgmma wait after the work meant to overlap its "
                     "mma (membar.cta before it)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> sharedLayout{
      *this, "shared-layout",
      llvm::cl::desc("Shared tiles of mma operands: padded or swizzled"),
      llvm::cl::init("padded")};
  PassOptions::Option<unsigned> mmaVersion{
      *this, "mma-version",
      llvm::cl::desc("Tensor-core instruction: 2 (mma.sync), 3 (wgmma, "
                     "sm_90a), 0 (wgmma where it fits, else mma.sync)"),
      llvm::cl::init(0)};
  PassOptions::Option<int> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<bool> emitBinary{
      *this, "emit-binary",
      llvm::cl::desc("Serialize the gpu.module to PTX (gpu-module-to-binary)"),
      llvm::cl::init(true)};
};

/// Appends the lowering from tile IR with static shapes to a gpu.module of
/// NVVM (and, with emitBinary, to a gpu.binary holding PTX): the two halves
/// below, one after the other.
void buildTileToPTXPipeline(OpPassManager &pm,
                            const GPUPipelineOptions &options);

/// First half: tile IR -> tilegpu IR (layouts, shared memory, pipelining,
/// allocation), still func.func kernels; `tilegpu.num_warps` and
/// `tilegpu.shared_bytes` are set on them.
void buildTileToTileGPUPipeline(OpPassManager &pm,
                                const GPUPipelineOptions &options);

/// Second half: tilegpu IR -> gpu.module of NVVM -> (PTX).
void buildTileGPUToPTXPipeline(OpPassManager &pm,
                               const GPUPipelineOptions &options);

/// Shared memory per block the chip offers (bytes).
int64_t getMaxSharedMemoryPerBlock(StringRef chip);

/// PTX ISA features a chip needs (+ptx80 for sm_90a).
std::string getPTXFeatures(StringRef chip);

/// Makes the NVPTX back end use 32-bit shared-memory pointers
/// (`--nvptx-short-ptr`): half the registers for the many shared addresses
/// of an mma loop. Process-wide; tools call it once at start.
void enableShortSharedPointers();

/// Registers `tile-to-ptx` with the pass registry.
void registerTilePipelines();

/// Dialects, external models and translations the GPU path needs.
void registerGPUTargetDialects(DialectRegistry &registry);

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_PIPELINES_H

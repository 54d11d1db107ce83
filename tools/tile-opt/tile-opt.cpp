//===- tile-opt.cpp - the tile compiler's opt driver ----------------------===//
//
// Parses tile IR and runs passes on it. Registers only the dialects the
// kernels use, the generic cleanups (canonicalize, CSE, LICM) and the
// project's own passes and pipelines. The input is read through
// checked::readFile (regular files and pipes only, bounded), not by MLIR.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVVM/Passes.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Support/SourceFile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

#ifdef TILE_INCLUDE_TESTS
namespace mlir::tile::test {
void registerTestPasses();
} // namespace mlir::tile::test
#endif

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect, mlir::tilegpu::TileGPUDialect,
                  mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::cf::ControlFlowDialect>();

  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerLoopInvariantCodeMotionPass();
  mlir::registerSymbolDCEPass();
  mlir::tile::registerTilePasses();
  mlir::tilegpu::registerTileGPUPasses();
  mlir::tile::registerTileConversionPasses();
  // tile-O0..tile-O3, tile-checkpoint, tile-to-ptx, tile-source-to-ptx.
  mlir::tile::registerTileOptimizationPipelines();
  mlir::tile::registerTilePipelines();
  mlir::tile::enableShortSharedPointers();
  mlir::tile::registerGPUTargetDialects(registry);
  // A note on tile types that disagree in `?`, before the error is reported.
  mlir::tile::registerTypeMismatchHints(registry);
#ifdef TILE_INCLUDE_TESTS
  mlir::tile::test::registerTestPasses();
#endif

  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "tile compiler optimizer\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Listing dialects or passes reads no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));

  llvm::InitLLVM init(argc, argv);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::tile::readSourceFile(inputFile, error);
  if (!input) {
    llvm::errs() << "error: " << error << "\n";
    return EXIT_FAILURE;
  }
  if (!mlir::tile::checkSourceNesting(*input, error)) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "error: " << error << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}

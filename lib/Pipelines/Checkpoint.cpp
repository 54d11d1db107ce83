//===- Checkpoint.cpp - the stage boundaries of tile-source-to-ptx --------===//
//
// tile-checkpoint{stage=...}: a pass that changes nothing and marks where a
// stage of tile-source-to-ptx ends, and the names of the stages.
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILECHECKPOINT
#include "tile/Pipelines/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct CheckpointPass : tile::impl::TileCheckpointBase<CheckpointPass> {
  using TileCheckpointBase::TileCheckpointBase;

  LogicalResult initialize(MLIRContext *context) override {
    if (!parseStage(stage))
      return emitError(UnknownLoc::get(context))
             << "tile-checkpoint: unknown stage '" << stage
             << "' (tile, tilegpu, nvvm or ptx)";
    return success();
  }

  void runOnOperation() override { markAllAnalysesPreserved(); }

  StringRef getStage() const { return stage; }
};

} // namespace

StringRef mlir::tile::getStageName(Stage stage) {
  switch (stage) {
  case Stage::Tile:
    return "tile";
  case Stage::TileGPU:
    return "tilegpu";
  case Stage::NVVM:
    return "nvvm";
  case Stage::PTX:
    return "ptx";
  }
  llvm_unreachable("unknown stage");
}

std::optional<Stage> mlir::tile::parseStage(StringRef name) {
  return llvm::StringSwitch<std::optional<Stage>>(name)
      .Case("tile", Stage::Tile)
      .Case("tilegpu", Stage::TileGPU)
      .Case("nvvm", Stage::NVVM)
      .Case("ptx", Stage::PTX)
      .Default(std::nullopt);
}

std::optional<Stage> mlir::tile::getCheckpointStage(Pass &pass) {
  if (pass.getTypeID() != TypeID::get<CheckpointPass>())
    return std::nullopt;
  return parseStage(static_cast<CheckpointPass &>(pass).getStage());
}

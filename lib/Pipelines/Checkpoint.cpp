//===- Checkpoint.cpp - the stage boundaries of tile-source-to-ptx --------===//
//
// tile-checkpoint{stage=...}: a pass that changes nothing and marks where a
// stage of tile-source-to-ptx ends, and the names of the stages.
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"
#include "tile/Support/EnumNames.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILECHECKPOINT
#include "tile/Pipelines/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct CheckpointPass : mlir::tile::impl::TileCheckpointBase<CheckpointPass> {
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

static constexpr ::tile::EnumName<Stage> kStageNames[] = {
    {Stage::Tile, "tile"},
    {Stage::TileGPU, "tilegpu"},
    {Stage::NVVM, "nvvm"},
    {Stage::PTX, "ptx"}};
static_assert(::tile::listsEnum(kStageNames, Stage::PTX));

StringRef mlir::tile::getStageName(Stage stage) {
  return ::tile::enumName(kStageNames, stage);
}

std::optional<Stage> mlir::tile::parseStage(StringRef name) {
  return ::tile::parseEnumName(kStageNames, name);
}

std::optional<Stage> mlir::tile::getCheckpointStage(Pass &pass) {
  if (pass.getTypeID() != TypeID::get<CheckpointPass>())
    return std::nullopt;
  return parseStage(static_cast<CheckpointPass &>(pass).getStage());
}

//===- Target.h - the chip a kernel is compiled for -------------*- C++ -*-===//
//
// The chip of the tilegpu passes: its name and its row of the one table of
// chip facts (tile/Bundle/Target.h), which decides every "sm_90 or newer",
// "wgmma" and "shared memory per block" question of the passes.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TARGET_H
#define TILE_DIALECT_TILEGPU_IR_TARGET_H

#include "tile/Bundle/Target.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace tilegpu {

/// The module attribute naming the chip (`tilegpu-set-target` sets it).
constexpr StringLiteral kTargetAttrName = "tilegpu.target";

class TargetChip {
public:
  /// The target `chip` ("sm_90a"), or an error reported with `emitError`
  /// when the GPU lowering does not compile for it.
  static FailureOr<TargetChip>
  get(StringRef chip, function_ref<InFlightDiagnostic()> emitError);
  /// The target of the module holding `op` (or of `op`, a module): its
  /// `tilegpu.target`; a located error on `op` when the module has none or
  /// names a chip the lowering does not compile for.
  static FailureOr<TargetChip> lookup(Operation *op);

  StringRef getName() const { return name; }
  const tilebundle::ChipFacts &getFacts() const { return *facts; }
  /// sm_90 and newer: mbarrier waits, TMA, fences, f32 vector reductions.
  bool isHopperOrNewer() const { return tilebundle::isHopperOrNewer(sm); }
  /// wgmma and setmaxnreg (sm_90a).
  bool hasWgmma() const { return tilebundle::hasWgmma(sm); }
  /// Opt-in shared memory per block, bytes.
  int64_t getMaxSharedPerBlock() const { return facts->maxSharedPerBlock; }

private:
  TargetChip(std::string name, tilebundle::SmTarget sm,
             const tilebundle::ChipFacts *facts)
      : name(std::move(name)), sm(sm), facts(facts) {}

  std::string name;
  tilebundle::SmTarget sm;
  const tilebundle::ChipFacts *facts;
};

} // namespace tilegpu
} // namespace mlir

#endif // TILE_DIALECT_TILEGPU_IR_TARGET_H

//===- Passes.h - tilegpu passes --------------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_H

#include "tile/Dialect/Tile/IR/ViewAlign.h"
#include "tile/Dialect/TileGPU/IR/Target.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include <functional>

namespace mlir {
namespace tilegpu {

#define GEN_PASS_DECL
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"

/// The value of launch hint `name` (num_warps, occupancy) of a kernel for
/// `chip` (sm_90a matches hints for sm_90a, then sm_90), or its default.
int64_t getLaunchHint(Operation *kernel, StringRef name, StringRef chip,
                      int64_t defaultValue);

/// How a pass with an `off | on | auto` mode option treats a kernel: Off
/// (skip), Forced (`on`, or `auto` with the kernel's hint `hint` = 1 for
/// `chip`: fail loudly where the kernel does not qualify) or Auto (apply
/// where the kernel qualifies, else skip quietly; `auto` and no hint).
enum class SwitchChoice { Off, Forced, Auto };

/// The choice for one kernel of a pass with such a mode, and how the pass
/// declines it: `skip(why)` reports "cannot <action>: <why>" on the kernel
/// (`skipAt`: on an op) and calls `fail`, only when the kernel asked for
/// the pass; otherwise the pass leaves the kernel as it is, silently.
class SwitchGate {
public:
  /// Reads `mode` and the launch hint `hint`; emits an error on `func` and
  /// fails for a mode other than auto, on or off.
  static FailureOr<SwitchGate> resolve(Operation *func, StringRef mode,
                                       StringRef hint, StringRef chip,
                                       StringRef action,
                                       std::function<void()> fail);

  bool isOff() const { return choice == SwitchChoice::Off; }
  bool isForced() const { return choice == SwitchChoice::Forced; }
  void skip(const Twine &why) const;
  void skipAt(Operation *at, const Twine &why) const;

private:
  SwitchGate(Operation *func, SwitchChoice choice, StringRef action,
             std::function<void()> fail)
      : func(func), choice(choice), action(action.str()),
        fail(std::move(fail)) {}

  Operation *func;
  SwitchChoice choice;
  std::string action;
  std::function<void()> fail;
};

/// Why a value of a lowering option is out of range (the message its pass
/// reports), or "" when it is valid. The pipelines' options are checked with
/// these before any pass runs, so that a pipeline that stops before the
/// pass, or a chip that does not run it, does not take any value.
std::string getProducerRegsError(int64_t regs);  // tilegpu-warp-specialize
std::string getViewAlignError(int64_t align);    // tilegpu-set-view-align
std::string getMmaVersionError(int64_t version); // tilegpu-assign-layouts

} // namespace tilegpu
} // namespace mlir

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_H

//===- Passes.h - tilegpu passes --------------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_H

#include "tile/Dialect/Tile/IR/KernelBundle.h"
#include "tile/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

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

/// Succeeds for the chips the GPU lowering supports (mma.sync and cp.async
/// need sm_80 or newer; PTX features are set for sm_90a only among the
/// architecture-specific `a` targets); otherwise reports why with
/// `emitError`.
LogicalResult verifyTargetChip(StringRef chip,
                               function_ref<InFlightDiagnostic()> emitError);

} // namespace tilegpu
} // namespace mlir

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_H

//===- KernelBundle.h - a kernel's part of its bundle manifest --*- C++ -*-===//
//
// What the IR of a specialized kernel says about its launch contract, as the
// bundle library's Manifest (tile/Bundle/Manifest.h): name, parameters, grid
// rule, preconditions and the ABI, where each view carries its alignment
// (`tile.align`, contract C2) and what the kernel does with it (from its
// tile.load / tile.store ops). tile-compile fills in the rest (target,
// block, shared memory, ptxas) and writes the manifest.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_KERNELBUNDLE_H
#define TILE_DIALECT_TILE_IR_KERNELBUNDLE_H

#include "tile/Bundle/Manifest.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace tile {

/// The argument attribute holding a view's alignment in bytes (C2).
constexpr llvm::StringLiteral kAlignArgAttrName = "tile.align";
/// The alignment a view argument without `tile.align` is compiled for: the
/// lowering uses 16-byte accesses where a row allows (the pipeline option
/// view-align's default).
constexpr int64_t kDefaultViewAlign = 16;

/// Fills `manifest`'s kernel, entry, params, grid (padded to three axes with
/// "1"), requires and abi from `kernel`; a view without `tile.align` gets
/// `defaultAlign` (what the pipeline's view-align will give it). Fails with
/// an error on the kernel for an argument the bundle ABI cannot carry.
LogicalResult describeKernelForBundle(func::FuncOp kernel,
                                      ::tilebundle::Manifest &manifest,
                                      int64_t defaultAlign = kDefaultViewAlign);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_KERNELBUNDLE_H

//===- KernelBundle.h - a kernel's part of its bundle manifest --*- C++ -*-===//
//
// What the IR of a specialized kernel says about its launch contract, as the
// bundle library's Manifest (tile/Bundle/Manifest.h): name, parameters, grid
// rule, preconditions and the ABI, where each view carries its alignment
// (`tile.align`, contract C2) and what the kernel does with it (from its
// tile.load / tile.store ops). tile-compile fills in the rest (target,
// block, shared memory, ptxas) and writes the manifest.
//
// A translation out of the IR, in its own library (TileTargetBundle, as
// upstream's mlir/lib/Target/*): the IR library does not link the bundle
// library.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_BUNDLE_KERNELBUNDLE_H
#define TILE_TARGET_BUNDLE_KERNELBUNDLE_H

#include "tile/Bundle/Manifest.h"
#include "tile/Dialect/Tile/IR/ViewAlign.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace tile {

/// Fills `manifest`'s kernel, entry, params, grid (padded to three axes with
/// "1"), requires and abi from `kernel`; a view without `tile.align` gets
/// `defaultAlign` (what the pipeline's view-align will give it). Fails with
/// an error on the kernel for an argument the bundle ABI cannot carry.
LogicalResult describeKernelForBundle(func::FuncOp kernel,
                                      ::tilebundle::Manifest &manifest,
                                      int64_t defaultAlign = kDefaultViewAlign);

} // namespace tile
} // namespace mlir

#endif // TILE_TARGET_BUNDLE_KERNELBUNDLE_H

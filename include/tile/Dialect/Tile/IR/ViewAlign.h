//===- ViewAlign.h - the alignment a view argument is compiled for -*- C++ -*-//
//
// Contract C2: each view argument of a kernel carries its alignment in bytes
// as the argument attribute `tile.align` (checked by the dialect, set by
// tilegpu-set-view-align, read by the lowering and written into the bundle's
// abi by tile/Target/Bundle/KernelBundle.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_VIEWALIGN_H
#define TILE_DIALECT_TILE_IR_VIEWALIGN_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
namespace tile {

/// The argument attribute holding a view's alignment in bytes (C2).
constexpr llvm::StringLiteral kAlignArgAttrName = "tile.align";
/// The alignment a view argument without `tile.align` is compiled for: the
/// lowering uses 16-byte accesses where a row allows (the pipeline option
/// view-align's default).
constexpr int64_t kDefaultViewAlign = 16;

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_VIEWALIGN_H

//===- Alignment.h - what the compiler can prove about addresses -*- C++
//-*-===//
//
// Shared by the layout assignment, the staging of mma operands and the
// lowering: how far a global access may be vectorized, from the view's
// alignment (tile.align) and what is known of the element offsets.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_ALIGNMENT_H
#define TILE_DIALECT_TILEGPU_TRANSFORMS_ALIGNMENT_H

#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"

namespace mlir {
namespace tilegpu {

/// The largest power of two `v` is known to be a multiple of (from
/// constants, products, sums, shifts and scf.for induction variables;
/// 2^30 for zero), at least 1.
int64_t knownDivisor(Value v);

/// The alignment in bytes the kernel assumes for `view`: its argument's
/// `tile.align`, 16 when unset (the default of `view-align`), the element
/// size for a view that is not a kernel argument.
int64_t getViewAlign(Value view);

/// The alignment in bytes of an access to `view` whose origin is at element
/// `offsets` (one per view dimension): the view's alignment, lowered to what
/// the offset along the contiguous (last) dimension is known to keep.
/// Offsets of tile-space accesses are multiples of the tile and keep it;
/// element offsets (`at`) may not.
int64_t getAccessAlign(Value view, ValueRange offsets);

} // namespace tilegpu
} // namespace mlir

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_ALIGNMENT_H

//===- MmaTranspose.h - transposed operands of tilegpu.mma ----*- C++ -*-===//
//
// `tilegpu.mma` reads a shared operand transposed when it carries the unit
// attribute `transpose_a` (`transpose_b`): the buffer `a` (`b`) is then
// `K x M` (`N x K`), and the mma reads its transpose, the same bytes. A
// shared tile [R, C] whose layout has one dimension contiguous holds
// exactly the bytes of its transpose [C, R] with the other dimension
// contiguous (#tilegpu.shared addresses elements by (outer, inner)), so a
// tile and its `tile.permute [1, 0]` share one staged buffer
// (tilegpu-assign-layouts): wgmma reads it with the other major-ness in
// the descriptor, mma.sync through ldmatrix with or without `.trans`. A
// register `a` cannot be transposed (the op's verifier refuses it).
//
// The flags are attributes of the op that every pass after layout
// assignment keeps (they rewrite the mma's operands in place), so the
// passes that follow buffers (pipelining, TMA, warp specialization) see
// the buffer used directly by the mma, as for any other operand.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_MMATRANSPOSE_H
#define TILE_DIALECT_TILEGPU_IR_MMATRANSPOSE_H

#include "tile/Dialect/TileGPU/IR/TileGPU.h"

namespace mlir {
namespace tilegpu {

inline constexpr llvm::StringLiteral kMmaTransposeA = "transpose_a";
inline constexpr llvm::StringLiteral kMmaTransposeB = "transpose_b";

/// Whether `mma` reads its shared `a` (`b`) transposed.
inline bool isTransposedA(MmaOp mma) { return mma->hasAttr(kMmaTransposeA); }
inline bool isTransposedB(MmaOp mma) { return mma->hasAttr(kMmaTransposeB); }

/// Marks `mma` as reading its shared `a` (`b`) transposed.
inline void setTransposed(MmaOp mma, bool a, bool b) {
  if (a)
    mma->setAttr(kMmaTransposeA, UnitAttr::get(mma.getContext()));
  if (b)
    mma->setAttr(kMmaTransposeB, UnitAttr::get(mma.getContext()));
}

} // namespace tilegpu
} // namespace mlir

#endif // TILE_DIALECT_TILEGPU_IR_MMATRANSPOSE_H
